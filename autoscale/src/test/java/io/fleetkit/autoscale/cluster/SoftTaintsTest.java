package io.fleetkit.autoscale.cluster;

import static io.fleetkit.autoscale.cluster.CaFixtures.pod;
import static io.fleetkit.autoscale.cluster.CaFixtures.pool;
import static io.fleetkit.autoscale.cluster.CaFixtures.poolNode;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.WatchEventType;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Ported from cluster-autoscaler {@code core/scaledown/actuation/softtaint_test.go}: TestSoftTaintUpdate (its steps;
 * upstream's function returns at once, {@code if t != nil}, so upstream does not run it) and TestSoftTaintTimeLimit
 * (the clock moved on each node update by a watch, as upstream's update reactor moves its frozen time). Then the
 * autoscaler's use of it: the soft taint on a node found unneeded, taken off when the node is needed again.
 */
final class SoftTaintsTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build();
  private final NodePool ng1 = pool("ng1", 1000, 1000, 1, 10);

  @AfterEach
  void close() {
    store.close();
  }

  private List<Node> all() {
    return store.list(Node.class).items();
  }

  private boolean candidate(String node) {
    return NodeTaintWrites.has(store.require(Node.class, "", node), SoftTaints.DELETION_CANDIDATE_TAINT);
  }

  private long candidates() {
    return all().stream().filter(n -> NodeTaintWrites.has(n, SoftTaints.DELETION_CANDIDATE_TAINT)).count();
  }

  private List<String> update(int count, Duration time, List<Node> unneeded, List<Node> needed) {
    return SoftTaints.update(store, clock.asClock(), count, time, unneeded, needed);
  }

  @Test
  void softTaintUpdate_upstreamSteps() {
    Node n1000 = store.create(poolNode(ng1, "n1000"));
    Node n2000 = store.create(poolNode(ng1, "n2000"));
    Duration threeSeconds = Duration.ofSeconds(3);
    // no superfluous nodes
    assertThat(update(1, threeSeconds, List.of(), all())).isEmpty();
    assertThat(candidate("n1000")).isFalse();
    assertThat(candidate("n2000")).isFalse();
    // one unneeded node
    assertThat(update(1, threeSeconds, List.of(n1000), List.of(n2000))).isEmpty();
    assertThat(candidate("n1000")).isTrue();
    assertThat(candidate("n2000")).isFalse();
    Taint t = store.require(Node.class, "", "n1000").spec().taints().stream()
        .filter(x -> x.key().equals(SoftTaints.DELETION_CANDIDATE_TAINT)).findFirst().orElseThrow();
    assertThat(t.effect()).isEqualTo(TaintEffect.PreferNoSchedule);
    assertThat(t.value()).isEqualTo(String.valueOf(clock.now().getEpochSecond()));
    // remove soft taint
    assertThat(update(1, threeSeconds, List.of(), all())).isEmpty();
    assertThat(candidate("n1000")).isFalse();
    assertThat(candidate("n2000")).isFalse();
    // bulk update taint limit
    assertThat(update(1, threeSeconds, all(), List.of())).isEmpty();
    assertThat(candidates()).isEqualTo(1);
    assertThat(update(1, threeSeconds, all(), List.of())).isEmpty();
    assertThat(candidates()).isEqualTo(2);
    // bulk update untaint limit
    assertThat(update(1, threeSeconds, List.of(), all())).isEmpty();
    assertThat(candidates()).isEqualTo(1);
    assertThat(update(1, threeSeconds, List.of(), all())).isEmpty();
    assertThat(candidates()).isZero();
  }

  @Test
  void softTaintTimeLimit_upstreamSteps() {
    store.create(poolNode(ng1, "n1"));
    store.create(poolNode(ng1, "n2"));
    Duration max = Duration.ofSeconds(1);
    Duration[] updateTime = {Duration.ofMillis(1)};
    store.watch(Node.class, store.resourceVersion(), e -> {
      if (e.type() == WatchEventType.MODIFIED) {
        clock.advance(updateTime[0]);
      }
    });
    // bulk taint
    assertThat(update(10, max, all(), List.of())).isEmpty();
    assertThat(candidates()).isEqualTo(2);
    assertThat(candidate("n1")).isTrue();
    assertThat(candidate("n2")).isTrue();
    // bulk untaint
    assertThat(update(10, max, List.of(), all())).isEmpty();
    assertThat(candidates()).isZero();
    updateTime[0] = max;
    // duration limit of bulk taint
    assertThat(update(10, max, all(), List.of())).isEmpty();
    assertThat(candidates()).isEqualTo(1);
    assertThat(update(10, max, all(), List.of())).isEmpty();
    assertThat(candidates()).isEqualTo(2);
    // duration limit of bulk untaint
    assertThat(update(10, max, List.of(), all())).isEmpty();
    assertThat(candidates()).isEqualTo(1);
    assertThat(update(10, max, List.of(), all())).isEmpty();
    assertThat(candidates()).isZero();
  }

  @Test
  void nodeBeingDeleted_keepsItsTaintsAsTheyAre() {
    store.create(poolNode(ng1, "n1").toBuilder().taint(new Taint(ClusterAutoscaler.TO_BE_DELETED_TAINT, "1",
        TaintEffect.NoSchedule, clock.now())).build());
    assertThat(update(10, Duration.ofSeconds(3), all(), List.of())).isEmpty();
    assertThat(candidate("n1")).isFalse();
  }

  @Test
  void autoscaler_softTaintsTheUnneededNode_andTakesItOffWhenItIsNeededAgain() {
    NodePool p = store.create(pool("ng1", 4000, 4096, 0, 10));
    store.create(poolNode(p, "a"));
    store.create(poolNode(p, "b"));
    store.create(pod("busy", 3000, 512).withNodeName("a"));
    ClusterAutoscaler ca = ClusterAutoscaler.builder(store).clock(clock).seed(42).build();
    LoopResult r = ca.runOnce();
    assertThat(r.unneededNodes()).containsExactly("b");
    assertThat(candidate("b")).isTrue();
    assertThat(candidate("a")).isFalse();
    // b gets a pod that fits nowhere else: needed again
    store.create(pod("big", 3000, 512).withNodeName("b"));
    clock.advance(Duration.ofSeconds(10));
    r = ca.runOnce();
    assertThat(r.unneededNodes()).isEmpty();
    assertThat(candidate("b")).isFalse();
  }

  @Test
  void autoscaler_maxBulkSoftTaintCountZero_putsNoSoftTaint() {
    NodePool p = store.create(pool("ng1", 4000, 4096, 0, 10));
    store.create(poolNode(p, "a"));
    store.create(poolNode(p, "b"));
    store.create(pod("busy", 3000, 512).withNodeName("a"));
    ClusterAutoscaler ca = ClusterAutoscaler.builder(store).clock(clock).seed(42)
        .options(AutoscalerOptions.defaults().withMaxBulkSoftTaintCount(0)).build();
    assertThat(ca.runOnce().unneededNodes()).containsExactly("b");
    assertThat(candidate("b")).isFalse();
  }
}
