package io.fleetkit.simulator;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.simulation.JobStream;
import io.fleetkit.api.simulation.ScenarioAdmissionFairSharing;
import io.fleetkit.api.simulation.ScenarioCheckController;
import io.fleetkit.api.simulation.ScenarioCohort;
import io.fleetkit.api.simulation.ScenarioFairSharing;
import io.fleetkit.api.simulation.ScenarioPodsReady;
import io.fleetkit.api.simulation.ScenarioQueue;
import io.fleetkit.api.simulation.ScenarioSpec;
import io.fleetkit.queueing.ActiveCondition;
import io.fleetkit.queueing.AdmissionEngine;
import io.fleetkit.queueing.AdmissionFairSharing;
import io.fleetkit.queueing.ApprovingCheckController;
import io.fleetkit.queueing.FairSharingStrategy;
import io.fleetkit.queueing.ClusterQueue;
import io.fleetkit.queueing.ClusterQueuePreemption;
import io.fleetkit.queueing.Cohort;
import io.fleetkit.queueing.FlavorQuotas;
import io.fleetkit.queueing.FlavorResourceQuota;
import io.fleetkit.queueing.LocalQueue;
import io.fleetkit.queueing.QueuePreemptionPolicy;
import io.fleetkit.queueing.ResourceFlavor;
import io.fleetkit.queueing.WaitForPodsReady;
import io.fleetkit.queueing.manifest.AdmissionCheckObject;
import io.fleetkit.queueing.manifest.KueueManifests;
import io.fleetkit.queueing.manifest.KueueObject;
import io.fleetkit.queueing.manifest.LocalQueueObject;
import io.fleetkit.queueing.manifest.TopologyObject;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * The Kueue-style {@link AdmissionEngine} of Kueue's own objects among the manifests ({@link KueueManifests}) and of
 * a scenario's {@link ScenarioQueue}s, together (a name may be defined in one place only, {@link #check}). The
 * scenario's queues give one ResourceFlavor per distinct flavor name (its node labels, taints and tolerations), one ClusterQueue per queue (its quota on its flavor, its
 * cohort, preemption of lower priorities within the queue), one LocalQueue of the queue's name in each of its
 * namespaces, one Cohort per {@link ScenarioCohort} (its parent, its quota on its flavor with its limits), and the
 * scenario's {@code waitForPodsReady}.
 */
final class QueueEngines {
  private QueueEngines() {}

  /**
   * Problems with the queues taken together, field by field: a flavor named twice with different node labels, taints
   * or tolerations; a scenario queue, its LocalQueues, flavor or a scenario cohort that a Kueue object among the
   * manifests defines too (each is defined in one place: the problem names both); the manifests' own problems
   * across Kueue objects ({@link KueueManifests#check}); a job stream's queue that names no scenario queue and no
   * LocalQueue of its namespace, and {@code waitForPodsReady} without any queue.
   */
  static List<Violation> check(String object, ScenarioSpec spec, List<? extends ApiObject<?>> objects) {
    List<Violation> problems = check(object, spec.queues());
    problems.addAll(clashes(object, spec.queues(), spec.cohorts(), objects));
    problems.addAll(KueueManifests.check(objects));
    problems.addAll(references(object, spec, objects));
    if (spec.admissionFairSharing() != null) {
      try {
        admissionFairSharing(spec.admissionFairSharing());
      } catch (ValidationException e) {
        for (Violation v : e.violations()) {
          problems.add(new Violation(object, "spec." + v.field(), v.rule(), v.value()));
        }
      }
    }
    return problems;
  }

