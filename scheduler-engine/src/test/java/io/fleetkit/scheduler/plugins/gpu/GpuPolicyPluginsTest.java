package io.fleetkit.scheduler.plugins.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.GpuDevice;
import io.fleetkit.api.core.GpuRequests;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.scheduler.PluginRegistry;
import io.fleetkit.scheduler.ScheduleResult;
import io.fleetkit.scheduler.Scheduler;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The GPU policies as score plugins, each on a small hand-made cluster where the policy's choice is known. Scores
 * follow the FGD paper's simulator plugins (hkust-adsl/kubernetes-scheduler-simulator, pkg/simulator/plugin:
 * best_fit_score.go, dot_product_score.go, gpu_packing_score.go, gpu_clustering_score.go, fgd_score.go).
 */
final class GpuPolicyPluginsTest {
  static Node node(String name, int cores, int gpus, String model) {
    Node.Builder b = Node.builder().name(name).capacity(ResourceList.builder().put("cpu", Quantity.of(cores))
        .put("memory", Quantity.ofBytes(512L << 30)).put("pods", Quantity.of(1000)).build()).ready();
    for (int i = 0; i < gpus; i++) {
      b.gpu(GpuDevice.of(name + "-gpu" + i, model, 16384));
    }
    return b.build();
  }

  static Pod pod(String name, String cpu, int whole, int milli) {
    ResourceList.Builder r = ResourceList.builder().put("cpu", cpu);
    if (whole > 0) {
      r.put(GpuRequests.WHOLE, Quantity.of(whole));
    }
    if (milli > 0) {
      r.put(GpuRequests.MILLI, Quantity.of(milli));
    }
    return Pod.builder().name(name).container("c", "img", r.build()).build();
  }

  private static final GpuWorkload SHARES = GpuWorkload.of(List.of(
      new GpuWorkload.Shape(1000, 500, 1, List.of(), 1),
      new GpuWorkload.Shape(1000, 1000, 1, List.of(), 1)));

  private static Scheduler scheduler(GpuPlugins gpu) {
    return Scheduler.builder().registry(gpu.registry(PluginRegistry.defaults())).profile(gpu.policyOnlyProfile())
        .binder(gpu.binder(new GpuPluginsTest.RecordingBinder())).parallelism(1).seed(3).build();
  }

  /** Places {@code first} pods, then {@code probe}, and returns where the probe went. */
  private static String place(GpuPolicy policy, List<Node> nodes, List<Pod> first, Pod probe) {
    GpuPlugins gpu = GpuPlugins.builder().policy(policy).workload(SHARES).seed(5).build();
    try (Scheduler s = scheduler(gpu)) {
      nodes.forEach(s::addNode);
      for (Pod p : first) {
        s.addPod(p);
        assertThat(s.runUntilIdle()).allMatch(ScheduleResult::isBound);
      }
      s.addPod(probe);
      List<ScheduleResult> r = s.runUntilIdle();
      assertThat(r).singleElement().matches(ScheduleResult::isBound, "bound");
      return r.get(0).nodeName();
    }
  }

  /** n1 runs a whole-GPU pod (1 GPU of 2 left); n2 is idle with 2 GPUs; the pinning pod goes to n1 by node name. */
  private static List<Pod> oneUsed() {
    return List.of(pod("busy", "1", 1, 0).withNodeName("n1"));
  }

  @Test
  void bestFit_tighterNode_wins() {
    List<Node> nodes = List.of(node("n1", 16, 2, "T4"), node("n2", 16, 2, "T4"));
    assertThat(place(GpuPolicy.BEST_FIT, nodes, oneUsed(), pod("p", "1", 1, 0))).isEqualTo("n1");
  }

  @Test
  void dotProduct_smallerFreeVectorAlongDemand_wins() {
    List<Node> nodes = List.of(node("n1", 16, 2, "T4"), node("n2", 16, 2, "T4"));
    assertThat(place(GpuPolicy.DOT_PRODUCT, nodes, oneUsed(), pod("p", "1", 1, 0))).isEqualTo("n1");
  }

