package io.fleetkit.queueing.controller.internal;

import io.fleetkit.api.FleetKitException;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobStatus;
import io.fleetkit.reconcile.ObjectKey;
import io.fleetkit.reconcile.ReconcileContext;
import io.fleetkit.reconcile.Reconciler;
import io.fleetkit.reconcile.Result;
import io.fleetkit.queueing.controller.QueueLabels;
import io.fleetkit.queueing.QuotaReservation;
import io.fleetkit.queueing.AdmissionCheckState;
import io.fleetkit.queueing.PodSetInfo;
import io.fleetkit.queueing.AdmissionEngine;
import io.fleetkit.queueing.ResourceFlavor;
import io.fleetkit.queueing.Workload;
import io.fleetkit.queueing.WorkloadPriority;
import io.fleetkit.queueing.PriorityClassSource;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Connects Jobs labelled {@value QueueLabels#QUEUE_NAME} to an {@link AdmissionEngine}, as Kueue's job reconciler:
 * a managed Job without admission is kept suspended, its workload is queued, and once the engine admits it the Job
 * is annotated, pinned to its flavors' nodes and resumed (a Job admitted with fewer pods, per
 * {@value QueueLabels#JOB_MIN_PARALLELISM}, with its parallelism lowered to the admitted count); a preempted Job is suspended and unpinned; a finished,
 * deleted or unlabelled Job releases its quota. The first reconcile restores the admissions recorded on the Jobs.
 * Kueue's job reconciler's events about the Job ({@link JobEvents}) go to the controller's recorder, once per
 * transition.
 */
public final class QueueAdmissionReconciler implements Reconciler<Job> {
  private static final Logger LOG = LoggerFactory.getLogger(QueueAdmissionReconciler.class);
  /** How soon a Job stopped to change flavors is started again. */
  private static final Duration RESTART_DELAY = Duration.ofSeconds(1);
  /** How often the admission checks of a Job with reserved quota are asked again while not all are ready. */
  static final Duration CHECK_POLL = Duration.ofSeconds(1);

  private final AdmissionEngine engine;
  private final AdmissionBook book;
  private final Consumer<ObjectKey> enqueue;
  private final TopologyUngater.@Nullable WorkloadPods workloadPods;
  /** Kueue's job reconciler's events, recorded to the controller's recorder ({@link ReconcileContext#events()}). */
  private final JobEvents events = new JobEvents();

  /**
   * @param engine the admission engine this reconciler owns (its LocalQueues and flavors are read from it)
   * @param maxCyclesPerReconcile cap on the admission cycles one reconcile runs
   * @param enqueue requeues another Job whose admission state changed
   */
  public QueueAdmissionReconciler(AdmissionEngine engine, int maxCyclesPerReconcile, Consumer<ObjectKey> enqueue) {
    this(engine, maxCyclesPerReconcile, enqueue, null);
  }

  /**
   * As {@link #QueueAdmissionReconciler(AdmissionEngine, int, Consumer)}, with the topology ungater reading a
   * workload's pods from {@code workloadPods} (an index kept from a pod watch, as Kueue's field index on the workload
   * annotation) instead of listing the namespace's pods in the store; {@code null} lists the store.
   */
  public QueueAdmissionReconciler(AdmissionEngine engine, int maxCyclesPerReconcile, Consumer<ObjectKey> enqueue,
      TopologyUngater.@Nullable WorkloadPods workloadPods) {
    this(engine, maxCyclesPerReconcile, enqueue, workloadPods, false);
  }

  /**
   * As {@link #QueueAdmissionReconciler(AdmissionEngine, int, Consumer, TopologyUngater.WorkloadPods)}; with {@code
   * cyclesPerRound} the admission cycles wait for {@link #endRound()} instead of running in each reconcile, so that
   * the Jobs reconciled in one round are heads of the same cycles (Kueue's scheduler, which runs apart from its job
   * reconciler).
   */
  public QueueAdmissionReconciler(AdmissionEngine engine, int maxCyclesPerReconcile, Consumer<ObjectKey> enqueue,
      TopologyUngater.@Nullable WorkloadPods workloadPods, boolean cyclesPerRound) {
    this.engine = Objects.requireNonNull(engine, "engine");
    this.book = new AdmissionBook(engine, maxCyclesPerReconcile, cyclesPerRound);
    this.enqueue = Objects.requireNonNull(enqueue, "enqueue");
    this.workloadPods = workloadPods;
  }

  /**
   * Ends a round of reconciles (with {@code cyclesPerRound}): runs the admission cycles the round made due and
   * requeues the Jobs that waited for them and those whose state they changed.
   *
   * @return whether a Job was requeued
   */
  public boolean endRound() {
    Set<String> keys = book.flush();
    for (String k : keys) {
      enqueue.accept(ObjectKey.parse(k));
    }
    return !keys.isEmpty();
  }

  /**
   * A node was added or changed ({@code node}) or deleted ({@code null}); see {@link AdmissionBook#node}.
   *
   * @return the keys of the Jobs whose workloads hold pods on it
   */
  public List<String> node(String name, io.fleetkit.api.core.@Nullable Node node) {
    return book.node(name, node);
  }

  /** Applies {@code change} to the engine's queues; see {@link AdmissionBook#queues}. */
  public void queues(java.util.function.Consumer<AdmissionEngine> change) {
    book.queues(change);
  }

  @Override
  public Result reconcile(ReconcileContext<Job> ctx) {
    if (!book.restored()) {
      restore(ctx);
    }
    String key = ctx.key().namespace() + "/" + ctx.key().name();
    Set<String> changed = new LinkedHashSet<>();
    try {
      Job job = ctx.object().orElse(null);
      if (job == null || job.metadata().deletionTimestamp() != null || !JobWorkloads.managed(job)
          || job.status().isFinished()) {
        boolean known = book.forget(key, changed);
        events.forget(ctx.events(), key);
        if (known && job != null && job.metadata().deletionTimestamp() == null && JobWorkloads.managed(job)) {
          events.finished(ctx.events(), job); // Kueue finishes the workload of a finished Job
        }
        return Result.done();
      }
      return reconcileManaged(ctx, job, key, changed);
    } finally {
      changed.remove(key);
      for (String k : changed) {
        enqueue.accept(ObjectKey.parse(k));
      }
    }
  }

  private Result reconcileManaged(ReconcileContext<Job> ctx, Job job, String key, Set<String> changed) {
    String ns = job.metadata().namespace();
    String lq = JobWorkloads.queueName(job);
    if (engine.localQueue(ns, lq).isEmpty() && engine.admission(key).isEmpty()) {
      // (a Job admitted before its LocalQueue was removed keeps its quota, as Kueue's workload)
      book.forget(key, changed);
      return hold(ctx, job, key, QueueLabels.REASON_INADMISSIBLE,
          "LocalQueue " + lq + " doesn't exist in namespace " + ns, changed);
    }
    AdmissionBook.View view;
    try {
      // the workload of the Job's own template, without what an admission added to it (Kueue keeps one Workload
      // object across a Job's runs, so a preempted Job's workload, with its admission check states, stays the same)
      Job own = JobEdits.withoutEdits(job);
      Workload current = book.current(key);
      Workload shape = JobWorkloads.of(own, current != null ? current.priorityInfo()
          : WorkloadPriority.DEFAULT);
      WorkloadPriority priority;
      boolean[] classMissing = {false};
      if (current != null && (engine.admission(key).isPresent() || shape.equals(current))) {
        // Kueue's UpdateWorkloadPriority: the workload follows the priority-class label where Kueue lets it
        priority = JobWorkloads.followPriority(own, current, engine.admission(key).isPresent(), ctx.store(),
            engine::workloadPriorityClass, p -> {
              if (QueueLabels.REASON_WORKLOAD_PRIORITY_CLASS_NOT_FOUND.equals(p.reason())) {
                classMissing[0] = true;
                events.priorityClassNotFound(ctx.events(), job, JobWorkloads.priorityClassLabel(own),
                    p.message());
              }
            });
      } else {
        // a new workload, or one made again for a changed Job (Kueue's ExtractPriority)
        JobWorkloads.Priority p = JobWorkloads.priority(own, ctx.store(), engine::workloadPriorityClass);
        if (p.priority() == null) {
          hold(ctx, job, key, p.reason(), p.message(), changed);
          if (QueueLabels.REASON_WORKLOAD_PRIORITY_CLASS_NOT_FOUND.equals(p.reason())) {
            // after the Job's Stopped, as Kueue stops a running Job before it makes (and prioritises) a workload
            events.priorityClassNotFound(ctx.events(), job, JobWorkloads.priorityClassLabel(own), p.message());
          }
          // PriorityClasses are not watched: look again after a backoff (Kueue's reconcile error); a
          // WorkloadPriorityClass comes through updateQueues, which reconciles every Job
          return QueueLabels.REASON_WORKLOAD_PRIORITY_CLASS_NOT_FOUND.equals(p.reason()) ? Result.done()
              : Result.requeue();
        }
        priority = p.priority();
      }
      Workload wl = shape.withPriority(priority);
      // Kueue's reconciler keeps the workload's reclaimable pods those of the Job's status
      book.reclaimable(key, JobReclaimablePods.of(job, wl.podSets().get(0).count()), changed);
      java.util.Set<AdmissionBook.WorkloadWrite> writes = java.util.EnumSet.noneOf(AdmissionBook.WorkloadWrite.class);
      view = book.sync(wl, changed, writes);
      if (!classMissing[0]) {
        events.priorityResolved(key);
      }
      workloadWritten(ctx, job, writes);
      if (view == null) {
        return Result.done(); // it waits for the round's cycles, which hand it back
      }
    } catch (FleetKitException | IllegalArgumentException e) {
      book.forget(key, changed);
      return hold(ctx, job, key, QueueLabels.REASON_INADMISSIBLE, String.valueOf(e.getMessage()), changed);
    }
    QuotaReservation admission = view.admission();
    if (admission == null) {
      events.noReservation(key);
      if (QueueLabels.REASON_FAILED_TO_START.equals(view.stopReason())) {
        events.failedToStart(ctx.events(), job); // Kueue's next reconcile finds the workload finished
      }
      String reason = view.stopReason() != null ? view.stopReason() : view.waitReason();
      Result held = hold(ctx, job, key, reason, view.message(), changed);
      // waitForPodsReady: a workload evicted by the PodsReady timeout is queued again once its backoff has passed
      // (once it has, the next reconcile's cycles queue it: the requeue state's requeueAt is cleared)
      Instant requeueAt = QueueLabels.REASON_PODS_READY_TIMEOUT.equals(reason)
          ? engine.requeueState(key).map(io.fleetkit.queueing.RequeueState::requeueAt).orElse(null) : null;
      if (requeueAt != null && requeueAt.isAfter(ctx.now())) {
        return Result.requeueAfter(Duration.between(ctx.now(), requeueAt));
      }
      return held;
    }
    if (!view.admitted()) {
      // Kueue: quota reserved, admission checks not all ready: the Job stays (or is put back) suspended, and the
      // checks are asked again after a while
      hold(ctx, job, key, true, QueueLabels.REASON_WAITING_FOR_CHECKS, waitingMessage(admission, view.checks()),
          changed);
      events.admissionChecks(ctx.events(), job, view.checks());
      return Result.requeueAfter(CHECK_POLL);
    }
    JobEdits.Placement placement;
    try {
      placement = withTopologyGate(placement(AdmissionRecord.of(admission), job, key, view.checks()), job,
          admission);
    } catch (IllegalArgumentException e) {
      // Kueue's startJob with a permanent PodSetUpdate error: the workload is finished as FailedToStart
      LOG.debug("queue admission: job {} cannot start: {}", key, e.getMessage());
      book.failedToStart(key, String.valueOf(e.getMessage()), changed);
      return hold(ctx, job, key, QueueLabels.REASON_FAILED_TO_START, String.valueOf(e.getMessage()), changed);
    }
    return start(ctx, job, key, admission, placement, view.mayStart(), changed);
  }

  /** The events of what {@link AdmissionBook#sync} wrote to the Job's workload. */
  private void workloadWritten(ReconcileContext<Job> ctx, Job job, Set<AdmissionBook.WorkloadWrite> writes) {
    for (AdmissionBook.WorkloadWrite w : writes) {
      switch (w) {
        case CREATED -> events.created(ctx.events(), job);
        case UPDATED -> events.updated(ctx.events(), job);
        case PRIORITY -> events.priorityUpdated(ctx.events(), job);
      }
    }
  }

  /**
   * The note of the {@code Stopped} event of a running Job being suspended, as Kueue's {@code stopJob} callers give
   * it: the message of the workload's eviction since the Job started ({@code deactivated}, the deactivation's message,
   * when no eviction was seen); else, for a Job that has no workload or whose workload was made while it ran, {@value
   * JobEvents#MISSING_WORKLOAD}; else {@value JobEvents#NOT_ADMITTED}. Nothing is looked up without a recorder.
   */
  private String stopNote(ReconcileContext<Job> ctx, String key, @Nullable String deactivated) {
    if (ctx.events() == io.fleetkit.api.events.EventRecorder.NOOP) {
      return "";
    }
    String evicted = book.takeEviction(key);
    if (evicted != null) {
      return evicted;
    }
    if (deactivated != null) {
      return deactivated;
    }
    return events.createdWhileRunning(key) || book.current(key) == null ? JobEvents.MISSING_WORKLOAD
        : JobEvents.NOT_ADMITTED;
  }

  /** {@code Quota reserved in ClusterQueue cq, waiting for admission checks: "a" (Pending), "b" (Ready)}. */
  private static String waitingMessage(QuotaReservation admission, List<AdmissionCheckState> checks) {
    List<String> parts = new ArrayList<>();
    for (AdmissionCheckState c : checks) {
      parts.add("\"" + c.name() + "\" (" + c.state().apiName() + (c.message().isEmpty() ? "" : ": " + c.message())
          + ")");
    }
    return "Quota reserved in ClusterQueue " + admission.clusterQueue() + ", waiting for admission checks: "
        + String.join(", ", parts);
  }

  /**
   * Keeps the Job suspended and unpinned, with {@code QuotaReserved=False}. A Job status change (its active count
   * falling to 0) reconciles it again, which releases the start gate.
   */
  private Result hold(ReconcileContext<Job> ctx, Job job, String key, String reason, String message,
      Set<String> changed) {
    return hold(ctx, job, key, false, reason, message, changed);
  }

  private Result hold(ReconcileContext<Job> ctx, Job job, String key, boolean reserved, String reason, String message,
      Set<String> changed) {
    if (!JobEdits.stopped(job).equals(job)) {
      LOG.debug("queue admission: suspending job {} ({})", key, reason);
      boolean running = !job.spec().suspend();
      job = stop(ctx, job);
      if (running) {
        events.stopped(ctx.events(), job, stopNote(ctx, key,
            QueueLabels.REASON_DEACTIVATED.equals(reason) ? message : null));
      }
    }
    if (job.status().active() == 0) {
      // stopped only once the Job controller counts no active pods (Kueue's IsActive): until then its pods may
      // still hold the nodes, and no admitted Job is started
      book.stopped(key, changed);
    }
    setCondition(ctx, job, reserved, reason, message);
    return Result.done();
  }

  private Result start(ReconcileContext<Job> ctx, Job job, String key, QuotaReservation admission,
      JobEdits.Placement labels, boolean mayStart, Set<String> changed) {
    AdmissionRecord rec = AdmissionRecord.of(admission);
    int count = admission.podSets().get(0).count();
    String current = JobEdits.annotation(job);
    if (current != null && (!current.equals(rec.format()) || !JobEdits.runsWith(job, count))
        && !job.spec().suspend()) {
      // running with another admission (other flavors or pod count): stop it first, so its pods leave the old flavor's nodes; meanwhile it
      // counts as possibly running for the start gate
      book.stopping(key);
      events.stopped(ctx.events(), stop(ctx, job), stopNote(ctx, key, null));
      return Result.requeueAfter(RESTART_DELAY);
    }
    String message = "Quota reserved in ClusterQueue " + rec.clusterQueue();
    if (!JobEdits.isStarted(job, rec, count, labels)) {
      if (job.spec().suspend() && job.status().active() > 0) {
        // its old pods are still being deleted; the Job controller's status update reconciles it again
        return Result.done();
      }
      // suspended here means stopped: a suspended Job with active pods returned above
      if (!mayStart && !book.waitToStart(key, job.spec().suspend(), changed)) {
        setCondition(ctx, job, true, QueueLabels.REASON_ADMITTED, message + ", waiting for preempted Jobs to stop");
        return Result.done();
      }
      if (!job.spec().suspend()) {
        // running without this admission's placement in its template: as Kueue, stop it first (only a suspended Job
        // that has not started may have its template's scheduling directives changed), then start it
        book.stopping(key);
        events.stopped(ctx.events(), stop(ctx, job), stopNote(ctx, key, null));
        return Result.requeueAfter(RESTART_DELAY);
      }
      LOG.debug("queue admission: starting job {} with {}", key, rec.format());
      job = ctx.store().update(JobEdits.started(job, rec, count, admission.admittedAt(), labels,
          topologyRecord(admission)));
      events.started(ctx.events(), job, rec.clusterQueue());
    }
    job = recordTopology(ctx, job, admission);
    if (!book.started(key, admission, changed)) {
      return Result.requeue();
    }
    setCondition(ctx, job, true, QueueLabels.REASON_ADMITTED, message);
    if (ungate(ctx, job, key, admission) != null) {
      return Result.requeue(); // Kueue's ungater returns the error: retried after a backoff
    }
    // waitForPodsReady: Kueue's Job PodsReady, ready + succeeded pods >= the admitted count; while not ready the Job is
    // reconciled again when its timeout would pass (a timeout that passed evicts it, and the Job is suspended next)
    JobStatus s = job.status();
    boolean ready = (s.ready() == null ? 0 : s.ready()) + s.succeeded() >= count;
    java.util.Optional<Duration> left = book.podsReady(key, ready, changed);
    if (book.awaitingCycles(key)) {
      return Result.done(); // the round's cycles look at its timeout (or admit a head it held back) and hand it back
    }
    if (left.isPresent() && left.get().isZero() && engine.admission(key).isEmpty()) {
      // the timeout passed and the cycles evicted it: suspend it now, from its latest state
      Job latest = ctx.store().get(Job.class, job.metadata().namespace(), job.metadata().name()).orElse(job);
      return reconcileManaged(ctx, latest, key, changed);
    }
    return left.map(d -> d.isZero() ? Result.requeue() : Result.requeueAfter(d)).orElse(Result.done());
  }

  /**
   * Kueue's {@code podset.FromAssignment} and {@code getPodSetsInfoFromStatus} for a pod set admitted with a topology
   * assignment: its pods are created gated by {@value QueueLabels#TOPOLOGY_SCHEDULING_GATE}, annotated with the
   * workload ({@value QueueLabels#WORKLOAD}) and labelled with the pod set ({@value QueueLabels#POD_SET}), and a pod
   * set without an explicit topology request is annotated unconstrained (so that its pods count as topology-aware).
   * A key the Job's own template already sets is left as it is.
   */
  private static JobEdits.Placement withTopologyGate(JobEdits.Placement placement, Job job,
      QuotaReservation admission) {
    if (admission.podSets().isEmpty() || admission.podSets().get(0).topologyAssignment() == null) {
      return placement;
    }
    io.fleetkit.api.meta.ObjectMeta own = JobEdits.stoppedTemplate(job).metadata();
    Map<String, String> labels = new TreeMap<>();
    labels.put(QueueLabels.POD_SET, JobWorkloads.POD_SET);
    Map<String, String> annotations = new TreeMap<>();
    annotations.put(QueueLabels.WORKLOAD, job.metadata().name());
    if (!JobWorkloads.topologyRequest(JobEdits.withoutEdits(job)).explicit()) {
      annotations.put(io.fleetkit.queueing.PodSetTopologyRequest.UNCONSTRAINED_ANNOTATION, "true");
    }
    labels.keySet().removeAll(own.labels().keySet());
    annotations.keySet().removeAll(own.annotations().keySet());
    return placement.withGate(QueueLabels.TOPOLOGY_SCHEDULING_GATE, labels, annotations);
  }

  /** The {@value QueueLabels#TOPOLOGY_ASSIGNMENT} annotation of the admission's pod set, or {@code null}. */
  private static @Nullable String topologyRecord(QuotaReservation admission) {
    io.fleetkit.queueing.TopologyAssignment ta = admission.podSets().isEmpty() ? null
        : admission.podSets().get(0).topologyAssignment();
    return ta == null ? null : TopologyRecord.format(ta);
  }

  /**
   * The running Job with its {@value QueueLabels#TOPOLOGY_ASSIGNMENT} annotation matching the admission's (a node
   * replacement changes the assignment of a running Job): a metadata update, which a running Job allows.
   */
  private static Job recordTopology(ReconcileContext<Job> ctx, Job job, QuotaReservation admission) {
    String want = topologyRecord(admission);
    if (Objects.equals(job.metadata().annotations().get(QueueLabels.TOPOLOGY_ASSIGNMENT), want)) {
      return job;
    }
    io.fleetkit.api.meta.ObjectMeta.Builder m = job.metadata().toBuilder();
    if (want == null) {
      Map<String, String> kept = new java.util.LinkedHashMap<>(job.metadata().annotations());
      kept.remove(QueueLabels.TOPOLOGY_ASSIGNMENT);
      m.annotations(kept);
    } else {
      m.annotation(QueueLabels.TOPOLOGY_ASSIGNMENT, want);
    }
    return ctx.store().update(job.withMetadata(m.build()));
  }

  /**
   * Runs the topology ungater for the started Job's workload ({@link TopologyUngater}): its gated pods get their
   * topology domains.
   *
   * @return the ungater's error, or {@code null}
   */
  private @Nullable String ungate(ReconcileContext<Job> ctx, Job job, String key, QuotaReservation admission) {
    boolean tas = false;
    for (io.fleetkit.queueing.PodSetAssignment p : admission.podSets()) {
      tas |= p.topologyAssignment() != null;
    }
    if (!tas) {
      return null;
    }
    TopologyUngater.WorkloadView view = new TopologyUngater.WorkloadView(job.metadata().namespace(),
        job.metadata().name(), admission, true,
        Map.of(JobWorkloads.POD_SET, JobWorkloads.topologyRequest(JobEdits.withoutEdits(job))),
        new java.util.HashSet<>(engine.unhealthyNodes(key)));
    return (workloadPods == null ? TopologyUngater.reconcile(ctx.store(), view)
        : TopologyUngater.reconcile(ctx.store(), view, workloadPods)).error();
  }

  /**
   * Kueue's Job {@code Stop} (pkg/controller/jobs/job): suspend the Job, clear its {@code status.startTime}, then
   * restore its template, in three writes: the API server (and the store) let a Job's template scheduling directives
   * change only while the Job is suspended and has not started.
   */
  private static Job stop(ReconcileContext<Job> ctx, Job job) {
    if (!job.spec().suspend()) {
      job = ctx.store().update(job.withSpec(job.spec().withSuspend(true)));
    }
    JobStatus s = job.status();
    if (s.startTime() != null) {
      job = ctx.store().updateStatus(job.withStatus(s.withStartTime(null)));
    }
    Job stopped = JobEdits.stopped(job);
    return stopped.equals(job) ? job : ctx.store().update(stopped);
  }

  /**
   * The assigned flavors' node labels and tolerations (each toleration once), flavors in resource order, with the
   * admission checks' pod set updates merged in as Kueue's {@code getPodSetsInfoFromStatus} and {@code podset.Merge}
   * do: a key that another check, a flavor or the Job's own template sets to another value is a conflict.
   *
   * @throws IllegalArgumentException on a conflict, naming the Job's workload, the check and the key
   */
  private JobEdits.Placement placement(AdmissionRecord rec, Job job, String key, List<AdmissionCheckState> checks) {
    Map<String, String> labels = new TreeMap<>();
    java.util.LinkedHashSet<io.fleetkit.api.scheduling.Toleration> tolerations = new java.util.LinkedHashSet<>();
    for (String flavor : new TreeMap<>(rec.flavors()).values()) {
      engine.resourceFlavor(flavor).ifPresent(f -> {
        labels.putAll(f.nodeLabels());
        tolerations.addAll(f.tolerations());
      });
    }
    JobEdits.Placement flavors = new JobEdits.Placement(labels, List.copyOf(tolerations));
    boolean anyUpdate = false;
    for (AdmissionCheckState c : checks) {
      anyUpdate |= !c.podSetUpdates().isEmpty();
    }
    if (!anyUpdate) {
      return flavors;
    }
    PodSetInfo base = new PodSetInfo(Map.of(), Map.of(), labels, List.copyOf(tolerations));
    PodSetInfo info = PodSetInfo.withUpdates(key, base, checks, JobWorkloads.POD_SET);
    // the updates' additions, checked against the Job's own template (the flavors' labels keep their rule: a key the
    // template sets is left as the template has it)
    PodSetInfo added = new PodSetInfo(info.labels(), info.annotations(), without(info.nodeSelector(), labels),
        info.tolerations().subList(tolerations.size(), info.tolerations().size()));
    io.fleetkit.api.core.PodTemplateSpec t = JobEdits.stoppedTemplate(job);
    PodSetInfo template = new PodSetInfo(t.metadata().labels(), t.metadata().annotations(), t.spec().nodeSelector(),
        t.spec().tolerations());
    try {
      template.merge(added);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Workload " + key + ": spec.podSets[name=" + JobWorkloads.POD_SET
          + "].template: " + e.getMessage(), e);
    }
    Map<String, String> selector = new TreeMap<>(labels);
    selector.putAll(added.nodeSelector());
    List<io.fleetkit.api.scheduling.Toleration> all = new ArrayList<>(tolerations);
    all.addAll(added.tolerations());
    return new JobEdits.Placement(selector, all, added.labels(), added.annotations());
  }

  private static Map<String, String> without(Map<String, String> all, Map<String, String> present) {
    Map<String, String> out = new TreeMap<>(all);
    out.keySet().removeAll(present.keySet());
    return out;
  }

  private static void setCondition(ReconcileContext<Job> ctx, Job job, boolean reserved, String reason,
      String message) {
    JobStatus status = JobEdits.withQuotaReserved(job.status(), reserved, reason, message, ctx.now());
    if (status != null) {
      ctx.store().updateStatus(job.withStatus(status));
    }
  }

  /**
   * Restores the admissions recorded on the cached Jobs, and the Jobs that failed to start (their
   * {@code QuotaReserved=False} condition with reason {@code FailedToStart}, the state Kueue keeps as a finished
   * Workload), once, before the first decision: a restarted controller does not queue those again.
   */
  private void restore(ReconcileContext<Job> ctx) {
    List<AdmissionBook.Restored> found = new ArrayList<>();
    Map<String, String> failed = new java.util.LinkedHashMap<>();
    for (Job j : ctx.lister().list()) {
      if (!JobWorkloads.managed(j) || j.status().isFinished() || j.metadata().deletionTimestamp() != null) {
        continue;
      }
      io.fleetkit.api.batch.JobCondition reserved = j.status().condition(QueueLabels.QUOTA_RESERVED);
      if (reserved != null && reserved.status() == io.fleetkit.api.meta.ConditionStatus.False
          && QueueLabels.REASON_FAILED_TO_START.equals(reserved.reason())) {
        failed.put(j.metadata().key(), reserved.message());
        continue;
      }
      String value = JobEdits.annotation(j);
      if (value == null) {
        continue;
      }
      try {
        // a Job admitted partially runs with the admitted count as its parallelism
        Map<String, Integer> counts = j.metadata().annotations().containsKey(QueueLabels.ORIGINAL_PARALLELISM)
            ? Map.of(JobWorkloads.POD_SET, j.spec().parallelism()) : Map.of();
        // a Job admitted with a topology assignment gets it back: its ungater goes on placing its gated pods
        String topology = j.metadata().annotations().get(QueueLabels.TOPOLOGY_ASSIGNMENT);
        Map<String, io.fleetkit.queueing.TopologyAssignment> assignments = topology == null ? Map.of()
            : Map.of(JobWorkloads.POD_SET, TopologyRecord.parse(topology));
        found.add(new AdmissionBook.Restored(JobWorkloads.of(JobEdits.withoutEdits(j), restoredPriority(j, ctx)),
            AdmissionRecord.parse(value), counts, assignments, admittedAt(j, ctx.now())));
      } catch (FleetKitException | IllegalArgumentException e) {
        LOG.debug("queue admission: job {} keeps no admission: {}", j.metadata().key(), e.getMessage());
      }
    }
    Set<String> restored = book.restore(found, failed);
    if (!restored.isEmpty()) {
      LOG.debug("queue admission: restored {} admissions", restored.size());
    }
  }

  /**
   * The priority of a restored admission: as a new workload's; if its class is missing, its class with value 0 (a
   * WorkloadPriorityClass put later gives it the class's value) or no class.
   */
  private WorkloadPriority restoredPriority(Job j, ReconcileContext<Job> ctx) {
    Job own = JobEdits.withoutEdits(j);
    JobWorkloads.Priority p = JobWorkloads.priority(own, ctx.store(), engine::workloadPriorityClass);
    if (p.priority() != null) {
      return p.priority();
    }
    String wpc = JobWorkloads.priorityClassLabel(own);
    return wpc.isEmpty() ? WorkloadPriority.DEFAULT : new WorkloadPriority(0,
        PriorityClassSource.WORKLOAD_PRIORITY_CLASS, wpc);
  }

  private static Instant admittedAt(Job j, Instant fallback) {
    String v = j.metadata().annotations().get(QueueLabels.ADMITTED_AT);
    if (v == null) {
      return fallback;
    }
    try {
      return Instant.parse(v);
    } catch (DateTimeParseException e) {
      return fallback;
    }
  }
}
