package io.fleetkit.scheduler.plugins.gpu;

import static io.fleetkit.scheduler.plugins.gpu.GpuPolicyPluginsTest.node;
import static io.fleetkit.scheduler.plugins.gpu.GpuPolicyPluginsTest.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.fleetkit.api.core.GpuRequests;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.scheduler.PluginRegistry;
import io.fleetkit.scheduler.ScheduleResult;
import io.fleetkit.scheduler.Scheduler;
import io.fleetkit.scheduler.gpu.GapWaste;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * GapFill in the engine on small hand-made clusters. M has the typical share pods 0.32 (weight 3), 0.23 and 0.54
 * (weight 1 each), all with 4 cores, and whole GPUs (weight 2). λ·(share weight)/w prices waiting for a filler: 2.5
 * for a 0.32, 7.5 for a 0.23 or a 0.54. So with CPU for the fillers: a 0.35 gap wastes 30 + 2.5, a 0.12 gap 120
 * (nothing fills it), a 0.77 gap 7.5 + 7.5 (0.54 + 0.23).
 */
final class GpuGapFillPluginTest {
  private static final GpuWorkload M = GpuWorkload.of(List.of(
      new GpuWorkload.Shape(4000, 320, 1, List.of(), 3),
      new GpuWorkload.Shape(4000, 230, 1, List.of(), 1),
      new GpuWorkload.Shape(4000, 540, 1, List.of(), 1),
      new GpuWorkload.Shape(4000, 1000, 1, List.of(), 2)));

  private record Placed(String node, List<String> devices) {}

  /** Places {@code first} pods (all must bind), then {@code probes} one by one, and returns where each probe went. */
  private static List<Placed> place(GpuPolicy policy, List<Node> nodes, List<Pod> first, List<Pod> probes) {
    GpuPlugins gpu = GpuPlugins.builder().policy(policy).workload(M).seed(5).build();
    GpuPluginsTest.RecordingBinder binder = new GpuPluginsTest.RecordingBinder();
    try (Scheduler s = Scheduler.builder().registry(gpu.registry(PluginRegistry.defaults()))
        .profile(gpu.policyOnlyProfile()).binder(gpu.binder(binder)).parallelism(1).seed(3).build()) {
      nodes.forEach(s::addNode);
      for (Pod p : first) {
        s.addPod(p);
        assertThat(s.runUntilIdle()).allMatch(ScheduleResult::isBound);
      }
      List<Placed> out = new ArrayList<>();
      for (Pod p : probes) {
        s.addPod(p);
        List<ScheduleResult> r = s.runUntilIdle();
        assertThat(r).singleElement().matches(ScheduleResult::isBound, "bound");
        out.add(new Placed(r.get(0).nodeName(),
            GpuRequests.assignedIds(binder.bound.get("default/" + p.metadata().name()).metadata())));
      }
      return out;
    }
  }

  private static String placeOne(GpuPolicy policy, List<Node> nodes, List<Pod> first, Pod probe) {
    return place(policy, nodes, first, List.of(probe)).get(0).node();
  }

  /** n1: one GPU with a 0.65 pod on it (a 0.35 gap), {@code cores} cores; n2: one idle GPU, 64 cores. */
  private static List<Node> gapAndIdle(int cores) {
    return List.of(node("n1", cores, 1, "T4"), node("n2", 64, 1, "T4"));
  }

  private static List<Pod> gapOnN1() {
    return List.of(pod("busy", "5", 0, 650).withNodeName("n1"));
  }

  @Test
  void share023_avoidsTheGapA032FillsExactly_whereFgdFillsIt() {
    // GapFill: 0.23 into the gap costs 120 - 32.5 = 87.5; on the idle GPU 15 - 0. A 0.32 there costs 30 - 32.5.
    assertThat(placeOne(GpuPolicy.GAP_FILL, gapAndIdle(64), gapOnN1(), pod("p", "1", 0, 230))).isEqualTo("n2");
    assertThat(placeOne(GpuPolicy.GAP_FILL, gapAndIdle(64), gapOnN1(), pod("q", "1", 0, 320))).isEqualTo("n1");
    // FGD takes the gap: it breaks no whole GPU there (Δ = +30 against −220 on the idle GPU)
    assertThat(placeOne(GpuPolicy.FGD, gapAndIdle(64), gapOnN1(), pod("p", "1", 0, 230))).isEqualTo("n1");
  }

  @Test
  void share_gapOnANodeWithoutCpuForFillers_countsAsStranded() {
    // n1 keeps 3 cores after the 0.65 pod: no 4-core filler fits, the 0.35 gap is stranded (waste 350), and a 1-core
    // 0.23 pod there turns it into a 0.12 gap: cost 120 - 350 < 0, against 15 on the idle GPU. With CPU left on n1
    // the gap is kept for a 0.32 instead.
    assertThat(placeOne(GpuPolicy.GAP_FILL, gapAndIdle(8), gapOnN1(), pod("p", "1", 0, 230))).isEqualTo("n1");
    assertThat(placeOne(GpuPolicy.GAP_FILL, gapAndIdle(64), gapOnN1(), pod("p", "1", 0, 230))).isEqualTo("n2");
    // An idle GPU on a node with 3 cores: a 0.23 pod there strands the 0.77 left (cost 770, against 15 on n2).
    // FGD opens it: the node's GPU is all fragment before (no CPU for any shape of M), so Δ = +230 there.
    List<Node> poorAndRich = List.of(node("n1", 3, 1, "T4"), node("n2", 64, 1, "T4"));
    assertThat(placeOne(GpuPolicy.GAP_FILL, poorAndRich, List.of(), pod("p", "1", 0, 230))).isEqualTo("n2");
    assertThat(placeOne(GpuPolicy.FGD_BALANCED, poorAndRich, List.of(), pod("p", "1", 0, 230))).isEqualTo("n1");
  }