  @Test
  void gpuPacking_shareGoesToAlreadySharedGpu() {
    List<Node> nodes = List.of(node("n1", 16, 2, "T4"), node("n2", 16, 2, "T4"));
    List<Pod> first = List.of(pod("s1", "1", 0, 300).withNodeName("n2"));
    assertThat(place(GpuPolicy.GPU_PACKING, nodes, first, pod("p", "1", 0, 300))).isEqualTo("n2");
  }

  @Test
  void gpuPacking_idleNodes_smallerIdleNodeWins() {
    List<Node> nodes = List.of(node("big", 64, 8, "T4"), node("small", 16, 2, "T4"));
    // idle nodes score max(33 - g, g): 25 for 8 GPUs, 31 for 2 GPUs
    assertThat(place(GpuPolicy.GPU_PACKING, nodes, List.of(), pod("p", "1", 1, 0))).isEqualTo("small");
  }

  @Test
  void gpuClustering_sameKindNode_wins() {
    List<Node> nodes = List.of(node("n1", 16, 4, "T4"), node("n2", 16, 4, "T4"));
    List<Pod> first = List.of(pod("share", "1", 0, 500).withNodeName("n1"), pod("whole", "1", 1, 0)
        .withNodeName("n2"));
    assertThat(place(GpuPolicy.GPU_CLUSTERING, nodes, first, pod("p", "1", 1, 0))).isEqualTo("n2");
    assertThat(place(GpuPolicy.GPU_CLUSTERING, nodes, first, pod("q", "1", 0, 250))).isEqualTo("n1");
  }

  @Test
  void random_sameSeed_samePlacements_scoresInRange() {
    List<Node> nodes = List.of(node("n1", 16, 2, "T4"), node("n2", 16, 2, "T4"), node("n3", 16, 2, "T4"));
    String a = place(GpuPolicy.RANDOM, nodes, List.of(), pod("p", "1", 1, 0));
    String b = place(GpuPolicy.RANDOM, nodes, List.of(), pod("p", "1", 1, 0));
    assertThat(a).isEqualTo(b);
    GpuRandomPlugin r = new GpuRandomPlugin(9);
    for (int i = 0; i < 200; i++) {
      long v = Math.floorMod(GpuPolicies.mix(9, i, -i), 101L);
      assertThat(v).isBetween(0L, 100L);
    }
    assertThat(r.name()).isEqualTo(GpuRandomPlugin.NAME);
  }

  @Test
  void fgd_share_goesWhereItDoesNotBreakAFreeGpu() {
    // n1 has a GPU half used by a 0.5 share: the new 0.5 share fills it (no fragmentation increase).
    // n2 is idle: a share there would break a whole GPU that the 1-GPU shape of M could have used.
    List<Node> nodes = List.of(node("n1", 16, 2, "T4"), node("n2", 16, 2, "T4"));
    List<Pod> first = List.of(pod("half", "1", 0, 500).withNodeName("n1"));
    assertThat(place(GpuPolicy.FGD, nodes, first, pod("p", "1", 0, 500))).isEqualTo("n1");
  }

  @Test
  void fgd_shareDevice_isTheOneFgdScored() {
    GpuPlugins gpu = GpuPlugins.builder().policy(GpuPolicy.FGD).workload(SHARES).build();
    GpuPluginsTest.RecordingBinder binder = new GpuPluginsTest.RecordingBinder();
    try (Scheduler s = Scheduler.builder().registry(gpu.registry(PluginRegistry.defaults()))
        .profile(gpu.policyOnlyProfile()).binder(gpu.binder(binder)).parallelism(1).seed(1).build()) {
      s.addNode(node("n1", 16, 3, "T4"));
      s.addPod(pod("a", "1", 0, 300));
      s.runUntilIdle();
      s.addPod(pod("b", "1", 0, 500));
      s.runUntilIdle();
      // tightest fit would put b on a's device (700 free); FGD keeps a's device for nothing bigger than 0.5 anyway,
      // and both choices keep two whole GPUs free, so FGD's tie goes to the lowest index: a's device.
      List<String> a = GpuRequests.assignedIds(binder.bound.get("default/a").metadata());
      List<String> b = GpuRequests.assignedIds(binder.bound.get("default/b").metadata());
      assertThat(b).isEqualTo(a);
    }
  }

