package io.fleetkit.scheduler.internal;

import static io.fleetkit.scheduler.testing.Fixtures.node;
import static io.fleetkit.scheduler.testing.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.scheduling.Affinity;
import io.fleetkit.api.scheduling.PodAffinity;
import io.fleetkit.api.scheduling.PodAffinityTerm;
import java.util.List;
import org.junit.jupiter.api.Test;

final class SchedulerCacheTest {
  private static final long TTL = 30_000_000_000L;

  private static EnginePodInfo bound(String name, String node, long cpu) {
    return EnginePodInfo.of(pod(name, cpu, 10).withNodeName(node));
  }

  @Test
  void assume_countsOnNode_thenConfirmKeepsIt() {
    SchedulerCache c = new SchedulerCache(TTL);
    c.putNode(node("n1", 4000, 8192, 110));
    EnginePodInfo p = bound("p", "n1", 500);
    c.assume(p, "n1");
    assertThat(c.isAssumed("default/p")).isTrue();
    assertThat(c.nodeInfo("n1").requested().milliCpu()).isEqualTo(500);
    c.finishBinding("default/p", 0);
    c.addOrUpdateBoundPod(p);
    assertThat(c.isAssumed("default/p")).isFalse();
    assertThat(c.cleanupExpired(TTL * 10)).isEmpty();
    assertThat(c.nodeInfo("n1").pods()).hasSize(1);
    assertThat(c.nodeInfo("n1").requested().milliCpu()).isEqualTo(500);
  }

  @Test
  void assume_twice_isRejected() {
    SchedulerCache c = new SchedulerCache(TTL);
    c.putNode(node("n1", 4000, 8192, 110));
    c.assume(bound("p", "n1", 500), "n1");
    assertThatThrownBy(() -> c.assume(bound("p", "n1", 500), "n1")).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("default/p");
  }

  @Test
  void forget_assumedPod_freesNode() {
    SchedulerCache c = new SchedulerCache(TTL);
    c.putNode(node("n1", 4000, 8192, 110));
    c.assume(bound("p", "n1", 500), "n1");
    assertThat(c.forget("default/p")).isTrue();
    assertThat(c.hasPod("default/p")).isFalse();
    assertThat(c.nodeInfo("n1").pods()).isEmpty();
    assertThat(c.nodeInfo("n1").requested().milliCpu()).isZero();
  }

  @Test
  void forget_boundPod_isIgnored() {
    SchedulerCache c = new SchedulerCache(TTL);
    c.putNode(node("n1", 4000, 8192, 110));
    c.addOrUpdateBoundPod(bound("p", "n1", 500));
    assertThat(c.forget("default/p")).isFalse();
    assertThat(c.hasPod("default/p")).isTrue();
  }

  @Test
  void expiry_onlyAfterBindingFinishedAndTtlPassed() {
    SchedulerCache c = new SchedulerCache(TTL);
    c.putNode(node("n1", 4000, 8192, 110));
    c.assume(bound("p", "n1", 500), "n1");
    assertThat(c.cleanupExpired(TTL * 10)).isEmpty(); // binding not finished
    c.finishBinding("default/p", 100);
    assertThat(c.cleanupExpired(100 + TTL)).isEmpty();
    assertThat(c.cleanupExpired(101 + TTL)).containsExactly("default/p");
    assertThat(c.nodeInfo("n1").pods()).isEmpty();
  }

  @Test
  void expiry_zeroTtl_neverExpires() {
    SchedulerCache c = new SchedulerCache(0);
    c.putNode(node("n1", 4000, 8192, 110));
    c.assume(bound("p", "n1", 500), "n1");
    c.finishBinding("default/p", 0);
    assertThat(c.cleanupExpired(Long.MAX_VALUE / 2)).isEmpty();
  }

  @Test
  void confirm_onOtherNode_movesPod() {
    SchedulerCache c = new SchedulerCache(TTL);
    c.putNode(node("n1", 4000, 8192, 110));
    c.putNode(node("n2", 4000, 8192, 110));
    c.assume(bound("p", "n1", 500), "n1");
    c.addOrUpdateBoundPod(bound("p", "n2", 500));
    assertThat(c.nodeInfo("n1").pods()).isEmpty();
    assertThat(c.nodeInfo("n2").pods()).hasSize(1);
  }

