package io.fleetkit.autoscale.provisioner;

import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.events.ObjectReference;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.policy.PodDisruptionBudget;
import io.fleetkit.api.resource.dra.DeviceClass;
import io.fleetkit.api.resource.dra.ResourceClaim;
import io.fleetkit.api.resource.dra.ResourceSlice;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.framework.SchedulerProfile;
import io.fleetkit.api.scheduling.PriorityClass;
import io.fleetkit.api.store.DeleteOptions;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.autoscale.cluster.Drainability;
import io.fleetkit.autoscale.cluster.InstanceCreation;
import io.fleetkit.autoscale.cluster.InstanceErrorClass;
import io.fleetkit.autoscale.cluster.InstanceErrorInfo;
import io.fleetkit.autoscale.cluster.simulator.SimulatedCluster;
import io.fleetkit.autoscale.cluster.simulator.SimulatedNodes;
import io.fleetkit.scheduler.DefaultPlugins;
import io.fleetkit.scheduler.PluginRegistry;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Karpenter's model over an {@link ObjectStore}: no node groups, but a list of {@link InstanceType}s from which nodes
 * are launched to fit the pending pods, and consolidation that keeps the fleet cheap.
 *
 * <p>Each {@link #runOnce()}:
 * <ol>
 *   <li><b>Start-up.</b> Launched nodes whose start-up delay has passed become Ready ({@link SimulatedNodes}); a
 *       replacement that became Ready lets consolidation finish removing the nodes it replaces. A launched node not
 *       Ready {@link #REGISTRATION_TTL} after its request is deleted, so that its pods get a new one (Karpenter's
 *       NodeClaim liveness, {@code pkg/controllers/nodeclaim/lifecycle/liveness.go}: a claim whose node has not
 *       registered within its {@code registrationTTL} is deleted and tried again; here a node registers when Ready).
 *   <li><b>Expiration.</b> A managed node whose {@link ProvisionerOptions#expireAfter} (720 h by default) has passed
 *       since its launch request (its NodeClaim's creation) is terminated whatever the budgets and
 *       {@value #DO_NOT_DISRUPT} (Karpenter v1's expiration, {@code pkg/controllers/nodeclaim/expiration}, is
 *       forceful; its drain still waits on them until the {@code terminationGracePeriod}); nothing is launched in its
 *       place ahead of time: the pods its controllers recreate are pending and provisioned as any others.
 *   <li><b>Batching.</b> Pending pods that fit on no existing or starting node (checked with the scheduler's real
 *       filters) open a batch; it closes {@code batchIdleDuration} (1 s) after the last new pod or
 *       {@code batchMaxDuration} (10 s) after it opened.
 *   <li><b>Provisioning</b> when the batch closes: the pods, largest first, are packed onto new nodes; each node
 *       keeps the types that still fit all its pods and is launched as the cheapest of them. A pod with
 *       ResourceClaims needs a type whose DRA devices ({@link InstanceType#resourceSlices}) can satisfy them, together
 *       with those of the other pods of its node; a launched node whose drivers have not published its slices yet
 *       counts with its type's.
 *   <li><b>Consolidation</b> when no batch is open and no node is starting, within the disruption budgets active at
 *       the clock's time ({@link ProvisionerOptions#allowedDisruptions}: a budget with a schedule only from each hit
 *       for its duration; by default {@code ceil(10% of managed nodes)}), minus nodes already being disrupted; Emptiness spends the budget of reason Empty, the others that of Underutilized), in
 *       Karpenter's order: Emptiness (delete empty nodes), then, under the policy
 *       {@link ConsolidationPolicy#WhenEmptyOrUnderutilized} or {@link ConsolidationPolicy#Balanced},
 *       MultiNodeConsolidation (binary search for the longest prefix of candidates, those with the highest price per
 *       unit of disruption first, whose pods fit on the other nodes plus at most one new node strictly cheaper than
 *       the prefix together), then SingleNodeConsolidation (delete one node whose pods fit elsewhere, or replace it
 *       with a strictly cheaper one). Under {@code Balanced} a move must also pass Karpenter's score
 *       ({@link BalancedScoring}: its share of the NodePool's cost saved at least half its share of the NodePool's
 *       disruption cost), and a single node whose deletion would not pass is not tried. Nodes annotated
 *       {@value #DO_NOT_DISRUPT}{@code : "true"} or with a pod so annotated, or whose pods the
 *       cluster autoscaler's drain rules would not evict ({@link Drainability}: PDBs, no controller, local storage,
 *       kube-system), are not candidates, nor are nodes whose last pod event is less than
 *       {@link ProvisionerOptions#consolidateAfter} ago (none at all when it is {@code Never}). A removed node is
 *       terminated; a replaced node once its replacement is Ready.
 *   <li><b>Termination</b> (Karpenter's node termination controller, {@link NodeTermination}): a node being removed
 *       is tainted {@code karpenter.sh/disrupted:NoSchedule} and drained through the eviction API, so that
 *       PodDisruptionBudgets hold (a refused eviction is tried again at the next loop), non-critical pods before
 *       DaemonSet and critical ones, DaemonSet pods tolerating the taint and static pods left alone; it is deleted once
 *       no pod is left to wait for. With {@link ProvisionerOptions#terminationGracePeriod} the remaining pods are
 *       deleted, whatever their budgets and {@value #DO_NOT_DISRUPT}, each when the time left to the deadline is its own
 *       grace period; without it the drain waits as long as it takes. Nodes being terminated count against the
 *       disruption budgets.
 * </ol>
 *
 * <p>Every node is asked of the cloud before it is stored ({@link Builder#instanceCreation}). A machine the cloud
 * refuses for lack of capacity ({@link InstanceErrorClass#OUT_OF_RESOURCES}, Karpenter's
 * {@code InsufficientCapacityError}) is never created, as Karpenter deletes a NodeClaim whose launch failed, and its
 * offering, the instance type in its zone ({@value #ZONE_LABEL}, or none), is left out of provisioning and
 * consolidation for {@link #UNAVAILABLE_OFFERINGS_TTL} (the AWS provider's unavailable-offerings cache,
 * {@code pkg/cache/unavailableofferings.go}): the pods, still pending, open the next batch and get another offering if
 * one fits, else they wait. A replacement the cloud refuses leaves its candidates in place.
 *
 * <p>Managed nodes carry {@value #MANAGED_LABEL} (the provisioner's name) and {@value #INSTANCE_TYPE_LABEL}. Not
 * modelled: spot offerings and their 15-option rule, drift, the 15 s command re-validation delay.
 *
 * <p>Thread-safety: {@code runOnce} is synchronized.
 */
public final class Provisioner {
  private static final Logger LOG = LoggerFactory.getLogger(Provisioner.class);
  /** Names the provisioner that launched a node. */
  public static final String MANAGED_LABEL = "autoscale.fleetkit.io/provisioner";
  /** The well-known instance type label. */
  public static final String INSTANCE_TYPE_LABEL = "node.kubernetes.io/instance-type";
  /** A pod annotation that keeps its node from voluntary disruption. */
  public static final String DO_NOT_DISRUPT = "karpenter.sh/do-not-disrupt";
  /** How long a launched node may take to be Ready before it is deleted (Karpenter's {@code registrationTTL}). */
  public static final java.time.Duration REGISTRATION_TTL = java.time.Duration.ofMinutes(15);
  /**
   * How long an offering the cloud had no capacity for is not tried (the AWS provider's
   * {@code UnavailableOfferingsTTL}, {@code pkg/cache/cache.go}): unavailable up to and including the instant it
   * ends, as a go-cache entry expires only once the clock is past its expiration.
   */
  public static final java.time.Duration UNAVAILABLE_OFFERINGS_TTL = java.time.Duration.ofMinutes(3);
  /** The zone label of an instance type's nodes: with the type's name, an offering. */
  public static final String ZONE_LABEL = "topology.kubernetes.io/zone";

  private final String name;
  private final ObjectStore store;
  private final Clock clock;
  private final List<InstanceType> types;
  private final Map<String, InstanceType> typesByName = new HashMap<>();
  private final SchedulerProfile profile;
  private final PluginRegistry registry;
  private final ProvisionerOptions options;

  private @Nullable Instant batchStart;
  private @Nullable Instant lastNewPod;
  private final Set<String> seenPending = new HashSet<>();
  private int counter;
  /** Nodes being replaced, each with the nodes launched in its place. */
  private final Map<String, List<String>> replacing = new LinkedHashMap<>();
  /** The cloud every node is asked of. */
  private final InstanceCreation instanceCreation;
  /** The offerings ({@link #offering}) the cloud had no capacity for, each with when it is tried again. */
  private final Map<String, Instant> unavailable = new HashMap<>();
  /** The types whose offering is available in the running loop, cheapest first. */
  private List<InstanceType> offered = List.of();
  /** The launches the cloud refused in the running loop. */
  private final List<ProvisionerResult.LaunchFailure> launchFailures = new ArrayList<>();
  /** Each Ready managed node's last pod event, for {@code consolidateAfter}. */
  private final PodEvents podEvents = new PodEvents();
  /** The nodes being drained before their deletion. */
  private final NodeTermination termination;
  /** Karpenter's events, deduplicated as its recorder does; {@code null} when no recorder was given. */
  private final @Nullable KarpenterEvents events;

  private Provisioner(Builder b) {
    this.name = b.name;
    this.store = b.store;
    this.clock = b.clock;
    List<InstanceType> sorted = new ArrayList<>(b.types);
    sorted.sort(Comparator.comparingDouble(InstanceType::pricePerHour).thenComparing(InstanceType::name));
    this.types = List.copyOf(sorted);
    for (InstanceType t : types) {
      if (typesByName.put(t.name(), t) != null) {
        throw new IllegalArgumentException("provisioner " + name + ": instance type " + t.name()
            + " is listed twice; names must be unique");
      }
    }
    this.profile = b.profile;
    this.registry = b.registry;
    this.options = b.options;
    this.instanceCreation = b.instanceCreation;
    this.termination = new NodeTermination(store);
    EventRecorder recorder = EventRecorder.bestEffort(b.events);
    this.events = recorder == EventRecorder.NOOP ? null : new KarpenterEvents(recorder, clock);
  }

  public static Builder builder(ObjectStore store) {
    return new Builder(store);
  }

  /** One loop: start-up, batching, provisioning, consolidation. */
  public synchronized ProvisionerResult runOnce() {
    Instant now = clock.instant();
    launchFailures.clear();
    unavailable.values().removeIf(until -> now.isAfter(until));
    offered = types.stream().filter(t -> !unavailable.containsKey(offering(t))).toList();
    List<String> ready = new ArrayList<>();
    List<String> deleted = new ArrayList<>();
    List<String> timedOut = new ArrayList<>();
    for (Node n : managedNodes(store.list(Node.class).items())) {
      Instant at = SimulatedNodes.readyAt(n);
      if (!SimulatedNodes.isStarting(n) || at == null) {
        continue;
      }
      Instant requested = SimulatedNodes.requestedAt(n);
      if (!now.isBefore(at)) {
        SimulatedNodes.markReady(store, n, now);
        ready.add(n.name());
      } else if (requested != null && !now.isBefore(requested.plus(REGISTRATION_TTL))) {
        List<String> gone = new ArrayList<>();
        removeNode(n.name(), gone);
        timedOut.addAll(gone);
        LOG.debug("provisioner {}: node {} not ready {} after its request; deleted", name, n.name(),
            REGISTRATION_TTL);
      }
    }
    // a node tainted karpenter.sh/disrupted is being terminated (Karpenter's Node carries its deletion): a provisioner
    // that did not start it, a restarted one, carries its drain on from now
    for (Node n : managedNodes(store.list(Node.class).items())) {
      if (!termination.contains(n.name()) && !replacing.containsKey(n.name()) && NodeTermination.isTainted(n)) {
        terminate(n.name(), now);
      }
    }
    finishReplacements(now);
    List<String> expired = expire(now);

    List<Node> nodes = store.list(Node.class).items();
    List<Pod> pods = store.list(Pod.class).items();
    if (waitsAfterPodEvents()) {
      podEvents.observe(managedNodes(nodes), pods, now);
    }
    SimulatedCluster sim = simulation();
    load(sim, nodes, pods);
    Set<String> nominated = new HashSet<>();
    List<Pod> pending = unschedulable(sim, pods, nominated);
    Map<String, String> launched = new LinkedHashMap<>();
    List<String> unschedulable = new ArrayList<>();
    boolean open = false;
    if (pending.isEmpty()) {
      resetBatch();
    } else {
      if (batchStart == null) {
        batchStart = now;
        lastNewPod = now;
      }
      for (Pod p : pending) {
        if (seenPending.add(p.metadata().key())) {
          lastNewPod = now;
        }
      }
      Instant idleEnd = Objects.requireNonNull(lastNewPod).plus(options.batchIdleDuration());
      Instant maxEnd = Objects.requireNonNull(batchStart).plus(options.batchMaxDuration());
      if (now.isBefore(idleEnd) && now.isBefore(maxEnd)) {
        open = true;
      } else {
        Packer packer = new Packer(offered, simulation(), store.list(DeviceClass.class).items());
        Packer.Packing packing = packer.pack(pending);
        for (Packer.Claim c : packing.claims()) {
          InstanceType t = c.cheapest();
          String node = launch(t, now);
          if (node != null) {
            launched.put(node, t.name());
            if (events != null) { // Karpenter's NominatePodEvent for the pods of a new NodeClaim
              for (PodInfo pi : c.pods) {
                events.nominated(pi.pod(), node);
              }
            }
          }
        }
        for (Pod p : packing.unschedulable()) {
          unschedulable.add(p.metadata().key());
          if (events != null) { // Karpenter's PodFailedToScheduleEvent, with its scheduler's error for the pod
            events.failedScheduling(p, packer.error(p, name));
          }
        }
        resetBatch();
      }
    }
    List<ConsolidationCommand> commands = new ArrayList<>();
    boolean starting = managedNodes(store.list(Node.class).items()).stream().anyMatch(SimulatedNodes::isStarting);
    // Consolidate only a settled cluster: nothing batching, launching, starting or just changed (Karpenter waits for
    // its cluster state to be synced and never disrupts nodes that pending pods are nominated to).
    if (!open && launched.isEmpty() && pending.isEmpty() && !starting && ready.isEmpty() && deleted.isEmpty()
        && expired.isEmpty()) {
      consolidate(now, nominated, commands);
    }
    // the termination controller: every node being terminated (from this loop too) is drained as far as it can be
    List<DrainEvent> drainEvents = new ArrayList<>();
    for (String n : termination.advance(now, drainEvents)) {
      removeNode(n, deleted);
    }
    return new ProvisionerResult(ready, open, launched, unschedulable, commands, deleted, timedOut, launchFailures,
        expired, drainEvents);
  }

  /**
   * Terminates the managed nodes whose {@code expireAfter} has passed at {@code now} since their launch request (their
   * creation when they carry none), as Karpenter's expiration controller deletes an expired NodeClaim: not before
   * {@code creation + expireAfter}, whatever the budgets and {@value #DO_NOT_DISRUPT}; a node already being terminated
   * is not expired again. Their drain waits on PodDisruptionBudgets and {@value #DO_NOT_DISRUPT} until the
   * {@code terminationGracePeriod}. Returns the nodes whose termination began.
   */
  private List<String> expire(Instant now) {
    java.time.Duration after = options.expireAfter();
    List<String> expired = new ArrayList<>();
    if (after == null) {
      return expired;
    }
    for (Node n : managedNodes(store.list(Node.class).items())) {
      Instant requested = SimulatedNodes.requestedAt(n);
      Instant created = requested != null ? requested : n.metadata().creationTimestamp();
      if (created != null && !now.isBefore(created.plus(after)) && !termination.contains(n.name())) {
        replacing.remove(n.name());
        terminate(n.name(), now);
        expired.add(n.name());
        LOG.debug("provisioner {}: node {} expired ({} after {})", name, n.name(), after, created);
      }
    }
    return expired;
  }

  /** Whether {@code consolidateAfter} is a positive wait, for which the nodes' pod events are tracked. */
  private boolean waitsAfterPodEvents() {
    java.time.Duration after = options.consolidateAfter();
    return after != null && !after.isZero();
  }

  private void resetBatch() {
    batchStart = null;
    lastNewPod = null;
    seenPending.clear();
  }

  /** The pending pods that fit nowhere; the nodes the others would go to are added to {@code nominated}. */
  private List<Pod> unschedulable(SimulatedCluster sim, List<Pod> pods, Set<String> nominated) {
    List<Pod> pending = new ArrayList<>();
    for (Pod p : pods) {
      if (!p.isBound() && !p.isTerminal() && p.metadata().deletionTimestamp() == null
          && p.spec().schedulerName().equals(profile.schedulerName())) {
        pending.add(p);
      }
    }
    pending.sort(Comparator.comparingInt(Pod::priority).reversed().thenComparing(p -> p.metadata().key()));
    List<Pod> out = new ArrayList<>();
    for (Pod p : pending) {
      PodInfo pi = PodInfos.of(p);
      String n = sim.findFit(pi, x -> true);
      if (n == null) {
        out.add(p);
      } else {
        sim.addPod(n, pi);
        nominated.add(n);
      }
    }
    return out;
  }

  /**
   * Launches a node of type {@code t}: asks the cloud, then stores it. Returns its name, or {@code null} when the cloud
   * refused it (then recorded in {@link #launchFailures}, and for lack of capacity the offering is unavailable for
   * {@link #UNAVAILABLE_OFFERINGS_TTL}).
   */
  private @Nullable String launch(InstanceType t, Instant now) {
    String node;
    do {
      node = name + "-" + (++counter);
    } while (store.get(Node.class, "", node).isPresent());
    Node n = SimulatedNodes.launched(Packer.node(t, node).toBuilder().label(MANAGED_LABEL, name).build(), now,
        options.startupDelay());
    InstanceErrorInfo error = instanceCreation.create(n, now);
    if (error != null) {
      String offering = offering(t);
      if (error.errorClass() == InstanceErrorClass.OUT_OF_RESOURCES) {
        markUnavailable(offering, now);
      }
      launchFailures.add(new ProvisionerResult.LaunchFailure(node, t.name(), zone(t), error));
      LOG.debug("provisioner {}: launch of {} ({}) refused: {}", name, node, offering, error);
      return null;
    }
    store.create(n);
    LOG.debug("provisioner {}: launched {} ({})", name, node, t.name());
    return node;
  }

  /** The zone of {@code t}'s nodes, {@code ""} when its labels name none. */
  private static String zone(InstanceType t) {
    return t.labels().getOrDefault(ZONE_LABEL, "");
  }

  /** The offering of {@code t}: its name and zone, {@code type/zone}. */
  private static String offering(InstanceType t) {
    return offering(t.name(), zone(t));
  }

  private static String offering(String type, String zone) {
    return type + "/" + zone;
  }

  /** Leaves {@code offering} out of provisioning and consolidation for {@link #UNAVAILABLE_OFFERINGS_TTL} from now. */
  private void markUnavailable(String offering, Instant now) {
    unavailable.put(offering, now.plus(UNAVAILABLE_OFFERINGS_TTL));
    offered = offered.stream().filter(x -> !offering(x).equals(offering)).toList();
  }

  /** Whether the offering of instance type {@code type} in {@code zone} is unavailable at the clock's time. */
  public synchronized boolean isUnavailable(String type, String zone) {
    Instant until = unavailable.get(offering(type, zone));
    return until != null && !clock.instant().isAfter(until);
  }

  // ---- consolidation ----

  /**
   * Terminates each replaced node whose replacements are all Ready. As Karpenter's orchestration queue
   * ({@code pkg/controllers/disruption/queue.go} {@code waitOrTerminate}) it records, each time it looks,
   * {@code DisruptionLaunching} on every replacement and {@code DisruptionWaitingReadiness} on one not Ready yet, and
   * {@code DisruptionTerminating} on the replaced node when its termination begins.
   */
  private void finishReplacements(Instant now) {
    Set<String> looked = events == null ? Set.of() : new HashSet<>();
    for (var it = replacing.entrySet().iterator(); it.hasNext(); ) {
      var e = it.next();
      boolean allReady = true;
      for (String r : e.getValue()) {
        Node n = store.get(Node.class, "", r).orElse(null);
        if (n != null && !n.isReady()) {
          allReady = false;
        }
        if (events != null && n != null && looked.add(r)) { // one command per replacement: its events once a look
          events.launching(ObjectReference.to(n), DisruptionReason.Underutilized);
          if (!n.isReady()) {
            events.waitingOnReadiness(ObjectReference.to(n));
          }
        }
      }
      if (allReady) {
        terminate(e.getKey(), now);
        disrupting(e.getKey(), DisruptionReason.Underutilized);
        it.remove();
      }
    }
  }

  /**
   * A consolidation candidate: the node, its type, the pods a consolidation would move and their disruption cost
   * ({@link BalancedScoring#rescheduleDisruptionCost}).
   */
  private record Candidate(Node node, InstanceType type, List<Pod> evict, double disruptionCost) {
    double price() {
      return type.pricePerHour();
    }

    double savingsRatio() {
      return BalancedScoring.savingsRatio(price(), disruptionCost);
    }
  }

  private void consolidate(Instant now, Set<String> nominated, List<ConsolidationCommand> commands) {
    List<Node> nodes = store.list(Node.class).items();
    List<Pod> pods = store.list(Pod.class).items();
    List<Node> managed = managedNodes(nodes);
    // Karpenter's budgets per disruption reason: Emptiness spends the Empty one, multi- and single-node
    // consolidation the Underutilized one; nodes being replaced or terminated count against both
    int disrupting = replacing.size() + termination.size();
    int emptyBudget = options.allowedDisruptions(managed.size(), DisruptionReason.Empty, now) - disrupting;
    int underutilizedBudget = options.allowedDisruptions(managed.size(), DisruptionReason.Underutilized, now)
        - disrupting;
    boolean balanced = options.policy() == ConsolidationPolicy.Balanced;
    boolean underutilized = (options.policy() == ConsolidationPolicy.WhenEmptyOrUnderutilized || balanced)
        && underutilizedBudget > 0;
    // consolidateAfter: Never, or no budget left: nothing to do, but with a recorder the nodes are still looked at for
    // their events, as Karpenter looks at every candidate before it counts the budgets
    boolean never = options.consolidateAfter() == null;
    boolean idle = never || (emptyBudget <= 0 && !underutilized);
    if (idle && events == null) {
      return;
    }
    Map<String, List<Pod>> podsByNode = new HashMap<>();
    for (Pod p : pods) {
      if (p.isBound() && !p.isTerminal()) {
        podsByNode.computeIfAbsent(p.spec().nodeName(), k -> new ArrayList<>()).add(p);
      }
    }
    // Karpenter moves no pod being deleted (its IsReschedulable wants an active pod): taken at the end of time, every
    // pod being deleted counts as gone, as the cluster autoscaler's long-terminating ones
    Drainability drain = Drainability.withBudgets(store.list(PodDisruptionBudget.class).items(), Instant.MAX);
    List<Candidate> candidates = new ArrayList<>();
    for (Node n : managed) {
      String typeName = n.metadata().labels().get(INSTANCE_TYPE_LABEL);
      InstanceType t = typesByName.get(typeName);
      if (replacing.containsKey(n.name())) {
        continue; // in a command already (Karpenter's queue.HasAny): passed over silently
      }
      if (events == null && (t == null || !podEvents.consolidatable(n.name(), now, options.consolidateAfter()))) {
        continue; // the cheap checks first when nothing is recorded
      }
      List<Pod> on = podsByNode.getOrDefault(n.name(), List.of());
      Drainability.NodeDrain d = null;
      String blocked = blocked(n, on, nominated, now);
      if (blocked == null) {
        d = drain.drain(on);
        if (d.blocked()) {
          blocked = events == null ? "" : drainBlocked(d);
        }
      }
      if (blocked != null) {
        if (events != null) {
          events.blocked(n, blocked);
        }
        continue;
      }
      // Karpenter's ShouldDisrupt of Emptiness and of the consolidations, in the order it records them
      if (never) {
        if (events != null) {
          events.unconsolidatable(n, "NodePool \"" + name + "\" has consolidation disabled");
        }
        continue;
      }
      if (t == null) {
        if (events != null) {
          events.unconsolidatable(n, "Instance Type \"" + (typeName == null ? "" : typeName) + "\" not found");
        }
        continue;
      }
      if (events != null && options.policy() == ConsolidationPolicy.WhenEmpty && !d.evict().isEmpty()) {
        events.unconsolidatable(n, "NodePool \"" + name
            + "\" has consolidation policy WhenEmpty, but node is not empty");
      }
      if (podEvents.consolidatable(n.name(), now, options.consolidateAfter())) {
        candidates.add(new Candidate(n, t, d.evict(), BalancedScoring.rescheduleDisruptionCost(d.evict())));
      }
    }
    if (idle) {
      return;
    }
    // Karpenter's sortCandidates: the highest savings per unit of disruption (price over disruption cost) first,
    // then by name for determinism
    candidates.sort(Comparator.comparingDouble(Candidate::savingsRatio).reversed()
        .thenComparing(c -> c.node().name()));
    BalancedScoring.PoolTotals totals = balanced ? poolTotals(managed, candidates, podsByNode) : null;

    // 1. Emptiness
    List<String> empty = new ArrayList<>();
    for (Candidate c : candidates) {
      if (c.evict().isEmpty() && empty.size() < emptyBudget) {
        empty.add(c.node().name());
      }
    }
    if (!empty.isEmpty()) {
      double savings = 0;
      for (String n : empty) {
        savings += typesByName.get(nodeType(nodes, n)).pricePerHour();
        terminate(n, now);
        disrupting(n, DisruptionReason.Empty);
      }
      commands.add(new ConsolidationCommand("Emptiness", empty, null, savings));
      return;
    }
    if (!underutilized || candidates.isEmpty()) {
      return;
    }
    // 2. MultiNodeConsolidation: binary search over prefixes of at least 2 candidates
    int max = Math.min(Math.min(candidates.size(), options.multiNodeCandidates()), underutilizedBudget);
    Plan best = null;
    int lo = 2;
    int hi = max;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      Plan p = plan(candidates.subList(0, mid), nodes, pods, null);
      if (p != null && (totals == null || approved(p, totals))) {
        best = p;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    if (best != null) {
      execute("MultiNodeConsolidation", best, now, commands);
      return;
    }
    // 3. SingleNodeConsolidation
    for (Candidate c : candidates) {
      // Balanced: a candidate whose deletion (the most a move of it can save) would not pass is not simulated
      if (totals != null && !BalancedScoring.scoreMove(c.price(), c.disruptionCost(), totals,
          BalancedScoring.BALANCED_K).approved()) {
        continue;
      }
      List<String> why = events == null ? null : new ArrayList<>(1);
      Plan p = plan(List.of(c), nodes, pods, why);
      if (p != null && (totals == null || approved(p, totals))) {
        execute("SingleNodeConsolidation", p, now, commands);
        return;
      }
      if (events != null && why != null && !why.isEmpty()) {
        events.unconsolidatable(c.node(), why.get(0));
      }
    }
  }

  /**
   * Karpenter's {@code computeNodePoolTotals} for this provisioner's NodePool: the price of every managed node of a
   * known type (the cluster cost's NodePool cost; the candidates' prices when that is zero) and the disruption cost
   * of every managed node (a candidate's from the pods it would move, another's from its pods).
   */
  private BalancedScoring.PoolTotals poolTotals(List<Node> managed, List<Candidate> candidates,
      Map<String, List<Pod>> podsByNode) {
    Map<String, Candidate> byName = new HashMap<>();
    double candidateCost = 0;
    for (Candidate c : candidates) {
      byName.put(c.node().name(), c);
      candidateCost += c.price();
    }
    double cost = 0;
    double disruption = 0;
    for (Node n : managed) {
      InstanceType t = typesByName.get(n.metadata().labels().get(INSTANCE_TYPE_LABEL));
      if (t != null) {
        cost += t.pricePerHour();
      }
      Candidate c = byName.get(n.name());
      disruption += c != null ? c.disruptionCost()
          : BalancedScoring.nodeDisruptionCost(podsByNode.getOrDefault(n.name(), List.of()));
    }
    return new BalancedScoring.PoolTotals(cost > 0 ? cost : candidateCost, disruption);
  }

  /** Karpenter's {@code EvaluateBalancedMove} for one NodePool: the plan's savings against its disruption cost. */
  private static boolean approved(Plan p, BalancedScoring.PoolTotals totals) {
    double disruption = 0;
    for (Candidate c : p.candidates()) {
      disruption += c.disruptionCost();
    }
    return BalancedScoring.scoreMove(p.savings(), disruption, totals, BalancedScoring.BALANCED_K).approved();
  }

  private record Plan(List<Candidate> candidates, @Nullable InstanceType replacement, double savings) {}

  /**
   * Why {@code node} is no disruption candidate whatever its pods' drain, as Karpenter's
   * {@code StateNode.ValidateNodeDisruptable} and {@code ValidatePodsDisruptable} word it after {@code pretty.Sentence}
   * ({@code DisruptionBlocked}), or {@code null}.
   */
  private @Nullable String blocked(Node node, List<Pod> on, Set<String> nominated, Instant now) {
    if (!node.isReady()) {
      return "Node isn't initialized";
    }
    if (termination.contains(node.name()) || node.metadata().deletionTimestamp() != null) {
      return "Node is deleting or marked for deletion";
    }
    if (nominated.contains(node.name())) {
      return "Node is nominated for a pending pod";
    }
    if ("true".equals(node.metadata().annotations().get(DO_NOT_DISRUPT))) {
      return "Disruption is blocked through the \"" + DO_NOT_DISRUPT + "\" annotation";
    }
    for (Pod p : on) {
      if (NodeTermination.doNotDisruptActive(p, now)) {
        return "Pod has \"" + DO_NOT_DISRUPT + "\" annotation (Pod=" + p.metadata().key() + ")";
      }
    }
    return null;
  }

  /**
   * The {@code DisruptionBlocked} note for a drain the cluster autoscaler's rules refuse: Karpenter's for a
   * PodDisruptionBudget ({@code Pdb prevents pod evictions (PodDisruptionBudget=[ns/name])}, or {@code Eviction does
   * not support multiple PDBs (PodDisruptionBudget(s)=[..])} when several cover the pod); for the rules Karpenter does
   * not have (no controller, local storage, kube-system, safe-to-evict), FleetKit's {@code Pod cannot be evicted:
   * <rule> (Pod=ns/name)}.
   */
  private String drainBlocked(Drainability.NodeDrain d) {
    if (!d.reason().equals(Drainability.NOT_ENOUGH_PDB)) {
      return "Pod cannot be evicted: " + d.reason() + " (Pod=" + d.blockingPod() + ")";
    }
    Pod pod = null;
    int slash = d.blockingPod().indexOf('/');
    if (slash > 0) {
      pod = store.get(Pod.class, d.blockingPod().substring(0, slash), d.blockingPod().substring(slash + 1))
          .orElse(null);
    }
    List<String> keys = new ArrayList<>();
    if (pod != null) {
      for (PodDisruptionBudget b : store.list(PodDisruptionBudget.class).items()) {
        var selector = b.spec().selector();
        if (selector != null && b.metadata().namespace().equals(pod.metadata().namespace())
            && selector.matches(pod.metadata().labels())) {
          keys.add(b.metadata().key());
        }
      }
    }
    return keys.size() > 1
        ? "Eviction does not support multiple PDBs (PodDisruptionBudget(s)=[" + String.join(" ", keys) + "])"
        : "Pdb prevents pod evictions (PodDisruptionBudget=[" + String.join(" ", keys) + "])";
  }

  /**
   * Karpenter's {@code Results.NonPendingPodSchedulingErrors} after {@code pretty.Sentence}: {@code Not all pods would
   * schedule, ns/name => <error> } for at most five pods (then {@code  and <n> other(s)}, also when n is 0).
   */
  private static String notAllPodsWouldSchedule(Packer packer, List<Pod> unschedulable, String nodePool) {
    StringBuilder msg = new StringBuilder("Not all pods would schedule, ");
    int n = 0;
    for (Pod p : unschedulable) {
      msg.append(p.metadata().key()).append(" => ").append(packer.error(p, nodePool)).append(' ');
      if (++n >= 5) {
        msg.append(" and ").append(unschedulable.size() - 5).append(" other(s)");
        break;
      }
    }
    return msg.toString();
  }

  /**
   * Whether {@code cs} can go: their pods fit on the other nodes, plus at most one strictly cheaper new node. When it
   * cannot and {@code why} is given, Karpenter's {@code Unconsolidatable} note for a single candidate
   * ({@code consolidation.go} {@code computeConsolidation}) is added to it.
   */
  private @Nullable Plan plan(List<Candidate> cs, List<Node> nodes, List<Pod> pods, @Nullable List<String> why) {
    Set<String> gone = new HashSet<>();
    double price = 0;
    for (Candidate c : cs) {
      gone.add(c.node().name());
      price += c.price();
    }
    SimulatedCluster sim = simulation();
    List<Node> keep = new ArrayList<>();
    for (Node n : nodes) {
      if (!gone.contains(n.name()) && !replacing.containsKey(n.name()) && !termination.contains(n.name())) {
        keep.add(n);
      }
    }
    load(sim, keep, pods);
    List<Pod> evict = new ArrayList<>();
    for (Candidate c : cs) {
      evict.addAll(c.evict());
    }
    evict.sort(Comparator.comparingLong((Pod p) -> p.effectiveRequests().milliCpu()).reversed()
        .thenComparing(p -> p.metadata().key()));
    List<Pod> leftover = new ArrayList<>();
    for (Pod p : evict) {
      PodInfo pi = PodInfos.of(p.withNodeName(""));
      String to = sim.findFit(pi, n -> true);
      if (to == null) {
        leftover.add(p);
      } else {
        sim.addPod(to, pi);
      }
    }
    if (leftover.isEmpty()) {
      return new Plan(cs, null, price);
    }
    Packer packer = new Packer(offered, simulation(), store.list(DeviceClass.class).items());
    Packer.Packing packing = packer.pack(leftover);
    if (!packing.unschedulable().isEmpty()) {
      if (why != null) {
        why.add(notAllPodsWouldSchedule(packer, packing.unschedulable(), name));
      }
      return null;
    }
    if (packing.claims().size() != 1) {
      if (why != null) {
        why.add("Can't remove without creating " + packing.claims().size() + " candidates");
      }
      return null;
    }
    InstanceType t = packing.claims().get(0).cheapest();
    if (!(t.pricePerHour() < price)) {
      if (why != null) {
        why.add("Can't replace with a cheaper node");
      }
      return null; // a replacement must be strictly cheaper
    }
    return new Plan(cs, t, price - t.pricePerHour());
  }

  private void execute(String method, Plan p, Instant now, List<ConsolidationCommand> commands) {
    List<String> names = p.candidates().stream().map(c -> c.node().name()).toList();
    InstanceType t = p.replacement();
    if (t == null) {
      for (String n : names) {
        terminate(n, now);
        disrupting(n, DisruptionReason.Underutilized);
      }
    } else {
      String launched = launch(t, now);
      if (launched == null) {
        return; // the cloud refused the replacement: the candidates stay
      }
      for (String n : names) {
        replacing.put(n, List.of(launched));
      }
      finishReplacements(now);
    }
    commands.add(new ConsolidationCommand(method, names, t == null ? null : t.name(), p.savings()));
    LOG.debug("provisioner {}: {} {} -> {}", name, method, names, t == null ? "deleted" : t.name());
  }

  /**
   * Karpenter's interruption handling for a spot interruption warning about {@code node}: its NodeClaim is deleted at
   * once, so the node's termination begins now (the {@value NodeTermination#DISRUPTED_TAINT_KEY} taint, then the drain
   * at the next loops, bounded by the NodePool's {@code terminationGracePeriod}), whatever the disruption budgets, and
   * the pods' controllers recreate the drained pods for the provisioner to place before the machine goes. The node's
   * offering (its {@value #INSTANCE_TYPE_LABEL} in its {@value #ZONE_LABEL}, when it has both) is unavailable for
   * {@link #UNAVAILABLE_OFFERINGS_TTL} from now, as the AWS provider's interruption controller marks a spot offering
   * in its unavailable-offerings cache on the warning (also for a node already terminating), so the pods go to
   * another offering while the cloud takes machines of this one back.
   *
   * @return whether a termination began: false when {@code node} is not one of this provisioner's nodes, is gone, or
   *     is already terminating or being replaced
   */
  public synchronized boolean interrupt(String node) {
    Objects.requireNonNull(node, "node");
    Node n = store.get(Node.class, "", node).orElse(null);
    if (n == null || managedNodes(List.of(n)).isEmpty()) {
      return false;
    }
    Instant now = clock.instant();
    String type = n.metadata().labels().getOrDefault(INSTANCE_TYPE_LABEL, "");
    String zone = n.metadata().labels().getOrDefault(ZONE_LABEL, "");
    if (!type.isEmpty() && !zone.isEmpty()) {
      markUnavailable(offering(type, zone), now);
    }
    if (termination.contains(node) || replacing.containsKey(node)) {
      return false;
    }
    terminate(node, now);
    return true;
  }

  /** Karpenter's event reasons ({@code pkg/events/reason.go}) that the provisioner records. */
  public static final String NOMINATED = "Nominated";
  public static final String DISRUPTION_TERMINATING = "DisruptionTerminating";
  public static final String DISRUPTION_LAUNCHING = "DisruptionLaunching";
  public static final String DISRUPTION_WAITING_READINESS = "DisruptionWaitingReadiness";
  public static final String DISRUPTION_BLOCKED = "DisruptionBlocked";
  public static final String UNCONSOLIDATABLE = "Unconsolidatable";

  /**
   * Karpenter's {@code disruptionevents.Terminating} on the node a disruption command takes ({@code Disrupting Node:
   * Empty}, {@code Disrupting Node: Underutilized}); FleetKit's nodes have no separate NodeClaim to record it on.
   */
  private void disrupting(String node, DisruptionReason reason) {
    if (events != null) {
      Node n = store.get(Node.class, "", node).orElse(null);
      ObjectReference ref = n != null ? ObjectReference.to(n) : new ObjectReference("v1", "Node", "", node, "", "");
      events.terminating(ref, reason);
    }
  }

  /**
   * Begins the termination of {@code node} (Karpenter deletes its NodeClaim and Node; the termination controller
   * taints and drains it, {@link NodeTermination}); the NodePool's {@code terminationGracePeriod} bounds the drain.
   */
  private void terminate(String node, Instant now) {
    termination.start(node, now, options.terminationGracePeriod());
  }

  /** Deletes {@code node} now (drained, or never registered), with the pods still bound to it. */
  private void removeNode(String node, List<String> deleted) {
    termination.forget(node);
    for (Pod p : store.list(Pod.class).items()) {
      if (node.equals(p.spec().nodeName()) && !p.isTerminal()) {
        try {
          // the node goes in the same step, its kubelet with it: the pods the drain did not wait for (DaemonSet and
          // static pods, pods tolerating the disrupted taint, pods stuck terminating) are force-deleted (grace 0), as
          // the pod garbage collector deletes the pods of a deleted node
          store.delete(Pod.class, p.metadata().namespace(), p.metadata().name(), DeleteOptions.gracePeriod(0));
        } catch (NotFoundException gone) {
          LOG.debug("pod {} already gone", p.metadata().key());
        }
      }
    }
    try {
      store.delete(Node.class, "", node);
      deleted.add(node);
    } catch (NotFoundException gone) {
      LOG.debug("node {} already gone", node);
    }
  }

  private static String nodeType(List<Node> nodes, String node) {
    for (Node n : nodes) {
      if (n.name().equals(node)) {
        return n.metadata().labels().get(INSTANCE_TYPE_LABEL);
      }
    }
    throw new IllegalStateException("node " + node + " vanished");
  }

  private List<Node> managedNodes(List<Node> nodes) {
    List<Node> out = new ArrayList<>();
    for (Node n : nodes) {
      if (name.equals(n.metadata().labels().get(MANAGED_LABEL)) && n.metadata().deletionTimestamp() == null) {
        out.add(n);
      }
    }
    return out;
  }

  /**
   * A simulation over the store's disruption budgets, priority classes and, when it has any, DRA objects
   * (DeviceClasses, ResourceSlices, ResourceClaims: the scheduler's DynamicResources filter reads them).
   */
  private SimulatedCluster simulation() {
    Map<Class<?>, List<?>> objects = new HashMap<>();
    objects.put(PodDisruptionBudget.class, store.list(PodDisruptionBudget.class).items());
    objects.put(PriorityClass.class, store.list(PriorityClass.class).items());
    List<DeviceClass> classes = store.list(DeviceClass.class).items();
    List<ResourceSlice> slices = store.list(ResourceSlice.class).items();
    List<ResourceClaim> claims = store.list(ResourceClaim.class).items();
    if (!classes.isEmpty() || !slices.isEmpty() || !claims.isEmpty()) {
      objects.put(DeviceClass.class, classes);
      objects.put(ResourceSlice.class, slices);
      objects.put(ResourceClaim.class, claims);
    }
    return SimulatedCluster.create(profile, registry, clock, objects);
  }

  /**
   * Loads {@code nodes} and {@code pods} into {@code sim}, and gives each managed node whose type has devices but whose
   * drivers have published no slice yet (a node still starting) its type's slices, so that pending pods count the
   * devices of the nodes launched for them (as the cluster autoscaler simulates an upcoming node with its template's).
   */
  private void load(SimulatedCluster sim, List<Node> nodes, List<Pod> pods) {
    sim.load(nodes, pods);
    for (Node n : nodes) {
      List<ResourceSlice> slices = resourceSlicesFor(n);
      if (!slices.isEmpty() && sim.hasNode(n.name()) && !sim.hasNodeSlices(n.name())) {
        sim.addNodeSlices(n.name(), slices);
      }
    }
  }

  /**
   * The node-local ResourceSlices the DRA drivers of {@code node} publish when it is one of this provisioner's nodes
   * of a type with devices ({@link InstanceType#resourceSlicesFor}); empty for other nodes. A driver publisher (such
   * as {@code io.fleetkit.reconcile.node.ResourceSlicePublisher}) creates them in the store.
   */
  public List<ResourceSlice> resourceSlicesFor(Node node) {
    if (!name.equals(node.metadata().labels().get(MANAGED_LABEL))) {
      return List.of();
    }
    InstanceType t = typesByName.get(node.metadata().labels().get(INSTANCE_TYPE_LABEL));
    return t == null ? List.of() : t.resourceSlicesFor(node.name());
  }

  /** Builder; defaults: name {@code default}, kube's default profile and plugins, Karpenter's options. */
  public static final class Builder {
    private final ObjectStore store;
    private String name = "default";
    private Clock clock = Clock.systemUTC();
    private final List<InstanceType> types = new ArrayList<>();
    private SchedulerProfile profile = DefaultPlugins.profile();
    private PluginRegistry registry = PluginRegistry.defaults();
    private ProvisionerOptions options = ProvisionerOptions.defaults();
    private InstanceCreation instanceCreation = InstanceCreation.ALWAYS;
    private EventRecorder events = EventRecorder.NOOP;

    private Builder(ObjectStore store) {
      this.store = Objects.requireNonNull(store, "store");
    }

    /** The provisioner's name, the value of {@value Provisioner#MANAGED_LABEL} on its nodes (also their name prefix). */
    public Builder name(String v) { name = Objects.requireNonNull(v, "name"); return this; }
    public Builder clock(Clock v) { clock = Objects.requireNonNull(v, "clock"); return this; }
    public Builder instanceType(InstanceType v) { types.add(Objects.requireNonNull(v, "instanceType")); return this; }
    public Builder instanceTypes(List<InstanceType> v) { types.addAll(v); return this; }
    public Builder profile(SchedulerProfile v) { profile = Objects.requireNonNull(v, "profile"); return this; }
    public Builder registry(PluginRegistry v) { registry = Objects.requireNonNull(v, "registry"); return this; }
    public Builder options(ProvisionerOptions v) { options = Objects.requireNonNull(v, "options"); return this; }

    /**
     * The cloud every node is asked of before it is stored (a refusal for lack of capacity makes its offering
     * unavailable for {@link Provisioner#UNAVAILABLE_OFFERINGS_TTL}); default {@link InstanceCreation#ALWAYS}.
     */
    public Builder instanceCreation(InstanceCreation v) {
      instanceCreation = Objects.requireNonNull(v, "instanceCreation");
      return this;
    }

    /**
     * Records Karpenter's events, with its recorder's deduplication ({@link KarpenterEvents}): on pods,
     * {@code Nominated} for each pod packed onto a new node ({@code Pod should schedule on: nodeclaim/<node>}) and the
     * Warning {@code FailedScheduling} for each pod no instance type can take
     * ({@code Failed to schedule pod, <error>});
     * on nodes, {@code DisruptionTerminating} when emptiness or consolidation starts a node's termination
     * ({@code Disrupting Node: Empty}), {@code DisruptionLaunching} and {@code DisruptionWaitingReadiness} on a
     * replacement, {@code DisruptionBlocked} on a node that cannot be a candidate and {@code Unconsolidatable} on one
     * consolidation cannot remove. The recorder is wrapped once with {@link EventRecorder#bestEffort}: what it throws
     * is logged at DEBUG and passed over. Default {@link EventRecorder#NOOP}, which builds no event nor any note.
     */
    public Builder events(EventRecorder v) {
      events = Objects.requireNonNull(v, "events");
      return this;
    }

    /**
     * @throws IllegalArgumentException if no instance type was given or two share a name
     */
    public Provisioner build() {
      if (types.isEmpty()) {
        throw new IllegalArgumentException("provisioner " + name + ": at least one instance type is required");
      }
      return new Provisioner(this);
    }
  }
}
