package io.fleetkit.autoscale.cluster;

import static io.fleetkit.autoscale.cluster.CaFixtures.resources;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeCondition;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The unready-node halt's health check, ported from kubernetes/autoscaler
 * {@code cluster-autoscaler/clusterstate/clusterstate_test.go} (commit a9c720dc; the rule as
 * {@code clusterstate/clusterstate.go} at commit d67f22be: {@code IsClusterHealthy} over the readiness stats, an
 * unready node younger than {@code MaxNodeStartupTime} counted as not started). Every upstream case runs with
 * {@code MaxTotalUnreadyPercentage: 10, OkTotalUnreadyCount: 1}; upstream's {@code BuildTestNode} has a zero
 * creation time (old) unless the case sets one. Only the {@code IsClusterHealthy} assertions are here; the same
 * functions' node-group health and upcoming-node assertions are in {@link NodeGroupHealthTest}, and what is not ported
 * is listed in docs/conformance.md.
 */
final class ClusterHealthTest {
  private static final Duration STARTUP = AutoscalerOptions.defaults().maxNodeStartupTime();
  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
  private static final AutoscalerOptions UPSTREAM_TEST_CONFIG =
      AutoscalerOptions.defaults().withMaxTotalUnreadyPercentage(10).withOkTotalUnreadyCount(1);

  private static Node node(String name, boolean ready, Instant created) {
    return Node.builder().metadata(ObjectMeta.builder().name(name).creationTimestamp(created).build())
        .capacity(resources(1000, 1000, 110))
        .condition(NodeCondition.of(NodeCondition.READY, ready ? ConditionStatus.True : ConditionStatus.False))
        .build();
  }

  private static Node old(String name, boolean ready) {
    return node(name, ready, null);
  }

  private static boolean healthy(List<Node> nodes) {
    NodeListFacts facts = new NodeListFacts();
    facts.update(nodes);
    return ClusterHealth.healthy(facts.unready(NOW, NodeGroupConfig.of(AutoscalerOptions.defaults(), List.of())), facts.size(), UPSTREAM_TEST_CONFIG);
  }

  static Stream<Arguments> upstreamCases() {
    return Stream.of(
        // TestOKWithScaleUp: ng1-1 and ng2-1 ready
        Arguments.of("TestOKWithScaleUp", List.of(old("ng1-1", true), old("ng2-1", true)), true),
        // TestEmptyOK: no nodes (both UpdateNodes calls)
        Arguments.of("TestEmptyOK", List.of(), true),
        // TestOKOneUnreadyNode: one of two unready, not more than OkTotalUnreadyCount 1
        Arguments.of("TestOKOneUnreadyNode", List.of(old("ng1-1", true), old("ng2-1", false)), true),
        Arguments.of("TestOKOneUnreadyNodeWithScaleDownCandidate",
            List.of(old("ng1-1", true), old("ng2-1", false)), true),
        // TestMissingNodes: two ready nodes of a group whose target is 5 (missing nodes are not unready)
        Arguments.of("TestMissingNodes", List.of(old("ng1-1", true), old("ng2-1", true)), true),
        // TestTooManyUnready: both unready, 2 > 1 and 2 > 10% of 2
        Arguments.of("TestTooManyUnready", List.of(old("ng1-1", false), old("ng2-1", false)), false),
        // TestExpiredScaleUp: one ready node, an expired scale-up
        Arguments.of("TestExpiredScaleUp", List.of(old("ng1-1", true)), true),
        // TestScaleUpBackoff: three ready nodes, then four (each of its IsClusterHealthy checks)
        Arguments.of("TestScaleUpBackoff (3 nodes)", List.of(old("ng1-1", true), old("ng1-2", true),
            old("ng1-3", true)), true),
        Arguments.of("TestScaleUpBackoff (4 nodes)", List.of(old("ng1-1", true), old("ng1-2", true),
            old("ng1-3", true), old("ng1-4", true)), true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("upstreamCases")
  void isClusterHealthy_upstreamCases(String name, List<Node> nodes, boolean healthy) {
    assertThat(healthy(nodes)).isEqualTo(healthy);
  }

  @Test
  void upcomingNodes_unreadyNodeCreatedAMinuteAgo_isNotStarted_oldOnesAreUnready() {
    // TestUpcomingNodes' nodes: ng2-1 and ng4-1 unready "for the long time", ng3-1 created a minute ago
    List<Node> nodes = List.of(old("ng1-1", true), old("ng2-1", false),
        node("ng3-1", false, NOW.minus(Duration.ofMinutes(1))), old("ng4-1", false));
    NodeListFacts facts = new NodeListFacts();
    facts.update(nodes);
    assertThat(facts.unready(NOW, NodeGroupConfig.of(AutoscalerOptions.defaults(), List.of()))).isEqualTo(2);
    assertThat(ClusterHealth.unready(nodes.get(2), NOW, STARTUP)).isFalse();
    assertThat(ClusterHealth.unready(nodes.get(2), NOW.plus(Duration.ofMinutes(14)), STARTUP)).isTrue();
    assertThat(ClusterHealth.unready(nodes.get(1), NOW, STARTUP)).isTrue();
    assertThat(ClusterHealth.unready(nodes.get(0), NOW, STARTUP)).isFalse();
  }

  @Test
  void nodeBeingDeleted_isNotUnready() {
    Node deleting = old("gone", false).toBuilder()
        .metadata(ObjectMeta.builder().name("gone").deletionTimestamp(NOW).build()).build();
    assertThat(ClusterHealth.unready(deleting, NOW, STARTUP)).isFalse();
    NodeListFacts facts = new NodeListFacts();
    facts.update(List.of(deleting, old("dead", false)));
    assertThat(facts.unready(NOW, NodeGroupConfig.of(AutoscalerOptions.defaults(), List.of()))).isEqualTo(1);
  }

  /**
   * The rule read both ways: never unhealthy with {@code okTotalUnreadyCount} unready nodes or fewer, or below the
   * percentage; unhealthy above both. (Exactly at the percentage upstream's float product decides, as here.)
   */
  @Property
  void unhealthy_exactlyWhenAboveBothLimits(@ForAll @IntRange(min = 0, max = 50) int unready,
      @ForAll @IntRange(min = 0, max = 50) int more, @ForAll @IntRange(min = 0, max = 10) int ok,
      @ForAll @IntRange(min = 0, max = 100) int percent) {
    int total = unready + more;
    AutoscalerOptions o = AutoscalerOptions.defaults().withOkTotalUnreadyCount(ok)
        .withMaxTotalUnreadyPercentage(percent);
    boolean healthy = ClusterHealth.healthy(unready, total, o);
    long exact = unready * 100L - (long) percent * total;
    if (unready <= ok || exact < 0) {
      assertThat(healthy).isTrue();
    } else if (exact > 0) {
      assertThat(healthy).isFalse();
    }
  }
}