  /**
   * The scenario's references to queues, which may be its own or Kueue's among the manifests: a job stream's {@code
   * queue} names a scenario queue or a LocalQueue of the stream's namespace; {@code waitForPodsReady} needs queues.
   */
  private static List<Violation> references(String object, ScenarioSpec spec, List<? extends ApiObject<?>> objects) {
    Set<String> scenarioQueues = new TreeSet<>();
    spec.queues().forEach(q -> scenarioQueues.add(q.name()));
    Set<String> localQueues = new TreeSet<>();
    for (KueueObject<?> k : KueueManifests.of(objects)) {
      if (k instanceof LocalQueueObject lq) {
        localQueues.add(lq.spec().key());
      }
    }
    List<Violation> problems = new ArrayList<>();
    for (int i = 0; i < spec.jobStreams().size(); i++) {
      JobStream js = spec.jobStreams().get(i);
      if (!js.queue().isEmpty() && !scenarioQueues.contains(js.queue())
          && !localQueues.contains(js.namespace() + "/" + js.queue())) {
        problems.add(new Violation(object, "spec.jobStreams[" + i + "].queue", "must name one of spec.queues "
            + scenarioQueues + (localQueues.isEmpty() ? "" : " or a LocalQueue of namespace " + js.namespace()
                + " among the manifests " + localQueues), js.queue()));
      }
    }
    boolean queues = !spec.queues().isEmpty() || !KueueManifests.clusterQueueNames(objects).isEmpty();
    if (spec.waitForPodsReady() != null && !queues) {
      problems.add(new Violation(object, "spec.waitForPodsReady", "needs spec.queues or Kueue ClusterQueues among"
          + " the manifests (it acts on the Jobs the queues admit)", "set"));
    }
    if (spec.fairSharing() != null && !queues) {
      problems.add(new Violation(object, "spec.fairSharing", "needs spec.queues or Kueue ClusterQueues among the"
          + " manifests (it shares their cohorts' quota)", "set"));
    }
    if (spec.admissionFairSharing() != null && KueueManifests.clusterQueueNames(objects).isEmpty()) {
      problems.add(new Violation(object, "spec.admissionFairSharing", "needs Kueue ClusterQueues among the"
          + " manifests (it orders the workloads of those with admissionScope UsageBasedAdmissionFairSharing)",
          "set"));
    }
    Set<String> checkControllers = new TreeSet<>();
    for (KueueObject<?> k : KueueManifests.of(objects)) {
      if (k instanceof AdmissionCheckObject ac) {
        checkControllers.add(ac.spec().controllerName());
      }
    }
    for (int i = 0; i < spec.admissionCheckControllers().size(); i++) {
      String name = spec.admissionCheckControllers().get(i).controllerName();
      if (!checkControllers.contains(name)) {
        problems.add(new Violation(object, "spec.admissionCheckControllers[" + i + "].controllerName", "is the"
            + " spec.controllerName of no AdmissionCheck among the manifests" + (checkControllers.isEmpty() ? ""
                : " (their controllers: " + String.join(", ", checkControllers) + ")"), name));
      }
    }
    return problems;
  }

  /**
   * Whether the queues place workloads by topology-aware scheduling: a Kueue Topology is among the manifests. The
   * queue controller then follows the store's nodes (and replaces the pods of a failed node, as Kueue's node
   * replacement does for topology-aware workloads).
   */
  static boolean topologyAware(List<? extends ApiObject<?>> objects) {
    return KueueManifests.of(objects).stream().anyMatch(k -> k instanceof TopologyObject);
  }

  /** The timeline kind of a ClusterQueue that admits nothing from the start of a run. */
  static final String CLUSTER_QUEUE_INACTIVE = "ClusterQueueInactive";

  /**
   * Puts on {@code sim}'s timeline each of {@code queues} (ClusterQueue names) that {@code engine} has inactive, with
   * Kueue's reason and message: an AdmissionCheck no controller of the run manages ({@code AdmissionCheckInactive}),
   * a missing check or flavor, a stopped queue.
   */
  static void recordInactive(AdmissionEngine engine, List<String> queues, Simulation sim) {
    for (String q : queues) {
      ActiveCondition c = engine.clusterQueueActive(q);
      if (!c.status()) {
        sim.record(CLUSTER_QUEUE_INACTIVE, ClusterQueue.KIND + "/" + q, c.reason() + ": " + c.message());
      }
    }
  }