  @Test
  void fgd_fragmentation_matchesHandComputedValue() {
    // free [1000, 500], 8 cores; M = {0.5 share: p=.5, 1 whole: p=.5}
    // share fits (2 devices >= 500): unusable = 0; whole fits (1 device): unusable = 500 -> F = .5*0 + .5*500 = 250
    NodeGpu n = new NodeGpu(8000, new int[] {1000, 500}, 1500, List.of("T4", "T4"));
    assertThat(SHARES.fragmentation(n.cpuLeft(), n.free(), n.models())).isEqualTo(250.0);
    // no CPU left: nothing fits, everything is fragment
    assertThat(SHARES.fragmentation(0, n.free(), n.models())).isEqualTo(1500.0);
    // sigmoid(0) = 0.5 -> 50
    assertThat(Fgd.sigmoidScore(0)).isEqualTo(50);
  }

  @Test
  void fgdBalanced_tie_gpuPodGoesToBalancedNode_cpuPodToCpuRichNode() {
    // Identical GPUs, different CPU: FGD ties (CPU is not short anywhere for M); the balance decides.
    // After a 1-GPU pod with 2 cores: "lean" (28 cores, 2 GPUs) has spare 26 - 13 = 13; "rich" (100 cores) 85.
    List<Node> nodes = List.of(node("lean", 28, 2, "T4"), node("rich", 100, 2, "T4"));
    assertThat(place(GpuPolicy.FGD_BALANCED, nodes, List.of(), pod("g", "2", 1, 0))).isEqualTo("lean");
    assertThat(place(GpuPolicy.FGD_BALANCED, nodes, List.of(), pod("c", "2", 0, 0))).isEqualTo("rich");
  }

  @Test
  void workload_typicalOf_coversNinetyFivePercentByPopularity() {
    List<Pod> pods = new java.util.ArrayList<>();
    for (int i = 0; i < 60; i++) {
      pods.add(pod("a" + i, "1", 1, 0));
    }
    for (int i = 0; i < 38; i++) {
      pods.add(pod("b" + i, "2", 0, 500));
    }
    pods.add(pod("c", "3", 2, 0));
    pods.add(pod("d", "4", 0, 0));
    GpuWorkload m = GpuWorkload.typicalOf(pods);
    // 60 + 38 = 98 >= 95: the two rare shapes are left out
    assertThat(m.shapes()).extracting(GpuWorkload.Shape::weight).containsExactly(60.0, 38.0);
    assertThat(m.shapes().get(1).gpuMilli()).isEqualTo(500);
  }

  @Test
  void builder_fgdWithoutWorkload_rejectedNamingTheRule() {
    for (GpuPolicy p : List.of(GpuPolicy.FGD, GpuPolicy.FGD_BALANCED, GpuPolicy.GAP_FILL)) {
      assertThatThrownBy(() -> GpuPlugins.builder().policy(p).build())
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs a target workload");
    }
    assertThatThrownBy(() -> GpuPlugins.create(false).policyOnlyProfile())
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void policy_ofName_acceptsPluginAndEnumNames() {
    assertThat(GpuPolicy.of("FgdBalanced")).isEqualTo(GpuPolicy.FGD_BALANCED);
    assertThat(GpuPolicy.of("best-fit")).isEqualTo(GpuPolicy.BEST_FIT);
    assertThat(GpuPolicy.of("GpuPacking")).isEqualTo(GpuPolicy.GPU_PACKING);
    assertThat(GpuPolicy.of("GapFill")).isEqualTo(GpuPolicy.GAP_FILL);
    assertThat(GpuPolicy.of("gap-fill")).isEqualTo(GpuPolicy.GAP_FILL);
    assertThat(GpuPolicy.GAP_FILL.pluginName()).isEqualTo(GpuGapFillPlugin.NAME);
    assertThatThrownBy(() -> GpuPolicy.of("tetris")).hasMessageContaining("unknown").hasMessageContaining("FGD");
  }
}
