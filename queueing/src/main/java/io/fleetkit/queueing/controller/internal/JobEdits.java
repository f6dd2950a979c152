package io.fleetkit.queueing.controller.internal;

import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobCondition;
import io.fleetkit.api.batch.JobSpec;
import io.fleetkit.api.batch.JobStatus;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.api.text.GoIntegers;
import io.fleetkit.queueing.controller.QueueLabels;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/** Pure edits of a Job: start it with an admission, stop it, and set its {@code QuotaReserved} condition. */
final class JobEdits {
  private JobEdits() {}

  /**
   * Where an admission's pods must go: the assigned flavors' node labels and tolerations of their taints, with the
   * admission checks' pod set updates (node selector and tolerations added to those, labels and annotations for the
   * pod template), and for a topology assignment the template's scheduling gate (with the workload annotation and
   * pod set label the topology ungater finds the pods by).
   */
  record Placement(Map<String, String> nodeLabels, List<Toleration> tolerations, Map<String, String> templateLabels,
      Map<String, String> templateAnnotations, List<String> schedulingGates) {
    Placement {
      schedulingGates = List.copyOf(schedulingGates);
    }

    Placement(Map<String, String> nodeLabels, List<Toleration> tolerations, Map<String, String> templateLabels,
        Map<String, String> templateAnnotations) {
      this(nodeLabels, tolerations, templateLabels, templateAnnotations, List.of());
    }

    Placement(Map<String, String> nodeLabels, List<Toleration> tolerations) {
      this(nodeLabels, tolerations, Map.of(), Map.of());
    }

    /**
     * This placement with the pod template gated by {@code gate} and given {@code labels} and {@code annotations}
     * (where the template does not set them already).
     */
    Placement withGate(String gate, Map<String, String> labels, Map<String, String> annotations) {
      Map<String, String> l = new java.util.TreeMap<>(templateLabels);
      labels.forEach(l::putIfAbsent);
      Map<String, String> a = new java.util.TreeMap<>(templateAnnotations);
      annotations.forEach(a::putIfAbsent);
      List<String> gates = new ArrayList<>(schedulingGates);
      if (!gates.contains(gate)) {
        gates.add(gate);
      }
      return new Placement(nodeLabels, tolerations, l, a, gates);
    }
  }

  /**
   * The Job without the controller's edits of its template (flavor and admission-check additions); its annotations
   * that record an admission, and with them a partial admission's parallelism, are kept.
   */
  static Job withoutEdits(Job job) {
    Job clean = stripped(job);
    return clean == job ? job : job.withSpec(job.spec().withTemplate(clean.spec().template()));
  }

  /** The Job's pod template as it is without the controller's edits. */
  static PodTemplateSpec stoppedTemplate(Job job) {
    return stripped(job).spec().template();
  }

  /**
   * Whether the Job runs with exactly this admission: annotated with it, not suspended, flavor labels selected and
   * flavor tolerations in its template.
   */
  static boolean isStarted(Job job, AdmissionRecord admission, int admittedCount, Placement placement) {
    if (job.spec().suspend() || !admission.format().equals(annotation(job))
        || !runsWith(job, admittedCount)) {
      return false;
    }
    PodSpec pod = job.spec().template().spec();
    for (Map.Entry<String, String> e : placement.nodeLabels().entrySet()) {
      if (!pod.nodeSelector().containsKey(e.getKey())) {
        return false;
      }
    }
    ObjectMeta tm = job.spec().template().metadata();
    return pod.tolerations().containsAll(placement.tolerations())
        && pod.schedulingGates().containsAll(placement.schedulingGates())
        && tm.labels().entrySet().containsAll(placement.templateLabels().entrySet())
        && tm.annotations().entrySet().containsAll(placement.templateAnnotations().entrySet());
  }

  /**
   * Whether the Job runs as an admission of {@code admittedCount} pods has it run: a Job that may be admitted
   * partially with that count as its parallelism (Kueue's {@code RunWithPodSetsInfo} changes only such Jobs'
   * parallelism); any other Job with its own, whatever the count (below its pod set's when some of its pods are
   * reclaimable, as Kueue admits such a workload).
   */
  static boolean runsWith(Job job, int admittedCount) {
    return !JobWorkloads.partial(job) || job.spec().parallelism() == admittedCount;
  }

