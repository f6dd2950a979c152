package io.fleetkit.autoscale.cluster;

import static io.fleetkit.autoscale.cluster.CaFixtures.resources;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeCondition;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.autoscale.cluster.NodeGroupHealth.AcceptableRange;
import io.fleetkit.autoscale.cluster.NodeGroupHealth.Readiness;
import io.fleetkit.autoscale.cluster.simulator.SimulatedNodes;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Per-node-group health, acceptable ranges and upcoming nodes, ported from kubernetes/autoscaler
 * {@code cluster-autoscaler/clusterstate/clusterstate_test.go} at branch {@code cluster-autoscaler-release-1.37}
 * (commit a16f0ae8b5578f09604371c75e0cad29ed794e59; the rule as {@code clusterstate.go} there:
 * {@code IsNodeGroupHealthy}, {@code updateAcceptableRanges}, {@code calculateUpcomingNodesInNodeGroup},
 * {@code GetUpcomingNodes}).
 *
 * <p>Upstream's registry takes each group's target size from the cloud provider and its scale-up requests from
 * {@code RegisterScaleUp}; these tests give the same facts to the rule: the target, the increase of the request that
 * is still active (a request whose {@code ExpectedAddTime}, its time plus {@code MaxNodeProvisionTime}, has passed is
 * removed by {@code updateScaleRequests}), and the group's nodes, classified by {@link NodeGroupHealth#byPool} as the
 * autoscaler does. {@code BuildTestNode} has no Ready condition and a zero creation time, so it counts as an old
 * unready node unless the case sets it Ready.
 */
final class NodeGroupHealthTest {
  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
  /** The config of most upstream cases: {@code MaxTotalUnreadyPercentage: 10, OkTotalUnreadyCount: 1}. */
  private static final NodeGroupConfig DEFAULTS = NodeGroupConfig.of(AutoscalerOptions.defaults(), List.of());
  private static final AutoscalerOptions CONFIG =
      AutoscalerOptions.defaults().withMaxTotalUnreadyPercentage(10).withOkTotalUnreadyCount(1);
  /** {@code newTestClusterStateRegistry}: an empty {@code ClusterStateRegistryConfig} (0 and 0). */
  private static final AutoscalerOptions ZERO_CONFIG =
      AutoscalerOptions.defaults().withMaxTotalUnreadyPercentage(0).withOkTotalUnreadyCount(0);

  private static Node node(@Nullable String group, String name, @Nullable Boolean ready, @Nullable Instant created) {
    Node.Builder b = Node.builder()
        .metadata(group == null ? ObjectMeta.builder().name(name).creationTimestamp(created).build()
            : ObjectMeta.builder().name(name).creationTimestamp(created).label(NodePool.POOL_LABEL, group).build())
        .capacity(resources(1000, 1000, 110));
    if (ready != null) { // SetNodeReadyState; BuildTestNode alone sets no Ready condition
      b.condition(NodeCondition.of(NodeCondition.READY, ready ? ConditionStatus.True : ConditionStatus.False));
    }
    return b.build();
  }

  private static Node ready(String group, String name) {
    return node(group, name, true, null);
  }

  private static Node unready(String group, String name) {
    return node(group, name, false, null);
  }

  private static NodeGroupHealth.@Nullable Readiness readiness(String group, AutoscalerOptions options,
      Node... nodes) {
    return NodeGroupHealth.byPool(List.of(group), List.of(nodes), NOW, options,
        NodeGroupConfig.of(options, List.of())).get(group).readiness();
  }

  /** The acceptable range for {@code target} with an active scale-up of {@code increase} (0: none). */
  private static AcceptableRange range(int target, int increase) {
    return NodeGroupHealth.acceptableRange(target, 0, increase, 0);
  }

  /** {@code updateScaleRequests}: a request is removed once its expected add time is before now. */
  private static int activeIncrease(int increase, Instant requested, Duration maxNodeProvisionTime, Instant now) {
    return requested.plus(maxNodeProvisionTime).isBefore(now) ? 0 : increase;
  }