  /** The scenario's queue objects that a Kueue manifest defines too. */
  private static List<Violation> clashes(String object, List<ScenarioQueue> queues, List<ScenarioCohort> cohorts,
      List<? extends ApiObject<?>> objects) {
    Map<String, String> defined = new LinkedHashMap<>(); // "Kind name" -> its manifest's apiVersion
    for (KueueObject<?> k : KueueManifests.of(objects)) {
      defined.put(k.describe(), k.apiVersion());
    }
    List<Violation> problems = new ArrayList<>();
    if (defined.isEmpty()) {
      return problems;
    }
    for (int i = 0; i < queues.size(); i++) {
      ScenarioQueue q = queues.get(i);
      String p = "spec.queues[" + i + "]";
      clash(problems, object, p + ".name", defined, ClusterQueue.KIND + " " + q.name(), q.name());
      clash(problems, object, p + ".flavor", defined, ResourceFlavor.KIND + " " + q.flavor(), q.flavor());
      for (int j = 0; j < q.namespaces().size(); j++) {
        clash(problems, object, p + ".namespaces[" + j + "]", defined,
            LocalQueue.KIND + " " + q.namespaces().get(j) + "/" + q.name(), q.namespaces().get(j));
      }
    }
    for (int i = 0; i < cohorts.size(); i++) {
      clash(problems, object, "spec.cohorts[" + i + "].name", defined, Cohort.KIND + " " + cohorts.get(i).name(),
          cohorts.get(i).name());
    }
    return problems;
  }

  private static void clash(List<Violation> problems, String object, String path, Map<String, String> defined,
      String wanted, String value) {
    if (defined.containsKey(wanted)) {
      problems.add(new Violation(object, path, "would define " + wanted + ", which a " + defined.get(wanted)
          + " manifest defines too; define it in one place, the scenario's spec.queues/spec.cohorts or Kueue's"
          + " manifests", value));
    }
  }

  /**
   * Problems with the scenario's queues taken together (a flavor named twice with different node labels, taints or
   * tolerations), field by field.
   */
  static List<Violation> check(String object, List<ScenarioQueue> queues) {
    Map<String, ScenarioQueue> flavors = new LinkedHashMap<>();
    List<Violation> problems = new ArrayList<>();
    for (int i = 0; i < queues.size(); i++) {
      ScenarioQueue q = queues.get(i);
      ScenarioQueue before = flavors.putIfAbsent(q.flavor(), q);
      if (before == null) {
        continue;
      }
      String p = "spec.queues[" + i + "].flavor.";
      if (!before.nodeLabels().equals(q.nodeLabels())) {
        problems.add(new Violation(object, p + "nodeLabels", "must be those flavor " + q.flavor()
            + " has in an earlier queue, " + before.nodeLabels(), q.nodeLabels().toString()));
      }
      if (!before.nodeTaints().equals(q.nodeTaints())) {
        problems.add(new Violation(object, p + "nodeTaints", "must be those flavor " + q.flavor()
            + " has in an earlier queue, " + before.nodeTaints(), q.nodeTaints().toString()));
      }
      if (!before.tolerations().equals(q.tolerations())) {
        problems.add(new Violation(object, p + "tolerations", "must be those flavor " + q.flavor()
            + " has in an earlier queue", null));
      }
    }
    return problems;
  }

  static AdmissionEngine engine(List<ScenarioQueue> queues, List<ScenarioCohort> cohorts, Clock clock) {
    return engine(queues, cohorts, List.of(), null, clock, 0);
  }

