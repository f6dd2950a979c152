package io.fleetkit.autoscale.cluster;

import static io.fleetkit.autoscale.cluster.CaFixtures.pod;
import static io.fleetkit.autoscale.cluster.CaFixtures.pool;
import static io.fleetkit.autoscale.cluster.CaFixtures.poolNode;
import static io.fleetkit.autoscale.cluster.CaFixtures.withDelay;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.autoscaling.NodePoolAutoscalingOptions;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A pool's own autoscaling settings at work in the autoscaler's loop: each decides for that pool's nodes only, the
 * other pools keep the autoscaler's flags (upstream reads them per node group through {@code NodeGroupConfigProcessor}:
 * eligibility's threshold, the unneeded nodes' removal time, a scale-up's provision timeout).
 */
final class PoolAutoscalingOptionsTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build();

  @AfterEach
  void close() {
    store.close();
  }

  private ClusterAutoscaler ca() {
    return ClusterAutoscaler.builder(store).clock(clock).seed(42).build();
  }

  private static NodePool with(NodePool p, NodePoolAutoscalingOptions o) {
    return p.withSpec(p.spec().withAutoscalingOptions(o));
  }

  @Test
  void slowPool_withItsOwnProvisionTime_isNotTimedOutAtTheDefault() {
    // GPU-like nodes that take 20 min to start: past the 15 min default, within the pool's own 25 min
    store.create(with(withDelay(pool("slow", 2000, 2048, 0, 10), Duration.ofMinutes(20)),
        NodePoolAutoscalingOptions.builder().maxNodeProvisionTime(Duration.ofMinutes(25)).build()));
    store.create(pod("a", 2000, 2048));
    ClusterAutoscaler ca = ca();
    assertThat(ca.runOnce().launchedNodes()).containsExactly("slow-1");
    for (int m = 1; m < 20; m++) {
      clock.set(ManualClock.atEpoch2026().instant().plus(Duration.ofMinutes(m)));
      assertThat(ca.runOnce().timedOutNodes()).as("minute %d", m).isEmpty();
    }
    clock.set(ManualClock.atEpoch2026().instant().plus(Duration.ofMinutes(20)));
    assertThat(ca.runOnce().readyNodes()).containsExactly("slow-1");
    assertThat(ca.isBackedOff("slow")).isFalse();
  }

  @Test
  void poolThreshold_makesAMoreUtilizedNodeACandidate_inThatPoolOnly() {
    NodePool lenient = with(pool("lenient", 4000, 8192, 0, 10),
        NodePoolAutoscalingOptions.builder().scaleDownUtilizationThreshold(0.7).build());
    NodePool strict = pool("strict", 4000, 8192, 0, 10);
    store.create(lenient);
    store.create(strict);
    store.create(poolNode(lenient, "lenient-1"));
    store.create(poolNode(strict, "strict-1"));
    store.create(pod("a", 2400, 0).toBuilder().nodeName("lenient-1").build()); // 60 % of its CPU
    store.create(pod("b", 2400, 0).toBuilder().nodeName("strict-1").build());
    LoopResult r = ca().runOnce();
    assertThat(r.unremovableNodes()).containsEntry("strict-1", ClusterAutoscaler.NOT_UNDERUTILIZED);
    assertThat(r.unremovableNodes().get("lenient-1")).isNotEqualTo(ClusterAutoscaler.NOT_UNDERUTILIZED);
  }

  @Test
  void poolUnneededTime_removesItsEmptyNodeSooner() {
    NodePool quick = with(pool("quick", 2000, 2048, 0, 10),
        NodePoolAutoscalingOptions.builder().scaleDownUnneededTime(Duration.ofMinutes(1)).build());
    NodePool slow = pool("slow", 2000, 2048, 0, 10);
    store.create(quick);
    store.create(slow);
    store.create(poolNode(quick, "quick-1"));
    store.create(poolNode(slow, "slow-1"));
    ClusterAutoscaler ca = ca();
    assertThat(ca.runOnce().unneededNodes()).containsExactlyInAnyOrder("quick-1", "slow-1");
    clock.advance(Duration.ofMinutes(1));
    LoopResult r = ca.runOnce();
    assertThat(r.deletionsStarted()).containsExactly("quick-1"); // the default pool's node waits its 10 min
    clock.advance(Duration.ofMinutes(9));
    assertThat(ca.runOnce().deletionsStarted()).containsExactly("slow-1");
  }

  /**
   * Four unready nodes 20 minutes old out of five halt the autoscaler (more than 3 and more than 45 %) when they count
   * as unready; in a pool whose nodes take up to 30 minutes to start they are still starting, and it goes on.
   */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
  void poolStartupTime_keepsYoungUnreadyNodesOutOfTheClusterHealth(boolean ownStartupTime) {
    NodePool p = pool("slow", 2000, 2048, 0, 10);
    if (ownStartupTime) {
      p = with(p, NodePoolAutoscalingOptions.builder().maxNodeStartupTime(Duration.ofMinutes(30)).build());
    }
    store.create(p);
    store.create(poolNode(p, "slow-0"));
    for (int i = 1; i <= 4; i++) {
      store.create(ClusterAutoscalerUnreadyTest.unready(poolNode(p, "slow-" + i)));
    }
    clock.advance(Duration.ofMinutes(20));
    LoopResult r = ca().runOnce();
    if (ownStartupTime) {
      assertThat(r.halted()).isNull();
    } else {
      assertThat(r.halted()).isNotNull();
    }
  }
}