  @Test
  void podOnUnknownNode_isKeptAsPlaceholderUntilNodeArrives() {
    SchedulerCache c = new SchedulerCache(TTL);
    c.addOrUpdateBoundPod(bound("p", "later", 500));
    ClusterSnapshot s = new ClusterSnapshot();
    c.updateSnapshot(s);
    assertThat(s.size()).isZero();
    c.putNode(node("later", 4000, 8192, 110));
    c.updateSnapshot(s);
    assertThat(s.size()).isEqualTo(1);
    assertThat(s.get("later").pods()).hasSize(1);
    c.removeNode("later");
    c.updateSnapshot(s);
    assertThat(s.size()).isZero();
    assertThat(c.removePod("default/p")).isEqualTo("later");
  }

  @Test
  void snapshot_updatesOnlyChangedNodes() {
    SchedulerCache c = new SchedulerCache(TTL);
    for (int i = 0; i < 100; i++) {
      c.putNode(node("n" + i, 4000, 8192, 110));
    }
    ClusterSnapshot s = new ClusterSnapshot();
    assertThat(c.updateSnapshot(s)).isEqualTo(100);
    assertThat(c.updateSnapshot(s)).isZero();
    NodeInfo before7 = s.get("n7");
    NodeInfo before8 = s.get("n8");
    c.addOrUpdateBoundPod(bound("p", "n7", 100));
    c.addOrUpdateBoundPod(bound("q", "n42", 100));
    assertThat(c.updateSnapshot(s)).isEqualTo(2);
    assertThat(s.get("n7")).isNotSameAs(before7);
    assertThat(s.get("n7").pods()).hasSize(1);
    assertThat(before7.pods()).isEmpty(); // views handed out earlier never change
    assertThat(s.get("n8")).isSameAs(before8);
    assertThat(s.nodes().get(7).name()).isEqualTo("n7");
    assertThat(s.get("n7").generation()).isGreaterThan(before7.generation());
  }

  @Test
  void snapshot_nodeAddedOrRemoved_rebuildsOrder() {
    SchedulerCache c = new SchedulerCache(TTL);
    c.putNode(node("a", 4000, 8192, 110));
    c.putNode(node("b", 4000, 8192, 110));
    ClusterSnapshot s = new ClusterSnapshot();
    c.updateSnapshot(s);
    c.removeNode("a");
    c.putNode(node("c", 4000, 8192, 110));
    c.updateSnapshot(s);
    assertThat(s.nodes()).extracting(NodeInfo::name).containsExactly("b", "c");
    assertThat(s.get("a")).isNull();
  }

  @Test
  void snapshot_affinityListsFollowPodsWithAffinity() {
    SchedulerCache c = new SchedulerCache(TTL);
    c.putNode(node("a", 4000, 8192, 110));
    c.putNode(node("b", 4000, 8192, 110));
    ClusterSnapshot s = new ClusterSnapshot();
    c.updateSnapshot(s);
    assertThat(s.nodesWithAffinityPods()).isEmpty();
    PodAffinityTerm term = PodAffinityTerm.of(LabelSelector.of(java.util.Map.of("app", "x")),
        "kubernetes.io/hostname");
    Pod anti = pod("anti", 100, 10).toBuilder().affinity(new Affinity(null, null,
        new PodAffinity(List.of(term), List.of()))).nodeName("b").build();
    c.addOrUpdateBoundPod(EnginePodInfo.of(anti));
    c.updateSnapshot(s);
    assertThat(s.nodesWithAffinityPods()).extracting(NodeInfo::name).containsExactly("b");
    assertThat(s.nodesWithRequiredAntiAffinityPods()).extracting(NodeInfo::name).containsExactly("b");
    c.addOrUpdateBoundPod(bound("plain", "b", 100));
    c.updateSnapshot(s);
    assertThat(s.nodesWithAffinityPods().get(0).pods()).hasSize(2); // the list sees the refreshed view
    c.removePod("default/anti");
    c.updateSnapshot(s);
    assertThat(s.nodesWithAffinityPods()).isEmpty();
    assertThat(s.nodesWithRequiredAntiAffinityPods()).isEmpty();
  }
}