  /**
   * The engine of the scenario's queues and cohorts and of the Kueue objects among {@code objects}, configured as the
   * scenario's Kueue Configuration says: {@code waitForPodsReady}, {@code fairSharing}, {@code admissionFairSharing},
   * and the admission check controllers ({@value ScenarioCheckController#AUTO_APPROVE} and {@code
   * admissionCheckControllers}), which make the AdmissionChecks of their controller names Active.
   */
  static AdmissionEngine engine(ScenarioSpec spec, List<? extends ApiObject<?>> objects, Clock clock, long seed) {
    AdmissionEngine.Builder b = AdmissionEngine.builder();
    Map<String, ApprovingCheckController> controllers = new LinkedHashMap<>();
    controllers.put(ScenarioCheckController.AUTO_APPROVE,
        new ApprovingCheckController(ScenarioCheckController.AUTO_APPROVE, Duration.ZERO, clock));
    for (ScenarioCheckController c : spec.admissionCheckControllers()) {
      controllers.put(c.controllerName(), new ApprovingCheckController(c.controllerName(), c.approveAfter(), clock));
    }
    controllers.values().forEach(b::admissionCheckController);
    ScenarioFairSharing fs = spec.fairSharing();
    if (fs != null && fs.enable()) {
      b.fairSharing(true).fairSharingStrategies(strategies(fs.preemptionStrategies()));
    }
    if (spec.admissionFairSharing() != null) {
      b.admissionFairSharing(admissionFairSharing(spec.admissionFairSharing()));
    }
    return build(b, spec.queues(), spec.cohorts(), objects, spec.waitForPodsReady(), clock, seed,
        controllers.keySet());
  }

  /** The queueing module's strategies of Kueue's names (which {@code Scenario} has checked). */
  private static List<FairSharingStrategy> strategies(List<String> names) {
    List<FairSharingStrategy> out = new ArrayList<>();
    for (String n : names) {
      out.add(n.equals(ScenarioFairSharing.LESS_THAN_INITIAL_SHARE) ? FairSharingStrategy.LESS_THAN_INITIAL_SHARE
          : FairSharingStrategy.LESS_THAN_OR_EQUAL_TO_FINAL_SHARE);
    }
    return out;
  }

  /**
   * The queueing module's configuration of a scenario's {@code admissionFairSharing}.
   *
   * @throws io.fleetkit.api.ValidationException as Kueue's {@code validateAdmissionFairSharing}
   */
  static AdmissionFairSharing admissionFairSharing(ScenarioAdmissionFairSharing a) {
    return new AdmissionFairSharing(a.usageHalfLifeTime(), a.usageSamplingInterval(), a.resourceWeights());
  }

  /**
   * The engine of the scenario's queues and cohorts and of the Kueue objects among {@code objects} ({@link
   * KueueManifests#addTo}; with them, the labels of the manifests' Namespaces and of the LocalQueues' namespaces,
   * each with the {@code kubernetes.io/metadata.name} label the API server gives it, for the ClusterQueues' namespace
   * selectors), with Kueue's {@code waitForPodsReady} when {@code podsReady} is given (its requeue jitter drawn from
   * {@code seed}).
   */
  static AdmissionEngine engine(List<ScenarioQueue> queues, List<ScenarioCohort> cohorts,
      List<? extends ApiObject<?>> objects, @Nullable ScenarioPodsReady podsReady, Clock clock, long seed) {
    return build(AdmissionEngine.builder(), queues, cohorts, objects, podsReady, clock, seed, Set.of());
  }

