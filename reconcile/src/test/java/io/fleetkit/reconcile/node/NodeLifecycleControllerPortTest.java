package io.fleetkit.reconcile.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.StoreUnavailableException;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeCondition;
import io.fleetkit.api.core.NodeStatus;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ForwardingObjectStore;
import io.fleetkit.api.store.ListResult;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.Watch;
import io.fleetkit.api.store.WatchEventType;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.reconcile.node.NodeLifecycleController.ZoneState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The table tests of kubernetes/kubernetes {@code pkg/controller/nodelifecycle/node_lifecycle_controller_test.go}
 * (read at commit 042f1843b648eb036047007dc443e34221519fd1) that apply to {@link NodeLifecycleController}; what is
 * ported and what is skipped, with reasons, is listed in {@code docs/conformance.md} (section workload
 * controllers). One test per upstream case, its display name the upstream function and case.
 *
 * <p>How upstream's fixture maps here. Upstream's controller reads an informer cache filled from a fake client and
 * takes its time from {@code nc.now}; here the controller reads an in-memory store on a {@link ManualClock}, which
 * also stamps {@code creationTimestamp}, so a node "created long ago" is created with the clock at that instant and
 * the clock then moved to the test's {@code fakeNow}. {@code monitorNodeHealth} is
 * {@link NodeLifecycleController#monitor}, {@code doNoExecuteTaintingPass} is
 * {@link NodeLifecycleController#noExecuteTaintingPass}. Upstream's
 * {@code expectedRequestCount} is "List" once per pass (the informer list; the store needs none) plus the node status
 * updates, which are counted here from a watch; {@code expectedNodes} is compared with the statuses written. The
 * NoSchedule taints of the conditions and the beta OS/arch labels, written by a separate upstream worker on node
 * events ({@code doNoScheduleTaintingPass}, {@code reconcileNodeLabels}), are written by FleetKit's monitor pass, so
 * they are in the spec of a node the pass marked not ready and not counted as status updates; the tests of those two
 * functions call {@link NodeLifecycleController#noScheduleTaintingPass} and
 * {@link NodeLifecycleController#reconcileNodeLabels(String)} as upstream calls them. Upstream's {@code processPod}
 * is {@link NodeLifecycleController#processPods}, fed by the pod watch {@link NodeLifecycleController#start} opens.
 * Zone keys are FleetKit's {@code region:zone} ({@code ":"} for
 * an unlabelled node) where upstream's are {@code region:\0:zone} ({@code ""}). Upstream's parameters: grace 50 s,
 * startup grace 60 s, eviction rates 100,000 qps, large cluster threshold 20, unhealthy zone threshold 0.55.
 */
final class NodeLifecycleControllerPortTest {
  private static final Instant CREATED_2012 = Instant.parse("2012-01-01T00:00:00Z");
  private static final Instant NOW_2015 = Instant.parse("2015-01-01T12:00:00Z");
  private static final Instant NOW_2016 = Instant.parse("2016-01-01T12:00:00Z");
  private static final Instant NOW_2017 = Instant.parse("2017-01-01T12:00:00Z");
  private static final String NEVER = NodeLifecycleController.REASON_NEVER_UPDATED;
  private static final String NEVER_MESSAGE = "Kubelet never posted node status.";
  private static final String UNKNOWN = NodeLifecycleController.REASON_UNKNOWN;
  private static final String UNKNOWN_MESSAGE = "Kubelet stopped posting node status.";
  private static final double TEST_RATE_LIMITER_QPS = 100_000;
  private static final ResourceList CAPACITY = ResourceList.builder().put("cpu", "10").put("memory", "10G").build();

  // ---- fixture

  /** Upstream's controller and fake API: a store on a manual clock, watched for the controller's writes. */
  private static final class Harness implements AutoCloseable {
    final ManualClock clock;
    final ObjectStore store;
    final NodeLeases leases = new NodeLeases();
    final NodeLifecycleController nlc;
    /** The node statuses the controller wrote, in order (upstream {@code UpdatedNodeStatuses}). */
    final List<NodeStatus> statusWrites = new ArrayList<>();
    /** Pod status updates by the controller (upstream: update actions on {@code pods/status}). */
    int podStatusWrites;
    /** The events the controller recorded (upstream's fake recorder), as {@code reason kind/name uid}. */
    final List<String> events = new ArrayList<>();
    boolean controllerRunning;
    private final Map<String, Node> seen = new HashMap<>();
    private final Watch nodeWatch;
    private final Watch podWatch;

    Harness(Instant start) {
      this(start, false);
    }

    Harness(Instant start, boolean withLeases) {
      this(start, withLeases, UnaryOperator.identity());
    }

    /** With {@code controllerStore}: the store the controller is given (upstream: the fake client and reactors). */
    Harness(Instant start, boolean withLeases, UnaryOperator<ObjectStore> controllerStore) {
      clock = new ManualClock(start);
      store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build();
      NodeLifecycleController.Builder b = NodeLifecycleController.builder(controllerStore.apply(store), clock)
          .gracePeriod(Duration.ofSeconds(50))
          .startupGracePeriod(Duration.ofSeconds(60))
          .monitorPeriod(Duration.ofSeconds(5))
          .evictionRates(TEST_RATE_LIMITER_QPS, TEST_RATE_LIMITER_QPS)
          .zoneThresholds(0.55, 20)
          .events((regarding, related, type, reason, action, note) ->
              events.add(reason + " " + regarding.kind() + "/" + regarding.name() + " " + regarding.uid()));
      if (withLeases) {
        b.leases(leases);
      }
      nlc = b.build();
      nodeWatch = store.watch(Node.class, store.list(Node.class).resourceVersion(), e -> {
        Node before = seen.put(e.object().name(), e.object());
        if (controllerRunning && e.type() == WatchEventType.MODIFIED && before != null
            && !before.status().equals(e.object().status())) {
          statusWrites.add(e.object().status());
        }
      });
      podWatch = store.watch(Pod.class, store.list(Pod.class).resourceVersion(), e -> {
        if (controllerRunning && e.type() == WatchEventType.MODIFIED) {
          podStatusWrites++;
        }
      });
    }

    /** Creates the node with the clock at its creation time (which must not be before the clock). */
    void createAt(Instant created, Node... nodes) {
      clock.advanceTo(created);
      for (Node n : nodes) {
        store.create(n);
      }
    }

    void at(Instant t) {
      clock.advanceTo(t);
    }

    /** {@code testutil.NewPod(name, node)}: a pod in {@code default} bound to the node, Ready=True. */
    void pod(String name, String nodeName) {
      Pod p = store.create(Pod.builder().namespace("default").name(name).container("c", "img", ResourceList.EMPTY)
          .nodeName(nodeName).build());
      store.updateStatus(p.withStatus(PodStatus.PENDING.withCondition(
          PodCondition.of(PodCondition.READY, ConditionStatus.True, "", "", null))));
    }

    /** What the kubelet (or the test) posts as the node's status. */
    void status(String name, List<NodeCondition> conditions) {
      status(name, conditions, ResourceList.EMPTY);
    }

    void status(String name, List<NodeCondition> conditions, ResourceList capacity) {
      Node n = node(name);
      store.updateStatus(n.withStatus(new NodeStatus(capacity, ResourceList.EMPTY, conditions, List.of(),
          List.of())));
    }

    /** Upstream {@code monitorNodeHealth}. */
    void monitor() {
      controllerRunning = true;
      try {
        nlc.monitor();
      } finally {
        controllerRunning = false;
      }
    }

    /**
     * Upstream {@code doNoExecuteTaintingPass}. Upstream's token bucket (100,000 qps, burst 1) runs on the wall
     * clock and refills in the 10 µs between two of the fake client's calls; here it runs on the simulated clock,
     * so the pass is repeated 10 µs apart, once per node, which gives every queued node its token.
     */
    void taintingPass() {
      controllerRunning = true;
      try {
        int nodes = store.list(Node.class).items().size();
        for (int i = 0; i <= nodes; i++) {
          nlc.noExecuteTaintingPass();
          clock.advance(Duration.ofNanos((long) (1e9 / TEST_RATE_LIMITER_QPS)));
        }
      } finally {
        controllerRunning = false;
      }
    }

    Node node(String name) {
      return store.require(Node.class, "", name);
    }

    /** The node's taints as {@code key:effect}. */
    List<String> taints(String name) {
      return node(name).spec().taints().stream().map(t -> t.key() + ":" + t.effect()).toList();
    }

    @Override
    public void close() {
      nodeWatch.close();
      podWatch.close();
      nlc.close();
      store.close();
    }
  }

  /**
   * Upstream's reactors on the fake client: the controller's store, failing ("fake error") the {@code failUpdate}-th
   * pod status update and the {@code failList}-th pod list it is asked for (0: none), and counting the pod status
   * updates asked for, failed ones included (upstream counts the update actions).
   */
  private static final class FaultyStore extends ForwardingObjectStore {
    private final int failUpdate;
    private final int failList;
    int podStatusUpdates;
    private int podLists;

    FaultyStore(ObjectStore store, int failUpdate, int failList) {
      super(store);
      this.failUpdate = failUpdate;
      this.failList = failList;
    }

    @Override
    public <T extends ApiObject<T>> T updateStatus(T object) {
      if (object instanceof Pod && ++podStatusUpdates == failUpdate) {
        throw new StoreUnavailableException("fake error", null);
      }
      return super.updateStatus(object);
    }

    @Override
    public <T extends ApiObject<T>> ListResult<T> list(Class<T> kind, String namespace,
        Predicate<? super T> filter) {
      if (kind == Pod.class && ++podLists == failList) {
        throw new StoreUnavailableException("fake error", null);
      }
      return super.list(kind, namespace, filter);
    }
  }

  private static final String UNREACHABLE_NO_EXECUTE = NodeLifecycleController.TAINT_UNREACHABLE + ":NoExecute";
  private static final String NOT_READY_NO_EXECUTE = NodeLifecycleController.TAINT_NOT_READY + ":NoExecute";

  /** The four topology labels upstream's nodes carry (FleetKit reads the GA pair). */
  private static Map<String, String> zone(String region, String zone) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put(NodeLifecycleController.REGION_LABEL, region);
    m.put(NodeLifecycleController.ZONE_LABEL, zone);
    m.put("failure-domain.beta.kubernetes.io/region", region);
    m.put("failure-domain.beta.kubernetes.io/zone", zone);
    return m;
  }

  private static Node node(String name, Map<String, String> labels, NodeCondition... conditions) {
    return Node.builder().name(name).labels(labels).conditions(List.of(conditions)).build();
  }

  private static Node node(String name, NodeCondition... conditions) {
    return node(name, Map.of(), conditions);
  }

  private static NodeCondition cond(String type, ConditionStatus s, @Nullable Instant heartbeat,
      @Nullable Instant transition) {
    return new NodeCondition(type, s, "", "", heartbeat, transition);
  }

  private static NodeCondition ready(ConditionStatus s, @Nullable Instant heartbeat, @Nullable Instant transition) {
    return cond(NodeCondition.READY, s, heartbeat, transition);
  }

  private static NodeCondition ready(ConditionStatus s, Instant at) {
    return ready(s, at, at);
  }

  /** The Ready, MemoryPressure, DiskPressure and PIDPressure conditions the controller adds for a silent kubelet. */
  private static List<NodeCondition> neverUpdated(Instant created, Instant now) {
    List<NodeCondition> out = new ArrayList<>();
    for (String type : List.of(NodeCondition.READY, NodeCondition.MEMORY_PRESSURE, NodeCondition.DISK_PRESSURE,
        NodeCondition.PID_PRESSURE)) {
      out.add(new NodeCondition(type, ConditionStatus.Unknown, NEVER, NEVER_MESSAGE, created, now));
    }
    return out;
  }

  private static NodeStatus status(List<NodeCondition> conditions, ResourceList capacity) {
    return new NodeStatus(capacity, ResourceList.EMPTY, conditions, List.of(), List.of());
  }

  private static String zoneKey(String region, String zone) {
    return region + ":" + zone;
  }

  // ---- TestMonitorNodeHealth: zone states before and after 60 minutes with new statuses

  private static final Duration TIME_TO_PASS = Duration.ofMinutes(60);
  private static final NodeCondition HEALTHY = ready(ConditionStatus.True, NOW_2015.plus(TIME_TO_PASS), NOW_2015);
  private static final NodeCondition UNHEALTHY = ready(ConditionStatus.Unknown, NOW_2015, NOW_2015);

  /**
   * One TestMonitorNodeHealth case: the nodes, created at fakeNow; a pass at fakeNow; the i-th new status given to
   * the i-th node 60 minutes later and another pass.
   */
  private static void zoneStates(List<Node> nodes, List<List<NodeCondition>> updated,
      Map<String, ZoneState> initial, Map<String, ZoneState> following) {
    try (Harness h = new Harness(NOW_2015)) {
      h.createAt(NOW_2015, nodes.toArray(Node[]::new));
      h.monitor();
      assertThat(h.nlc.zoneStates()).as("initial zone states").isEqualTo(initial);
      h.at(NOW_2015.plus(TIME_TO_PASS));
      for (int i = 0; i < updated.size(); i++) {
        h.status(nodes.get(i).name(), updated.get(i));
      }
      h.monitor();
      assertThat(h.nlc.zoneStates()).as("following zone states").isEqualTo(following);
    }
  }

  private static Node zoned(String name, String region, String zone, NodeCondition... conditions) {
    return node(name, zone(region, zone), conditions);
  }

  @Test
  @DisplayName("TestMonitorNodeHealth: No Disruption: Node created recently without failure domain labels "
      + "(happens only at cluster startup)")
  void monitorNodeHealth_nodeWithoutFailureDomainLabels_normal() {
    zoneStates(List.of(node("node0", ready(ConditionStatus.True, NOW_2015))), List.of(List.of(HEALTHY)),
        Map.of(":", ZoneState.Normal), Map.of(":", ZoneState.Normal));
  }

  @Test
  @DisplayName("TestMonitorNodeHealth: No Disruption: Initially both zones down, one comes back")
  void monitorNodeHealth_bothZonesDownOneComesBack_fullThenOneNormal() {
    zoneStates(
        List.of(zoned("node0", "region1", "zone1", ready(ConditionStatus.Unknown, NOW_2015)),
            zoned("node1", "region1", "zone2", ready(ConditionStatus.Unknown, NOW_2015))),
        List.of(List.of(UNHEALTHY), List.of(HEALTHY)),
        Map.of(zoneKey("region1", "zone1"), ZoneState.FullDisruption,
            zoneKey("region1", "zone2"), ZoneState.FullDisruption),
        Map.of(zoneKey("region1", "zone1"), ZoneState.FullDisruption,
            zoneKey("region1", "zone2"), ZoneState.Normal));
  }

  @Test
  @DisplayName("TestMonitorNodeHealth: Partial Disruption: Nodes created recently without status conditions "
      + "(happens only at cluster startup)")
  void monitorNodeHealth_nodesWithoutConditions_fullThenPartial() {
    zoneStates(
        List.of(zoned("node0", "region1", "zone1"), zoned("node1", "region1", "zone1"),
            zoned("node2", "region1", "zone1"), zoned("node3", "region1", "zone1")),
        List.of(List.of(UNHEALTHY), List.of(UNHEALTHY), List.of(UNHEALTHY), List.of(HEALTHY)),
        // no status received yet: the zone counts as fully disrupted
        Map.of(zoneKey("region1", "zone1"), ZoneState.FullDisruption),
        Map.of(zoneKey("region1", "zone1"), ZoneState.PartialDisruption));
  }

  @Test
  @DisplayName("TestMonitorNodeHealth: Partial Disruption: one Node failed leading to the number of healthy Nodes "
      + "to exceed the configured threshold")
  void monitorNodeHealth_thirdOfFiveFails_normalThenPartial() {
    zoneStates(
        List.of(zoned("node0", "region1", "zone1", ready(ConditionStatus.Unknown, NOW_2015)),
            zoned("node1", "region1", "zone1", ready(ConditionStatus.Unknown, NOW_2015)),
            zoned("node2", "region1", "zone1", ready(ConditionStatus.True, NOW_2015)),
            zoned("node3", "region1", "zone1", ready(ConditionStatus.True, NOW_2015)),
            zoned("node4", "region1", "zone1", ready(ConditionStatus.True, NOW_2015))),
        List.of(List.of(UNHEALTHY), List.of(UNHEALTHY), List.of(UNHEALTHY), List.of(HEALTHY), List.of(HEALTHY)),
        Map.of(zoneKey("region1", "zone1"), ZoneState.Normal),
        Map.of(zoneKey("region1", "zone1"), ZoneState.PartialDisruption));
  }

  @Test
  @DisplayName("TestMonitorNodeHealth: Full Disruption: the zone has less than 2 Nodes down, the last healthy Node "
      + "has failed")
  void monitorNodeHealth_lastHealthyNodeFails_normalThenFull() {
    zoneStates(
        List.of(zoned("node0", "region1", "zone1", ready(ConditionStatus.Unknown, NOW_2015)),
            zoned("node1", "region1", "zone1", ready(ConditionStatus.Unknown, NOW_2015)),
            zoned("node2", "region1", "zone1", ready(ConditionStatus.True, NOW_2015))),
        List.of(List.of(UNHEALTHY), List.of(UNHEALTHY), List.of(UNHEALTHY)),
        // at most 2 unhealthy nodes: normal whatever the ratio
        Map.of(zoneKey("region1", "zone1"), ZoneState.Normal),
        Map.of(zoneKey("region1", "zone1"), ZoneState.FullDisruption));
  }

  @Test
  @DisplayName("TestMonitorNodeHealth: Full Disruption: all the Nodes in one zone are down")
  void monitorNodeHealth_oneZoneDown_fullAndNormal() {
    zoneStates(
        List.of(zoned("node0", "region1", "zone1", ready(ConditionStatus.Unknown, NOW_2015)),
            zoned("node1", "region1", "zone2", ready(ConditionStatus.True, NOW_2015))),
        List.of(List.of(UNHEALTHY), List.of(HEALTHY)),
        Map.of(zoneKey("region1", "zone1"), ZoneState.FullDisruption, zoneKey("region1", "zone2"), ZoneState.Normal),
        Map.of(zoneKey("region1", "zone1"), ZoneState.FullDisruption, zoneKey("region1", "zone2"), ZoneState.Normal));
  }

  @Test
  @DisplayName("TestMonitorNodeHealth: Full Disruption: all the Nodes in both the zones are down")
  void monitorNodeHealth_bothZonesDown_full() {
    zoneStates(
        List.of(zoned("node0", "region1", "zone1", ready(ConditionStatus.Unknown, NOW_2015)),
            zoned("node1", "region2", "zone2", ready(ConditionStatus.Unknown, NOW_2015))),
        List.of(List.of(UNHEALTHY), List.of(UNHEALTHY)),
        Map.of(zoneKey("region1", "zone1"), ZoneState.FullDisruption,
            zoneKey("region2", "zone2"), ZoneState.FullDisruption),
        Map.of(zoneKey("region1", "zone1"), ZoneState.FullDisruption,
            zoneKey("region2", "zone2"), ZoneState.FullDisruption));
  }

  @Test
  @DisplayName("TestMonitorNodeHealth: Full Disruption: Ready condition removed from the Node")
  void monitorNodeHealth_readyConditionRemoved_normalThenFull() {
    zoneStates(
        List.of(zoned("node0", "region1", "zone1", ready(ConditionStatus.True, NOW_2015))),
        List.of(List.of()),
        Map.of(zoneKey("region1", "zone1"), ZoneState.Normal),
        Map.of(zoneKey("region1", "zone1"), ZoneState.FullDisruption));
  }

  @Test
  @DisplayName("TestMonitorNodeHealth: Full Disruption: the only available Node has the "
      + "node.kubernetes.io/exclude-disruption label")
  void monitorNodeHealth_onlyReadyNodeExcluded_full() {
    Map<String, String> masterLabels = new LinkedHashMap<>(zone("region1", "zone1"));
    masterLabels.put(NodeLifecycleController.EXCLUDE_DISRUPTION_LABEL, "");
    zoneStates(
        List.of(zoned("node0", "region1", "zone1", ready(ConditionStatus.Unknown, NOW_2015)),
            node("node-master", masterLabels, ready(ConditionStatus.True, NOW_2015))),
        List.of(List.of(UNHEALTHY), List.of(HEALTHY)),
        Map.of(zoneKey("region1", "zone1"), ZoneState.FullDisruption),
        Map.of(zoneKey("region1", "zone1"), ZoneState.FullDisruption));
  }

  // ---- TestMonitorNodeHealthUpdateStatus: the status written for a node whose kubelet is silent

  /**
   * One TestMonitorNodeHealthUpdateStatus case: node0 created at {@code created} with {@code initial} conditions and
   * pod0 on it; a pass at fakeNow (2015); with {@code timeToPass}, the new status and a pass then.
   */
  private static void updateStatus(Instant created, List<NodeCondition> initial, ResourceList capacity,
      @Nullable Duration timeToPass, List<NodeCondition> updated, List<NodeStatus> expectedStatuses,
      boolean expectedPodStatusUpdate) {
    try (Harness h = new Harness(created)) {
      h.createAt(created, Node.builder().name("node0").conditions(initial).capacity(capacity).build());
      h.at(NOW_2015);
      h.pod("pod0", "node0");
      h.monitor();
      if (timeToPass != null) {
        h.at(NOW_2015.plus(timeToPass));
        h.status("node0", updated, capacity);
        h.monitor();
      }
      assertThat(h.statusWrites).as("node status updates").isEqualTo(expectedStatuses);
      assertThat(h.node("node0").metadata().creationTimestamp()).isEqualTo(created);
      assertThat(h.podStatusWrites > 0).as("pod status updated").isEqualTo(expectedPodStatusUpdate);
    }
  }

  @Test
  @DisplayName("TestMonitorNodeHealthUpdateStatus[0]: Node created long time ago, without status")
  void updateStatus_oldNodeWithoutStatus_unknownPosted() {
    // Expect Unknown status posted from node controller (List+Update); the pod was never scheduled
    updateStatus(CREATED_2012, List.of(), ResourceList.EMPTY, null, List.of(),
        List.of(status(neverUpdated(CREATED_2012, NOW_2015), ResourceList.EMPTY)), false);
  }

  @Test
  @DisplayName("TestMonitorNodeHealthUpdateStatus[1]: Node created recently, without status")
  void updateStatus_newNodeWithoutStatus_nothingWithinStartupGrace() {
    // Expect no action from node controller (within startup grace period): List only
    try (Harness h = new Harness(NOW_2015)) {
      h.createAt(NOW_2015, Node.builder().name("node0").build());
      h.pod("pod0", "node0");
      String version = h.node("node0").metadata().resourceVersion();
      h.monitor();
      assertThat(h.statusWrites).isEmpty();
      assertThat(h.node("node0").metadata().resourceVersion()).as("node not written").isEqualTo(version);
      assertThat(h.podStatusWrites).isZero();
    }
  }

  @Test
  @DisplayName("TestMonitorNodeHealthUpdateStatus[2]: Node created long time ago, with status updated by kubelet "
      + "exceeds grace period")
  void updateStatus_heartbeatOlderThanGrace_unknownPostedPodsNotReady() {
    // Expect Unknown status posted from node controller ((List+)List+Update), and the pod status updated
    Instant later = NOW_2015.plus(Duration.ofHours(1));
    updateStatus(CREATED_2012, List.of(ready(ConditionStatus.True, NOW_2015)), CAPACITY, Duration.ofHours(1),
        List.of(ready(ConditionStatus.True, NOW_2015)),
        List.of(status(List.of(
            new NodeCondition(NodeCondition.READY, ConditionStatus.Unknown, UNKNOWN, UNKNOWN_MESSAGE, NOW_2015, later),
            // never-updated conditions default their heartbeat to the node's creation time
            new NodeCondition(NodeCondition.MEMORY_PRESSURE, ConditionStatus.Unknown, NEVER, NEVER_MESSAGE,
                CREATED_2012, later),
            new NodeCondition(NodeCondition.DISK_PRESSURE, ConditionStatus.Unknown, NEVER, NEVER_MESSAGE,
                CREATED_2012, later),
            new NodeCondition(NodeCondition.PID_PRESSURE, ConditionStatus.Unknown, NEVER, NEVER_MESSAGE,
                CREATED_2012, later)), CAPACITY)),
        true);
  }

  @Test
  @DisplayName("TestMonitorNodeHealthUpdateStatus[3]: Node created long time ago, with status updated recently")
  void updateStatus_heartbeatWithinGrace_nothing() {
    // Expect no action from node controller (within monitor grace period): List only
    updateStatus(CREATED_2012, List.of(ready(ConditionStatus.True, NOW_2015)), CAPACITY, null, List.of(),
        List.of(), false);
  }

  // ---- TestMonitorNodeHealthUpdateNodeAndPodStatusWithLease

  /**
   * One Lease case: node0 created at {@code created} with {@code initial} conditions and pod0 on it; its Lease
   * renewed at fakeNow ({@code leaseAtStart}) or missing; a pass at fakeNow; with {@code timeToPass} (1 h), the new
   * status, the Lease renewed then or not ({@code renewedAfter}), and a pass.
   */
  private static void withLease(Instant created, List<NodeCondition> initial, boolean leaseAtStart,
      boolean secondPass, List<NodeCondition> updated, boolean renewedAfter, List<NodeStatus> expectedStatuses,
      boolean expectedPodStatusUpdate) {
    ResourceList capacity = initial.isEmpty() ? ResourceList.EMPTY : CAPACITY;
    try (Harness h = new Harness(created, true)) {
      h.createAt(created, Node.builder().name("node0").conditions(initial).capacity(capacity).build());
      h.at(NOW_2015);
      h.pod("pod0", "node0");
      NodeLeases.Lease lease = null;
      if (leaseAtStart) {
        lease = h.leases.start("node0", NOW_2015, NodeLeases.RENEW_INTERVAL);
        lease.ran(NOW_2015);
        assertThat(h.leases.renewTime("node0")).isEqualTo(NOW_2015);
      }
      h.monitor();
      if (secondPass) {
        Instant later = NOW_2015.plus(Duration.ofHours(1));
        h.at(later);
        if (!updated.equals(h.node("node0").status().conditions())) {
          h.status("node0", updated, capacity);
        }
        if (renewedAfter) {
          lease.ran(later);
          assertThat(h.leases.renewTime("node0")).isEqualTo(later);
        }
        h.monitor();
      }
      assertThat(h.statusWrites).as("node status updates").isEqualTo(expectedStatuses);
      assertThat(h.podStatusWrites > 0).as("pod status updated").isEqualTo(expectedPodStatusUpdate);
    }
  }

  @Test
  @DisplayName("TestMonitorNodeHealthUpdateNodeAndPodStatusWithLease: Node created recently, without status. "
      + "Node lease is missing.")
  void lease_newNodeNoLease_nothingWithinStartupGrace() {
    withLease(NOW_2015, List.of(), false, false, List.of(), false, List.of(), false);
  }

  @Test
  @DisplayName("TestMonitorNodeHealthUpdateNodeAndPodStatusWithLease: Node created recently, without status. "
      + "Node lease is renewed recently.")
  void lease_newNodeLeaseRenewed_nothingWithinStartupGrace() {
    withLease(NOW_2015, List.of(), true, false, List.of(), false, List.of(), false);
  }

  @Test
  @DisplayName("TestMonitorNodeHealthUpdateNodeAndPodStatusWithLease: Node created long time ago, without status. "
      + "Node lease is missing.")
  void lease_oldNodeNoLease_unknownPosted() {
    // the pod was never scheduled because the node was never ready
    withLease(CREATED_2012, List.of(), false, false, List.of(), false,
        List.of(status(neverUpdated(CREATED_2012, NOW_2015), ResourceList.EMPTY)), false);
  }

  @Test
  @DisplayName("TestMonitorNodeHealthUpdateNodeAndPodStatusWithLease: Node created long time ago, without status. "
      + "Node lease is renewed recently.")
  void lease_oldNodeLeaseRenewedAfterAnHour_nothing() {
    withLease(CREATED_2012, List.of(), true, true, List.of(), true, List.of(), false);
  }

  @Test
  @DisplayName("TestMonitorNodeHealthUpdateNodeAndPodStatusWithLease: Node created long time ago, without status. "
      + "Node lease is expired.")
  void lease_oldNodeLeaseNotRenewed_unknownPosted() {
    withLease(CREATED_2012, List.of(), true, true, List.of(), false,
        List.of(status(neverUpdated(CREATED_2012, NOW_2015.plus(Duration.ofHours(1))), ResourceList.EMPTY)),
        false);
  }

  @Test
  @DisplayName("TestMonitorNodeHealthUpdateNodeAndPodStatusWithLease: Node created long time ago, with status "
      + "updated by kubelet exceeds grace period. Node lease is renewed.")
  void lease_staleStatusLeaseRenewed_nothing() {
    List<NodeCondition> conditions = List.of(ready(ConditionStatus.True, NOW_2015),
        cond(NodeCondition.DISK_PRESSURE, ConditionStatus.False, NOW_2015, NOW_2015));
    withLease(CREATED_2012, conditions, true, true, conditions, true, List.of(), false);
  }

  @Test
  @DisplayName("TestMonitorNodeHealthUpdateNodeAndPodStatusWithLease: Node created long time ago, with status "
      + "updated by kubelet recently. Node lease is expired.")
  void lease_freshStatusLeaseNotRenewed_nothing() {
    Instant later = NOW_2015.plus(Duration.ofHours(1));
    withLease(CREATED_2012,
        List.of(ready(ConditionStatus.True, NOW_2015),
            cond(NodeCondition.DISK_PRESSURE, ConditionStatus.False, NOW_2015, NOW_2015)),
        true, true,
        List.of(ready(ConditionStatus.True, later, NOW_2015),
            cond(NodeCondition.DISK_PRESSURE, ConditionStatus.False, later, NOW_2015)),
        false, List.of(), false);
  }

  @Test
  @DisplayName("TestMonitorNodeHealthUpdateNodeAndPodStatusWithLease: Node created long time ago, with status "
      + "updated by kubelet exceeds grace period. Node lease is also expired.")
  void lease_staleStatusLeaseNotRenewed_unknownPostedPodsNotReady() {
    Instant later = NOW_2015.plus(Duration.ofHours(1));
    List<NodeCondition> conditions = List.of(ready(ConditionStatus.True, NOW_2015));
    withLease(CREATED_2012, conditions, true, true, conditions, false,
        List.of(status(List.of(
            new NodeCondition(NodeCondition.READY, ConditionStatus.Unknown, UNKNOWN, UNKNOWN_MESSAGE, NOW_2015, later),
            new NodeCondition(NodeCondition.MEMORY_PRESSURE, ConditionStatus.Unknown, NEVER, NEVER_MESSAGE,
                CREATED_2012, later),
            new NodeCondition(NodeCondition.DISK_PRESSURE, ConditionStatus.Unknown, NEVER, NEVER_MESSAGE,
                CREATED_2012, later),
            new NodeCondition(NodeCondition.PID_PRESSURE, ConditionStatus.Unknown, NEVER, NEVER_MESSAGE,
                CREATED_2012, later)), CAPACITY)),
        true);
  }

  // ---- TestMonitorNodeHealthMarkPodsNotReady

  private static void markPodsNotReady(Instant created, List<NodeCondition> initial, @Nullable Duration timeToPass,
      boolean expectedPodStatusUpdate) {
    try (Harness h = new Harness(created)) {
      h.createAt(created, Node.builder().name("node0").conditions(initial)
          .capacity(initial.isEmpty() ? ResourceList.EMPTY : CAPACITY).build());
      h.at(NOW_2015);
      h.pod("pod0", "node0");
      h.monitor();
      if (timeToPass != null) {
        h.at(NOW_2015.plus(timeToPass));
        h.monitor(); // the new status is the old one: its heartbeat is now past the grace period
      }
      assertThat(h.podStatusWrites > 0).as("pod status updated").isEqualTo(expectedPodStatusUpdate);
    }
  }

  @Test
  @DisplayName("TestMonitorNodeHealthMarkPodsNotReady[0]: Node created recently, without status")
  void markPodsNotReady_newNodeWithoutStatus_podUntouched() {
    markPodsNotReady(NOW_2015, List.of(), null, false);
  }

  @Test
  @DisplayName("TestMonitorNodeHealthMarkPodsNotReady[1]: Node created long time ago, with status updated recently")
  void markPodsNotReady_heartbeatWithinGrace_podUntouched() {
    markPodsNotReady(CREATED_2012, List.of(ready(ConditionStatus.True, NOW_2015)), null, false);
  }

  @Test
  @DisplayName("TestMonitorNodeHealthMarkPodsNotReady[2]: Node created long time ago, with status updated by kubelet "
      + "exceeds grace period")
  void markPodsNotReady_heartbeatOlderThanGrace_podNotReady() {
    markPodsNotReady(CREATED_2012, List.of(ready(ConditionStatus.True, NOW_2015)), Duration.ofMinutes(1), true);
  }

  @Test
  @DisplayName("TestMonitorNodeHealthMarkPodsNotReadyWithWorkerSize: workers 0 (50 nodes, 100 pods each)")
  void markPodsNotReadyWithWorkerSize_fiftyNodesStale_everyPodNotReady() {
    int numNodes = 50;
    int podsPerNode = 100;
    try (Harness h = new Harness(CREATED_2012)) {
      for (int i = 0; i < numNodes; i++) {
        h.createAt(CREATED_2012, Node.builder().name("node" + i).condition(ready(ConditionStatus.True, NOW_2015))
            .capacity(CAPACITY).build());
      }
      h.at(NOW_2015);
      for (int i = 0; i < numNodes * podsPerNode; i++) {
        h.pod("pod" + i, "node" + (i % numNodes));
      }
      h.monitor();
      h.at(NOW_2015.plus(Duration.ofMinutes(1)));
      h.monitor();
      assertThat(h.podStatusWrites).isEqualTo(numNodes * podsPerNode);
    }
  }

  @Test
  @DisplayName("TestMonitorNodeHealthMarkPodsNotReadyRetry: successful pod status update, no retry required")
  void markPodsNotReadyRetry_successfulUpdate_oneUpdate() {
    Instant timeNow = NOW_2015;
    Instant timePlusTwoMinutes = Instant.parse("2015-01-01T12:00:02Z"); // upstream's name; 2 s
    try (Harness h = new Harness(timeNow)) {
      h.pod("pod0", "node0");
      // iteration 1: now
      h.createAt(timeNow, node("node0", ready(ConditionStatus.True, timeNow)));
      h.monitor();
      // iteration 2: a minute later, same status: Unknown, pods marked not ready
      h.at(timeNow.plus(Duration.ofMinutes(1)));
      h.status("node0", List.of(ready(ConditionStatus.True, timeNow)));
      h.monitor();
      // iteration 3: the same instant, the kubelet reports NotReady: no second update
      h.status("node0", List.of(ready(ConditionStatus.False, timePlusTwoMinutes)));
      h.monitor();
      assertThat(h.podStatusWrites).isEqualTo(1);
    }
  }

  /**
   * The three iterations of TestMonitorNodeHealthMarkPodsNotReadyRetry's failing cases, on a controller whose store
   * fails the given pod status update or pod list: now, a minute later with the same status (the controller marks
   * the node Unknown and its pods not ready), the same instant with NotReady posted by the kubelet.
   *
   * @return the pod status updates the controller asked for, failed ones included
   */
  private static int markPodsNotReadyRetry(int failUpdate, int failList) {
    Instant timeNow = NOW_2015;
    Instant timePlusTwoMinutes = Instant.parse("2015-01-01T12:00:02Z"); // upstream's name; 2 s
    FaultyStore[] faulty = new FaultyStore[1];
    try (Harness h = new Harness(timeNow, false, s -> faulty[0] = new FaultyStore(s, failUpdate, failList))) {
      h.pod("pod0", "node0");
      h.createAt(timeNow, node("node0", ready(ConditionStatus.True, timeNow)));
      h.monitor();
      h.at(timeNow.plus(Duration.ofMinutes(1)));
      h.status("node0", List.of(ready(ConditionStatus.True, timeNow)));
      h.monitor();
      h.status("node0", List.of(ready(ConditionStatus.False, timePlusTwoMinutes)));
      h.monitor();
      assertThat(h.store.require(Pod.class, "default", "pod0").status().condition(PodCondition.READY).status())
          .as("pod0 not ready in the end").isEqualTo(ConditionStatus.False);
      return faulty[0].podStatusUpdates;
    }
  }

  @Test
  @DisplayName("TestMonitorNodeHealthMarkPodsNotReadyRetry: unsuccessful pod status update, retry required")
  void markPodsNotReadyRetry_firstPodStatusUpdateFails_retriedAtNextPass() {
    assertThat(markPodsNotReadyRetry(1, 0)).as("one failed and one retry").isEqualTo(2);
  }

  @Test
  @DisplayName("TestMonitorNodeHealthMarkPodsNotReadyRetry: unsuccessful pod list, retry required")
  void markPodsNotReadyRetry_firstPodListFails_oneUpdate() {
    // upstream lists a node's pods at every pass, so its first list (the first pass) fails and the second pass marks
    // the pod; FleetKit lists them only when it marks them, so its first list (the second pass) fails and the third
    // pass retries: one update either way
    assertThat(markPodsNotReadyRetry(0, 1)).isEqualTo(1);
  }

  // ---- NoExecute tainting

  @Test
  @DisplayName("TestApplyNoExecuteTaints")
  void applyNoExecuteTaints_unreachableAndNotReadyTainted_untaintedWhenHealthyOrReadyGone() {
    try (Harness h = new Harness(CREATED_2012)) {
      Map<String, String> z = zone("region1", "zone1");
      h.createAt(CREATED_2012,
          // Unreachable taint with effect NoExecute should be applied to this node
          node("node0", z, ready(ConditionStatus.Unknown, NOW_2015)),
          // a healthy node: no eviction when all nodes are not ready
          node("node1", z, ready(ConditionStatus.True, NOW_2017)),
          // NotReady taint with effect NoExecute should be applied to this node
          node("node2", z, ready(ConditionStatus.False, NOW_2015)),
          // no NotReady NoExecute taint if Ready is gone between enqueueing and the tainting pass
          node("node3", z, ready(ConditionStatus.True, NOW_2016)));
      h.at(NOW_2017);
      h.pod("pod0", "node0");
      h.monitor();
      h.taintingPass();
      assertThat(h.taints("node0")).contains(UNREACHABLE_NO_EXECUTE);
      assertThat(h.taints("node2")).contains(NOT_READY_NO_EXECUTE);

      // node2 healthy again
      h.status("node2", List.of(ready(ConditionStatus.True, NOW_2017.plus(Duration.ofMinutes(10)), NOW_2017)));
      h.monitor();
      h.taintingPass();
      assertThat(h.taints("node2")).as("no taint at all on node2").isEmpty();

      h.status("node3", List.of(ready(ConditionStatus.False, NOW_2017.plus(Duration.ofMinutes(10)), NOW_2017)));
      h.monitor();
      // before the tainting pass, the status is replaced (maybe a merge-patch replace): no Ready condition
      h.status("node3", List.of(cond(NodeCondition.MEMORY_PRESSURE, ConditionStatus.Unknown,
          NOW_2017.plus(Duration.ofMinutes(10)), NOW_2017)));
      h.taintingPass();
      assertThat(h.taints("node3")).doesNotContain(NOT_READY_NO_EXECUTE);
      // upstream's NoSchedule worker drops not-ready:NoSchedule on the status event; FleetKit's monitor pass does
      h.monitor();
      assertThat(h.taints("node3")).as("no taint at all on node3").isEmpty();
    }
  }

  @Test
  @DisplayName("TestApplyNoExecuteTaintsToUnreachableNode")
  void applyNoExecuteTaintsToUnreachableNode_heartbeatOlderThanGrace_taintedUntilNewHeartbeat() {
    Instant time1 = NOW_2017;
    Instant time2 = time1.plus(Duration.ofSeconds(51)); // grace period plus 1 s
    try (Harness h = new Harness(CREATED_2012)) {
      Map<String, String> z = zone("region1", "zone1");
      h.createAt(CREATED_2012, node("node0", z, ready(ConditionStatus.True, time1)),
          node("node1", z, ready(ConditionStatus.True, time1)));
      h.at(time1);
      h.pod("pod0", "node0");
      // no taint while the Ready conditions are younger than the grace period
      h.monitor();
      h.taintingPass();
      assertThat(h.taints("node0")).isEmpty();
      assertThat(h.taints("node1")).isEmpty();

      // at time2 only node1 sends a new heartbeat
      h.at(time2);
      h.status("node1", List.of(ready(ConditionStatus.True, time2, time1)));
      h.monitor();
      h.taintingPass();
      assertThat(h.taints("node0")).contains(UNREACHABLE_NO_EXECUTE);
      assertThat(h.taints("node1")).isEmpty();

      // the unreachable taint goes when node0 sends a new heartbeat
      h.status("node0", List.of(ready(ConditionStatus.True, time2)));
      h.monitor();
      h.taintingPass();
      assertThat(h.taints("node0")).isEmpty();
    }
  }

  @Test
  @DisplayName("TestApplyNoExecuteTaintsToNodesEnqueueTwice")
  void applyNoExecuteTaintsToNodesEnqueueTwice_nodeReadyAgainInQueue_othersStillTainted() {
    try (Harness h = new Harness(CREATED_2012)) {
      Map<String, String> z = zone("region1", "zone1");
      h.createAt(CREATED_2012, node("node0", z, ready(ConditionStatus.Unknown, NOW_2015)),
          node("node1", z, ready(ConditionStatus.True, NOW_2017)),
          node("node2", z, ready(ConditionStatus.False, NOW_2015)));
      h.at(NOW_2017);
      h.pod("pod0", "node0");
      // 1. monitor node health twice, add untainted node once
      h.monitor();
      h.monitor();
      // 2. mark node0 healthy
      h.status("node0", List.of(ready(ConditionStatus.True, NOW_2017.plus(Duration.ofMinutes(10)), NOW_2017)));
      // add other not ready nodes (created now here: the store stamps creation; they have Ready conditions, so
      // the startup grace that creation time feeds does not apply)
      h.createAt(NOW_2017, node("node3", z, ready(ConditionStatus.Unknown, NOW_2015)),
          node("node4", z, ready(ConditionStatus.True, NOW_2017)),
          node("node5", z, ready(ConditionStatus.False, NOW_2015)));
      // 3. monitor node health again
      h.monitor();
      // 4. NoExecute tainting pass: node0, ready now, leaves the queue and does not stop it
      h.taintingPass();
      // 5. node3 and node5 have their NoExecute taints
      assertThat(h.taints("node3")).contains(UNREACHABLE_NO_EXECUTE);
      assertThat(h.taints("node5")).contains(NOT_READY_NO_EXECUTE);
    }
  }

  @Test
  @DisplayName("TestSwapUnreachableNotReadyTaints")
  void swapUnreachableNotReadyTaints_unknownThenFalse_notReadyTaint() {
    try (Harness h = new Harness(CREATED_2012)) {
      Map<String, String> z = zone("region1", "zone1");
      h.createAt(CREATED_2012, node("node0", z, ready(ConditionStatus.Unknown, NOW_2015)),
          node("node1", z, ready(ConditionStatus.True, NOW_2017)));
      h.at(NOW_2017);
      h.pod("pod0", "node0");
      h.monitor();
      h.taintingPass();
      assertThat(h.taints("node0")).contains(UNREACHABLE_NO_EXECUTE);

      // node0 NotReady for 10 minutes, its status just updated; node1 healthy
      h.status("node0", List.of(ready(ConditionStatus.False, NOW_2017.plus(Duration.ofMinutes(9)), NOW_2017)));
      h.status("node1", List.of(ready(ConditionStatus.True, NOW_2017.plus(Duration.ofMinutes(10)), NOW_2017)));
      h.monitor();
      h.taintingPass();
      assertThat(h.taints("node0")).contains(NOT_READY_NO_EXECUTE);
    }
  }

  // ---- TestTaintsNodeByCondition: the NoSchedule taints of the node's conditions (doNoScheduleTaintingPass)

  private static void taintsByCondition(List<NodeCondition> conditions, List<String> expectedTaints) {
    try (Harness h = new Harness(CREATED_2012)) {
      h.createAt(CREATED_2012, node("node0", zone("region1", "zone1"), ready(ConditionStatus.True, NOW_2015)));
      h.at(NOW_2017);
      h.pod("pod0", "node0");
      h.status("node0", conditions);
      h.nlc.noScheduleTaintingPass("node0");
      assertThat(h.taints("node0")).containsExactlyInAnyOrderElementsOf(expectedTaints);
    }
  }

  @Test
  @DisplayName("TestTaintsNodeByCondition[0]: NetworkUnavailable is true")
  void taintsNodeByCondition_networkUnavailableTrue_networkUnavailableNoSchedule() {
    taintsByCondition(List.of(ready(ConditionStatus.True, NOW_2015),
            cond(NodeCondition.NETWORK_UNAVAILABLE, ConditionStatus.True, NOW_2015, NOW_2015)),
        List.of(NodeLifecycleController.TAINT_NETWORK_UNAVAILABLE + ":NoSchedule"));
  }

  @Test
  @DisplayName("TestTaintsNodeByCondition[1]: NetworkUnavailable is true")
  void taintsNodeByCondition_networkUnavailableTrueAgain_networkUnavailableNoSchedule() {
    // upstream's second row repeats the first one verbatim
    taintsByCondition(List.of(ready(ConditionStatus.True, NOW_2015),
            cond(NodeCondition.NETWORK_UNAVAILABLE, ConditionStatus.True, NOW_2015, NOW_2015)),
        List.of(NodeLifecycleController.TAINT_NETWORK_UNAVAILABLE + ":NoSchedule"));
  }

  @Test
  @DisplayName("TestTaintsNodeByCondition[2]: Ready is false")
  void taintsNodeByCondition_readyFalse_notReadyNoSchedule() {
    taintsByCondition(List.of(ready(ConditionStatus.False, NOW_2015)),
        List.of(NodeLifecycleController.TAINT_NOT_READY + ":NoSchedule"));
  }

  @Test
  @DisplayName("TestTaintsNodeByCondition[3]: Ready is unknown")
  void taintsNodeByCondition_readyUnknown_unreachableNoSchedule() {
    taintsByCondition(List.of(ready(ConditionStatus.Unknown, NOW_2015)),
        List.of(NodeLifecycleController.TAINT_UNREACHABLE + ":NoSchedule"));
  }

  // ---- TestNodeEventGeneration

  @Test
  @DisplayName("TestNodeEventGeneration")
  void nodeEventGeneration_unknownNodeFirstSeen_oneRegisteredNodeEventWithItsUid() {
    Instant created = Instant.parse("2015-08-10T00:00:00Z");
    try (Harness h = new Harness(created)) {
      // upstream's node has uid 1234567890; the store, as the API server, assigns the uid on create
      h.createAt(created, node("node0", ready(ConditionStatus.Unknown, created)));
      h.at(Instant.parse("2016-09-10T12:00:00Z"));
      h.pod("pod0", "node0");
      h.monitor();
      String uid = h.node("node0").metadata().uid();
      assertThat(uid).isNotEmpty();
      assertThat(h.events).as("one RegisteredNode event, about the node's uid")
          .containsExactly(EventRecorder.REGISTERED_NODE + " Node/node0 " + uid);
    }
  }

  // ---- TestReconcileNodeLabels

  private static void reconcileLabels(Map<String, String> labels, Map<String, String> expected) {
    try (Harness h = new Harness(CREATED_2012)) {
      h.createAt(CREATED_2012, node("node0", labels, ready(ConditionStatus.True, NOW_2015)));
      h.at(NOW_2017);
      h.nlc.reconcileNodeLabels("node0");
      assertThat(h.node("node0").metadata().labels()).isEqualTo(expected);
    }
  }

  @Test
  @DisplayName("TestReconcileNodeLabels[0]: No-op if node has no labels")
  void reconcileNodeLabels_noLabels_noLabels() {
    reconcileLabels(Map.of(), Map.of());
  }

  @Test
  @DisplayName("TestReconcileNodeLabels[1]: No-op if no target labels present")
  void reconcileNodeLabels_noTargetLabels_unchanged() {
    reconcileLabels(Map.of(NodeLifecycleController.REGION_LABEL, "region1"),
        Map.of(NodeLifecycleController.REGION_LABEL, "region1"));
  }

  @Test
  @DisplayName("TestReconcileNodeLabels[2]: Create OS/arch beta labels when they don't exist")
  void reconcileNodeLabels_stableOnly_betaCreated() {
    reconcileLabels(Map.of(NodeLifecycleController.OS_LABEL, "linux", NodeLifecycleController.ARCH_LABEL, "amd64"),
        Map.of(NodeLifecycleController.BETA_OS_LABEL, "linux", NodeLifecycleController.BETA_ARCH_LABEL, "amd64",
            NodeLifecycleController.OS_LABEL, "linux", NodeLifecycleController.ARCH_LABEL, "amd64"));
  }

  @Test
  @DisplayName("TestReconcileNodeLabels[3]: Reconcile OS/arch beta labels to match stable labels")
  void reconcileNodeLabels_betaDiffers_betaSetToStable() {
    reconcileLabels(Map.of(NodeLifecycleController.BETA_OS_LABEL, "windows",
            NodeLifecycleController.BETA_ARCH_LABEL, "arm",
            NodeLifecycleController.OS_LABEL, "linux", NodeLifecycleController.ARCH_LABEL, "amd64"),
        Map.of(NodeLifecycleController.BETA_OS_LABEL, "linux", NodeLifecycleController.BETA_ARCH_LABEL, "amd64",
            NodeLifecycleController.OS_LABEL, "linux", NodeLifecycleController.ARCH_LABEL, "amd64"));
  }

  // ---- TestProcessPodMarkPodNotReady: a pod bound to a node the controller saw not ready

  /**
   * One TestProcessPodMarkPodNotReady case: node0 created at fakeNow with Ready {@code nodeReady}; the controller
   * started (its pod watch is upstream's pod informer), a monitor pass if {@code monitor}; then pod0 bound to node0
   * (upstream {@code podUpdated(nil, pod)}) and {@code processPod}.
   */
  private static void processPod(ConditionStatus nodeReady, boolean monitor, boolean expectedPodStatusUpdate) {
    try (Harness h = new Harness(NOW_2015)) {
      h.createAt(NOW_2015, node("node0", ready(nodeReady, NOW_2015)));
      h.nlc.start();
      if (monitor) {
        h.monitor();
      }
      h.pod("pod0", "node0");
      h.controllerRunning = true;
      h.nlc.processPods();
      h.controllerRunning = false;
      assertThat(h.podStatusWrites > 0).as("pod status updated").isEqualTo(expectedPodStatusUpdate);
      PodCondition c = h.store.require(Pod.class, "default", "pod0").status().condition(PodCondition.READY);
      assertThat(c.status()).isEqualTo(expectedPodStatusUpdate ? ConditionStatus.False : ConditionStatus.True);
    }
  }

  @Test
  @DisplayName("TestProcessPodMarkPodNotReady: Do not mark pod as NotReady when the scheduled node's healthy is not "
      + "gathered yet")
  void processPodMarkPodNotReady_nodeHealthNotGathered_podUntouched() {
    processPod(ConditionStatus.False, false, false);
  }

  @Test
  @DisplayName("TestProcessPodMarkPodNotReady: Do not mark pod as NotReady when the scheduled node is ready")
  void processPodMarkPodNotReady_nodeReady_podUntouched() {
    processPod(ConditionStatus.True, true, false);
  }

  @Test
  @DisplayName("TestProcessPodMarkPodNotReady: Pod marked as NotReady when the scheduled node is not ready")
  void processPodMarkPodNotReady_nodeNotReady_podNotReady() {
    processPod(ConditionStatus.False, true, true);
  }

  // ---- TestTryUpdateNodeHealth: the health record keeps the Ready condition tryUpdateNodeHealth leaves

  /**
   * One TestTryUpdateNodeHealth case: node0 created at {@code created} with Ready {@code status} (none if
   * {@code null}) of that time, its health record seeded with that status probed at its creation, then
   * {@code tryUpdateNodeHealth} at fakeNow. Upstream checks that the saved Ready status is the one returned; the
   * status itself (its value is what upstream's test implies: Unknown once the grace period is over) is checked too.
   */
  private static void tryUpdateNodeHealth(Instant created, @Nullable ConditionStatus status,
      @Nullable ConditionStatus expected) {
    try (Harness h = new Harness(created)) {
      h.createAt(created, status == null ? node("node0") : node("node0", ready(status, created)));
      h.nlc.seedHealth(h.node("node0"), created);
      h.at(NOW_2017);
      ConditionStatus current = h.nlc.tryUpdateNodeHealth("node0");
      assertThat(h.nlc.savedReady("node0")).as("saved Ready status").isEqualTo(current);
      assertThat(current).as("current Ready status").isEqualTo(expected);
    }
  }

  @Test
  @DisplayName("TestTryUpdateNodeHealth: Status true")
  void tryUpdateNodeHealth_true_savedTrue() {
    tryUpdateNodeHealth(NOW_2017, ConditionStatus.True, ConditionStatus.True);
  }

  @Test
  @DisplayName("TestTryUpdateNodeHealth: Status false")
  void tryUpdateNodeHealth_false_savedFalse() {
    tryUpdateNodeHealth(NOW_2017, ConditionStatus.False, ConditionStatus.False);
  }

  @Test
  @DisplayName("TestTryUpdateNodeHealth: Status unknown")
  void tryUpdateNodeHealth_unknown_savedUnknown() {
    tryUpdateNodeHealth(NOW_2017, ConditionStatus.Unknown, ConditionStatus.Unknown);
  }

  @Test
  @DisplayName("TestTryUpdateNodeHealth: Status nil")
  void tryUpdateNodeHealth_nil_savedNil() {
    tryUpdateNodeHealth(NOW_2017, null, null);
  }

  @Test
  @DisplayName("TestTryUpdateNodeHealth: Status true - after grace period")
  void tryUpdateNodeHealth_trueAfterGrace_savedUnknown() {
    tryUpdateNodeHealth(NOW_2016, ConditionStatus.True, ConditionStatus.Unknown);
  }

  @Test
  @DisplayName("TestTryUpdateNodeHealth: Status false - after grace period")
  void tryUpdateNodeHealth_falseAfterGrace_savedUnknown() {
    tryUpdateNodeHealth(NOW_2016, ConditionStatus.False, ConditionStatus.Unknown);
  }

  @Test
  @DisplayName("TestTryUpdateNodeHealth: Status unknown - after grace period")
  void tryUpdateNodeHealth_unknownAfterGrace_savedUnknown() {
    tryUpdateNodeHealth(NOW_2016, ConditionStatus.Unknown, ConditionStatus.Unknown);
  }

  @Test
  @DisplayName("TestTryUpdateNodeHealth: Status nil - after grace period")
  void tryUpdateNodeHealth_nilAfterGrace_savedUnknown() {
    tryUpdateNodeHealth(NOW_2016, null, ConditionStatus.Unknown);
  }

  // ---- Test_isNodeExcludedFromDisruptionChecks

  @Test
  @DisplayName("Test_isNodeExcludedFromDisruptionChecks[0]: empty labels")
  void excludedFromDisruptionChecks_emptyLabels_false() {
    Node n = Node.builder().name("n").labels(Map.of()).condition(NodeCondition.of("Test", ConditionStatus.Unknown))
        .build();
    assertThat(NodeLifecycleController.excludedFromDisruptionChecks(n)).isFalse();
  }

  @Test
  @DisplayName("Test_isNodeExcludedFromDisruptionChecks[1]: named master-abc")
  void excludedFromDisruptionChecks_masterName_false() {
    Node n = Node.builder().name("master-abc").condition(NodeCondition.of("Test", ConditionStatus.Unknown)).build();
    assertThat(NodeLifecycleController.excludedFromDisruptionChecks(n)).isFalse();
  }

  @Test
  @DisplayName("Test_isNodeExcludedFromDisruptionChecks[2]: exclude-disruption label")
  void excludedFromDisruptionChecks_label_true() {
    Node n = Node.builder().name("n").label(NodeLifecycleController.EXCLUDE_DISRUPTION_LABEL, "")
        .condition(NodeCondition.of("Test", ConditionStatus.Unknown)).build();
    assertThat(NodeLifecycleController.excludedFromDisruptionChecks(n)).isTrue();
  }
}
