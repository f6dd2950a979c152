package io.fleetkit.autoscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The ToBeDeleted taint and cordon writes, ported from kubernetes/autoscaler {@code cluster-autoscaler/utils/taints/
 * taints_test.go} (commit 1c02f080): TestMarkNodes, TestCheckNodes, TestQueryNodes, TestCleanNodes,
 * TestCleanNodesWithCordon, TestCleanNodesWithCordonOnOff (upstream's {@code MarkToBeDeleted} and
 * {@code CleanToBeDeleted} are {@link NodeTaintWrites#add} and {@link NodeTaintWrites#remove} with the taint
 * {@value ClusterAutoscaler#TO_BE_DELETED_TAINT}; the cordon flag is {@code cordonNodeBeforeTerminating}). Upstream's
 * fake client answers the first update with a conflict; the store here has none to give (the retry on conflicts is
 * the same loop for every write), so the outcomes are checked without it.
 */
final class NodeTaintWritesTest {
  private static final String TBD = ClusterAutoscaler.TO_BE_DELETED_TAINT;
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build();

  @AfterEach
  void close() {
    store.close();
  }

  /** Upstream's {@code BuildTestNode("node", 1000, 1000)} with {@code taints} and the cordon as given. */
  private Node create(List<Taint> taints, boolean unschedulable) {
    return store.create(Node.builder().name("node").allocatable(ResourceList.ofCpuMemory(1000, 1000))
        .taints(taints).unschedulable(unschedulable).build());
  }

  private Node node() {
    return store.require(Node.class, "", "node");
  }

  private Taint taint(String key, TaintEffect effect) {
    return new Taint(key, String.valueOf(clock.instant().getEpochSecond()), effect, clock.instant());
  }

  @Test
  void markNodes_withoutCordon_tainted() {
    // TestMarkNodes
    create(List.of(), false);
    assertThat(NodeTaintWrites.add(store, "node", TBD, TaintEffect.NoSchedule, clock.instant(), false)).isNull();
    assertThat(NodeTaintWrites.has(node(), TBD)).isTrue();
    assertThat(NodeTaintWrites.has(node(), SoftTaints.DELETION_CANDIDATE_TAINT)).isFalse();
    assertThat(node().spec().unschedulable()).isFalse();
  }

  @Test
  void checkNodes_taintsGiven_bothFound() {
    // TestCheckNodes
    create(List.of(taint(TBD, TaintEffect.NoSchedule), taint("other-taint", TaintEffect.NoSchedule)), false);
    assertThat(NodeTaintWrites.has(node(), TBD)).isTrue();
    assertThat(NodeTaintWrites.has(node(), "other-taint")).isTrue();
    assertThat(NodeTaintWrites.has(node(), SoftTaints.DELETION_CANDIDATE_TAINT)).isFalse();
  }

  @Test
  void queryNodes_marked_valueIsTheTimeInSeconds() {
    // TestQueryNodes: the taint's value is when it was put (upstream: within 10 s of now)
    create(List.of(), false);
    assertThat(NodeTaintWrites.add(store, "node", TBD, TaintEffect.NoSchedule, clock.instant(), false)).isNull();
    Taint t = node().spec().taints().stream().filter(x -> x.key().equals(TBD)).findFirst().orElseThrow();
    assertThat(Long.parseLong(t.value())).isEqualTo(clock.instant().getEpochSecond());
  }

  @Test
  void cleanNodes_withoutCordon_taintGoneOtherKept() {
    // TestCleanNodes
    Node before = create(List.of(taint(TBD, TaintEffect.NoSchedule), taint("other-taint", TaintEffect.NoSchedule)),
        false);
    assertThat(NodeTaintWrites.has(node(), TBD)).isTrue();
    assertThat(NodeTaintWrites.has(node(), "other-taint")).isTrue();
    assertThat(node().spec().unschedulable()).isFalse();

    assertThat(NodeTaintWrites.remove(store, "node", TBD, false)).isNull();
    assertThat(node().spec().taints()).as("cleaned").isNotEqualTo(before.spec().taints());
    assertThat(NodeTaintWrites.has(node(), TBD)).isFalse();
    assertThat(NodeTaintWrites.has(node(), "other-taint")).isTrue();
    assertThat(node().spec().unschedulable()).isFalse();
  }

  @Test
  void cleanNodesWithCordon_cordoned_uncordoned() {
    // TestCleanNodesWithCordon: tainted and cordoned (upstream's addTaintsToSpec with cordon), cleaned with cordon
    Node before = create(List.of(taint(TBD, TaintEffect.NoSchedule), taint("other-taint", TaintEffect.NoSchedule)),
        true);
    assertThat(node().spec().unschedulable()).isTrue();

    assertThat(NodeTaintWrites.remove(store, "node", TBD, true)).isNull();
    assertThat(node().spec().taints()).as("cleaned").isNotEqualTo(before.spec().taints());
    assertThat(NodeTaintWrites.has(node(), TBD)).isFalse();
    assertThat(NodeTaintWrites.has(node(), "other-taint")).isTrue();
    assertThat(node().spec().unschedulable()).isFalse();
  }

  @Test
  void cleanNodesWithCordonOnOff_cleanedWithoutCordon_staysCordoned() {
    // TestCleanNodesWithCordonOnOff: marked with cordon (PreferNoSchedule taints, as upstream), cleaned without
    Node before = create(List.of(taint(TBD, TaintEffect.PreferNoSchedule),
        taint("other-taint", TaintEffect.PreferNoSchedule)), true);
    assertThat(NodeTaintWrites.has(node(), TBD)).isTrue();
    assertThat(node().spec().unschedulable()).isTrue();

    assertThat(NodeTaintWrites.remove(store, "node", TBD, false)).isNull();
    assertThat(node().spec().taints()).as("cleaned").isNotEqualTo(before.spec().taints());
    assertThat(NodeTaintWrites.has(node(), TBD)).isFalse();
    assertThat(NodeTaintWrites.has(node(), "other-taint")).isTrue();
    assertThat(node().spec().unschedulable()).isTrue();
  }

  @Test
  void add_withCordon_taintedAndCordonedInOneWrite() {
    Node before = create(List.of(), false);
    assertThat(NodeTaintWrites.add(store, "node", TBD, TaintEffect.NoSchedule, clock.instant(), true)).isNull();
    assertThat(NodeTaintWrites.has(node(), TBD)).isTrue();
    assertThat(node().spec().unschedulable()).isTrue();
    assertThat(Long.parseLong(node().metadata().resourceVersion()))
        .isEqualTo(Long.parseLong(before.metadata().resourceVersion()) + 1);
  }

  @Test
  void add_withCordon_alreadyTainted_nodeLeftAlone() {
    // upstream's addTaintsToSpec: no taint added, so no cordon either
    Node before = create(List.of(taint(TBD, TaintEffect.NoSchedule)), false);
    assertThat(NodeTaintWrites.add(store, "node", TBD, TaintEffect.NoSchedule, clock.instant(), true)).isNull();
    assertThat(node().spec().unschedulable()).isFalse();
    assertThat(node().metadata().resourceVersion()).isEqualTo(before.metadata().resourceVersion());
  }

  @Test
  void remove_withCordon_notTainted_cordonKept() {
    // upstream's CleanTaints: nothing to clean, so an operator's cordon stays
    create(List.of(taint("other-taint", TaintEffect.NoSchedule)), true);
    assertThat(NodeTaintWrites.remove(store, "node", TBD, true)).isNull();
    assertThat(node().spec().unschedulable()).isTrue();
    assertThat(NodeTaintWrites.has(node(), "other-taint")).isTrue();
  }
}