  @Test
  void share_deviceOnTheChosenNode_isTheOneOfLowestCost() {
    // One node, two GPUs: a 0.65 pod on one of them. The 0.23 pod gets the idle GPU (FGD would take the gap),
    // the 0.32 pod then the gap.
    List<Node> nodes = List.of(node("n1", 64, 2, "T4"));
    List<Placed> placed = place(GpuPolicy.GAP_FILL, nodes, List.of(),
        List.of(pod("busy", "5", 0, 650), pod("p", "1", 0, 230), pod("q", "1", 0, 320)));
    assertThat(placed.get(1).devices()).doesNotContainAnyElementsOf(placed.get(0).devices());
    assertThat(placed.get(2).devices()).isEqualTo(placed.get(0).devices());
  }

  @Test
  void bestDevice_lowestCost_tiesToFgdThenLowestIndex() {
    ShareGaps gaps = ShareGaps.pooled(M);
    GpuDemand d023 = new GpuDemand(0, 230, List.of());
    GpuDemand d032 = new GpuDemand(0, 320, List.of());
    NodeGpu gapAndFree = new NodeGpu(64_000, new int[] {350, 1000}, 1350, List.of("T4", "T4"));
    assertThat(gaps.bestDevice(gapAndFree, 1000, d023)).isEqualTo(1);
    assertThat(gaps.bestDevice(gapAndFree, 1000, d032)).isEqualTo(0);
    assertThat(Fgd.bestShareDevice(M, gapAndFree, 1000, d023)).isEqualTo(0);
    assertThat(gaps.nodeCost(gapAndFree, 1000, d023)).isCloseTo(15, within(1e-9));
    // equal gaps: equal cost and FGD score, the lowest index
    NodeGpu twoGaps = new NodeGpu(64_000, new int[] {1000, 350, 350}, 1700, List.of("T4", "T4", "T4"));
    assertThat(gaps.bestDevice(twoGaps, 1000, d032)).isEqualTo(1);
    // a device of a model the pod does not accept is never taken, even at a lower cost
    GpuDemand v100Only = new GpuDemand(0, 320, List.of("V100"));
    NodeGpu mixed = new NodeGpu(64_000, new int[] {350, 1000}, 1350, List.of("T4", "V100"));
    assertThat(gaps.bestDevice(mixed, 1000, v100Only)).isEqualTo(1);
    assertThat(gaps.bestDevice(new NodeGpu(64_000, new int[] {100}, 100, List.of("T4")),
        1000, d032)).isEqualTo(-1);
  }

  @Test
  void share_tiedCost_goesToTheBalancedNode() {
    // The same 0.35 gap on both nodes (same cost, same FGD score); after a 0.32 pod with 1 core "lean" keeps
    // 29 cores for 0.03 GPU, "rich" 63: the balance (spare closest to 0) picks lean, whatever the node order.
    List<Pod> gaps = List.of(pod("b1", "1", 0, 650).withNodeName("lean"), pod("b2", "1", 0, 650)
        .withNodeName("rich"));
    List<Node> nodes = List.of(node("lean", 31, 1, "T4"), node("rich", 65, 1, "T4"));
    assertThat(placeOne(GpuPolicy.GAP_FILL, nodes, gaps, pod("q", "1", 0, 320))).isEqualTo("lean");
    List<Node> swapped = List.of(node("rich", 31, 1, "T4"), node("lean", 65, 1, "T4"));
    assertThat(placeOne(GpuPolicy.GAP_FILL, swapped, gaps, pod("q", "1", 0, 320))).isEqualTo("rich");
  }

  @Test
  void wholeGpuAndCpuOnlyPods_placedExactlyAsFgdBalanced() {
    List<Node> nodes = List.of(node("a", 28, 2, "T4"), node("b", 100, 2, "T4"), node("c", 64, 8, "V100"),
        node("d", 16, 1, "T4"), node("e", 96, 4, "V100"));
    List<Pod> pods = new ArrayList<>();
    for (int i = 0; i < 14; i++) {
      pods.add(pod("w" + i, String.valueOf(1 + (i * 5) % 12), i % 3 == 2 ? 0 : 1 + i % 2, 0));
    }
    List<Placed> gapFill = place(GpuPolicy.GAP_FILL, nodes, List.of(), pods);
    List<Placed> balanced = place(GpuPolicy.FGD_BALANCED, nodes, List.of(), pods);
    assertThat(gapFill).isEqualTo(balanced);
    assertThat(gapFill.stream().map(Placed::node).distinct().count()).isGreaterThan(1);
  }

  @Test
  void shareWaste_isBuiltFromTheShareShapesOnly_cpuNoneCountsAs100m() {
    GpuWorkload m = GpuWorkload.of(List.of(new GpuWorkload.Shape(0, 500, 1, List.of(), 1),
        new GpuWorkload.Shape(2000, 1000, 2, List.of(), 1)));
    GapWaste w = ShareGaps.waste(m, null);
    // one share shape of weight .5 among shares of total .5: waiting costs λ = 1.5; the whole shape fills no gap
    assertThat(w.waste(500, 1000)).isCloseTo(GapWaste.DEFAULT_PATIENCE, within(1e-9));
    assertThat(w.waste(490, 1000)).isEqualTo(490);
    // the 0m share counts as 100m: a node with no whole core left cannot take it
    assertThat(w.waste(500, 999)).isEqualTo(500);
  }
}
