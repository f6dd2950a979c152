package io.fleetkit.simulator;

import io.fleetkit.admission.Admission;
import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.metrics.MetricsRegistry;
import io.fleetkit.api.autoscaling.VerticalPodAutoscaler;
import io.fleetkit.api.simulation.FaultType;
import io.fleetkit.api.simulation.JobStream;
import io.fleetkit.queueing.controller.QueueAdmissionController;
import io.fleetkit.queueing.AdmissionEngine;
import io.fleetkit.queueing.manifest.KueueManifests;
import io.fleetkit.queueing.manifest.KueueObject;
import io.fleetkit.traces.OpenbTraces;
import io.fleetkit.api.simulation.Scenario;
import io.fleetkit.api.simulation.ScenarioAutoscaler;
import io.fleetkit.api.simulation.ScenarioFault;
import io.fleetkit.api.simulation.ScenarioSpec;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.simulation.WorkloadLoad;
import io.fleetkit.api.storage.StorageAnnotations;
import io.fleetkit.api.storage.StorageClass;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.Watch;
import io.fleetkit.api.store.WatchEventType;
import io.fleetkit.autoscale.cluster.ClusterAutoscaler;
import io.fleetkit.autoscale.cluster.LoopResult;
import io.fleetkit.autoscale.cluster.NodeDeleteResult;
import io.fleetkit.autoscale.hpa.HorizontalPodAutoscalerController;
import io.fleetkit.autoscale.hpa.SyncOutcome;
import io.fleetkit.autoscale.hpa.WatchedPods;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.reconcile.SimulatedController;
import io.fleetkit.storage.EphemeralVolumeController;
import io.fleetkit.storage.PersistentVolumeController;
import io.fleetkit.storage.provision.InMemoryProvisioner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * A what-if run of a whole cluster: the manifests and a {@link Scenario} go in, a {@link SimulationRun} comes out.
 *
 * <p>It runs the reconcile {@link Simulation} (store, workload controllers, the scheduler with the scenario's
 * profile and GPU placement policy ({@link SchedulerChoice}), node lifecycle, taint eviction and the pod garbage
 * collector (as kube-controller-manager runs them, always on), one simulated kubelet per node) and, each switchable in
 * the scenario's {@code features}:
 * <ul>
 *   <li>the HPA controller every 15 s, reading {@link LoadMetrics} (usage follows the scenario's load);
 *   <li>the cluster autoscaler every 10 s over the NodePools (nodes it launches get a kubelet once their start-up
 *       delay has passed and they are Ready; nodes it removes lose theirs); it reads the DaemonSets among the objects
 *       from the store, as the DaemonSet controller does, and counts the pods they would run on a new node; a failed
 *       node is removed as an unready one, and a halt for too many unready nodes is recorded as
 *       {@code ClusterUnhealthy} when it starts;
 *   <li>storage: the scheduler's VolumeBinding, VolumeZone, NodeVolumeLimits and DataLocality plugins, the
 *       ephemeral volume controller (the claims of generic ephemeral volumes, deleted with their pods by the
 *       garbage collector) and the PersistentVolume controller every second (binding, dynamic provisioning through
 *       an in-memory provisioner per StorageClass provisioner, reclaim);
 *   <li>the VPA (recommender, updater and admission, every minute) when a VerticalPodAutoscaler is among the
 *       objects ({@link VerticalScaling});
 *   <li>Kueue-style admission over Kueue's own objects among the manifests (ResourceFlavors, ClusterQueues,
 *       LocalQueues, Cohorts, WorkloadPriorityClasses; read at the start, not created in the store) and the
 *       scenario's queues ({@link QueueEngines}), for the Jobs labelled {@code kueue.x-k8s.io/queue-name} among the
 *       manifests and those of its job arrival streams ({@link JobArrivals});
 *   <li>KEDA-style queue-length scaling of the scenario's queue scalers ({@link QueueScaling});
 *   <li>the store's standard admission chain with ServiceAccount admission ({@link Admission#withServiceAccounts})
 *       when the objects hold Namespaces, ResourceQuotas or LimitRanges, with the quota controller's replenishment
 *       and the ServiceAccounts controller (every namespace gets its {@code default} account): a create it denies is not
 *       stored, and a workload controller's denied pod create shows as {@code FailedCreate} in the timeline.
 * </ul>
 * Faults are injected at their times (a zone failure kills every node with that {@code topology.kubernetes.io/zone}
 * label then; a capacity stockout makes the cloud refuse the pool's new machines, {@link CapacityStockouts}; a spot
 * interruption warns, then takes machines of a pool back, and the cloud node lifecycle controller deletes their nodes,
 * {@link SpotInterruptions}) and
 * healed after {@code recoverAfter}; the pods of a failed node serve none of the load from the
 * failure instant on ({@link LoadMetrics#nodeDown}). The series are sampled every {@code sampleInterval}.
 *
 * <p>Deterministic: the same manifests, scenario and seed give the same run. Single-threaded; one run per instance.
 *
 * <pre>{@code
 * SimulationRun run = ClusterSimulation.builder().objects(manifests).scenario(scenario).build().run();
 * Files.writeString(Path.of("report.html"), HtmlReport.render(run));
 * }</pre>
 */
public final class ClusterSimulation {
  /** The label a zone failure selects nodes by. */
  public static final String ZONE_LABEL = "topology.kubernetes.io/zone";
  /** The HPA controller's sync period (kube-controller-manager's {@code --horizontal-pod-autoscaler-sync-period}). */
  public static final Duration HPA_PERIOD = Duration.ofSeconds(15);
  /** The cluster autoscaler's {@code --scan-interval}. */
  public static final Duration AUTOSCALER_PERIOD = Duration.ofSeconds(10);
  /** How often the PersistentVolume controller syncs every volume and claim. */
  public static final Duration VOLUME_PERIOD = Duration.ofSeconds(1);
  /** Timeline kinds drawn as markers on the report's time axis. */
  static final Set<String> MARKER_KINDS = Set.of("NodeFailed", "NodeRecovered", "ZoneFailed", "ZoneRecovered",
      "GpuDeviceFailed", "GpuDeviceRecovered", "ApiSlow", "ApiRecovered", "KubeletRestarted", "CapacityStockout",
      "CapacityRestored", "HorizontalScale", "ScaleUp", "ScaleDown", "Consolidate", "Expire", "QueueScale",
      SpotInterruptions.WARNING);
  /** The marker kinds that are faults (the others are recoveries and scaling decisions). */
  static final Set<String> FAULT_KINDS = Set.of("NodeFailed", "ZoneFailed", "GpuDeviceFailed", "ApiSlow",
      "KubeletRestarted", "CapacityStockout", SpotInterruptions.WARNING);
  /**
   * The timeline kind of a scheduled fault that found nothing to act on (a NodeFailure or GpuDeviceFault whose node
   * was deleted before its time): recorded so that a fault never vanishes unseen; not a marker.
   */
  public static final String FAULT_SKIPPED = "FaultSkipped";
  /** The marker kinds that end a fault. */
  static final Set<String> RECOVERY_KINDS = Set.of("NodeRecovered", "ZoneRecovered", "GpuDeviceRecovered",
      "ApiRecovered", "CapacityRestored");

  private final List<ApiObject<?>> objects;
  private final Scenario scenario;
  private final boolean podEvents;
  private final Simulation.@Nullable StoreFactory store;
  private final @Nullable Consumer<Progress> progress;
  private final MetricsRegistry metrics;
  private final List<Consumer<Simulation.Builder>> applies;
  private final StartupPhases startup;
  private final ZoneOutages outages;
  private final CapacityStockouts stockouts = new CapacityStockouts();
  private final SpotInterruptions spots = new SpotInterruptions();
  private final @Nullable SchedulerChoice scheduler;
  private final AutoscalerChoice autoscaler;
  private final ProvisionerChoice provisioner;
  private boolean ran;

  private ClusterSimulation(Builder b) {
    this.scenario = Objects.requireNonNull(b.scenario, "scenario: none given (Builder.scenario)");
    this.startup = new StartupPhases(scenario.spec().nodeStartup());
    this.outages = new ZoneOutages(startup);
    SchedulerChoice choice = null;
    String schedulerProblem = null;
    try {
      choice = new SchedulerChoice(scenario.spec().scheduler());
    } catch (IllegalArgumentException e) {
      schedulerProblem = e.getMessage();
    }
    this.scheduler = choice;
    AutoscalerChoice autoscalerChoice = AutoscalerChoice.DEFAULT;
    String autoscalerProblem = null;
    try {
      autoscalerChoice = AutoscalerChoice.of(scenario.spec().clusterAutoscaler());
    } catch (IllegalArgumentException e) {
      autoscalerProblem = e.getMessage();
    }
    this.autoscaler = autoscalerChoice;
    ProvisionerChoice provisionerChoice = ProvisionerChoice.DEFAULT;
    String provisionerProblem = null;
    try {
      provisionerChoice = ProvisionerChoice.of(scenario.spec().provisioner());
    } catch (IllegalArgumentException e) {
      provisionerProblem = e.getMessage();
    }
    this.provisioner = provisionerChoice;
    List<ApiObject<?>> given = startup.apply(List.copyOf(b.objects));
    this.objects = choice == null ? given : choice.withDevices(given);
    this.applies = List.copyOf(b.applies);
    this.podEvents = b.podEvents;
    this.store = b.store;
    this.progress = b.progress;
    this.metrics = b.metrics;
    check(schedulerProblem, autoscalerProblem, provisionerProblem);
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * The problems with the queues that a run refuses, among {@code objects} (manifests as loaded, any Scenarios among
   * them), each naming its object and field, once: Kueue's objects across each other (a LocalQueue whose ClusterQueue
   * is not among them), and, when one Scenario is among {@code objects} (a run has one; of several, which objects
   * belong to which is not known, as when a tree of examples is checked at once), what a run of it over them refuses
   * (a queue, flavor or cohort defined both in {@code spec.queues}/{@code spec.cohorts} and by a Kueue manifest, a job
   * stream naming no queue, Kueue Configuration parts without queues, an admission check controller of no
   * AdmissionCheck, a bad {@code admissionFairSharing}). The checks {@link Builder#build} runs, for tools that check
   * manifests without running them ({@code fleetkit validate}).
   */
  public static List<Violation> queueProblems(List<? extends ApiObject<?>> objects) {
    Set<Violation> out = new java.util.LinkedHashSet<>(KueueManifests.check(objects));
    List<Scenario> scenarios = objects.stream().filter(o -> o instanceof Scenario).map(o -> (Scenario) o).toList();
    if (scenarios.size() == 1) {
      Scenario s = scenarios.get(0);
      out.addAll(QueueEngines.check(s.describe(), s.spec(), objects));
    }
    return List.copyOf(out);
  }

  /**
   * Checks that every load targets a workload and every fault a node or zone among the objects, and that the
   * scheduler, the cluster autoscaler's and the provisioner's options are known ({@code schedulerProblem},
   * {@code autoscalerProblem}, {@code provisionerProblem}, when not).
   */
  private void check(@Nullable String schedulerProblem, @Nullable String autoscalerProblem,
      @Nullable String provisionerProblem) {
    Set<String> workloads = new HashSet<>();
    Set<String> nodes = new TreeSet<>();
    Set<String> zones = new TreeSet<>();
    Set<String> pools = new TreeSet<>();
    java.util.Map<String, Long> gpus = new java.util.HashMap<>();
    Map<String, String> poolZones = new HashMap<>(); // each pool's template zone, "" when it names none
    Set<String> gpuTypes = new TreeSet<>(); // the GPU_LABEL values of the nodes and pool templates
    for (ApiObject<?> o : objects) {
      if (o instanceof io.fleetkit.api.autoscaling.NodePool p) {
        pools.add(p.metadata().name());
        poolZones.put(p.metadata().name(), p.spec().template().labels().getOrDefault(ZONE_LABEL, ""));
      }
      if (o instanceof Node n) {
        gpus.put(n.name(), n.allocatable().value(io.fleetkit.api.resource.ResourceNames.NVIDIA_GPU));
      }
      if (o instanceof Node n && n.metadata().labels().containsKey(NodePool.GPU_LABEL)) {
        gpuTypes.add(n.metadata().labels().get(NodePool.GPU_LABEL));
      } else if (o instanceof NodePool p && p.spec().template().labels().containsKey(NodePool.GPU_LABEL)) {
        gpuTypes.add(p.spec().template().labels().get(NodePool.GPU_LABEL));
      }
      if (o instanceof Deployment || o instanceof StatefulSet || o instanceof io.fleetkit.api.rollouts.Rollout) {
        workloads.add(o.kind() + "/" + o.metadata().namespace() + "/" + o.metadata().name());
      } else if (o instanceof Node n) {
        nodes.add(n.name());
        String z = n.metadata().labels().get(ZONE_LABEL);
        if (z != null) {
          zones.add(z);
        }
      } else if (o instanceof NodePool p) {
        String z = p.spec().template().labels().get(ZONE_LABEL); // the zone its nodes will be in
        if (z != null) {
          zones.add(z);
        }
      }
    }
    String object = scenario.describe();
    List<Violation> problems = new ArrayList<>();
    if (schedulerProblem != null) {
      problems.add(fromMessage(object, schedulerProblem));
    }
    if (autoscalerProblem != null) {
      problems.add(fromMessage(object, autoscalerProblem));
    }
    if (provisionerProblem != null) {
      problems.add(fromMessage(object, provisionerProblem));
    }
    ScenarioAutoscaler ca = scenario.spec().clusterAutoscaler();
    List<ScenarioAutoscaler.GpuTotal> gpuTotal = ca == null ? List.of() : ca.gpuTotal();
    for (int i = 0; i < gpuTotal.size(); i++) {
      if (!gpuTypes.contains(gpuTotal.get(i).type())) {
        problems.add(new Violation(object, "spec.clusterAutoscaler.gpuTotal[" + i + "].type", "is the "
            + NodePool.GPU_LABEL + " label of no node or NodePool template, so the limit would count no GPU (GPU"
            + " types: " + gpuTypes + ")", gpuTotal.get(i).type()));
      }
    }
    List<WorkloadLoad> loads = scenario.spec().loads();
    for (int i = 0; i < loads.size(); i++) {
      if (!workloads.contains(loads.get(i).target())) {
        problems.add(new Violation(object, "spec.loads[" + i + "].target",
            "names no Deployment, StatefulSet or Rollout among the manifests", loads.get(i).target()));
      }
    }
    List<ScenarioFault> faults = scenario.spec().faults();
    for (int i = 0; i < faults.size(); i++) {
      ScenarioFault f = faults.get(i);
      String at = "spec.faults[" + i + "].";
      if (f.type() == FaultType.NodeFailure && !nodes.contains(f.target())) {
        problems.add(new Violation(object, at + "nodeFailure", "names no node among the manifests", f.target()));
      } else if (f.type() == FaultType.KubeletRestart && !nodes.contains(f.target())) {
        problems.add(new Violation(object, at + "kubeletRestart", "names no node among the manifests", f.target()));
      } else if (f.type() == FaultType.ZoneFailure && !zones.contains(f.target())) {
        problems.add(new Violation(object, at + "zoneFailure", "is the " + ZONE_LABEL
            + " label of no node or NodePool template (zones: " + zones + ")", f.target()));
      } else if ((f.type() == FaultType.CapacityStockout || f.type() == FaultType.SpotInterruption)
          && !pools.contains(f.target())) {
        String field = f.type() == FaultType.CapacityStockout ? "capacityStockout" : "spotInterruption";
        problems.add(new Violation(object, at + field, "names no NodePool among the manifests (pools: "
            + pools + ")", f.target()));
      } else if (f.type() == FaultType.CapacityStockout && f.zone() != null
          && !f.zone().equals(poolZones.get(f.target()))) {
        String zone = poolZones.get(f.target());
        problems.add(new Violation(object, at + "zone", "would never refuse a machine: NodePool " + f.target()
            + "'s machines are " + (zone.isEmpty() ? "in no zone (its template has no " + ZONE_LABEL + " label)"
                : "in zone " + zone + " (its template's " + ZONE_LABEL + ")") + "; give "
            + (zone.isEmpty() ? "no zone" : "zone " + zone + " or none"), f.zone()));
      } else if (f.type() == FaultType.GpuDeviceFault && !nodes.contains(f.target())) {
        problems.add(new Violation(object, at + "gpuDeviceFault", "names no node among the manifests", f.target()));
      } else if (f.type() == FaultType.GpuDeviceFault && gpus.getOrDefault(f.target(), 0L) < f.devices()) {
        long gpu = gpus.getOrDefault(f.target(), 0L);
        int dra = gpu == 0 ? DraDeviceFaults.count(objects, f.target()) : 0;
        String devices = Integer.toString(f.devices());
        if (dra == 0) {
          problems.add(new Violation(object, at + "devices", "is more than the " + gpu
              + " allocatable nvidia.com/gpu of node " + f.target(), devices));
        } else if (dra < f.devices()) {
          problems.add(new Violation(object, at + "devices", "is more than the " + dra
              + " DRA device(s) node " + f.target() + " publishes in its ResourceSlices", devices));
        }
      }
    }
    if (scenario.spec().features().provisioner() && pools.isEmpty()) {
      problems.add(new Violation(object, "spec.features.provisioner", "needs at least one NodePool among the"
          + " manifests (each is an instance type it may launch)", "true"));
    }
    var startups = scenario.spec().nodeStartup();
    for (int i = 0; i < startups.size(); i++) {
      if (!pools.contains(startups.get(i).pool())) {
        problems.add(new Violation(object, "spec.nodeStartup[" + i + "].pool", "names no NodePool among the"
            + " manifests (pools: " + pools + ")", startups.get(i).pool()));
      }
    }
    problems.addAll(QueueEngines.check(object, scenario.spec(), objects));
    List<JobStream> streams = scenario.spec().jobStreams();
    for (int i = 0; i < streams.size(); i++) {
      JobStream js = streams.get(i);
      if (!js.trace().isEmpty() && !OpenbTraces.POD_LISTS.contains(js.trace())) {
        problems.add(new Violation(object, "spec.jobStreams[" + i + "].trace", "names no bundled pod list"
            + " (bundled: " + String.join(", ", OpenbTraces.POD_LISTS) + ")", js.trace()));
      }
    }
    if (!problems.isEmpty()) {
      throw new ValidationException(problems);
    }
  }

  /** A problem written {@code PATH: RULE} (the scheduler's and the autoscaler's choices) as a violation. */
  private static Violation fromMessage(String object, String problem) {
    int colon = problem.indexOf(": ");
    return colon < 0 ? new Violation(object, "spec", problem, null)
        : new Violation(object, problem.substring(0, colon), problem.substring(colon + 2), null);
  }

  /**
   * Runs the scenario to its end.
   *
   * @throws IllegalStateException if called twice, or if the components livelock
   */
  public SimulationRun run() {
    if (ran) {
      throw new IllegalStateException("cluster simulation: run() was already called");
    }
    ran = true;
    ScenarioSpec spec = scenario.spec();
    Simulation[] holder = new Simulation[1];
    LoadMetrics[] metricsHolder = new LoadMetrics[1];
    // Kueue's objects configure the queue admission engine; they are not created in the store
    List<ApiObject<?>> stored = objects.stream().filter(o -> !(o instanceof KueueObject<?>)).toList();
    Simulation.Builder b = Simulation.builder().objects(stored).seed(spec.seed()).podEvents(podEvents)
        .metrics(metrics).cloud(spots);
    if (store != null) {
      b.store(store);
    }
    for (Consumer<Simulation.Builder> a : applies) {
      a.accept(b);
    }
    if (!spec.features().rollouts()) {
      b.withoutRollouts();
    }
    if (!spec.features().podGarbageCollector()) {
      b.withoutPodGarbageCollector();
    }
    if (!spec.features().dynamicResources()) {
      b.withoutResourceClaimController();
    }
    // a node's DRA drivers run once its driver phase is over (its image pull phase, or Ready)
    b.driversRunning(startup::driversRunning);
    if (spec.features().admission() && Admission.usesTenancy(objects)) {
      b.admission(Admission::withServiceAccounts);
    }
    if (spec.loads().stream().anyMatch(l -> l.memoryPerRequest() > 0)) {
      // the kubelets' OOM killer and eviction manager read the load's memory; without a memory cost they do no work
      b.memoryUsage((pod, container) -> metricsHolder[0] == null ? 0 : metricsHolder[0].memoryUsage(pod, container));
    }
    b.controller((store, clock, seed) -> {
      metricsHolder[0] = new LoadMetrics(store, clock, clock.now(), spec.loads());
      return SimulatedController.of("load-metrics", () -> { }, () -> 0, metricsHolder[0]::close);
    });
    if (spec.features().horizontalPodAutoscaler()) {
      b.controller((store, clock, seed) -> {
        // the store delivers watch events as it writes, so the watched lists are the store's lists
        WatchedPods pods = new WatchedPods(store);
        HorizontalPodAutoscalerController hpa = HorizontalPodAutoscalerController.builder(store, metricsHolder[0])
            .clock(clock.asClock()).pods(pods).metricsRegistry(metrics).build();
        PeriodicController loop = new PeriodicController("horizontal-pod-autoscaler", clock, HPA_PERIOD, () -> {
          for (SyncOutcome o : hpa.syncAll()) {
            if (o.rescaled()) {
              holder[0].record("HorizontalScale", "HorizontalPodAutoscaler/" + o.hpa(),
                  o.currentReplicas() + " -> " + o.desiredReplicas() + " replicas");
            }
          }
        });
        return SimulatedController.of(loop.name(), loop::start, loop::runUntilIdle, () -> {
          loop.close();
          pods.close();
        });
      });
    }
    if (spec.features().clusterAutoscaler()) {
      b.controller((store, clock, seed) -> {
        // the simulation's stores deliver watch events before a write returns, so a watched pod grouping
        // decides exactly as listing the pods every loop would; pools, budgets and DaemonSets (whose pods it puts on
        // its template nodes) it lists from the same store in every loop
        ClusterAutoscaler ca = ClusterAutoscaler.builder(store).clock(clock.asClock()).seed(seed).watchPods()
            .metrics(metrics).instanceCreation(stockouts).options(autoscaler.options())
            .expander(autoscaler.expander()).build();
        boolean[] halted = {false};
        // the pool of each node deleted since the last loop, from its last version: the autoscaler names the nodes it
        // removed, which are gone from the store when the loop returns
        Map<String, String> deletedPools = new HashMap<>();
        Watch poolWatch = store.watch(Node.class, store.resourceVersion(), e -> {
          if (e.type() == WatchEventType.DELETED) {
            deletedPools.put(e.object().name(), e.object().metadata().labels().getOrDefault(NodePool.POOL_LABEL, ""));
          }
        });
        // the ScaleDown events of nodes the autoscaler deleted (per pool, from their last version) and the
        // ScaleDownFailed of deletions that failed, in a loop or in a deletion step between loops
        BiConsumer<List<String>, Map<String, NodeDeleteResult>> deletions = (deletedNodes, failedDeletions) -> {
          // one event per pool, as the scale-up's; a node of no pool is named under a bare "NodePool"
          Map<String, List<String>> byPool = new TreeMap<>();
          for (String n : deletedNodes) {
            byPool.computeIfAbsent(deletedPools.getOrDefault(n, ""), k -> new ArrayList<>()).add(n);
          }
          deletedPools.clear();
          byPool.forEach((pool, nodes) -> holder[0].record("ScaleDown", pool.isEmpty() ? "NodePool" : "NodePool/" + pool,
              "removed " + String.join(", ", nodes)));
          // a drain runs across loops on the simulation's clock: its evicted pods are recreated by their controllers
          // and scheduled elsewhere while the node, tainted ToBeDeletedByClusterAutoscaler, waits to be deleted
          failedDeletions.forEach((node, result) -> holder[0].record("ScaleDownFailed", "Node/" + node,
              String.valueOf(result.error())));
        };
        // a node's deletion goes on when its delay after the taint ends (--node-delete-delay-after-taint), between
        // the loops, as upstream's deletion goroutine wakes up then
        DeletionSteps steps = new DeletionSteps(ca, clock,
            p -> deletions.accept(p.deletedNodes(), p.failedDeletions()));
        PeriodicController loop = new PeriodicController("cluster-autoscaler", clock, AUTOSCALER_PERIOD, () -> {
          LoopResult r = ca.runOnce();
          // upstream emits a ClusterUnhealthy warning event in every halted loop; the timeline gets it once per halt
          if (r.halted() != null && !halted[0]) {
            holder[0].record(ClusterAutoscaler.CLUSTER_UNHEALTHY, "ClusterAutoscaler", r.halted());
          }
          halted[0] = r.halted() != null;
          // upstream's ScaleUpFailed warning: the cloud refused machines, the scale-up is undone and the pool backed off
          for (var f : r.scaleUpFailures()) {
            holder[0].record("ScaleUpFailed", "NodePool/" + f.pool(), f.eventMessage());
          }
          if (!r.launchedNodes().isEmpty()) {
            String pool = r.scaleUp() != null && r.scaleUp().chosen() != null
                ? r.scaleUp().chosen().pool().metadata().name() : "";
            holder[0].record("ScaleUp", "NodePool/" + pool, "launching " + r.launchedNodes().size() + " node(s): "
                + String.join(", ", r.launchedNodes()));
            outages.launched(holder[0], r.launchedNodes());
            startup.launched(holder[0], r.launchedNodes());
          }
          deletions.accept(r.deletedNodes(), r.failedDeletions());
          for (String n : r.timedOutNodes()) {
            holder[0].record("NodeProvisionTimeout", "Node/" + n, "not ready within the maximum provision time");
          }
          steps.arm();
        });
        return SimulatedController.of(loop.name(), loop::start, () -> steps.runIfDue() + loop.runUntilIdle(), () -> {
          loop.close();
          steps.cancel();
          poolWatch.close();
          ca.close();
        });
      });
    }
    if (spec.features().provisioner()) {
      b.controller((store, clock, seed) -> {
        ProvisionerLoop p = new ProvisionerLoop(store, clock, objects.stream()
            .filter(o -> o instanceof io.fleetkit.api.autoscaling.NodePool)
            .map(o -> (io.fleetkit.api.autoscaling.NodePool) o).toList(), stockouts, provisioner.options());
        // Karpenter's interruption controller: the warned node's NodeClaim is deleted, so it is tainted and drained
        spots.onNotice((sim, node) -> {
          if (p.interrupt(node)) {
            sim.record(SpotInterruptions.DRAINING, "Node/" + node, "provisioner's interruption handling: tainted "
                + "karpenter.sh/disrupted and draining before the machine goes");
          }
        });
        return new PeriodicController("provisioner", clock, AUTOSCALER_PERIOD, () -> {
          List<String[]> lines = p.runOnce();
          for (String[] l : lines) {
            holder[0].record(l[0], l[1], l[2]);
          }
          outages.launched(holder[0], ProvisionerLoop.launched(lines));
          startup.launched(holder[0], ProvisionerLoop.launched(lines));
        });
      });
    }
    PersistentVolumeController[] volumes = new PersistentVolumeController[1];
    // the storage controllers' warnings (ProvisioningFailed, FailedBinding, ...) on the timeline, once per object,
    // reason and message, from the controllers' first run (during the build)
    EventRecorder storageEvents = b.warningEvents();
    SchedulerChoice choice = Objects.requireNonNull(scheduler);
    if (spec.features().storage() || choice.custom()) {
      b.schedulerSetup((store, clock, sb) -> {
        if (spec.features().storage()) {
          volumes[0] = volumeController(store, clock, storageEvents);
        }
        choice.configure(sb, store, clock.asClock(), spec.seed(), objects, spec.jobStreams(), volumes[0]);
      });
    }
    if (spec.features().storage()) {
      // the claims of generic ephemeral volumes first, so that the PersistentVolume controller's pass sees them
      // (it follows the store's pods and claims: a pass without changes reads nothing)
      b.controller((store, clock, seed) -> {
        EphemeralVolumeController ephemeral = EphemeralVolumeController.builder(store).events(storageEvents)
            .metrics(metrics).build();
        return PeriodicController.following("ephemeral-volume", clock, VOLUME_PERIOD, ephemeral::follow,
            ephemeral::syncChanged);
      });
      b.controller((store, clock, seed) -> new PeriodicController("persistent-volume", clock, VOLUME_PERIOD,
          volumes[0]::syncAll));
    }
    boolean vpa = spec.features().verticalPodAutoscaler()
        && objects.stream().anyMatch(o -> o instanceof VerticalPodAutoscaler);
    if (vpa) {
      b.controller((store, clock, seed) -> {
        VerticalScaling vs = new VerticalScaling(store, clock, metricsHolder[0]);
        PeriodicController loop = new PeriodicController("vertical-pod-autoscaler", clock, VerticalScaling.PERIOD,
            () -> {
              for (String line : vs.runOnce()) {
                holder[0].record("VerticalScale", "VerticalPodAutoscaler", line);
              }
            });
        return SimulatedController.of(loop.name(), loop::start, loop::runUntilIdle, () -> {
          loop.close();
          vs.close();
        });
      });
    }
    List<String> manifestQueues = KueueManifests.clusterQueueNames(objects);
    boolean queued = spec.features().queueAdmission() && (!spec.queues().isEmpty() || !manifestQueues.isEmpty());
    AdmissionEngine[] engineHolder = new AdmissionEngine[1];
    if (queued) {
      b.controller((store, clock, seed) -> {
        AdmissionEngine engine = QueueEngines.engine(spec, objects, clock.asClock(), seed);
        engineHolder[0] = engine;
        // Kueue's scheduler runs apart from its job reconciler: the Jobs that arrive together are heads of one cycle
        QueueAdmissionController.Builder cb = QueueAdmissionController.builder(store, engine).clock(clock).stepping()
            .cyclesPerRound();
        if (QueueEngines.topologyAware(objects)) {
          cb.followNodes(); // topology-aware scheduling places pods on the store's nodes
        }
        QueueAdmissionController c = cb.build();
        return SimulatedController.of("queue-admission", () -> c.start().join(), c::runUntilIdle, c);
      });
    }
    QueueScaling[] scalingHolder = new QueueScaling[1];
    if (spec.features().queueScaling() && !spec.queueScalers().isEmpty()) {
      b.controller((store, clock, seed) -> {
        QueueScaling qs = new QueueScaling(store, clock, metricsHolder[0], spec.queueScalers(), spec.loads());
        scalingHolder[0] = qs;
        return new PeriodicController("queue-scaling", clock, QueueScaling.STEP,
            () -> qs.step().forEach((target, text) -> holder[0].record("QueueScale", target, text)));
      });
    }
    boolean networking = spec.features().networking()
        && objects.stream().anyMatch(o -> o instanceof io.fleetkit.api.core.Service);
    if (networking) {
      io.fleetkit.networking.ClusterNetworking.defaults().simulatedControllers(b.warningEvents())
          .forEach(b::controller);
    }
    long wallStart = System.nanoTime();
    try (Simulation sim = b.build()) {
      holder[0] = sim;
      // a pod on a failed node serves nothing from the failure on, though its status still says Ready
      LoadMetrics loadMetrics = metricsHolder[0];
      sim.onNodeLiveness((node, alive) -> loadMetrics.nodeDown(node, !alive));
      scheduleFaults(sim, spec.faults(), outages, stockouts, spots);
      List<JobStream> streams = spec.jobStreams();
      if (!queued) {
        streams = streams.stream().map(js -> new JobStream(js.name(), js.namespace(), "", js.jobs(), js.trace(),
            js.first(), js.timeScale(), js.perHour(), js.template())).toList();
      }
      JobArrivals.schedule(sim, streams, spec.seed(), spec.duration());
      SeriesRecorder recorder = new SeriesRecorder(sim.store(), metricsHolder[0], spec.loads());
      recorder.start(sim.clock()::now);
      recorder.startupPhases(startup);
      if (engineHolder[0] != null) {
        List<String> queueNames = new ArrayList<>(manifestQueues);
        spec.queues().forEach(q -> queueNames.add(q.name()));
        recorder.queues(engineHolder[0], queueNames);
        QueueEngines.recordInactive(engineHolder[0], queueNames, sim);
      }
      if (!streams.isEmpty()) {
        recorder.jobStreams(JobArrivals.streamNames(streams));
      }
      if (scalingHolder[0] != null) {
        recorder.queueScaling(scalingHolder[0]);
      }
      recorder.sample(sim.elapsed());
      LoadAccounting accounting = new LoadAccounting(metricsHolder[0], spec.loads());
      accounting.start(sim.elapsed());
      sim.afterEachInstant(() -> accounting.advance(sim.elapsed()));
      while (sim.elapsed().compareTo(spec.duration()) < 0) {
        Duration step = spec.sampleInterval();
        Duration left = spec.duration().minus(sim.elapsed());
        sim.runFor(step.compareTo(left) < 0 ? step : left);
        recorder.sample(sim.elapsed());
        if (progress != null) {
          progress.accept(new Progress(sim.elapsed(), spec.duration(), System.nanoTime() - wallStart,
              sim.timelineSize()));
        }
      }
      List<TimelineEvent> timeline = sim.timeline();
      List<TimelineEvent> markers = new ArrayList<>();
      for (TimelineEvent e : timeline) {
        if (MARKER_KINDS.contains(e.kind())) {
          markers.add(e);
        }
      }
      List<io.fleetkit.networking.ServiceSummary> services = networking
          ? io.fleetkit.networking.ServiceSummary.of(sim.store().list(io.fleetkit.api.core.Service.class).items(),
              sim.store().list(io.fleetkit.api.discovery.EndpointSlice.class).items())
          : List.of();
      return new SimulationRun(scenario.metadata().name(), spec.seed(), spec.duration(), recorder.times(),
          recorder.series(), timeline, markers, sim.summary(), services, accounting.outcomes(sim.elapsed()));
    }
  }

  /**
   * A PersistentVolume controller with an unlimited in-memory provisioner for every provisioner the StorageClasses
   * among the objects name (the simulation has no real storage backend).
   */
  private PersistentVolumeController volumeController(ObjectStore store, ManualClock clock, EventRecorder events) {
    PersistentVolumeController.Builder vb = PersistentVolumeController.builder(store).clock(clock.asClock())
        .events(events);
    Set<String> provisioners = new TreeSet<>();
    for (ApiObject<?> o : objects) {
      if (o instanceof StorageClass sc && !StorageAnnotations.NO_PROVISIONER.equals(sc.provisioner())
          && provisioners.add(sc.provisioner())) {
        vb.provisioner(InMemoryProvisioner.unlimited(sc.provisioner()));
      }
    }
    return vb.build();
  }

  private static void scheduleFaults(Simulation sim, List<ScenarioFault> faults, ZoneOutages outages,
      CapacityStockouts stockouts, SpotInterruptions spots) {
    for (int i = 0; i < faults.size(); i++) {
      ScenarioFault f = faults.get(i);
      if (f.type() == FaultType.CapacityStockout) {
        stockouts.schedule(sim, f);
        continue;
      }
      if (f.type() == FaultType.SpotInterruption) {
        spots.schedule(sim, f, i);
        continue;
      }
      if (f.type() == FaultType.GpuDeviceFault || f.type() == FaultType.ApiSlowness
          || f.type() == FaultType.KubeletRestart) {
        FaultInjection.schedule(sim, f);
        continue;
      }
      Set<String> failed = new LinkedHashSet<>();
      sim.clock().schedule(f.at(), () -> {
        if (f.type() == FaultType.NodeFailure) {
          if (sim.agents().containsKey(f.target())) {
            sim.failNode(f.target());
            failed.add(f.target());
          } else {
            sim.record(FAULT_SKIPPED, "Node/" + f.target(), "NodeFailure: the node no longer exists (deleted since"
                + " the start, for example scaled down); nothing failed");
          }
        } else {
          for (Node n : sim.store().list(Node.class).items()) {
            if (f.target().equals(n.metadata().labels().get(ZONE_LABEL)) && sim.agents().containsKey(n.name())) {
              failed.add(n.name());
            }
          }
          sim.record("ZoneFailed", "Zone/" + f.target(), failed.size() + " node(s) stop: " + String.join(", ",
              failed));
          for (String n : failed) {
            sim.failNode(n);
          }
          outages.failed(sim, f.target()); // the machines starting there stop starting
        }
      });
      Duration rec = f.recoverAfter();
      if (rec != null) {
        sim.clock().schedule(f.at().plus(rec), () -> {
          List<String> back = new ArrayList<>();
          List<String> gone = new ArrayList<>();
          for (String n : failed) {
            (sim.agents().containsKey(n) ? back : gone).add(n);
          }
          if (f.type() == FaultType.ZoneFailure) {
            sim.record("ZoneRecovered", "Zone/" + f.target(), back.size() + " node(s) come back"
                + (back.isEmpty() ? "" : ": " + String.join(", ", back))
                + (gone.isEmpty() ? "" : "; " + gone.size() + " deleted meanwhile (for example by the autoscaler as"
                    + " unready): " + String.join(", ", gone)));
          } else if (!gone.isEmpty()) {
            sim.record(FAULT_SKIPPED, "Node/" + f.target(), "NodeFailure recovery: the node was deleted meanwhile (for"
                + " example by the autoscaler as unready); nothing recovered");
          }
          for (String n : back) {
            sim.reviveNode(n);
          }
          if (f.type() == FaultType.ZoneFailure) {
            outages.recovered(sim, f.target());
          }
        });
      }
    }
  }

  /** Builder; not thread-safe. */
  public static final class Builder {
    private final List<ApiObject<?>> objects = new ArrayList<>();
    private @Nullable Scenario scenario;
    private boolean podEvents = true;
    private @Nullable Consumer<Progress> progress;
    private MetricsRegistry metrics = MetricsRegistry.NOOP;
    private Simulation.@Nullable StoreFactory store;
    private final List<Consumer<Simulation.Builder>> applies = new ArrayList<>();

    private Builder() {}

    /** Where the run keeps its state (see {@link Simulation.Builder#store}); default the in-memory store. */
    public Builder store(Simulation.StoreFactory factory) {
      store = Objects.requireNonNull(factory, "factory");
      return this;
    }

    /**
     * Creates or updates {@code objects} {@code at} after the start, as {@link Simulation.Builder#apply} does.
     *
     * @throws IllegalArgumentException if {@code at} is negative, or an object is one of Kueue's: they configure the
     *     queues when the run starts, from the manifests
     */
    public Builder apply(Duration at, List<? extends ApiObject<?>> objects, String source) {
      Objects.requireNonNull(at, "at");
      Objects.requireNonNull(source, "source");
      if (at.isNegative()) {
        throw new IllegalArgumentException("cluster simulation: apply time " + at + " for " + source
            + " must not be negative");
      }
      List<ApiObject<?>> copy = List.copyOf(objects);
      for (ApiObject<?> o : copy) {
        Simulation.Builder.notKueue(o, "at " + at + " from " + source);
      }
      applies.add(b -> b.apply(at, copy, source));
      return this;
    }

    /**
     * The manifests to simulate. A {@link Scenario} among them is taken as the scenario.
     *
     * @throws IllegalArgumentException if they hold more than one Scenario, or one was set already
     */
    public Builder objects(List<? extends ApiObject<?>> os) {
      for (ApiObject<?> o : os) {
        if (o instanceof Scenario s) {
          scenario(s);
        } else {
          objects.add(Objects.requireNonNull(o, "object"));
        }
      }
      return this;
    }

    /**
     * The scenario.
     *
     * @throws IllegalArgumentException if one was set already
     */
    public Builder scenario(Scenario v) {
      Objects.requireNonNull(v, "scenario");
      if (scenario != null) {
        throw new IllegalArgumentException("cluster simulation: two scenarios, " + scenario.metadata().name()
            + " and " + v.metadata().name() + "; give one");
      }
      scenario = v;
      return this;
    }

    /** Whether the timeline records per-pod events (default true). */
    public Builder podEvents(boolean v) {
      podEvents = v;
      return this;
    }

    /**
     * Records the metrics of the scheduler, the controllers and their work queues (as
     * {@link Simulation.Builder#metrics}), of the HorizontalPodAutoscaler controller, of the cluster autoscaler and of
     * the ephemeral volume controller into {@code registry}; default none ({@link MetricsRegistry#NOOP}).
     */
    public Builder metrics(MetricsRegistry registry) {
      metrics = Objects.requireNonNull(registry, "registry");
      return this;
    }

    /** Called after every sample with how far the run has got (for a progress display). */
    public Builder progress(Consumer<Progress> v) {
      progress = Objects.requireNonNull(v, "progress");
      return this;
    }

    /** Whether a scenario has been given. */
    public boolean hasScenario() {
      return scenario != null;
    }

    /**
     * @throws ValidationException with every rule the scenario breaks against the objects (a load, fault, node
     *     start-up or stream naming something not among them, flavors defined twice differently) and every unknown
     *     scheduler or cluster autoscaler option; each violation names the scenario and the field
     *     ({@code spec.faults[2].nodeFailure}), so a caller that knows where the scenario was written can show the
     *     line
     * @throws NullPointerException if no scenario was given
     */
    public ClusterSimulation build() {
      return new ClusterSimulation(this);
    }
  }
}