  /** The Job's admission annotation, or {@code null}. */
  static @Nullable String annotation(Job job) {
    return job.metadata().annotations().get(QueueLabels.ADMISSION);
  }

  /**
   * The Job started with {@code admission} of {@code admittedCount} pods: annotated, a Job admitted partially with its
   * parallelism lowered to the count ({@value QueueLabels#ORIGINAL_PARALLELISM} keeps its own), the flavor labels the template's nodeSelector lacks added
   * (a key the user already set is kept as it is), the flavor tolerations it lacks appended, {@code suspend=false}.
   */
  static Job started(Job job, AdmissionRecord admission, int admittedCount, Instant admittedAt, Placement placement,
      @Nullable String topology) {
    Job clean = stripped(job);
    if (JobWorkloads.partial(clean) && clean.spec().parallelism() != admittedCount) {
      // Kueue's RunWithPodSetsInfo: a Job admitted partially runs with the admitted count as its parallelism (and
      // completions, when they follow it); its own parallelism is kept to be restored
      JobSpec s = clean.spec();
      Integer completions = JobWorkloads.completionsEqualParallelism(clean) ? Integer.valueOf(admittedCount)
          : s.completions();
      clean = clean.withMetadata(clean.metadata().toBuilder()
              .annotation(QueueLabels.ORIGINAL_PARALLELISM, Integer.toString(s.parallelism())).build())
          .withSpec(s.withParallelism(admittedCount).withCompletions(completions));
    }
    PodSpec pod = clean.spec().template().spec();
    Map<String, String> selector = new LinkedHashMap<>(pod.nodeSelector());
    TreeSet<String> injected = new TreeSet<>();
    for (Map.Entry<String, String> e : placement.nodeLabels().entrySet()) {
      if (selector.putIfAbsent(e.getKey(), e.getValue()) == null) {
        injected.add(e.getKey());
      }
    }
    List<Toleration> tolerations = new ArrayList<>(pod.tolerations());
    int added = 0;
    for (Toleration t : placement.tolerations()) {
      if (!tolerations.contains(t)) {
        tolerations.add(t);
        added++;
      }
    }
    ObjectMeta.Builder meta = clean.metadata().toBuilder()
        .annotation(QueueLabels.ADMISSION, admission.format())
        .annotation(QueueLabels.ADMITTED_AT, admittedAt.toString());
    if (!injected.isEmpty()) {
      meta.annotation(QueueLabels.INJECTED_NODE_SELECTOR, String.join(",", injected));
    }
    if (topology != null) {
      meta.annotation(QueueLabels.TOPOLOGY_ASSIGNMENT, topology);
    }
    if (added > 0) {
      meta.annotation(QueueLabels.INJECTED_TOLERATIONS, Integer.toString(added));
    }
    // the admission checks' additions to the template's metadata (conflicts were refused before)
    ObjectMeta tm = clean.spec().template().metadata();
    Map<String, String> tLabels = new LinkedHashMap<>(tm.labels());
    TreeSet<String> injectedLabels = new TreeSet<>();
    for (Map.Entry<String, String> e : placement.templateLabels().entrySet()) {
      if (tLabels.putIfAbsent(e.getKey(), e.getValue()) == null) {
        injectedLabels.add(e.getKey());
      }
    }
    Map<String, String> tAnnotations = new LinkedHashMap<>(tm.annotations());
    TreeSet<String> injectedAnnotations = new TreeSet<>();
    for (Map.Entry<String, String> e : placement.templateAnnotations().entrySet()) {
      if (tAnnotations.putIfAbsent(e.getKey(), e.getValue()) == null) {
        injectedAnnotations.add(e.getKey());
      }
    }
    if (!injectedLabels.isEmpty()) {
      meta.annotation(QueueLabels.INJECTED_TEMPLATE_LABELS, String.join(",", injectedLabels));
    }
    if (!injectedAnnotations.isEmpty()) {
      meta.annotation(QueueLabels.INJECTED_TEMPLATE_ANNOTATIONS, String.join(",", injectedAnnotations));
    }
    // the topology gate: the pods wait for the topology ungater to give them their domains
    List<String> gates = new ArrayList<>(pod.schedulingGates());
    TreeSet<String> injectedGates = new TreeSet<>();
    for (String g : placement.schedulingGates()) {
      if (!gates.contains(g)) {
        gates.add(g);
        injectedGates.add(g);
      }
    }
    if (!injectedGates.isEmpty()) {
      meta.annotation(QueueLabels.INJECTED_SCHEDULING_GATES, String.join(",", injectedGates));
    }
    Job j = withTemplate(clean.withMetadata(meta.build()), selector, tolerations, false);
    if (!injectedGates.isEmpty()) {
      j = withGates(j, gates);
    }
    return injectedLabels.isEmpty() && injectedAnnotations.isEmpty() ? j : withTemplateMeta(j, tLabels, tAnnotations);
  }