  private static AdmissionEngine build(AdmissionEngine.Builder b, List<ScenarioQueue> queues,
      List<ScenarioCohort> cohorts, List<? extends ApiObject<?>> objects, @Nullable ScenarioPodsReady podsReady,
      Clock clock, long seed, Set<String> checkControllers) {
    b.clock(clock);
    if (!KueueManifests.of(objects).isEmpty()) {
      KueueManifests.addTo(b, objects, namespaceLabels(objects), checkControllers);
    }
    if (podsReady != null) {
      b.waitForPodsReady(waitForPodsReady(podsReady)).random(new SplittableRandom(seed));
    }
    Map<String, ScenarioQueue> flavors = new LinkedHashMap<>();
    for (ScenarioQueue q : queues) {
      flavors.putIfAbsent(q.flavor(), q);
    }
    flavors.forEach((name, q) -> b.resourceFlavor(new ResourceFlavor(name, q.nodeLabels(), q.nodeTaints(),
        q.tolerations())));
    for (ScenarioQueue q : queues) {
      List<FlavorResourceQuota> quotas = new ArrayList<>();
      for (Map.Entry<String, Quantity> e : q.quota().asMap().entrySet()) {
        quotas.add(FlavorResourceQuota.of(e.getKey(), e.getValue().toString()));
      }
      ClusterQueue.Builder cq = ClusterQueue.builder(q.name())
          .resourceGroup(FlavorQuotas.of(q.flavor(), quotas.toArray(FlavorResourceQuota[]::new)))
          .preemption(ClusterQueuePreemption.of(QueuePreemptionPolicy.LOWER_PRIORITY, QueuePreemptionPolicy.NEVER));
      if (q.cohort() != null) {
        cq.cohort(q.cohort());
      }
      b.clusterQueue(cq.build());
      for (String ns : q.namespaces()) {
        b.localQueue(LocalQueue.of(ns, q.name(), q.name()));
      }
    }
    for (ScenarioCohort c : cohorts) {
      b.cohort(cohort(c));
    }
    return b.build();
  }

  /** The queueing module's configuration of a scenario's {@code waitForPodsReady}. */
  static WaitForPodsReady waitForPodsReady(ScenarioPodsReady w) {
    WaitForPodsReady.Builder b = WaitForPodsReady.builder().timeout(w.timeout()).blockAdmission(w.blockAdmission())
        .timestamp(w.creationTimestamp() ? WaitForPodsReady.RequeuingTimestamp.CREATION
            : WaitForPodsReady.RequeuingTimestamp.EVICTION)
        .backoffBaseSeconds(w.backoffBaseSeconds()).backoffMaxSeconds(w.backoffMaxSeconds());
    if (w.recoveryTimeout() != null) {
      b.recoveryTimeout(w.recoveryTimeout());
    }
    if (w.backoffLimitCount() != null) {
      b.backoffLimitCount(w.backoffLimitCount());
    }
    return b.build();
  }

  private static Cohort cohort(ScenarioCohort c) {
    Cohort.Builder cb = Cohort.builder(c.name());
    if (c.parent() != null) {
      cb.parent(c.parent());
    }
    if (!c.quota().isEmpty()) {
      List<FlavorResourceQuota> quotas = new ArrayList<>();
      for (Map.Entry<String, Quantity> e : c.quota().asMap().entrySet()) {
        String r = e.getKey();
        quotas.add(new FlavorResourceQuota(r, e.getValue(),
            c.borrowingLimit().has(r) ? c.borrowingLimit().get(r) : null,
            c.lendingLimit().has(r) ? c.lendingLimit().get(r) : null));
      }
      cb.resourceGroup(FlavorQuotas.of(c.flavor(), quotas.toArray(FlavorResourceQuota[]::new)));
    }
    return cb.build();
  }

  /**
   * The labels of every namespace the manifests name by a Namespace or a LocalQueue: a Namespace's own labels, and
   * for every one {@code kubernetes.io/metadata.name}, as the API server sets it.
   */
  private static Map<String, Map<String, String>> namespaceLabels(List<? extends ApiObject<?>> objects) {
    Map<String, Map<String, String>> out = new java.util.TreeMap<>();
    for (ApiObject<?> o : objects) {
      if (o instanceof Namespace ns) {
        out.computeIfAbsent(ns.metadata().name(), n -> new java.util.TreeMap<>()).putAll(ns.metadata().labels());
      } else if (o instanceof LocalQueueObject lq) {
        out.computeIfAbsent(lq.spec().namespace(), n -> new java.util.TreeMap<>());
      }
    }
    out.forEach((name, labels) -> labels.put(Namespace.NAME_LABEL, name));
    return out;
  }
}