  @Test
  void testEmptyOK_emptyGroupHealthyThenScalingUpWithoutNodes() {
    // ng1 min 0, target 0, no nodes: healthy, not scaling up, no scale-up started
    Readiness r = readiness("ng1", CONFIG);
    assertThat(r).isNull();
    assertThat(NodeGroupHealth.healthy(r, range(0, 0), CONFIG)).isTrue();
    assertThat(NodeGroupHealth.scalingUp(r, range(0, 0), false)).isFalse();
    // target 3 after RegisterScaleUp(ng1, 3, now-3s), MaxNodeProvisionTime 1 min: the request is active
    int increase = activeIncrease(3, NOW.minusSeconds(3), Duration.ofMinutes(1), NOW);
    assertThat(increase).isEqualTo(3);
    assertThat(NodeGroupHealth.healthy(r, range(3, increase), CONFIG)).isTrue();
    assertThat(NodeGroupHealth.scalingUp(r, range(3, increase), true)).isTrue();
  }

  @Test
  void testOKWithScaleUp_groupWithRequestInProgressOtherNoActivity() {
    // ng1 target 5 with RegisterScaleUp(ng1, 4, now), ng1-1 ready; ng2 target 1, ng2-1 ready, no request
    Readiness ng1 = readiness("ng1", CONFIG, ready("ng1", "ng1-1"));
    Readiness ng2 = readiness("ng2", CONFIG, ready("ng2", "ng2-1"));
    // status: ng1 ScaleUp InProgress, ng2 NoActivity
    assertThat(NodeGroupHealth.scalingUp(ng1, range(5, 4), true)).isTrue();
    assertThat(NodeGroupHealth.scalingUp(ng2, range(1, 0), false)).isFalse();
  }

