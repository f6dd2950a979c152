package io.fleetkit.autoscale.cluster;

import static io.fleetkit.autoscale.cluster.CaFixtures.pod;
import static io.fleetkit.autoscale.cluster.CaFixtures.pool;
import static io.fleetkit.autoscale.cluster.CaFixtures.poolNode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeCondition;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.autoscale.cluster.simulator.SimulatedNodes;
import io.fleetkit.observability.micrometer.MicrometerMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Unready nodes in scale-down ({@code --scale-down-unready-time}, {@code --scale-down-unready-enabled}; upstream's
 * {@code core/scaledown/unneeded/nodes.go} RemovableAt and {@code core/scaledown/eligibility/eligibility.go}) and the
 * unready-node halt ({@code clusterstate/clusterstate.go} IsClusterHealthy, {@code --max-total-unready-percentage},
 * {@code --ok-total-unready-count}; the loop's early return in {@code core/static_autoscaler.go}).
 */
final class ClusterAutoscalerUnreadyTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build();

  @AfterEach
  void close() {
    store.close();
  }

  private ClusterAutoscaler ca(AutoscalerOptions options) {
    // deletions in the loop that decides them (the delay after the taint is ClusterAutoscalerDeleteDelayTest's)
    return ClusterAutoscaler.builder(store).clock(clock).seed(42)
        .options(options.withNodeDeleteDelayAfterTaint(Duration.ZERO)).build();
  }

  /** {@code node} as the node lifecycle controller leaves a node that stopped heartbeating: Ready Unknown, tainted. */
  static Node unready(Node node) {
    List<NodeCondition> conditions = new ArrayList<>();
    for (NodeCondition c : node.status().conditions()) {
      if (!c.type().equals(NodeCondition.READY)) {
        conditions.add(c);
      }
    }
    conditions.add(NodeCondition.of(NodeCondition.READY, ConditionStatus.Unknown));
    return node.toBuilder().conditions(conditions)
        .taint(Taint.of(SimulatedNodes.UNREACHABLE_TAINT, "", TaintEffect.NoSchedule)).build();
  }

  private NodePool onePool(int min) {
    NodePool p = pool("p", 4000, 8192, min, 10);
    store.create(p);
    return p;
  }

  private Pod bound(Pod p, String node) {
    return store.create(p.toBuilder().nodeName(node).build());
  }

  private List<String> nodeNames() {
    return store.list(Node.class).items().stream().map(Node::name).toList();
  }

  @Test
  void unreadyEmptyNode_removedAfterTheUnreadyTime_notTheUnneededTime() {
    NodePool p = onePool(0);
    store.create(poolNode(p, "ready"));
    store.create(unready(poolNode(p, "dead")));
    bound(pod("busy", 3000, 1024), "ready"); // 0.75: stays
    ClusterAutoscaler ca = ca(AutoscalerOptions.defaults());
    LoopResult first = ca.runOnce();
    assertThat(first.safeToAutoscale()).isTrue();
    assertThat(first.unneededNodes()).containsExactly("dead");
    assertThat(first.unremovableNodes()).containsEntry("ready", ClusterAutoscaler.NOT_UNDERUTILIZED);
    clock.advance(Duration.ofMinutes(10)); // a ready node would go now
    assertThat(ca.runOnce().deletedNodes()).isEmpty();
    clock.advance(Duration.ofMinutes(9).plusSeconds(50));
    assertThat(ca.runOnce().deletedNodes()).isEmpty();
    clock.advance(Duration.ofSeconds(10)); // unneeded for 20 minutes
    LoopResult r = ca.runOnce();
    assertThat(r.deletedNodes()).containsExactly("dead");
    assertThat(nodeNames()).containsExactly("ready");
  }

  @Test
  void readyNodeKeepsTheUnneededTime_andAShorterUnreadyTimeApplies() {
    NodePool p = onePool(0);
    store.create(poolNode(p, "idle"));
    store.create(unready(poolNode(p, "dead")));
    ClusterAutoscaler ca = ca(AutoscalerOptions.defaults().withScaleDownUnreadyTime(Duration.ofMinutes(2)));
    assertThat(ca.runOnce().unneededNodes()).containsExactlyInAnyOrder("idle", "dead");
    clock.advance(Duration.ofMinutes(2));
    assertThat(ca.runOnce().deletedNodes()).containsExactly("dead");
    clock.advance(Duration.ofMinutes(8));
    assertThat(ca.runOnce().deletedNodes()).containsExactly("idle");
  }

  @Test
  void unreadyNodeWithPods_drainedLikeAnyOther_itsPodsMoveToAReadyNode() {
    NodePool p = onePool(0);
    store.create(poolNode(p, "ready"));
    store.create(unready(poolNode(p, "dead")));
    bound(pod("busy", 2500, 1024), "ready"); // 0.625: stays
    bound(pod("stuck", 1000, 1024), "dead"); // 0.25, fits on ready
    ClusterAutoscaler ca = ca(AutoscalerOptions.defaults());
    assertThat(ca.runOnce().unneededNodes()).containsExactly("dead");
    clock.advance(Duration.ofMinutes(20));
    LoopResult r = ca.runOnce();
    assertThat(r.deletionsStarted()).containsExactly("dead");
    assertThat(store.get(Pod.class, "default", "stuck")).as("evicted").isEmpty();
    assertThat(nodeNames()).containsExactly("ready");
  }

  @Test
  void scaleDownUnreadyDisabled_unreadyNodeStays_withUpstreamsReason() {
    NodePool p = onePool(0);
    store.create(poolNode(p, "ready"));
    store.create(unready(poolNode(p, "dead")));
    bound(pod("busy", 3000, 1024), "ready");
    ClusterAutoscaler ca = ca(AutoscalerOptions.defaults().withScaleDownUnreadyEnabled(false));
    for (int i = 0; i < 5; i++) {
      LoopResult r = ca.runOnce();
      assertThat(r.unneededNodes()).isEmpty();
      assertThat(r.unremovableNodes()).containsEntry("dead", ClusterAutoscaler.SCALE_DOWN_UNREADY_DISABLED);
      assertThat(r.deletedNodes()).isEmpty();
      clock.advance(Duration.ofMinutes(10));
    }
    assertThat(nodeNames()).containsExactly("dead", "ready");
  }

  @Test
  void threeOfFourNodesUnready_haltsTheAutoscaler_neitherScalingUpNorDown() {
    // upstream's defaults let 3 unready nodes pass (okTotalUnreadyCount 3: more than 3 are needed), so this case
    // lowers it to 2; threeUnready_withUpstreamsDefaults_isNoHalt_fourOfFiveIs covers the defaults
    NodePool p = onePool(0);
    store.create(poolNode(p, "n1"));
    for (String n : List.of("n2", "n3", "n4")) {
      store.create(unready(poolNode(p, n)));
    }
    store.create(pod("pending", 6000, 1024)); // fits no node: would scale up
    PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    ClusterAutoscaler ca = ClusterAutoscaler.builder(store).clock(clock).seed(42)
        .options(AutoscalerOptions.defaults().withOkTotalUnreadyCount(2).withNodeDeleteDelayAfterTaint(Duration.ZERO))
        .metrics(MicrometerMetrics.of(prometheus))
        .build();
    // unready nodes younger than upstream's MaxNodeStartupTime (15 min) are "not started": they do not count yet
    LoopResult young = ca.runOnce();
    assertThat(young.safeToAutoscale()).isTrue();
    assertThat(young.launchedNodes()).isEmpty(); // 6000m fits no 4000m node: nothing to launch either
    assertThat(young.unneededNodes()).containsExactlyInAnyOrder("n1", "n2", "n3", "n4");
    clock.advance(Duration.ofMinutes(15));
    LoopResult r = ca.runOnce();
    assertThat(r.safeToAutoscale()).isFalse();
    assertThat(r.halted()).startsWith(ClusterAutoscaler.CLUSTER_UNHEALTHY).contains("3 of 4 nodes unready");
    assertThat(r.scaleUp()).isNull();
    assertThat(r.launchedNodes()).isEmpty();
    assertThat(r.unneededNodes()).isEmpty();
    assertThat(r.deletionsStarted()).isEmpty();
    assertThat(prometheus.scrape()).contains("cluster_autoscaler_cluster_safe_to_autoscale 0.0");
    // halted loops forget the unneeded nodes: nothing is removed however long it lasts
    for (int i = 0; i < 4; i++) {
      clock.advance(Duration.ofMinutes(10));
      assertThat(ca.runOnce().deletedNodes()).isEmpty();
    }
    assertThat(nodeNames()).containsExactly("n1", "n2", "n3", "n4");
    // one node back: 2 of 4 unready is within okTotalUnreadyCount 3; the unneeded times start anew
    Node healthy = poolNode(p, "n2");
    Node n2 = store.updateStatus(store.require(Node.class, "", "n2").withStatus(healthy.status()));
    store.update(n2.withSpec(healthy.spec()));
    LoopResult back = ca.runOnce();
    assertThat(back.safeToAutoscale()).isTrue();
    assertThat(back.unneededNodes()).contains("n3", "n4");
    assertThat(prometheus.scrape()).contains("cluster_autoscaler_cluster_safe_to_autoscale 1.0");
    clock.advance(Duration.ofMinutes(10));
    // the ready ones are due 10 minutes later, the unready ones not before 20
    LoopResult later = ca.runOnce();
    assertThat(later.deletedNodes()).containsExactlyInAnyOrder("n1", "n2");
    assertThat(nodeNames()).containsExactly("n3", "n4");
  }

  @Test
  void threeUnready_withUpstreamsDefaults_isNoHalt_fourOfFiveIs() {
    NodePool p = onePool(0);
    store.create(poolNode(p, "n1"));
    for (String n : List.of("n2", "n3", "n4")) {
      store.create(unready(poolNode(p, n)));
    }
    clock.advance(Duration.ofMinutes(15));
    ClusterAutoscaler ca = ca(AutoscalerOptions.defaults());
    assertThat(ca.runOnce().safeToAutoscale()).as("3 unready, not more than okTotalUnreadyCount 3").isTrue();
    store.create(unready(poolNode(p, "n5")));
    assertThat(ca.runOnce().safeToAutoscale()).as("n5 just created: not started yet").isTrue();
    clock.advance(Duration.ofMinutes(15));
    LoopResult r = ca.runOnce();
    assertThat(r.halted()).as("4 of 5 unready: more than 3 and more than 45%").contains("4 of 5 nodes unready");
  }

  @Test
  void options_defaultsAsUpstream_andBadValuesRefusedNamingTheField() {
    AutoscalerOptions d = AutoscalerOptions.defaults();
    assertThat(d.scaleDownUnreadyTime()).isEqualTo(Duration.ofMinutes(20));
    assertThat(d.scaleDownUnreadyEnabled()).isTrue();
    assertThat(d.maxTotalUnreadyPercentage()).isEqualTo(45.0);
    assertThat(d.okTotalUnreadyCount()).isEqualTo(3);
    assertThatThrownBy(() -> d.withScaleDownUnreadyTime(Duration.ofMinutes(-1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("scaleDownUnreadyTime")
        .hasMessageContaining("must not be negative");
    assertThatThrownBy(() -> d.withMaxTotalUnreadyPercentage(101)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxTotalUnreadyPercentage 101.0 must be between 0 and 100");
    assertThatThrownBy(() -> d.withMaxTotalUnreadyPercentage(Double.NaN))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxTotalUnreadyPercentage");
    assertThatThrownBy(() -> d.withOkTotalUnreadyCount(-1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("okTotalUnreadyCount -1 must not be negative");
    assertThat(d.withScaleDownUnreadyEnabled(false).withOkTotalUnreadyCount(0).scaleDownUnreadyEnabled()).isFalse();
  }

  /**
   * Upstream's {@code IsNodeGroupReadyToScaleUp} ({@code core/scaleup/orchestrator/orchestrator.go}): a node group
   * that is not {@code IsNodeGroupHealthy} ({@code clusterstate/clusterstate.go}) is skipped with
   * {@code NotReadyReason} while the cluster as a whole is healthy; the group's healthiness gauge is 0.
   */
  @Test
  void unhealthyPool_skippedByScaleUpWithReason_whileClusterIsHealthy() {
    NodePool bad = pool("bad", 4000, 8192, 0, 10);
    NodePool twin = pool("twin", 4000, 8192, 0, 10); // the same shape: without the health check a tie
    NodePool small = pool("small", 1000, 8192, 0, 30);
    store.create(bad);
    store.create(twin);
    store.create(small);
    store.create(poolNode(bad, "bad-1"));
    store.create(unready(poolNode(bad, "bad-2")));
    store.create(unready(poolNode(bad, "bad-3")));
    for (int i = 1; i <= 20; i++) {
      store.create(poolNode(small, "small-" + i));
    }
    bound(pod("full", 3500, 1024), "bad-1");
    clock.advance(Duration.ofMinutes(16)); // the unready nodes are past the start-up time
    store.create(pod("big", 3000, 1024));
    PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    ClusterAutoscaler ca = ClusterAutoscaler.builder(store).clock(clock).seed(42)
        .options(AutoscalerOptions.defaults().withMaxTotalUnreadyPercentage(10).withOkTotalUnreadyCount(1))
        .metrics(MicrometerMetrics.of(prometheus)).build();

    LoopResult r = ca.runOnce();

    // 2 of 23 nodes unready: not more than 10% of the cluster; in pool bad 2 missing of 3 > 1 and > 10%
    assertThat(r.halted()).isNull();
    assertThat(r.scaleUp()).isNotNull();
    assertThat(r.scaleUp().skippedPools().get("bad"))
        .isEqualTo("not ready for scale-up: 1 ready of at least 3 expected (3 nodes)");
    assertThat(r.scaleUp().chosen()).isNotNull();
    assertThat(r.scaleUp().chosen().pool().metadata().name()).isEqualTo("twin");
    assertThat(r.launchedNodes()).containsExactly("twin-1");
    String scrape = prometheus.scrape();
    assertThat(scrape).contains("cluster_autoscaler_node_group_healthiness{node_group=\"bad\"} 0.0")
        .contains("cluster_autoscaler_node_group_healthiness{node_group=\"twin\"} 1.0");
  }
}
