package io.fleetkit.simulator;

import io.fleetkit.admission.Admission;
import io.fleetkit.admission.DefaultTolerationSecondsPlugin;
import io.fleetkit.admission.NamespaceLifecyclePlugin;
import io.fleetkit.admission.PriorityPlugin;
import io.fleetkit.admission.QuotaLedger;
import io.fleetkit.admission.QuotaReplenisher;
import io.fleetkit.admission.ServiceAccountPlugin;
import io.fleetkit.admission.ServiceAccountsController;
import io.fleetkit.api.admission.AdmissionChain;
import io.fleetkit.api.admission.AdmissionDeniedException;
import io.fleetkit.api.core.LimitRange;
import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.core.ResourceQuota;
import io.fleetkit.api.core.ServiceAccount;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.metrics.MetricsRegistry;
import io.fleetkit.api.scheduling.PriorityClass;
import io.fleetkit.api.storage.StorageClass;
import io.fleetkit.autoscale.cluster.simulator.SimulatedNodes;
import java.time.Clock;
import java.util.function.Function;
import io.fleetkit.api.apps.ControllerRevision;
import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.batch.CronJob;
import io.fleetkit.api.apps.DaemonSet;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeCondition;
import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.ReplicationController;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.ObjectStoreBuilder;
import io.fleetkit.api.store.Watch;
import io.fleetkit.api.store.WatchEventType;
import io.fleetkit.api.resource.dra.DeviceClass;
import io.fleetkit.api.resource.dra.DeviceTaintRule;
import io.fleetkit.api.resource.dra.ResourceClaim;
import io.fleetkit.api.resource.dra.ResourceClaimTemplate;
import io.fleetkit.api.resource.dra.ResourceSlice;
import io.fleetkit.queueing.manifest.KueueObject;
import io.fleetkit.reconcile.controllers.DeviceTaintEvictionController;
import io.fleetkit.reconcile.controllers.ResourceClaimController;
import io.fleetkit.reconcile.node.ResourceSlicePublisher;
import io.fleetkit.reconcile.GarbageCollector;
import io.fleetkit.reconcile.GarbageCollectorBuilder;
import io.fleetkit.reconcile.SharedInformers;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.api.rollouts.AnalysisRun;
import io.fleetkit.api.rollouts.Rollout;
import io.fleetkit.reconcile.SimulatedController;
import io.fleetkit.reconcile.controllers.DeploymentController;
import io.fleetkit.reconcile.rollouts.AnalysisRunController;
import io.fleetkit.reconcile.rollouts.RolloutController;
import io.fleetkit.reconcile.controllers.DisruptionController;
import io.fleetkit.reconcile.controllers.CronJobController;
import io.fleetkit.reconcile.controllers.JobController;
import io.fleetkit.reconcile.controllers.ReplicaSetController;
import io.fleetkit.reconcile.controllers.ReplicationManager;
import io.fleetkit.reconcile.controllers.StatefulSetController;
import io.fleetkit.reconcile.controllers.DaemonSetController;
import io.fleetkit.reconcile.controllers.TtlAfterFinishedController;
import io.fleetkit.reconcile.node.HealthSource;
import io.fleetkit.reconcile.node.MemoryUsage;
import io.fleetkit.reconcile.node.NodeAgent;
import io.fleetkit.reconcile.node.NodeLeases;
import io.fleetkit.reconcile.node.CloudInstances;
import io.fleetkit.reconcile.controllers.RootCACertPublisher;
import io.fleetkit.reconcile.node.CloudNodeLifecycleController;
import io.fleetkit.reconcile.node.NodeLifecycleController;
import io.fleetkit.reconcile.node.PodGcController;
import io.fleetkit.reconcile.node.TaintEvictionController;
import io.fleetkit.scheduler.Scheduler;
import io.fleetkit.scheduler.SchedulerBuilder;
import io.fleetkit.scheduler.StoreScheduler;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.function.Supplier;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * A whole cluster in simulated time: the embedded store (direct delivery), the workload controllers (ReplicaSet,
 * Deployment, StatefulSet, Job, Disruption, garbage collector; the DaemonSet controller when the objects contain a
 * DaemonSet; the TTL-after-finished controller when they contain a Job with {@code ttlSecondsAfterFinished} or a
 * CronJob; the resource-claim and device taint eviction controllers when they contain Dynamic Resource Allocation
 * objects, unless {@link Builder#withoutResourceClaimController}; the DRA drivers' {@link ResourceSlicePublisher} when
 * a NodePool has device templates; plus any {@linkplain Builder#controller registered} ones), the real
 * scheduler
 * ({@link StoreScheduler} over the default profile), the {@link NodeLifecycleController}, the
 * {@link CloudNodeLifecycleController} (the cloud controller manager's: deletes a not-ready node whose machine the
 * simulated cloud, {@link Builder#cloud}, says is gone, and records {@code DeletingNode}), the
 * {@link TaintEvictionController}, the {@link PodGcController} (kube's pod garbage collector, with
 * kube-controller-manager's defaults: 12,500 terminated pods, a pass every 20 s, orphans of deleted nodes after 40 s;
 * {@link Builder#withoutPodGarbageCollector} leaves it out), the {@link RootCACertPublisher} (every namespace's
 * {@code kube-root-ca.crt}, which the projected {@code kube-api-access-*} volumes of pods read;
 * {@link Builder#withoutRootCACertPublisher} leaves it out) and one {@link NodeAgent} per node, all on one
 * {@link ManualClock}. Every Node without an {@code InternalIP} gets one from the node CIDR
 * ({@link Builder#nodeCidrs}, default 10.0.0.0/16) and a {@code Hostname} address as it
 * appears, before its kubelet runs, so that its pods get their {@code hostIP} and host-network pods their node's IP.
 * Time jumps from
 * timer to timer (and ticks every simulated second while the scheduler holds pods waiting); after each step every
 * component runs until nothing is left to do at that instant. Runs are deterministic: same objects, faults and seed, same timeline.
 *
 * <p>Build with {@link #builder()}: {@code Simulation.builder().objects(manifests).failNode("n1",
 * Duration.ofMinutes(2)).seed(7).build()}, then {@link #runFor}, {@link #runUntil}, read {@link #timeline()} and
 * {@link #summary()}. Not thread-safe: drive a simulation from one thread.
 */
public final class Simulation implements AutoCloseable {
  private static final int MAX_SETTLE_ROUNDS = 100_000;
  /**
   * The CA bundle a simulation's {@link RootCACertPublisher} publishes unless {@link Builder#rootCA} gives another: a
   * PEM block whose body says it is a test value; no certificate parses from it and none is needed, as nothing in a
   * simulation verifies a server.
   */
  public static final String TEST_ROOT_CA = "-----BEGIN CERTIFICATE-----\n"
      + "RkxFRVRLSVQtU0lNVUxBVElPTi1URVNULUNBLU5PVC1BLVJFQUwtQ0VSVElGSUNBVEU=\n"
      + "-----END CERTIFICATE-----\n";
  /** How often the resource-claim controller syncs the pods and claims that changed. */
  public static final Duration RESOURCE_CLAIM_PERIOD = Duration.ofSeconds(1);

  private final ManualClock clock;
  private final Instant start;
  private final ObjectStore store;
  private final Scheduler scheduler;
  private final StoreScheduler storeScheduler;
  private final List<SimulatedController> controllers = new ArrayList<>();
  /** Run after each settled instant ({@link #afterEachInstant}). */
  private final List<Runnable> instantHooks = new ArrayList<>();
  /** Told of each node that fails or comes back ({@link #onNodeLiveness}). */
  private final List<java.util.function.BiConsumer<String, Boolean>> livenessHooks = new ArrayList<>();
  /** One informer per kind for the default controllers (one pod cache instead of one per controller). */
  private final SharedInformers informers;
  private final NodeLifecycleController lifecycle;
  private final CloudNodeLifecycleController cloudLifecycle;
  private final TaintEvictionController eviction;
  /** kube-controller-manager's pod GC; null when left out. */
  private final @Nullable PodGcController podGc;
  private final Map<String, NodeAgent> agents = new LinkedHashMap<>();
  /**
   * The agents in the order they started (null where one was closed), and which of them have work at their next
   * sync: a settle round syncs only those, in that order, and tells the Leases that every kubelet ran.
   */
  private final List<@Nullable NodeAgent> agentOrder = new ArrayList<>();
  private final java.util.BitSet agentsWithWork = new java.util.BitSet();
  /** The kubelets' node Leases, read by the node lifecycle controller. */
  private final NodeLeases leases = new NodeLeases();
  /** The starting nodes (launched, not Ready yet) whose kubelet renews their Lease without an agent. */
  private final Set<String> registered = new HashSet<>();
  private final HealthSource health;
  /** The containers' memory usage the kubelets see; {@code null}: none modelled (no OOM kills, no eviction manager). */
  private final @Nullable MemoryUsage memoryUsage;
  /** The wake-up at the next whole second while the scheduler has pods waiting (see {@link #armSchedulerPoll}). */
  private io.fleetkit.api.time.TimerClock.@Nullable Timer schedulerPoll;
  private final TimelineRecorder timeline;
  /** Makes the starting objects creatable when they were dumped from a cluster (resourceVersion, owner uids). */
  private final DumpedState dumped = new DumpedState();
  private final @Nullable QuotaReplenisher quotas;
  /** The ServiceAccounts controller, run when the chain has ServiceAccount admission (a cluster has both). */
  private final @Nullable ServiceAccountsController serviceAccounts;
  private final Watch podFeed;
  private final Watch nodeFeed;
  /** Nodes created, made Ready or deleted since the last settle round, by name (insertion order). */
  private final Map<String, Boolean> nodeChanges = new LinkedHashMap<>();
  /** The machines' addresses ({@link Builder#nodeCidrs}). */
  private final NodeAddresses nodeAddresses;
  /** Nodes seen without an {@code InternalIP} since the last settle round, by name (insertion order). */
  private final Set<String> unaddressed = new java.util.LinkedHashSet<>();
  /** Nodes the node CIDR had no address left for (recorded once each, until deleted). */
  private final Set<String> addressFailed = new HashSet<>();
  private final long seed;
  private final ApiLatency api = new ApiLatency();
  private boolean closed;

  private Simulation(Builder b) {
    Set<String> nodeNames = new TreeSet<>();
    for (ApiObject<?> o : b.objects) {
      if (o instanceof Node n) {
        nodeNames.add(n.name());
      }
    }
    for (Fault f : b.faults) {
      if (!nodeNames.contains(f.node)) {
        throw new IllegalArgumentException("simulation: fault for node " + f.node + " at " + f.at
            + ": no such node (nodes: " + nodeNames + ")");
      }
    }
    this.seed = b.seed;
    this.clock = new ManualClock(b.start);
    this.start = b.start;
    this.health = b.health;
    this.memoryUsage = b.memoryUsage;
    AtomicLong uids = new AtomicLong();
    Supplier<String> uidSource = () -> uid(uids.incrementAndGet());
    AdmissionChain chain = b.admission != null ? b.admission.apply(clock.asClock())
        : b.defaultTolerations
            ? AdmissionChain.of(PriorityPlugin.keepingGivenPriorities(), new DefaultTolerationSecondsPlugin())
            : AdmissionChain.of(PriorityPlugin.keepingGivenPriorities());
    if (b.storeFactory != null) {
      this.store = b.storeFactory.create(clock.asClock(), uidSource, chain);
    } else {
      ObjectStoreBuilder storeBuilder = ObjectStore.builder().directDelivery().clock(clock.asClock())
          .uidGenerator(uidSource);
      this.store = storeBuilder.admission(chain).build();
    }
    this.timeline = new TimelineRecorder(store, this::elapsed, b.podEvents);
    b.warnings = timeline.warningEvents();
    this.quotas = b.admission == null ? null
        : QuotaReplenisher.watch(store, clock.asClock(), QuotaLedger.of(chain).orElse(null));
    this.serviceAccounts = chain.plugins().stream().anyMatch(p -> p instanceof ServiceAccountPlugin)
        ? ServiceAccountsController.of(store).start() : null;
    List<ApiObject<?>> nodes = new ArrayList<>();
    List<ApiObject<?>> others = new ArrayList<>();
    for (ApiObject<?> o : DumpedState.ownersFirst(admissionOrder(b.objects))) {
      (o instanceof Node ? nodes : others).add(o);
    }
    for (ApiObject<?> o : nodes) {
      create(o);
    }
    this.nodeAddresses = new NodeAddresses(b.nodeCidrs != null ? b.nodeCidrs : List.of(NodeAddresses.DEFAULT_CIDR));
    // the addresses the manifests give, those applied later included, are nobody else's
    reserveGivenAddresses(b);
    for (Node n : store.list(Node.class).items()) {
      unaddressed.add(n.name());
    }
    assignAddresses();
    SchedulerBuilder schedulerBuilder = Scheduler.builder().clock(clock.asClock()).seed(seed).parallelism(1)
        .store(store).metrics(b.metrics);
    if (b.schedulerSetup != null) {
      b.schedulerSetup.configure(store, clock, schedulerBuilder);
    }
    this.scheduler = schedulerBuilder.build();
    // the claims, volumes and classes too: a pod the volume plugins rejected is retried when one changes
    this.storeScheduler = StoreScheduler.attach(scheduler, store,
        List.of(PersistentVolume.class, PersistentVolumeClaim.class, StorageClass.class));
    this.informers = SharedInformers.of(store, clock);
    List<SimulatedController.Factory> factories = new ArrayList<>();
    if (b.defaultControllers) {
      boolean daemonSets = creates(b, DaemonSet.class);
      boolean replicationControllers = creates(b, ReplicationController.class);
      factories.addAll(defaultControllers(b.metrics, timeline.controllerEvents(), b.rollouts,
          creates(b, CronJob.class), daemonSets, replicationControllers,
          creates(b, o -> o instanceof ResourceClaimTemplate || o instanceof ResourceClaim), informers));
      if (daemonSets) {
        // only then: a scenario without DaemonSets runs exactly the controllers it always ran
        factories.add(daemonSetController(b.metrics, timeline.controllerEvents(), informers));
      }
      if (replicationControllers) {
        // only then, as the DaemonSet controller
        factories.add(replicationManager(b.metrics, timeline.controllerEvents(), informers));
      }
      if (b.resourceClaims && creates(b, Simulation::isDraObject)) {
        // only then: a scenario without Dynamic Resource Allocation runs exactly the controllers it always ran
        factories.add(resourceClaimController(b.metrics));
        factories.add(deviceTaintEvictionController(timeline.controllerEvents(), b.metrics));
      }
      if (b.ttlAfterFinished && (creates(b, CronJob.class)
          || creates(b, o -> o instanceof Job j && j.spec().ttlSecondsAfterFinished() != null))) {
        // only then, as the DaemonSet controller: other scenarios run exactly the controllers they always ran
        factories.add(ttlAfterFinishedController(b.metrics, informers));
      }
    }
    if (creates(b, Simulation::hasDeviceTemplates)) {
      // only then: the nodes of pools with device templates get their DRA drivers' slices
      factories.add(resourceSlicePublisher(b.driversRunning));
    }
    int rootCA = -1;
    if (b.rootCA != null) {
      rootCA = factories.size();
      factories.add(rootCACertPublisher(b.rootCA, informers));
    }
    factories.addAll(b.controllers);
    for (SimulatedController.Factory f : factories) {
      SimulatedController c = f.create(store, clock, seed);
      c.start();
      controllers.add(c);
    }
    SimulatedController rootCAPublisher = rootCA < 0 ? null : controllers.get(rootCA);
    this.lifecycle = NodeLifecycleController.builder(store, clock).gracePeriod(b.gracePeriod).leases(leases)
        .build();
    this.cloudLifecycle = CloudNodeLifecycleController.builder(store, clock, b.cloud)
        .events((regarding, related, type, reason, action, note) -> {
          if (reason.equals(CloudNodeLifecycleController.DELETING_NODE)) {
            timeline.add(reason, "Node/" + regarding.name(), note); // the NodeDeleted line follows

          } else if (type.equals(io.fleetkit.api.events.Event.WARNING)) {
            timeline.warningEvents().event(regarding, related, type, reason, action, note);
          }
        })
        .build();
    this.eviction = TaintEvictionController.create(store, clock);
    this.podGc = b.podGc ? PodGcController.builder(store, clock).metrics(b.metrics).build() : null;
    eviction.start();
    lifecycle.start();
    cloudLifecycle.start();
    if (podGc != null) {
      podGc.start();
    }
    for (Node n : store.list(Node.class).items()) {
      addAgent(n.name());
    }
    // one pod watch for all kubelets instead of one per node
    this.podFeed = store.watch(Pod.class, "0", e -> {
      NodeAgent a = agents.get(e.object().spec().nodeName());
      if (a != null) {
        a.observe(e);
      }
    });
    // nodes that appear later (an autoscaler's) get a kubelet once Ready, and while they start a registered kubelet
    // that renews their Lease; deleted nodes lose theirs
    this.nodeFeed = store.watch(Node.class, "0", e -> {
      Node n = e.object();
      if (e.type() == WatchEventType.DELETED) {
        unaddressed.remove(n.name());
        addressFailed.remove(n.name());
        nodeAddresses.release(n.name());
      } else if (!NodeAddresses.hasInternalIp(n)) {
        unaddressed.add(n.name());
      }
      if (e.type() == WatchEventType.DELETED) {
        nodeChanges.put(n.name(), false);
      } else if (!agents.containsKey(n.name()) && (n.isReady() || !hasReadyCondition(n))) {
        nodeChanges.put(n.name(), true);
      } else if (!agents.containsKey(n.name()) && !registered.contains(n.name()) && SimulatedNodes.isStarting(n)) {
        nodeChanges.putIfAbsent(n.name(), true);
      }
    });
    for (ApiObject<?> o : others) {
      create(o);
    }
    if (rootCAPublisher != null) {
      // the starting namespaces have their kube-root-ca.crt, as in the cluster a dump comes from, before the first
      // settle round's kubelets set up the volumes of the pods that start bound
      rootCAPublisher.runUntilIdle();
    }
    for (Fault f : b.faults) {
      clock.schedule(f.at, () -> {
        if (f.fail) {
          failNode(f.node);
        } else {
          reviveNode(f.node);
        }
      });
    }
    for (Apply a : b.applies) {
      clock.schedule(a.at, () -> {
        for (ApiObject<?> o : a.objects) {
          apply(o, a.source);
        }
      });
    }
    settle();
  }

  /**
   * Creates {@code o}, or updates the stored object of that kind and name the way {@code kubectl apply} does for
   * the fields it sets: the spec is replaced, labels and annotations are merged over the stored ones, finalizers
   * added, and the status and the store's and controllers' metadata (uid, owner references) kept. A refusal by the store
   * (validation, admission) is recorded as {@code ApplyRejected}, as a client would see it; the run goes on.
   */
  private void apply(ApiObject<?> o, String source) {
    String id = o.kind() + "/" + o.metadata().key();
    try {
      ApiObject<?> stored = find(o);
      if (stored == null) {
        storeCreate(o);
        timeline.add("Applied", id, "created from " + source);
        return;
      }
      Map<String, String> labels = new LinkedHashMap<>(stored.metadata().labels());
      labels.putAll(o.metadata().labels());
      Map<String, String> annotations = new LinkedHashMap<>(stored.metadata().annotations());
      annotations.putAll(o.metadata().annotations());
      List<String> finalizers = new ArrayList<>(stored.metadata().finalizers());
      for (String f : o.metadata().finalizers()) {
        if (!finalizers.contains(f)) {
          finalizers.add(f);
        }
      }
      ApiObject<?> next = o.withMetadata(stored.metadata().toBuilder().labels(labels).annotations(annotations)
          .finalizers(finalizers).resourceVersion("").build());
      ApiObject<?> after = update(next);
      timeline.add("Applied", id, (after.metadata().generation() == stored.metadata().generation()
          && after.metadata().labels().equals(stored.metadata().labels())
          && after.metadata().annotations().equals(stored.metadata().annotations()) ? "unchanged" : "updated")
          + " from " + source);
    } catch (RuntimeException e) {
      timeline.add("ApplyRejected", id, source + ": " + e.getMessage());
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private @Nullable ApiObject<?> find(ApiObject<?> o) {
    return (ApiObject<?>) store.get((Class) o.getClass(), o.metadata().namespace(), o.metadata().name())
        .orElse(null);
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private void storeCreate(ApiObject<?> o) {
    store.create((ApiObject) o);
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private ApiObject<?> update(ApiObject<?> o) {
    return store.update((ApiObject) o);
  }

  /**
   * Creates starting object {@code given}, as {@link DumpedState#prepare} makes it creatable; a refusal by the
   * admission chain is a {@code Rejected} timeline event, not an error.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private void create(ApiObject<?> given) {
    ApiObject<?> o = dumped.prepare(given);
    try {
      if (o instanceof ServiceAccount sa && serviceAccounts != null) {
        ServiceAccountsController.apply(store, sa); // a namespace's default replaces the one the controller made
        return;
      }
      dumped.created(given, (ApiObject<?>) store.create((ApiObject) o));
    } catch (AdmissionDeniedException e) {
      String ns = o.metadata().namespace();
      timeline.add("Rejected", o.kind() + "/" + (ns.isEmpty() ? "" : ns + "/") + o.metadata().name(),
          e.getMessage());
    }
  }

  /**
   * {@code objects} in the order an API server needs them when admission is on ({@link Admission#creationOrder}),
   * after the namespaces every cluster has that they lack.
   */
  static List<ApiObject<?>> admissionOrder(List<ApiObject<?>> objects) {
    List<ApiObject<?>> out = new ArrayList<>(Admission.missingImmortalNamespaces(objects));
    out.addAll(Admission.creationOrder(objects));
    return out;
  }

  /** {@code String.format("uid-%08d", n)} for {@code n >= 0}, without the formatter (one per created object). */
  static String uid(long n) {
    String digits = Long.toString(n);
    return digits.length() >= 8 ? "uid-" + digits : "uid-" + "00000000".substring(digits.length()) + digits;
  }

  private static boolean hasReadyCondition(Node n) {
    return n.status().condition(NodeCondition.READY) != null;
  }

  private void reserveGivenAddresses(Builder b) {
    for (ApiObject<?> o : b.objects) {
      if (o instanceof Node n) {
        nodeAddresses.reserve(n.name(), n.status().addresses());
      }
    }
    for (Apply a : b.applies) {
      for (ApiObject<?> o : a.objects) {
        if (o instanceof Node n) {
          nodeAddresses.reserve(n.name(), n.status().addresses());
        }
      }
    }
  }

  /**
   * Gives the nodes seen without an {@code InternalIP} their addresses ({@link NodeAddresses}), as their kubelets
   * register them; returns how many it wrote.
   */
  private int assignAddresses() {
    if (unaddressed.isEmpty()) {
      return 0;
    }
    List<String> names = new ArrayList<>(unaddressed);
    unaddressed.clear();
    int writes = 0;
    for (String name : names) {
      Node n = store.get(Node.class, "", name).orElse(null);
      io.fleetkit.api.core.NodeStatus status;
      try {
        status = n == null ? null : nodeAddresses.assign(n);
      } catch (io.fleetkit.networking.ipam.AllocationException e) {
        if (addressFailed.add(name)) { // once: it runs on without addresses, each status post finding none
          timeline.add("NodeAddressFailed", "Node/" + name, e.getMessage());
        }
        continue;
      }
      if (status != null) {
        store.updateStatus(n.withStatus(status));
        writes++;
      }
    }
    return writes;
  }

  /** Starts kubelets for new nodes and stops those of deleted ones; returns how many changed. */
  private int applyNodeChanges() {
    if (nodeChanges.isEmpty()) {
      return 0;
    }
    List<Map.Entry<String, Boolean>> changes = new ArrayList<>(nodeChanges.entrySet());
    nodeChanges.clear();
    for (Map.Entry<String, Boolean> c : changes) {
      String name = c.getKey();
      if (c.getValue()) {
        Node n = agents.containsKey(name) ? null : store.get(Node.class, "", name).orElse(null);
        if (n != null && SimulatedNodes.isStarting(n)) {
          // a starting machine's kubelet has registered: it renews the Lease, so the node lifecycle controller sees
          // a NotReady node that heartbeats, not one that stopped (Unknown, tainted unreachable)
          if (registered.add(name)) {
            leases.register(name, clock.now());
          }
        } else if (n != null) {
          registered.remove(name);
          addAgent(name); // its Lease replaces the registered kubelet's
          timeline.add("NodeStarted", "Node/" + name, "a kubelet runs the new node");
        }
      } else {
        if (registered.remove(name) && !agents.containsKey(name)) {
          leases.forget(name);
        }
        NodeAgent a = agents.remove(name);
        if (a != null) {
          boolean dead = !a.alive();
          a.close();
          if (dead) { // a failed node deleted: its name no longer names a dead node
            liveness(name, true);
          }
          int i = agentOrder.indexOf(a);
          agentOrder.set(i, null);
          agentsWithWork.clear(i);
        }
      }
    }
    return changes.size();
  }

  private void addAgent(String node) {
    // kubelets since kube 1.17: a Lease renewal every 10 s, the node status every 5 minutes
    int index = agentOrder.size();
    NodeAgent.Builder b = NodeAgent.builder(store, clock, node).healthSource(health).watchPods(false).leases(leases)
        .events(timeline.warningEvents()).onWork(() -> agentsWithWork.set(index));
    if (memoryUsage != null) {
      b.memoryUsage(memoryUsage);
    }
    NodeAgent a = b.build();
    agentOrder.add(a);
    a.start();
    agents.put(node, a);
  }

  /**
   * The ReplicaSet, Deployment, StatefulSet, Job, Disruption (PodDisruptionBudget status), Rollout and AnalysisRun
   * controllers and the garbage collector, in stepping mode.
   */
  public static List<SimulatedController.Factory> defaultControllers() {
    return defaultControllers(MetricsRegistry.NOOP);
  }

  /** {@link #defaultControllers()} recording their controller and work-queue metrics into {@code metrics}. */
  public static List<SimulatedController.Factory> defaultControllers(MetricsRegistry metrics) {
    return defaultControllers(metrics, EventRecorder.NOOP);
  }

  /**
   * {@link #defaultControllers(MetricsRegistry)} whose ReplicaSet, StatefulSet and Job controllers record their
   * events ({@code SuccessfulCreate}, {@code FailedCreate}, ...) into {@code events}.
   */
  public static List<SimulatedController.Factory> defaultControllers(MetricsRegistry metrics,
      EventRecorder events) {
    return defaultControllers(metrics, events, true, false, false, false, false, null);
  }

  /** Whether the scenario creates an object of {@code kind}, at the start or in an apply. */
  /** Whether {@code o} is one of Dynamic Resource Allocation's kinds. */
  private static boolean isDraObject(ApiObject<?> o) {
    return o instanceof DeviceClass || o instanceof ResourceSlice || o instanceof ResourceClaim
        || o instanceof ResourceClaimTemplate || o instanceof DeviceTaintRule;
  }

  /**
   * Kubernetes' device taint eviction controller ({@link DeviceTaintEvictionController}): pods using allocated devices
   * with a NoExecute taint (of their ResourceSlice or of a DeviceTaintRule) that their claim does not tolerate are
   * deleted on the simulated clock, at the taint's time plus the smallest matching {@code tolerationSeconds}; its
   * {@code DeviceTaintManagerEviction} events go to the timeline.
   */
  private static SimulatedController.Factory deviceTaintEvictionController(EventRecorder events,
      MetricsRegistry metrics) {
    return (store, clock, seed) -> {
      DeviceTaintEvictionController c = DeviceTaintEvictionController.create(store, clock, events, metrics);
      return SimulatedController.of(DeviceTaintEvictionController.NAME, c::start, c::sync, c);
    };
  }

  /**
   * Kubernetes' resource-claim controller ({@link ResourceClaimController}): following the store, it syncs the pods
   * and claims that changed every {@link #RESOURCE_CLAIM_PERIOD} (claims made from templates, reservations of pods
   * that are gone or done released, their generated claims deleted). A pod whose sync fails (its template missing)
   * stays marked and is tried again next period.
   */
  private static SimulatedController.Factory resourceClaimController(MetricsRegistry metrics) {
    return (store, clock, seed) -> {
      ResourceClaimController claims = ResourceClaimController.of(store, new Random(seed), metrics);
      return PeriodicController.following("resource-claim", clock, RESOURCE_CLAIM_PERIOD, claims::follow,
          claims::syncChanged);
    };
  }

  /**
   * The {@link ReplicationManager} in stepping mode, recording its metrics and events; a simulation whose objects
   * contain a ReplicationController runs it after the default controllers.
   */
  private static SimulatedController.Factory replicationManager(MetricsRegistry metrics, EventRecorder events,
      @Nullable SharedInformers shared) {
    return (store, clock, seed) -> {
      ReplicationManager.Builder b = ReplicationManager.builder(store).clock(clock).stepping().seed(seed)
          .metrics(metrics).events(events);
      ReplicationManager c = (sharedFor(shared, store) ? b.informers(shared) : b).build();
      return SimulatedController.of("replicationmanager", () -> c.start().join(), c::runUntilIdle, c);
    };
  }

  private static boolean hasDeviceTemplates(ApiObject<?> o) {
    return o instanceof NodePool p && !p.spec().template().resourceSlices().isEmpty();
  }

  /**
   * The DRA drivers of the nodes of pools with device templates ({@link ResourceSlicePublisher}): every
   * {@link #RESOURCE_CLAIM_PERIOD}, a node whose drivers run ({@code driversRunning} of the node and the simulated
   * time; by default once the node is Ready) gets its pool's slices, and the slices of deleted nodes go.
   */
  private static SimulatedController.Factory resourceSlicePublisher(
      java.util.function.BiPredicate<Node, Instant> driversRunning) {
    return (store, clock, seed) -> {
      ResourceSlicePublisher publisher = ResourceSlicePublisher.of(store, n -> driversRunning.test(n, clock.now()));
      PeriodicController loop = new PeriodicController("resource-slice-publisher", clock, RESOURCE_CLAIM_PERIOD,
          publisher::sync);
      return SimulatedController.of(loop.name(), loop::start, loop::runUntilIdle, loop::close);
    };
  }

  private static boolean creates(Builder b, Class<?> kind) {
    return creates(b, kind::isInstance);
  }

  /** Whether the scenario creates an object that {@code which} accepts, at the start or in an apply. */
  private static boolean creates(Builder b, Predicate<? super ApiObject<?>> which) {
    if (b.objects.stream().anyMatch(which)) {
      return true;
    }
    for (Apply a : b.applies) {
      if (a.objects().stream().anyMatch(which)) {
        return true;
      }
    }
    return false;
  }

  /**
   * {@link #defaultControllers(MetricsRegistry, EventRecorder)}, without the Rollout and AnalysisRun ones unless
   * {@code rollouts}, and with the CronJob controller (before the Job controller, so that a Job created in a round is
   * started in it) and the garbage collector watching CronJobs when {@code cronJobs}, and DaemonSets (so that deleting one
   * deletes its pods and revisions) when {@code daemonSets}, and ReplicationControllers when
   * {@code replicationControllers}, and ResourceClaims (a claim made for a pod goes with
   * it) when {@code resourceClaims}; with {@code shared} the workload controllers and the garbage collector take their
   * informers from it when they are made over its store.
   */
  private static List<SimulatedController.Factory> defaultControllers(MetricsRegistry metrics, EventRecorder events,
      boolean rollouts, boolean cronJobs, boolean daemonSets, boolean replicationControllers, boolean resourceClaims,
      @Nullable SharedInformers shared) {
    List<SimulatedController.Factory> all = new ArrayList<>(List.of(
        (store, clock, seed) -> {
          ReplicaSetController.Builder b = ReplicaSetController.builder(store).clock(clock).stepping().seed(seed)
              .metrics(metrics).events(events);
          ReplicaSetController c = (sharedFor(shared, store) ? b.informers(shared) : b).build();
          return SimulatedController.of("replicaset", () -> c.start().join(), c::runUntilIdle, c);
        },
        (store, clock, seed) -> {
          DeploymentController.Builder b = DeploymentController.builder(store).clock(clock).stepping()
              .metrics(metrics);
          DeploymentController c = (sharedFor(shared, store) ? b.informers(shared) : b).build();
          return SimulatedController.of("deployment", () -> c.start().join(), c::runUntilIdle, c);
        },
        (store, clock, seed) -> {
          StatefulSetController.Builder b = StatefulSetController.builder(store).clock(clock).stepping()
              .metrics(metrics).events(events);
          StatefulSetController c = (sharedFor(shared, store) ? b.informers(shared) : b).build();
          return SimulatedController.of("statefulset", () -> c.start().join(), c::runUntilIdle, c);
        },
        (store, clock, seed) -> {
          JobController.Builder b = JobController.builder(store).clock(clock).stepping().seed(seed).metrics(metrics)
              .events(events);
          JobController c = (sharedFor(shared, store) ? b.informers(shared) : b).build();
          return SimulatedController.of("job", () -> c.start().join(), c::runUntilIdle, c);
        },
        (store, clock, seed) -> {
          DisruptionController.Builder b = DisruptionController.builder(store).clock(clock).stepping();
          DisruptionController c = (sharedFor(shared, store) ? b.informers(shared) : b).build();
          return SimulatedController.of("disruption", () -> c.start().join(), c::runUntilIdle, c);
        },
        (store, clock, seed) -> {
          GarbageCollectorBuilder b = GarbageCollector.builder(store).watch(Deployment.class)
              .watch(ReplicaSet.class).watch(StatefulSet.class).watch(ControllerRevision.class).watch(Job.class)
              .watch(Pod.class).watch(PersistentVolumeClaim.class).watch(Rollout.class).watch(AnalysisRun.class)
              .stepping().clock(clock);
          if (cronJobs) {
            b.watch(CronJob.class);
          }
          if (daemonSets) {
            b.watch(DaemonSet.class);
          }
          if (replicationControllers) {
            b.watch(ReplicationController.class);
          }
          if (resourceClaims) {
            b.watch(ResourceClaim.class);
          }
          GarbageCollector gc = (sharedFor(shared, store) ? b.informers(shared) : b).build();
          return SimulatedController.of("garbagecollector", () -> gc.start().join(), gc::runUntilIdle, gc);
        }));
    if (cronJobs) {
      int job = 3; // replicaset, deployment, statefulset, then job
      all.add(job, (store, clock, seed) -> {
        CronJobController.Builder b = CronJobController.builder(store).clock(clock).stepping().metrics(metrics)
            .events(events);
        CronJobController c = (sharedFor(shared, store) ? b.informers(shared) : b).build();
        return SimulatedController.of("cronjob", () -> c.start().join(), c::runUntilIdle, c);
      });
    }
    if (rollouts) { // before the garbage collector, in the order they always ran
      all.add(all.size() - 1, (store, clock, seed) -> {
        RolloutController c = RolloutController.builder(store).clock(clock).stepping().build();
        return SimulatedController.of("rollout", () -> c.start().join(), c::runUntilIdle, c);
      });
      all.add(all.size() - 1, (store, clock, seed) -> {
        AnalysisRunController c = AnalysisRunController.builder(store).clock(clock).stepping().build();
        return SimulatedController.of("analysisrun", () -> c.start().join(), c::runUntilIdle, c);
      });
    }
    return List.copyOf(all);
  }

  /**
   * The DaemonSet controller in stepping mode, recording its metrics and events; a simulation whose objects contain a
   * DaemonSet runs it after the {@linkplain #defaultControllers() default controllers}.
   */
  public static SimulatedController.Factory daemonSetController(MetricsRegistry metrics, EventRecorder events) {
    return daemonSetController(metrics, events, null);
  }

  private static SimulatedController.Factory daemonSetController(MetricsRegistry metrics, EventRecorder events,
      @Nullable SharedInformers shared) {
    return (store, clock, seed) -> {
      DaemonSetController.Builder b = DaemonSetController.builder(store).clock(clock).stepping().seed(seed)
          .metrics(metrics).events(events);
      DaemonSetController c = (sharedFor(shared, store) ? b.informers(shared) : b).build();
      return SimulatedController.of("daemonset", () -> c.start().join(), c::runUntilIdle, c);
    };
  }

  /**
   * The TTL-after-finished controller in stepping mode, recording its metrics: it deletes finished Jobs once their
   * {@code ttlSecondsAfterFinished} has passed on the simulated clock, and the garbage collector then deletes their
   * pods. A simulation whose objects contain a Job with that field, or a CronJob, runs it after the
   * {@linkplain #defaultControllers() default controllers} unless built {@link Builder#withoutTtlAfterFinished}.
   */
  public static SimulatedController.Factory ttlAfterFinishedController(MetricsRegistry metrics) {
    return ttlAfterFinishedController(metrics, null);
  }

  private static SimulatedController.Factory ttlAfterFinishedController(MetricsRegistry metrics,
      @Nullable SharedInformers shared) {
    return (store, clock, seed) -> {
      TtlAfterFinishedController.Builder b = TtlAfterFinishedController.builder(store).clock(clock).stepping()
          .metrics(metrics);
      TtlAfterFinishedController c = (sharedFor(shared, store) ? b.informers(shared) : b).build();
      return SimulatedController.of("ttl-after-finished", () -> c.start().join(), c::runUntilIdle, c);
    };
  }

  /**
   * kube-controller-manager's root CA certificate publisher ({@link RootCACertPublisher}) in stepping mode: every
   * namespace gets its {@value RootCACertPublisher#CONFIG_MAP_NAME} ConfigMap with {@code rootCA}, which the projected
   * {@code kube-api-access-*} volumes of pods read. Every simulation runs it with {@link #TEST_ROOT_CA} unless built
   * {@link Builder#withoutRootCACertPublisher}.
   */
  public static SimulatedController.Factory rootCACertPublisher(String rootCA) {
    return rootCACertPublisher(rootCA, null);
  }

  private static SimulatedController.Factory rootCACertPublisher(String rootCA, @Nullable SharedInformers shared) {
    Objects.requireNonNull(rootCA, "rootCA");
    return (store, clock, seed) -> {
      RootCACertPublisher.Builder b = RootCACertPublisher.builder(store, rootCA).clock(clock).stepping();
      RootCACertPublisher c = (sharedFor(shared, store) ? b.informers(shared) : b).build();
      return SimulatedController.of("root-ca-cert-publisher", () -> c.start().join(), c::runUntilIdle, c);
    };
  }

  /** Whether {@code shared} is given and watches {@code store} (a factory may be handed another store). */
  private static boolean sharedFor(@Nullable SharedInformers shared, ObjectStore store) {
    return shared != null && shared.store() == store;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The simulation's store: read it, or write to it between steps (spec changes, deletions). */
  public ObjectStore store() {
    return store;
  }

  /** The simulation's clock. */
  public ManualClock clock() {
    return clock;
  }

  /** The seed the scheduler and controllers were given. */
  public long seed() {
    return seed;
  }

  /** Simulated time since the start. */
  public Duration elapsed() {
    return Duration.between(start, clock.now());
  }

  /** The simulated kubelets by node name. */
  public Map<String, NodeAgent> agents() {
    return Map.copyOf(agents);
  }

  /** The node lifecycle controller. */
  public NodeLifecycleController nodeLifecycle() {
    return lifecycle;
  }

  /** The taint eviction controller. */
  public TaintEvictionController taintEviction() {
    return eviction;
  }

  /** The pod garbage collector; empty when the simulation was built {@link Builder#withoutPodGarbageCollector}. */
  public java.util.Optional<PodGcController> podGarbageCollector() {
    return java.util.Optional.ofNullable(podGc);
  }

  /**
   * Kills node {@code name} now (no heartbeats, pods freeze) and records {@code NodeFailed}.
   *
   * @throws IllegalArgumentException if there is no such node
   */
  public void failNode(String name) {
    failNode(name, "NodeFailed", "fault injected: the node stops heartbeating and running pods");
  }

  /**
   * Kills node {@code name} now as {@link #failNode(String)} does, recording {@code kind} with {@code message}.
   *
   * @throws IllegalArgumentException if there is no such node
   */
  void failNode(String name, String kind, String message) {
    agent(name).kill();
    timeline.add(kind, "Node/" + name, message);
    liveness(name, false);
  }

  /**
   * Restarts the kubelet of node {@code name} now ({@link NodeAgent#restartKubelet}: containers keep running, probe
   * workers and the restart backoff are rebuilt) and records {@code KubeletRestarted}.
   *
   * @throws IllegalArgumentException if there is no such node
   */
  public void restartKubelet(String name) {
    agent(name).restartKubelet();
    timeline.add("KubeletRestarted", "Node/" + name, "fault injected: the kubelet restarts; containers keep running");
  }

  /**
   * Brings node {@code name} back now and records {@code NodeRecovered}.
   *
   * @throws IllegalArgumentException if there is no such node
   */
  public void reviveNode(String name) {
    agent(name).revive();
    timeline.add("NodeRecovered", "Node/" + name, "the node heartbeats again");
    liveness(name, true);
  }

  /**
   * Tells {@code hook} of every node that fails ({@link #failNode}: the node's name and false) or comes back
   * ({@link #reviveNode}, or a failed node deleted: true), at the instant it happens, before the components settle.
   */
  void onNodeLiveness(java.util.function.BiConsumer<String, Boolean> hook) {
    livenessHooks.add(Objects.requireNonNull(hook, "hook"));
  }

  private void liveness(String node, boolean alive) {
    for (java.util.function.BiConsumer<String, Boolean> h : livenessHooks) {
      h.accept(node, alive);
    }
  }

  /**
   * Slows the API from now on: the scheduler and the controllers then get at most one round of work per
   * {@code latency} of simulated time (each round's requests answered that late), so bindings and controller writes
   * wait; {@link Duration#ZERO} makes it prompt again. Kubelets, the node lifecycle, taint eviction and the pod GC are
   * not slowed.
   *
   * @throws IllegalArgumentException if {@code latency} is negative
   */
  public void apiLatency(Duration latency) {
    Objects.requireNonNull(latency, "latency");
    if (latency.isNegative()) {
      throw new IllegalArgumentException("simulation: API latency " + latency + " must not be negative");
    }
    api.set(latency);
  }

  /**
   * Adds an event to the timeline at the current simulated time, for components driven from outside (an
   * autoscaler's decision, a load change).
   */
  public void record(String kind, String object, String message) {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(object, "object");
    Objects.requireNonNull(message, "message");
    timeline.add(kind, object, message);
  }

  /**
   * A recorder whose Warning events go to the timeline, each once per object, reason and message (for controllers
   * added to the simulation, e.g. storage provisioning or load balancers); Normal events are dropped.
   */
  public EventRecorder warningEvents() {
    return timeline.warningEvents();
  }

  private NodeAgent agent(String name) {
    NodeAgent a = agents.get(name);
    if (a == null) {
      throw new IllegalArgumentException("simulation: no node " + name + " (nodes: " + agents.keySet() + ")");
    }
    return a;
  }

  /**
   * Runs every component until none has anything left to do at the current instant. Call it after writing to the
   * store from outside (the run methods call it themselves).
   *
   * @throws IllegalStateException if the components keep working for 100,000 rounds (a livelock)
   */
  public void settle() {
    ensureOpen();
    for (int round = 0; round < MAX_SETTLE_ROUNDS; round++) {
      int n = assignAddresses();
      n += applyNodeChanges();
      if (quotas != null) {
        n += quotas.sync(); // first, so that a controller reacting to a deletion finds the usage freed
      }
      // every kubelet runs now; those without work would only renew their Lease
      leases.ranAll(clock.now());
      for (int i = agentsWithWork.nextSetBit(0); i >= 0; i = agentsWithWork.nextSetBit(i + 1)) {
        n += Objects.requireNonNull(agentOrder.get(i)).sync();
        agentsWithWork.clear(i);
      }
      if (api.open(clock.now())) {
        int m = scheduler.runUntilIdle().size();
        for (SimulatedController c : controllers) {
          m += c.runUntilIdle();
        }
        api.ran(m, clock);
        n += m;
      }
      n += lifecycle.sync();
      n += cloudLifecycle.sync();
      n += eviction.sync();
      if (podGc != null) {
        n += podGc.sync();
      }
      if (n == 0) {
        armSchedulerPoll();
        return;
      }
    }
    throw new IllegalStateException("simulation: still busy after " + MAX_SETTLE_ROUNDS + " rounds at "
        + elapsed());
  }

  /**
   * The scheduler retries pods whose backoff expired, flushes long-unschedulable ones and times out Permit waits when
   * it runs, without timers of its own: while it holds such pods, the clock is woken at every whole second since the
   * start, so that it runs at least once a second then. Otherwise time jumps straight to the next timer.
   */
  private void armSchedulerPoll() {
    if (schedulerPoll != null || (scheduler.pending().isEmpty() && scheduler.waitingPods().keys().isEmpty())) {
      return;
    }
    long sinceStart = Duration.between(start, clock.now()).toNanos();
    long toNextSecond = 1_000_000_000L - Math.floorMod(sinceStart, 1_000_000_000L);
    schedulerPoll = clock.schedule(Duration.ofNanos(toNextSecond), () -> schedulerPoll = null);
  }

  /**
   * Advances simulated time by {@code d}, event by event.
   *
   * @throws IllegalArgumentException if {@code d} is negative
   */
  public void runFor(Duration d) {
    Objects.requireNonNull(d, "d");
    if (d.isNegative()) {
      throw new IllegalArgumentException("simulation: runFor duration " + d + " must not be negative");
    }
    runTo(clock.now().plus(d), s -> false);
  }

  /**
   * Advances simulated time until {@code condition} holds (checked after every step) or {@code max} has passed.
   *
   * @return whether the condition held
   */
  public boolean runUntil(Predicate<Simulation> condition, Duration max) {
    Objects.requireNonNull(condition, "condition");
    Objects.requireNonNull(max, "max");
    settle();
    if (condition.test(this)) {
      return true;
    }
    return runTo(clock.now().plus(max), condition);
  }

  /**
   * Runs {@code hook} after every instant this simulation settles while it runs ({@link #runFor}, {@link #runUntil}),
   * when nothing more happens at that instant: for accounts kept between instants.
   */
  void afterEachInstant(Runnable hook) {
    instantHooks.add(Objects.requireNonNull(hook, "hook"));
  }

  private void settled() {
    for (Runnable h : instantHooks) {
      h.run();
    }
  }

  private boolean runTo(Instant target, Predicate<Simulation> condition) {
    ensureOpen();
    settle();
    settled();
    while (clock.now().isBefore(target)) {
      Instant next = clock.nextDeadline().orElse(target);
      if (next.isAfter(target)) {
        next = target;
      }
      if (next.isBefore(clock.now())) {
        next = clock.now();
      }
      clock.advanceTo(next);
      settle();
      settled();
      if (condition.test(this)) {
        return true;
      }
    }
    return false;
  }

  /** Every event recorded so far, in order. */
  public List<TimelineEvent> timeline() {
    return timeline.events();
  }

  /** How many events have been recorded so far: {@code timeline().size()} without the copy. */
  public int timelineSize() {
    return timeline.size();
  }

  /** The workloads' state now. */
  public SimulationSummary summary() {
    List<WorkloadSummary> deployments = new ArrayList<>();
    for (Deployment d : store.list(Deployment.class).items()) {
      deployments.add(new WorkloadSummary(d.metadata().key(), d.spec().replicas(), d.status().readyReplicas()));
    }
    List<WorkloadSummary> sets = new ArrayList<>();
    for (StatefulSet s : store.list(StatefulSet.class).items()) {
      sets.add(new WorkloadSummary(s.metadata().key(), s.spec().replicas(), s.status().readyReplicas()));
    }
    List<JobSummary> jobs = new ArrayList<>();
    for (Job j : store.list(Job.class).items()) {
      jobs.add(JobSummary.of(j));
    }
    deployments.sort(Comparator.comparing(WorkloadSummary::name));
    sets.sort(Comparator.comparing(WorkloadSummary::name));
    jobs.sort(Comparator.comparing(JobSummary::name));
    List<RolloutSummary> rollouts = new ArrayList<>();
    for (Rollout r : store.list(Rollout.class).items()) {
      rollouts.add(RolloutSummary.of(r));
    }
    rollouts.sort(Comparator.comparing(RolloutSummary::name));
    List<PendingPodSummary> pending = new ArrayList<>();
    for (Pod p : store.list(Pod.class, "", p -> p.spec().nodeName().isEmpty() && !p.isTerminal()
        && p.metadata().deletionTimestamp() == null).items()) {
      PodCondition scheduled = p.status().condition(PodCondition.POD_SCHEDULED);
      boolean reported = scheduled != null && scheduled.status() == ConditionStatus.False;
      pending.add(new PendingPodSummary(p.metadata().key(), reported ? scheduled.reason() : "",
          reported ? scheduled.message() : ""));
    }
    pending.sort(Comparator.comparing(PendingPodSummary::name));
    return new SimulationSummary(elapsed(), deployments, sets, jobs, rollouts, pending);
  }

  private void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("simulation: closed");
    }
  }

  /** Stops every component and closes the store. Idempotent. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    timeline.close();
    if (quotas != null) {
      quotas.close();
    }
    if (serviceAccounts != null) {
      serviceAccounts.close();
    }
    podFeed.close();
    nodeFeed.close();
    if (schedulerPoll != null) {
      schedulerPoll.cancel();
    }
    for (NodeAgent a : agents.values()) {
      a.close();
    }
    eviction.close();
    if (podGc != null) {
      podGc.close();
    }
    lifecycle.close();
    cloudLifecycle.close();
    for (SimulatedController c : controllers) {
      c.close();
    }
    informers.close();
    storeScheduler.close();
    scheduler.close();
    store.close();
  }

  private record Fault(String node, Duration at, boolean fail) {}

  private record Apply(Duration at, List<ApiObject<?>> objects, String source) {}

  /** Adds to the scheduler a simulation builds (plugins, profiles), given the simulation's store and clock. */
  @FunctionalInterface
  public interface SchedulerSetup {
    /** Configures {@code builder}, which already has the clock, the seed, parallelism 1 and the store. */
    void configure(ObjectStore store, ManualClock clock, SchedulerBuilder builder);
  }

  /** Builder; not thread-safe. */
  /** Makes the store a simulation runs on (see {@link Builder#store}). */
  @FunctionalInterface
  public interface StoreFactory {
    /**
     * A new, empty store in direct mode with this clock and uid source, running {@code admission} on its writes
     * ({@link AdmissionChain#empty()} when the simulation has none).
     */
    ObjectStore create(java.time.Clock clock, Supplier<String> uids, AdmissionChain admission);
  }

  public static final class Builder {
    private final List<ApiObject<?>> objects = new ArrayList<>();
    private final List<SimulatedController.Factory> controllers = new ArrayList<>();
    private final List<Fault> faults = new ArrayList<>();
    private final List<Apply> applies = new ArrayList<>();
    private long seed;
    private Instant start = Instant.parse("2024-01-01T00:00:00Z");
    private HealthSource health = HealthSource.fromAnnotations();
    private @Nullable MemoryUsage memoryUsage;
    private Duration gracePeriod = Duration.ofSeconds(50);
    private CloudInstances cloud = CloudInstances.ALL_RUNNING;
    private boolean defaultControllers = true;
    private boolean defaultTolerations = true;
    private boolean podEvents = true;
    private boolean rollouts = true;
    private boolean podGc = true;
    private boolean resourceClaims = true;
    private java.util.function.BiPredicate<Node, Instant> driversRunning = (n, now) -> n.isReady();
    private boolean ttlAfterFinished = true;
    /** The bundle the root CA publisher publishes; null when it is left out. */
    private @Nullable String rootCA = TEST_ROOT_CA;
    private boolean rootCASet;
    private @Nullable SchedulerSetup schedulerSetup;
    private MetricsRegistry metrics = MetricsRegistry.NOOP;
    private @Nullable StoreFactory storeFactory;
    private @Nullable Function<Clock, AdmissionChain> admission;
    private @Nullable List<String> nodeCidrs;
    /** The timeline's Warning recorder of the simulation this builder makes, once made. */
    private volatile @Nullable EventRecorder warnings;

    private Builder() {}

    /**
     * A recorder for the controllers given to {@link #controller}: Warning events go to the timeline of the
     * simulation this builder builds ({@link Simulation#warningEvents()}), from before its controllers first run;
     * an event recorded before {@link #build()} is dropped.
     */
    public EventRecorder warningEvents() {
      return (regarding, related, type, reason, action, note) -> {
        EventRecorder w = warnings;
        if (w != null) {
          w.event(regarding, related, type, reason, action, note);
        }
      };
    }

    /**
     * The ranges the simulated machines' addresses come from: a Node without an {@code InternalIP} gets the next
     * free address of each (one CIDR, or one per IP family for dual-stack nodes) and a {@code Hostname} address
     * with its name, when it appears (from the manifests, an apply, an autoscaler); default 10.0.0.0/16.
     *
     * @throws IllegalStateException if the node CIDRs were given already
     * @throws IllegalArgumentException naming the CIDR when one does not parse, is too large or too small, or two
     *     share a family
     */
    public Builder nodeCidrs(String... cidrs) {
      if (nodeCidrs != null) {
        throw new IllegalStateException("simulation: node CIDRs were already set to " + nodeCidrs);
      }
      List<String> v = List.of(cidrs);
      new NodeAddresses(v); // fails now, naming the CIDR
      nodeCidrs = v;
      return this;
    }

    /**
     * Where the simulation keeps its state; default a new in-memory store in direct mode. The factory gets the
     * simulated clock and the simulation's deterministic uid source, and must return a new, empty store whose writes
     * return only after its watches have delivered them (direct mode), or the run is not reproducible. The
     * simulation closes the store.
     *
     * @throws IllegalStateException if a factory was given already
     */
    public Builder store(StoreFactory factory) {
      java.util.Objects.requireNonNull(factory, "factory");
      if (storeFactory != null) {
        throw new IllegalStateException("store was already set to " + storeFactory);
      }
      storeFactory = factory;
      return this;
    }

    /**
     * Runs every create and update through an admission chain made for the simulated clock, e.g.
     * {@code admission(Admission::standard)}: objects are then created Namespaces first, then LimitRanges and
     * quotas (the namespaces every cluster has are added), an object the chain refuses is a {@code Rejected}
     * timeline event, a controller whose pod create is refused records {@code FailedCreate}, and quotas are
     * recounted after deletions (the quota controller's replenishment). Default: Priority (keeping a priority a pod
     * is created with, {@link PriorityPlugin#keepingGivenPriorities()}) and DefaultTolerationSeconds admission only:
     * pods get their class's priority and kube's default tolerations, as from an API server. A chain with
     * ServiceAccount admission ({@code Admission::withServiceAccounts}) also gets the ServiceAccounts controller, as
     * a cluster has both: each namespace has its {@code default} account as soon as it is created (the store
     * delivers watch events directly), so the objects created after it are admitted.
     *
     * @throws IllegalStateException if a chain was given already
     */
    public Builder admission(Function<Clock, AdmissionChain> chain) {
      Objects.requireNonNull(chain, "chain");
      if (admission != null) {
        throw new IllegalStateException("simulation: admission was already set to " + admission);
      }
      admission = chain;
      return this;
    }

    /**
     * Configures the scheduler beyond the default profile, e.g. with the storage plugins.
     *
     * @throws IllegalStateException if a setup was given already
     */
    public Builder schedulerSetup(SchedulerSetup v) {
      Objects.requireNonNull(v, "schedulerSetup");
      if (schedulerSetup != null) {
        throw new IllegalStateException("simulation: schedulerSetup was already set to " + schedulerSetup);
      }
      schedulerSetup = v;
      return this;
    }

    /**
     * Records the scheduler's and the default controllers' metrics into {@code registry} (on the simulated
     * clock); default none.
     */
    public Builder metrics(MetricsRegistry registry) {
      metrics = Objects.requireNonNull(registry, "registry");
      return this;
    }

    /**
     * An object to create at the start (nodes first, then the rest in order).
     *
     * @throws IllegalArgumentException if it is one of Kueue's objects ({@link KueueObject}): those configure the queue
     *     engine of a run with a Scenario ({@link ClusterSimulation}), which takes them from its manifests; a
     *     simulation runs no queues of its own and would only store them
     */
    public Builder object(ApiObject<?> o) {
      objects.add(notKueue(Objects.requireNonNull(o, "object"), "at the start"));
      return this;
    }

    static ApiObject<?> notKueue(ApiObject<?> o, String when) {
      if (o instanceof KueueObject<?>) {
        throw new IllegalArgumentException("simulation: " + o.describe() + " cannot be created " + when + ": Kueue's"
            + " objects configure the queues of a run with a Scenario (simulation.fleetkit.io/v1) among its manifests,"
            + " when it starts");
      }
      return o;
    }

    /** Objects to create at the start. */
    public Builder objects(List<? extends ApiObject<?>> os) {
      for (ApiObject<?> o : os) {
        object(o);
      }
      return this;
    }

    /** Seeds the scheduler's tie-breaking and the controllers' generated names (default 0). */
    public Builder seed(long v) {
      seed = v;
      return this;
    }

    /** The simulated start instant (default 2024-01-01T00:00:00Z). */
    public Builder start(Instant v) {
      start = Objects.requireNonNull(v, "start");
      return this;
    }

    /** Where container behaviour comes from (default {@link HealthSource#fromAnnotations()}). */
    /**
     * The simulated cloud the {@link CloudNodeLifecycleController} asks about the nodes' machines (default:
     * {@link CloudInstances#ALL_RUNNING}, every machine exists and runs).
     */
    public Builder cloud(CloudInstances v) {
      cloud = Objects.requireNonNull(v, "cloud");
      return this;
    }

    /**
     * The containers' memory usage: the kubelets then OOM-kill a container above its memory limit and run the
     * eviction manager's {@code memory.available<100Mi} signal every 10 s (node condition {@code MemoryPressure},
     * evictions); see {@link NodeAgent.Builder#memoryUsage}. Without it (the default) no memory use is modelled and the
     * kubelets do no such work.
     */
    public Builder memoryUsage(MemoryUsage v) {
      memoryUsage = Objects.requireNonNull(v, "memoryUsage");
      return this;
    }

    public Builder healthSource(HealthSource v) {
      health = Objects.requireNonNull(v, "healthSource");
      return this;
    }

    /** The node monitor grace period (default 50 s, kube v1.32+). */
    public Builder nodeMonitorGracePeriod(Duration v) {
      gracePeriod = Objects.requireNonNull(v, "gracePeriod");
      return this;
    }

    /** Adds a controller (e.g. a StatefulSet or Job controller) next to the default ones. */
    public Builder controller(SimulatedController.Factory v) {
      controllers.add(Objects.requireNonNull(v, "controller"));
      return this;
    }

    /** Leaves out {@link #defaultControllers()}: only the registered ones run. */
    public Builder withoutDefaultControllers() {
      defaultControllers = false;
      return this;
    }

    /** Leaves the Rollout and AnalysisRun controllers out of the default ones: Rollouts are stored, nothing acts. */
    public Builder withoutRollouts() {
      rollouts = false;
      return this;
    }

    /**
     * Leaves the {@link PodGcController} out (kube-controller-manager's {@code --controllers=-podgc}): terminated
     * pods are then kept however many there are, and pods bound to deleted nodes stay.
     */
    public Builder withoutPodGarbageCollector() {
      podGc = false;
      return this;
    }

    /**
     * Leaves the resource-claim controller out (kube-controller-manager's {@code --controllers=-resourceclaim}): pods
     * that ask for a claim from a template wait for it, and claims stay reserved for pods that are gone or done. The
     * device taint eviction controller goes with it: pods on NoExecute-tainted devices keep running.
     */
    public Builder withoutResourceClaimController() {
      resourceClaims = false;
      return this;
    }

    /**
     * When the DRA drivers of a node of a pool with device templates run, so that its ResourceSlices are published
     * ({@link ResourceSlicePublisher}): {@code driversRunning} of the node and the simulated time (default: once the
     * node is Ready). A scenario with node start-up phases publishes them when the node's driver phase ends.
     */
    public Builder driversRunning(java.util.function.BiPredicate<Node, Instant> driversRunning) {
      this.driversRunning = Objects.requireNonNull(driversRunning, "driversRunning");
      return this;
    }

    /**
     * Leaves the {@link TtlAfterFinishedController} out (kube-controller-manager's
     * {@code --controllers=-ttl-after-finished}): finished Jobs then stay whatever their
     * {@code ttlSecondsAfterFinished}. It runs only among the default controllers, and only when the scenario
     * creates a Job with that field or a CronJob.
     */
    public Builder withoutTtlAfterFinished() {
      ttlAfterFinished = false;
      return this;
    }

    /**
     * The CA bundle (PEM text) the {@link RootCACertPublisher} puts in every namespace's
     * {@value RootCACertPublisher#CONFIG_MAP_NAME} ConfigMap (default {@link #TEST_ROOT_CA}).
     *
     * @throws IllegalArgumentException if {@code pem} is blank
     * @throws IllegalStateException if the bundle was set already, or the publisher left out
     */
    public Builder rootCA(String pem) {
      Objects.requireNonNull(pem, "pem");
      if (pem.isBlank()) {
        throw new IllegalArgumentException("simulation: rootCA \"" + pem
            + "\" must be a CA bundle (PEM text), not blank");
      }
      rootCAOnce();
      rootCA = pem;
      return this;
    }

    /**
     * Leaves the {@link RootCACertPublisher} out (kube-controller-manager's
     * {@code --controllers=-root-ca-certificate-publisher-controller}): no namespace gets its
     * {@value RootCACertPublisher#CONFIG_MAP_NAME} ConfigMap, and pods whose projected volumes read it (every pod
     * with a {@code kube-api-access-*} volume) wait in {@code ContainerCreating} with {@code FailedMount} until
     * something creates it.
     *
     * @throws IllegalStateException if the bundle was set already, or the publisher left out
     */
    public Builder withoutRootCACertPublisher() {
      rootCAOnce();
      rootCA = null;
      return this;
    }

    private void rootCAOnce() {
      if (rootCASet) {
        throw new IllegalStateException("simulation: the root CA publisher was already set to "
            + (rootCA == null ? "left out" : "publish \"" + rootCA.strip() + "\""));
      }
      rootCASet = true;
    }

    /**
     * Leaves DefaultTolerationSeconds out of the store's default admission (Priority, DefaultTolerationSeconds), so
     * that pods are stored without kube's default 300 s not-ready/unreachable tolerations; a chain given with
     * {@link #admission} is used as given.
     */
    public Builder withoutDefaultTolerations() {
      defaultTolerations = false;
      return this;
    }

    /** Whether the timeline records per-pod events (default true; false keeps node and workload events only). */
    public Builder podEvents(boolean v) {
      podEvents = v;
      return this;
    }

    /**
     * Kills node {@code node} {@code at} after the start.
     *
     * @throws IllegalArgumentException if {@code at} is negative
     */
    public Builder failNode(String node, Duration at) {
      faults.add(fault(node, at, true));
      return this;
    }

    /** Brings node {@code node} back {@code at} after the start. */
    public Builder reviveNode(String node, Duration at) {
      faults.add(fault(node, at, false));
      return this;
    }

    /**
     * Creates or updates {@code objects} {@code at} after the start, through the store like any client (what
     * {@code kubectl apply -f FILE} does then): a new object is created; a stored one of the same kind, namespace
     * and name gets the new spec, with labels and annotations merged over its own, the file's finalizers added, and
     * its status, uid and owner references kept. The timeline records {@code Applied} ({@code created}, {@code updated} or
     * {@code unchanged} from {@code source}) or, when the store refuses an object, {@code ApplyRejected} with the
     * reason; the run goes on either way. Applies at the same instant run in the order given.
     *
     * @param source how the timeline names where the objects come from, e.g. a file name
     * @throws IllegalArgumentException if {@code at} is negative, or an object is one of Kueue's (as {@link #object})
     */
    public Builder apply(Duration at, List<? extends ApiObject<?>> objects, String source) {
      Objects.requireNonNull(at, "at");
      Objects.requireNonNull(source, "source");
      if (at.isNegative()) {
        throw new IllegalArgumentException("simulation: apply time " + at + " for " + source
            + " must not be negative");
      }
      List<ApiObject<?>> copy = new ArrayList<>();
      for (ApiObject<?> o : objects) {
        copy.add(notKueue(Objects.requireNonNull(o, "object"), "at " + at + " from " + source));
      }
      applies.add(new Apply(at, List.copyOf(copy), source));
      return this;
    }

    private static Fault fault(String node, Duration at, boolean fail) {
      Objects.requireNonNull(node, "node");
      Objects.requireNonNull(at, "at");
      if (at.isNegative()) {
        throw new IllegalArgumentException("simulation: fault time " + at + " for node " + node
            + " must not be negative");
      }
      return new Fault(node, at, fail);
    }

    /**
     * Creates the store, the components and the objects, and settles.
     *
     * @throws IllegalArgumentException if a fault names an unknown node
     * @throws io.fleetkit.api.FleetKitException if an object cannot be created
     */
    public Simulation build() {
      return new Simulation(this);
    }
  }
}