  private static Job withGates(Job job, List<String> gates) {
    JobSpec s = job.spec();
    PodTemplateSpec t = s.template();
    return job.withSpec(s.withTemplate(new PodTemplateSpec(t.metadata(),
        t.spec().toBuilder().schedulingGates(gates).build())));
  }

  private static Job withTemplateMeta(Job job, Map<String, String> labels, Map<String, String> annotations) {
    JobSpec s = job.spec();
    PodTemplateSpec template = new PodTemplateSpec(
        s.template().metadata().toBuilder().labels(labels).annotations(annotations).build(), s.template().spec());
    return job.withSpec(s.withTemplate(template));
  }

  /**
   * The Job suspended, without the controller's annotations and injected nodeSelector keys, with its own
   * parallelism.
   */
  static Job stopped(Job job) {
    Job clean = stripped(job);
    return clean.spec().suspend() ? clean : clean.withSpec(clean.spec().withSuspend(true));
  }

  /**
   * The Job without the controller's annotations, injected nodeSelector keys and injected tolerations, with its own
   * parallelism (suspend unchanged).
   */
  private static Job stripped(Job job) {
    Map<String, String> ann = job.metadata().annotations();
    if (!ann.containsKey(QueueLabels.ADMISSION) && !ann.containsKey(QueueLabels.ADMITTED_AT)
        && !ann.containsKey(QueueLabels.INJECTED_NODE_SELECTOR) && !ann.containsKey(QueueLabels.INJECTED_TOLERATIONS)
        && !ann.containsKey(QueueLabels.ORIGINAL_PARALLELISM) && !ann.containsKey(QueueLabels.INJECTED_TEMPLATE_LABELS)
        && !ann.containsKey(QueueLabels.INJECTED_TEMPLATE_ANNOTATIONS)
        && !ann.containsKey(QueueLabels.INJECTED_SCHEDULING_GATES)
        && !ann.containsKey(QueueLabels.TOPOLOGY_ASSIGNMENT)) {
      return job;
    }
    PodSpec pod = job.spec().template().spec();
    Map<String, String> selector = new LinkedHashMap<>(pod.nodeSelector());
    String injected = ann.get(QueueLabels.INJECTED_NODE_SELECTOR);
    if (injected != null && !injected.isEmpty()) {
      Arrays.asList(injected.split(",")).forEach(selector::remove);
    }
    List<Toleration> tolerations = pod.tolerations();
    int added = injectedTolerations(ann.get(QueueLabels.INJECTED_TOLERATIONS), tolerations.size());
    if (added > 0) {
      tolerations = tolerations.subList(0, tolerations.size() - added); // they were appended at the end
    }
    Map<String, String> kept = new LinkedHashMap<>(ann);
    kept.remove(QueueLabels.ADMISSION);
    kept.remove(QueueLabels.ADMITTED_AT);
    kept.remove(QueueLabels.INJECTED_NODE_SELECTOR);
    kept.remove(QueueLabels.INJECTED_TOLERATIONS);
    kept.remove(QueueLabels.ORIGINAL_PARALLELISM);
    kept.remove(QueueLabels.INJECTED_TEMPLATE_LABELS);
    kept.remove(QueueLabels.INJECTED_TEMPLATE_ANNOTATIONS);
    kept.remove(QueueLabels.INJECTED_SCHEDULING_GATES);
    kept.remove(QueueLabels.TOPOLOGY_ASSIGNMENT);
    Job j = job.withMetadata(job.metadata().toBuilder().annotations(kept).build());
    String injectedGates = ann.get(QueueLabels.INJECTED_SCHEDULING_GATES);
    if (injectedGates != null && !injectedGates.isEmpty()) {
      List<String> gates = new ArrayList<>(j.spec().template().spec().schedulingGates());
      if (gates.removeAll(Arrays.asList(injectedGates.split(",")))) {
        j = withGates(j, gates);
      }
    }
    String injectedLabels = ann.get(QueueLabels.INJECTED_TEMPLATE_LABELS);
    String injectedAnnotations = ann.get(QueueLabels.INJECTED_TEMPLATE_ANNOTATIONS);
    if (injectedLabels != null || injectedAnnotations != null) {
      ObjectMeta tm = j.spec().template().metadata();
      Map<String, String> tLabels = new LinkedHashMap<>(tm.labels());
      Map<String, String> tAnnotations = new LinkedHashMap<>(tm.annotations());
      if (injectedLabels != null && !injectedLabels.isEmpty()) {
        Arrays.asList(injectedLabels.split(",")).forEach(tLabels::remove);
      }
      if (injectedAnnotations != null && !injectedAnnotations.isEmpty()) {
        Arrays.asList(injectedAnnotations.split(",")).forEach(tAnnotations::remove);
      }
      j = withTemplateMeta(j, tLabels, tAnnotations);
    }
    if (ann.containsKey(QueueLabels.ORIGINAL_PARALLELISM)) {
      // Kueue's RestorePodSetsInfo: the Job's own parallelism (and completions, when they follow it) come back
      int own = JobWorkloads.parallelism(job);
      JobSpec s = j.spec();
      Integer completions = JobWorkloads.completionsEqualParallelism(j) ? Integer.valueOf(own) : s.completions();
      j = j.withSpec(s.withParallelism(own).withCompletions(completions));
    }
    return withTemplate(j, selector, tolerations, j.spec().suspend());
  }