  static Stream<Arguments> isNodeGroupHealthyCases() {
    return Stream.of(
        // TestOKOneUnreadyNode: ng1 target 1, ng1-1 ready (status Health Healthy)
        Arguments.of("TestOKOneUnreadyNode ng1", 1, 0, List.of(ready("ng1", "ng1-1")), CONFIG, true),
        // TestOKOneUnreadyNodeWithScaleDownCandidate: ng1 as above; status ng2 (target 1, ng2-1 unready) Healthy
        Arguments.of("TestOKOneUnreadyNodeWithScaleDownCandidate ng1", 1, 0, List.of(ready("ng1", "ng1-1")), CONFIG,
            true),
        Arguments.of("TestOKOneUnreadyNodeWithScaleDownCandidate ng2", 1, 0, List.of(unready("ng2", "ng2-1")),
            CONFIG, true),
        // TestMissingNodes: ng1 target 5, only ng1-1 (ready): 4 missing > 1 and > 10% of 1 (status Unhealthy)
        Arguments.of("TestMissingNodes ng1", 5, 0, List.of(ready("ng1", "ng1-1")), CONFIG, false),
        // TestTooManyUnready: ng1 target 1, ng1-1 unready: 1 missing is not more than OkTotalUnreadyCount 1
        Arguments.of("TestTooManyUnready ng1", 1, 0, List.of(unready("ng1", "ng1-1")), CONFIG, true),
        // TestExpiredScaleUp: ng1 target 5, ng1-1 ready, RegisterScaleUp(ng1, 4, now-3min) expired after 2 min
        // (newTestClusterStateRegistry: empty config, MaxNodeProvisionTime 2 min)
        Arguments.of("TestExpiredScaleUp ng1", 5,
            activeIncrease(4, NOW.minus(Duration.ofMinutes(3)), Duration.ofMinutes(2), NOW),
            List.of(ready("ng1", "ng1-1")), ZERO_CONFIG, false),
        // TestScaleUpBackoff: ng1 target 4, three ready, RegisterScaleUp(ng1, 1, now-180s) expired after 2 min:
        // healthy (only backed off)
        Arguments.of("TestScaleUpBackoff ng1 (3 nodes)", 4,
            activeIncrease(1, NOW.minusSeconds(180), Duration.ofMinutes(2), NOW),
            List.of(ready("ng1", "ng1-1"), ready("ng1", "ng1-2"), ready("ng1", "ng1-3")), CONFIG, true),
        // ... the second timed-out request (now-121s): still healthy
        Arguments.of("TestScaleUpBackoff ng1 (second timeout)", 4,
            activeIncrease(1, NOW.minusSeconds(121), Duration.ofMinutes(2), NOW),
            List.of(ready("ng1", "ng1-1"), ready("ng1", "ng1-2"), ready("ng1", "ng1-3")), CONFIG, true),
        // ... RegisterScaleUp(ng1, 1, now) and ng1-4 came up: healthy
        Arguments.of("TestScaleUpBackoff ng1 (4 nodes)", 4, 1,
            List.of(ready("ng1", "ng1-1"), ready("ng1", "ng1-2"), ready("ng1", "ng1-3"), ready("ng1", "ng1-4")),
            CONFIG, true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("isNodeGroupHealthyCases")
  void isNodeGroupHealthy_upstreamCases(String name, int target, int increase, List<Node> nodes,
      AutoscalerOptions options, boolean healthy) {
    String group = nodes.get(0).metadata().labels().get(NodePool.POOL_LABEL);
    Readiness r = readiness(group, options, nodes.toArray(Node[]::new));
    assertThat(NodeGroupHealth.healthy(r, range(target, increase), options)).isEqualTo(healthy);
  }

  @Test
  void testExpiredScaleUp_expiredRequestNoLongerCountsButClusterIsHealthy() {
    Instant requested = NOW.minus(Duration.ofMinutes(3));
    assertThat(activeIncrease(4, requested, Duration.ofMinutes(2), NOW)).isZero();
    // IsClusterHealthy stays true: the one node is ready
    NodeListFacts facts = new NodeListFacts();
    facts.update(List.of(ready("ng1", "ng1-1")));
    assertThat(ClusterHealth.healthy(facts.unready(NOW, NodeGroupConfig.of(AutoscalerOptions.defaults(), List.of())), facts.size(), ZERO_CONFIG)).isTrue();
  }

  @Test
  void testUpcomingNodes_countsPerGroupAndRegisteredUpcoming() {
    Instant minuteAgo = NOW.minus(Duration.ofMinutes(1));
    // ng1: target 7, ng1-1 ready, RegisterScaleUp(ng1, 6): 6 upcoming, none registered
    Readiness ng1 = readiness("ng1", CONFIG, ready("ng1", "ng1-1"));
    assertThat(NodeGroupHealth.upcomingNodes(ng1, range(7, 6), true, false)).isEqualTo(6);
    assertThat(ng1.notStarted()).isZero();
    // ng2: target 2, ng2-1 unready long ago, RegisterScaleUp(ng2, 1): 1 upcoming, none registered
    Readiness ng2 = readiness("ng2", CONFIG, unready("ng2", "ng2-1"));
    assertThat(NodeGroupHealth.upcomingNodes(ng2, range(2, 1), true, false)).isEqualTo(1);
    assertThat(ng2.notStarted()).isZero();
    // ng3: target 2, ng3-1 unready and created a minute ago (not started), RegisterScaleUp(ng3, 2): 2 upcoming,
    // ng3-1 the registered one
    Readiness ng3 = readiness("ng3", CONFIG, node("ng3", "ng3-1", false, minuteAgo));
    assertThat(NodeGroupHealth.upcomingNodes(ng3, range(2, 2), true, false)).isEqualTo(2);
    assertThat(ng3.notStarted()).isEqualTo(1);
    // ng4: target 1, ng4-1 unready, no request: nothing upcoming
    Readiness ng4 = readiness("ng4", CONFIG, unready("ng4", "ng4-1"));
    assertThat(NodeGroupHealth.upcomingNodes(ng4, range(1, 0), false, false)).isZero();
    assertThat(NodeGroupHealth.upcoming(ng4, range(1, 0))).isZero();
    // ng5: target 2, ng5-1 and ng5-2 ready (ng5-2 tainted ToBeDeleted), no request: 0
    Readiness ng5 = readiness("ng5", CONFIG, ready("ng5", "ng5-1"), ready("ng5", "ng5-2"));
    assertThat(NodeGroupHealth.upcomingNodes(ng5, range(2, 0), false, false)).isZero();
  }

  @Test
  void getUpcomingNodes_skipsBackedOffGroupAndGroupWithoutRequest() {
    // the rule of GetUpcomingNodes that TestGetUpcomingNodesSkipsWithoutScaleUpRequestOrBackoff exercises
    Readiness r = readiness("ng1", CONFIG, ready("ng1", "ng1-1"));
    assertThat(NodeGroupHealth.upcomingNodes(r, range(3, 2), true, false)).isEqualTo(2);
    assertThat(NodeGroupHealth.upcomingNodes(r, range(3, 2), false, false)).isZero();
    assertThat(NodeGroupHealth.upcomingNodes(r, range(3, 2), true, true)).isZero();
  }

  @Test
  void testUnregisteredNodes_longUnregisteredNodeIsNoLongerUpcoming() {
    // ng1 target 2; ng1-1 registered (BuildTestNode: no Ready condition, so unready), ng1-2 only a cloud instance;
    // RegisterScaleUp(ng1, 1, now-1min), MaxNodeProvisionTime 10 s
    Node ng11 = node("ng1", "ng1-1", null, null);
    Readiness seen = readiness("ng1", CONFIG, ng11);
    // at now-1min ng1-2 is unregistered since then: 1 upcoming, none registered
    Readiness first = new Readiness(seen.ready(), seen.unready(), seen.notStarted(), 0);
    AcceptableRange r1 = NodeGroupHealth.acceptableRange(2, 0, 1, 0);
    assertThat(NodeGroupHealth.upcomingNodes(first, r1, true, false)).isEqualTo(1);
    assertThat(first.notStarted()).isZero();
    // at now+1min it is unregistered for 2 min > 10 s: long unregistered, no longer upcoming
    Instant since = NOW.minus(Duration.ofMinutes(1));
    Instant later = NOW.plus(Duration.ofMinutes(1));
    assertThat(since.plusSeconds(10).isBefore(later)).isTrue();
    Readiness second = new Readiness(seen.ready(), seen.unready(), seen.notStarted(), 1);
    AcceptableRange r2 = NodeGroupHealth.acceptableRange(2, 1, 1, 0);
    assertThat(NodeGroupHealth.upcomingNodes(second, r2, true, false)).isZero();
  }

  static Stream<Arguments> acceptableRangeCases() {
    // TestUpdateAcceptableRanges: {name, target, longUnregistered, scale-up increase, scale-downs, want min, max}
    return Stream.of(
        Arguments.of("No scale-ups/scale-downs ng1", 10, 0, 0, 0, 10, 10),
        Arguments.of("No scale-ups/scale-downs ng2", 20, 0, 0, 0, 20, 20),
        Arguments.of("Ongoing scale-ups ng1", 10, 0, 3, 0, 7, 10),
        Arguments.of("Ongoing scale-ups ng2", 20, 0, 5, 0, 15, 20),
        Arguments.of("Ongoing scale-downs ng1", 10, 0, 0, 2, 10, 12),
        Arguments.of("Ongoing scale-downs ng2", 20, 0, 0, 3, 20, 23),
        // short unregistered nodes do not count
        Arguments.of("Some short unregistered nodes ng1", 10, 0, 0, 0, 10, 10),
        Arguments.of("Some short unregistered nodes ng2", 20, 0, 0, 0, 20, 20),
        Arguments.of("Some long unregistered nodes ng1", 10, 2, 0, 0, 8, 10),
        Arguments.of("Some long unregistered nodes ng2", 20, 3, 0, 0, 17, 20),
        Arguments.of("Everything together ng1", 10, 2, 3, 2, 5, 12),
        Arguments.of("Everything together ng2", 20, 4, 5, 3, 11, 23));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("acceptableRangeCases")
  void updateAcceptableRanges_upstreamCases(String name, int target, int longUnregistered, int increase,
      int scaleDowns, int min, int max) {
    assertThat(NodeGroupHealth.acceptableRange(target, longUnregistered, increase, scaleDowns))
        .isEqualTo(new AcceptableRange(min, max, target));
  }

  @Test
  void byPool_classifiesThePoolsNodesAndCountsStartingNodesAsTheScaleUp() {
    Node starting = SimulatedNodes.launched(node("gpu", "gpu-2", null, NOW.minusSeconds(60)), NOW.minusSeconds(60),
        Duration.ofMinutes(5));
    Node broken = node("gpu", "gpu-3", false, NOW.minus(Duration.ofHours(1)));
    Node deleting = ready("gpu", "gpu-4").withMetadata(
        ready("gpu", "gpu-4").metadata().toBuilder().deletionTimestamp(NOW).build());
    var health = NodeGroupHealth.byPool(List.of("gpu", "empty"),
        List.of(ready("gpu", "gpu-1"), starting, broken, deleting, ready("other", "o-1")), NOW, CONFIG, DEFAULTS);
    NodeGroupHealth.PoolHealth gpu = health.get("gpu");
    assertThat(gpu.readiness()).isEqualTo(new Readiness(1, 1, 1, 0));
    // target 3 (the deleting node is not counted), the starting node is the scale-up in progress, the deleting
    // one a scale-down request
    assertThat(gpu.range()).isEqualTo(new AcceptableRange(2, 4, 3));
    assertThat(gpu.healthy()).isTrue(); // one short of 2 is not more than OkTotalUnreadyCount 1
    assertThat(health.get("empty").readiness()).isNull();
    assertThat(health.get("empty").healthy()).isTrue();
    assertThat(health).doesNotContainKey("other");
  }

  @Test
  void nodeListFactsPoolHealth_equalsByPool_acrossIncrementalUpdates() {
    Node starting = SimulatedNodes.launched(node("a", "a-2", null, NOW.minusSeconds(60)), NOW.minusSeconds(60),
        Duration.ofMinutes(5));
    List<Node> first = List.of(ready("a", "a-1"), starting, unready("a", "a-3"), unready("b", "b-1"),
        node("b", "b-2", false, NOW.minusSeconds(30)), ready("c", "c-1"), node(null, "loose", false, null));
    List<Node> second = List.of(ready("a", "a-1"), unready("a", "a-3"), unready("a", "a-4"), unready("b", "b-1"),
        ready("b", "b-2"), node(null, "loose", false, null));
    List<String> pools = List.of("a", "b", "c", "none");
    NodeListFacts facts = new NodeListFacts();
    for (List<Node> nodes : List.of(first, second)) {
      facts.update(nodes);
      assertThat(facts.poolHealth(pools, NOW, CONFIG, DEFAULTS)).isEqualTo(NodeGroupHealth.byPool(pools, nodes, NOW, CONFIG, DEFAULTS));
    }
    assertThat(facts.poolHealth(pools, NOW, CONFIG, DEFAULTS).get("a").healthy()).isFalse(); // 1 ready of 3
    assertThat(facts.poolHealth(pools, NOW, CONFIG, DEFAULTS).get("c").readiness()).isNull(); // c-1 gone
  }

  @Test
  void byPool_poolWithTooManyBrokenNodesIsUnhealthyWithReason() {
    Node[] nodes = {ready("p", "p-1"), unready("p", "p-2"), unready("p", "p-3")};
    NodeGroupHealth.PoolHealth h = NodeGroupHealth.byPool(List.of("p"), List.of(nodes), NOW, CONFIG, DEFAULTS).get("p");
    assertThat(h.healthy()).isFalse();
    assertThat(h.reason()).isEqualTo("not ready for scale-up: 1 ready of at least 3 expected (3 nodes)");
  }

  @Test
  void readiness_negativeCount_rejectedNamingTheRule() {
    assertThatThrownBy(() -> new Readiness(1, -1, 0, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("counts must not be negative").hasMessageContaining("unready -1");
  }

  /** Ready nodes at or above the minimum never make a group unhealthy, whatever else it has. */
  @Property
  void healthy_whenReadyReachTheMinimum(@ForAll @IntRange(max = 50) int ready, @ForAll @IntRange(max = 50) int unready,
      @ForAll @IntRange(max = 50) int increase, @ForAll @IntRange(max = 100) int pct,
      @ForAll @IntRange(max = 5) int ok) {
    AutoscalerOptions o = AutoscalerOptions.defaults().withMaxTotalUnreadyPercentage(pct).withOkTotalUnreadyCount(ok);
    int target = ready + unready;
    AcceptableRange range = NodeGroupHealth.acceptableRange(target, 0, Math.min(increase, target), 0);
    boolean healthy = NodeGroupHealth.healthy(new Readiness(ready, unready, 0, 0), range, o);
    int missing = Math.max(0, range.minNodes() - ready);
    assertThat(healthy).isEqualTo(missing <= ok || missing <= pct / 100.0 * target);
    if (range.minNodes() <= ready) {
      assertThat(healthy).isTrue();
    }
  }
}