  /** The count the annotation records, at most {@code present}; 0 if absent or not a count. */
  private static int injectedTolerations(@Nullable String value, int present) {
    if (value == null) {
      return 0;
    }
    try {
      return Math.max(0, Math.min(present, GoIntegers.parseInt32(value.trim())));
    } catch (NumberFormatException e) {
      return 0; // edited by hand into something else: nothing is taken out
    }
  }

  private static Job withTemplate(Job job, Map<String, String> selector, List<Toleration> tolerations,
      boolean suspend) {
    JobSpec s = job.spec();
    PodSpec pod = s.template().spec();
    PodTemplateSpec template = pod.nodeSelector().equals(selector) && pod.tolerations().equals(tolerations)
        ? s.template()
        : new PodTemplateSpec(s.template().metadata(),
            pod.toBuilder().nodeSelector(selector).tolerations(tolerations).build());
    return job.withSpec(s.withTemplate(template).withSuspend(suspend));
  }

  /**
   * The status with condition {@value QueueLabels#QUOTA_RESERVED} set, or {@code null} if it already has that
   * status, reason and message.
   */
  static @Nullable JobStatus withQuotaReserved(
      JobStatus status, boolean reserved, String reason, String message, Instant now) {
    ConditionStatus cs = reserved ? ConditionStatus.True : ConditionStatus.False;
    JobCondition old = status.condition(QueueLabels.QUOTA_RESERVED);
    if (old != null && old.status() == cs && old.reason().equals(reason) && old.message().equals(message)) {
      return null;
    }
    Instant transition = old != null && old.status() == cs ? old.lastTransitionTime() : now;
    List<JobCondition> conditions = new ArrayList<>();
    boolean replaced = false;
    JobCondition c = new JobCondition(QueueLabels.QUOTA_RESERVED, cs, reason, message, now, transition);
    for (JobCondition x : status.conditions()) {
      if (x.type().equals(QueueLabels.QUOTA_RESERVED)) {
        conditions.add(c);
        replaced = true;
      } else {
        conditions.add(x);
      }
    }
    if (!replaced) {
      conditions.add(c);
    }
    return status.withConditions(conditions);
  }
}
