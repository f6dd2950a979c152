package io.fleetkit.autoscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.ResourceNames;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link ClusterResourceLimits}, with the cases of kubernetes/autoscaler's
 * {@code cluster-autoscaler/core/scaleup/resource/manager_test.go} (commit 068ce782723fb71e554e0edc1eab58ad9e2c4dae:
 * TestDeltaForNode, TestResourcesLeft, TestApplyLimits, TestCheckDeltaWithinLimits, TestResourceManagerWithGpuResource)
 * and {@code core/scaledown/resource/limits_test.go} (commit 47560660ba75d5403cdc9424ffa321c96a3a3650:
 * TestCalculateCoresAndMemoryTotal, TestCheckDeltaWithinLimits; the file has no GPU case), the value cases of
 * {@code config/flags/flags_test.go} TestParseSingleGpuLimit (4 of 8; the other four test the flag's text syntax,
 * which FleetKit does not have), with FleetKit's own cases for the GPU targets (upstream's {@code GetNodeGpuTarget})
 * and the scale-down GPU minima.
 */
final class ClusterResourceLimitsTest {
  private static final long MIB = 1024L * 1024;
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  /** Upstream's test node group: {@code cpu} whole cores and {@code mem} bytes per node. */
  private static NodePool group(String name, int min, int max, long cpu, long mem) {
    return NodePool.builder().name(name).capacity(ResourceList.ofCpuMemory(cpu * 1000, mem)).minSize(min)
        .maxSize(max).build();
  }

  // ---- manager_test.go TestDeltaForNode ----

  static Stream<Arguments> deltaForNode() {
    return Stream.of(
        Arguments.of(group("ng1", 3, 10, 8, 16), Map.of("cpu", 8L, "memory", 16L)),
        Arguments.of(group("ng2", 1, 20, 4, 32), Map.of("cpu", 4L, "memory", 32L)));
  }

  @ParameterizedTest
  @MethodSource
  void deltaForNode(NodePool pool, Map<String, Long> want) {
    assertThat(ClusterResourceLimits.deltaForPool(pool)).isEqualTo(want);
    assertThat(ClusterResourceLimits.deltaForNode(CaFixtures.poolNode(pool, pool.metadata().name() + "-0")))
        .isEqualTo(want);
  }

  @Test
  void deltaForNode_cpuRoundedUpToWholeCores_allocatableWhenNoCapacity() {
    Node half = Node.builder().name("n").capacity(ResourceList.ofCpuMemory(500, 7)).build();
    assertThat(ClusterResourceLimits.deltaForNode(half)).isEqualTo(Map.of("cpu", 1L, "memory", 7L));
    Node allocOnly = Node.builder().name("a").allocatable(ResourceList.ofCpuMemory(2000, 9)).build();
    assertThat(ClusterResourceLimits.deltaForNode(allocOnly)).isEqualTo(Map.of("cpu", 2L, "memory", 9L));
  }

  // ---- manager_test.go TestResourcesLeft ----

  static Stream<Arguments> resourcesLeft() {
    return Stream.of(
        // cpu left: 1000 - 8 * 5 = 960; memory left: 1000 - 16 * 5 = 920
        Arguments.of(group("ng1", 3, 10, 8, 16), 5, 1000L, 1000L, Map.of("cpu", 960L, "memory", 920L)),
        // cpu left: 1000 - 4 * 100 = 600; memory left: 1000 - 8 * 100 = 200
        Arguments.of(group("ng2", 3, 100, 4, 8), 100, 1000L, 1000L, Map.of("cpu", 600L, "memory", 200L)));
  }

  @ParameterizedTest
  @MethodSource
  void resourcesLeft(NodePool pool, int size, long cpuLimit, long memLimit, Map<String, Long> want) {
    List<Node> nodes = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      nodes.add(CaFixtures.poolNode(pool, pool.metadata().name() + i));
    }
    AutoscalerOptions o = AutoscalerOptions.defaults().withCoresTotal(0, cpuLimit).withMemoryTotal(0, memLimit);
    ClusterResourceLimits left = ClusterResourceLimits.scaleUpLeft(Map.of(pool.metadata().name(), pool),
        p -> size, nodes, o);
    assertThat(left.left()).isEqualTo(want);
  }

  @Test
  void resourcesLeft_nodesOutsideThePoolsCountByThemselves_noMaximumNoEntry() {
    NodePool pool = group("ng", 0, 10, 4, 100);
    Node other = Node.builder().name("static").capacity(ResourceList.ofCpuMemory(3000, 50)).build();
    AutoscalerOptions o = AutoscalerOptions.defaults().withCoresTotal(0, 20).withMemoryTotal(0, 0);
    ClusterResourceLimits left = ClusterResourceLimits.scaleUpLeft(Map.of("ng", pool), p -> 2,
        List.of(CaFixtures.poolNode(pool, "ng-1"), CaFixtures.poolNode(pool, "ng-2"), other), o);
    assertThat(left.left()).isEqualTo(Map.of("cpu", 20L - 2 * 4 - 3));
    assertThat(ClusterResourceLimits.scaleUpLeft(Map.of(), p -> 0, List.of(other),
        AutoscalerOptions.defaults().withCoresTotal(0, 0).withMemoryTotal(0, 0)).isEmpty()).isTrue();
  }

  // ---- manager_test.go TestResourceManagerWithGpuResource ----

  /** A pool of nodes of {@code cpu} cores, {@code mem} bytes and {@code gpus} GPUs of type {@code type}. */
  private static NodePool gpuGroup(String name, int min, int max, long cpu, long mem, String type, long gpus) {
    return NodePool.builder().name(name).nodeLabel(NodePool.GPU_LABEL, type).capacity(gpuResources(cpu, mem, gpus))
        .minSize(min).maxSize(max).build();
  }

  private static ResourceList gpuResources(long cpu, long mem, long gpus) {
    return ResourceList.builder().put("cpu", String.valueOf(cpu)).put("memory", String.valueOf(mem))
        .put(ResourceNames.NVIDIA_GPU, String.valueOf(gpus)).build();
  }

  @Test
  void resourceManagerWithGpuResource() {
    // limits: cpu 0..320, memory 0..640, gpu 0..16; one node of ng1 (3..10, size 1): 8 cores, 16 bytes, 4 GPUs
    // labelled with the GPU type "gpu"
    AutoscalerOptions o = AutoscalerOptions.defaults().withCoresTotal(0, 320).withMemoryTotal(0, 640)
        .withGpuTotal(List.of(new AutoscalerOptions.GpuLimit("gpu", 0, 16)));
    NodePool ng1 = gpuGroup("ng1", 3, 10, 8, 16, "gpu", 4);
    Node n1 = CaFixtures.poolNode(ng1, "n1");

    Map<String, Long> delta = ClusterResourceLimits.deltaForPool(ng1, o);
    assertThat(delta).containsEntry("cpu", 8L).containsEntry("memory", 16L).containsEntry("gpu", 4L);

    ClusterResourceLimits left = ClusterResourceLimits.scaleUpLeft(Map.of("ng1", ng1), p -> 1, List.of(n1), o);
    // cpu: 320-8*1=312; memory: 640-16*1=624; gpu: 16-4*1=12
    assertThat(left.left()).isEqualTo(Map.of("cpu", 312L, "memory", 624L, "gpu", 12L));

    assertThat(left.exceeded(delta)).isEmpty();

    assertThat(left.applyLimits(10, delta)).isEqualTo(3); // gpu left / gpu per node: 12 / 4 = 3
  }

  @Test
  void gpuMaximum_reached_poolSkippedWithTheTypeAsReason_otherTypesAndCpuPoolsUntouched() {
    AutoscalerOptions o = AutoscalerOptions.defaults()
        .withGpuTotal(List.of(new AutoscalerOptions.GpuLimit("a100", 0, 8)));
    NodePool a100 = gpuGroup("a100", 0, 10, 8, 16, "a100", 4);
    NodePool h100 = gpuGroup("h100", 0, 10, 8, 16, "h100", 8);
    NodePool cpu = group("cpu", 0, 10, 8, 16);
    ClusterResourceLimits left = ClusterResourceLimits.scaleUpLeft(Map.of("a100", a100, "h100", h100, "cpu", cpu),
        p -> p.equals("a100") ? 2 : 1, List.of(), o);
    assertThat(left.left()).containsEntry("a100", 0L).doesNotContainKey("h100");
    List<String> exceeded = left.exceeded(ClusterResourceLimits.deltaForPool(a100, o));
    assertThat(exceeded).containsExactly("a100");
    assertThat(ClusterResourceLimits.maxLimitReachedReason(exceeded)).isEqualTo("max cluster a100 limit reached");
    assertThat(left.exceeded(ClusterResourceLimits.deltaForPool(h100, o))).isEmpty();
    assertThat(left.exceeded(ClusterResourceLimits.deltaForPool(cpu, o))).isEmpty();
    assertThat(ClusterResourceLimits.deltaForPool(h100, o)).as("an unlimited type is not counted")
        .doesNotContainKey("h100");
  }

  @Test
  void gpuTarget_labelThenAllocatableThenTheTemplate_unknownOutsideThePools() {
    NodePool pool = gpuGroup("g", 0, 10, 8, 16, "a100", 4);
    Node ready = CaFixtures.poolNode(pool, "g-1");
    assertThat(ClusterResourceLimits.gpuTarget(ready, pool)).isEqualTo(Map.of("a100", 4L));
    // all devices failed (allocatable 0): the template's capacity, as upstream's evil hack
    Node failed = ready.toBuilder().allocatable(gpuResources(8, 16, 0)).build();
    assertThat(ClusterResourceLimits.gpuTarget(failed, pool)).isEqualTo(Map.of("a100", 4L));
    // the same node outside the pools: cannot be told
    assertThat(ClusterResourceLimits.gpuTarget(failed, null)).isNull();
    // no label: no GPUs counted, whatever its resources (upstream counts only labelled nodes)
    Node unlabelled = Node.builder().name("u").capacity(gpuResources(8, 16, 2)).build();
    assertThat(ClusterResourceLimits.gpuTarget(unlabelled, null)).isEmpty();
    // a label but a template without nvidia.com/gpu: none
    NodePool noGpus = NodePool.builder().name("c").nodeLabel(NodePool.GPU_LABEL, "a100")
        .capacity(ResourceList.ofCpuMemory(8000, 16)).maxSize(3).build();
    assertThat(ClusterResourceLimits.gpuTarget(CaFixtures.poolNode(noGpus, "c-1"), noGpus)).isEmpty();
    assertThat(ClusterResourceLimits.gpuTarget(noGpus)).isEmpty();
    assertThat(ClusterResourceLimits.gpuTarget(pool)).isEqualTo(Map.of("a100", 4L));
  }

  @Test
  void gpuTotals_unknownNodeOutsideThePools_everyGpuLimitUnknown() {
    AutoscalerOptions o = AutoscalerOptions.defaults().withCoresTotal(1, 1000)
        .withGpuTotal(List.of(new AutoscalerOptions.GpuLimit("a100", 2, 16),
            new AutoscalerOptions.GpuLimit("h100", 1, 16)));
    Node stray = Node.builder().name("stray").label(NodePool.GPU_LABEL, "h100")
        .capacity(gpuResources(8, 16, 0)).build();
    NodePool pool = gpuGroup("g", 0, 10, 8, 16, "a100", 4);
    ClusterResourceLimits up = ClusterResourceLimits.scaleUpLeft(Map.of("g", pool), p -> 1,
        List.of(CaFixtures.poolNode(pool, "g-1"), stray), o);
    assertThat(up.left()).containsEntry("a100", ClusterResourceLimits.UNKNOWN)
        .containsEntry("h100", ClusterResourceLimits.UNKNOWN).containsEntry("cpu", 1000L - 8 - 8);
    assertThat(up.exceeded(ClusterResourceLimits.deltaForPool(pool, o))).containsExactly("a100");
    ClusterResourceLimits down = ClusterResourceLimits.scaleDownLeft(List.of(CaFixtures.poolNode(pool, "g-1"), stray),
        Map.of("g", pool), NOW, o);
    assertThat(down.left()).containsEntry("a100", ClusterResourceLimits.UNKNOWN)
        .containsEntry("h100", ClusterResourceLimits.UNKNOWN).containsEntry("cpu", 16L - 1);
    assertThat(down.exceeded(ClusterResourceLimits.deltaForNode(CaFixtures.poolNode(pool, "g-1"), pool, o)))
        .containsExactly("a100");
    assertThat(ClusterResourceLimits.deltaForNode(stray, null, o)).as("the stray node's own delta").isNull();
  }

  @Test
  void scaleDownLeft_gpuMinima_byTypeAboveTheMinimum_nodesBeingDeletedLeftOut() {
    AutoscalerOptions o = AutoscalerOptions.defaults()
        .withGpuTotal(List.of(new AutoscalerOptions.GpuLimit("a100", 6, 0), new AutoscalerOptions.GpuLimit("h100", 0,
            64)));
    NodePool pool = gpuGroup("g", 0, 10, 8, 16, "a100", 4);
    Node deleting = CaFixtures.poolNode(pool, "g-3").toBuilder().taint(new Taint(ClusterAutoscaler.TO_BE_DELETED_TAINT,
        String.valueOf(NOW.getEpochSecond()), TaintEffect.NoSchedule, null)).build();
    List<Node> nodes = List.of(CaFixtures.poolNode(pool, "g-1"), CaFixtures.poolNode(pool, "g-2"), deleting);
    ClusterResourceLimits left = ClusterResourceLimits.scaleDownLeft(nodes, Map.of("g", pool), NOW, o);
    assertThat(left.left()).as("8 GPUs counted, 6 kept; h100 has no minimum").isEqualTo(Map.of("a100", 2L));
    Map<String, Long> one = ClusterResourceLimits.deltaForNode(nodes.get(0), pool, o);
    assertThat(left.tryDecrementBy(one)).as("removing one node leaves 4 < 6").containsExactly("a100");
    assertThat(ClusterResourceLimits.scaleDownLeft(nodes, Map.of("g", pool), NOW,
        AutoscalerOptions.defaults().withGpuTotal(List.of(new AutoscalerOptions.GpuLimit("a100", 0, 8)))))
        .as("a maximum alone: no scale-down limits").isNull();
  }

  @Test
  void gpuLimit_badValues_rejectedNamingTheFlag() {
    assertThatThrownBy(() -> new AutoscalerOptions.GpuLimit("a100", 10, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("autoscaler options: gpuTotal a100 min 10 must not exceed max 1 (--gpu-total)");
    assertThatThrownBy(() -> new AutoscalerOptions.GpuLimit("a100", -1, 10))
        .hasMessage("autoscaler options: gpuTotal a100 -1:10 must not be negative (--gpu-total)");
    assertThatThrownBy(() -> new AutoscalerOptions.GpuLimit(" ", 0, 10))
        .hasMessage("autoscaler options: gpuTotal GPU type \" \" must not be blank (--gpu-total)");
    assertThatThrownBy(() -> new AutoscalerOptions.GpuLimit("cpu", 0, 10))
        .hasMessageContaining("GPU type \"cpu\" must not be cpu or memory");
    assertThatThrownBy(() -> AutoscalerOptions.defaults().withGpuTotal(List.of(
        new AutoscalerOptions.GpuLimit("a100", 0, 10), new AutoscalerOptions.GpuLimit("a100", 1, 2))))
        .hasMessage("autoscaler options: gpuTotal[1] GPU type a100 must be given once (--gpu-total)");
    AutoscalerOptions o = AutoscalerOptions.defaults().withGpuTotal(List.of(new AutoscalerOptions.GpuLimit("a100", 4,
        0)));
    assertThat(o.gpuLimit("a100")).isEqualTo(new AutoscalerOptions.GpuLimit("a100", 4, 0));
    assertThat(o.gpuLimit("h100")).isNull();
    assertThat(AutoscalerOptions.defaults().gpuTotal()).isEmpty();
  }

  // ---- config/flags/flags_test.go TestParseSingleGpuLimit: the value cases (FleetKit has no flag syntax) ----

  static Stream<Arguments> parseSingleGpuLimit() {
    return Stream.of(
        Arguments.of("gpu", 1L, 10L, null), // gpu:1:10
        Arguments.of("gpu", -1L, 10L, "autoscaler options: gpuTotal gpu -1:10 must not be negative (--gpu-total)"),
        Arguments.of("gpu", 1L, -10L, "autoscaler options: gpuTotal gpu 1:-10 must not be negative (--gpu-total)"),
        Arguments.of("gpu", 10L, 1L, "autoscaler options: gpuTotal gpu min 10 must not exceed max 1 (--gpu-total)"));
  }

  @ParameterizedTest
  @MethodSource
  void parseSingleGpuLimit(String type, long min, long max, String error) {
    if (error == null) {
      AutoscalerOptions.GpuLimit g = new AutoscalerOptions.GpuLimit(type, min, max);
      assertThat(g.gpuType()).isEqualTo("gpu");
      assertThat(g.min()).isEqualTo(1);
      assertThat(g.max()).isEqualTo(10);
    } else {
      assertThatThrownBy(() -> new AutoscalerOptions.GpuLimit(type, min, max))
          .isInstanceOf(IllegalArgumentException.class).hasMessage(error);
    }
  }

  // ---- manager_test.go TestApplyLimits ----

  static Stream<Arguments> applyLimits() {
    return Stream.of(
        Arguments.of(Map.of("cpu", 80L, "memory", 160L), 10, 10),
        Arguments.of(Map.of("cpu", 80L, "memory", 100L), 10, 6), // limited by memory: 100 / 16 = 6
        Arguments.of(Map.of("cpu", 39L, "memory", 160L), 10, 4), // limited by CPU: 39 / 8 = 4
        Arguments.of(Map.of("cpu", 40L, "memory", 80L), 10, 5)); // limited by CPU and memory
  }

  @ParameterizedTest
  @MethodSource
  void applyLimits(Map<String, Long> left, int newCount, int want) {
    NodePool pool = group("ng", 3, 10, 8, 16); // size 5 upstream; the size does not enter ApplyLimits
    assertThat(ClusterResourceLimits.of(left).applyLimits(newCount, ClusterResourceLimits.deltaForPool(pool)))
        .isEqualTo(want);
  }

  @Test
  void applyLimits_notEvenOneNode_isAnError() {
    assertThatThrownBy(() -> ClusterResourceLimits.of(Map.of("cpu", 7L)).applyLimits(3, Map.of("cpu", 8L)))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("max limit for resource cpu reached");
  }

  // ---- manager_test.go TestCheckDeltaWithinLimits (scale-up) ----

  static Stream<Arguments> scaleUpCheckDeltaWithinLimits() {
    return Stream.of(
        Arguments.of(Map.of("cpu", 10L, "memory", 20L), Map.of("cpu", 8L, "memory", 16L), List.of()),
        Arguments.of(Map.of("cpu", 10L, "memory", 20L), Map.of("cpu", 12L, "memory", 16L), List.of("cpu")),
        Arguments.of(Map.of("cpu", 10L, "memory", 20L), Map.of("cpu", 8L, "memory", 32L), List.of("memory")),
        Arguments.of(Map.of("cpu", 10L, "memory", 20L), Map.of("cpu", 16L, "memory", 96L),
            List.of("cpu", "memory")));
  }

  @ParameterizedTest
  @MethodSource
  void scaleUpCheckDeltaWithinLimits(Map<String, Long> left, Map<String, Long> delta, List<String> exceeded) {
    assertThat(ClusterResourceLimits.of(left).exceeded(delta)).isEqualTo(exceeded);
  }

  // ---- limits_test.go TestCalculateCoresAndMemoryTotal ----

  @Test
  void calculateCoresAndMemoryTotal_nodesBeingDeletedLeftOut() {
    long[][] configs = {{2000, 7500}, {2000, 7500}, {2000, 7500}, {12000, 8000}, {16000, 7500}, {8000, 6000},
        {6000, 16000}};
    List<Node> nodes = new ArrayList<>();
    for (int i = 0; i < configs.length; i++) {
      Node.Builder b = Node.builder().name("n" + (i + 1)).ready()
          .capacity(ResourceList.ofCpuMemory(configs[i][0], configs[i][1] * MIB));
      if (i == 6) {
        b.taint(new Taint(ClusterAutoscaler.TO_BE_DELETED_TAINT, String.valueOf(NOW.getEpochSecond()),
            TaintEffect.NoSchedule, null));
      }
      nodes.add(b.build());
    }
    long[] total = ClusterResourceLimits.coresMemoryTotal(nodes, NOW);
    assertThat(total[0]).isEqualTo(42);
    assertThat(total[1]).isEqualTo(44000 * MIB);
  }

  @Test
  void isBeingDeleted_onlyWithinFiveMinutesOfItsTaint() {
    Node tainted = Node.builder().name("n").taint(new Taint(ClusterAutoscaler.TO_BE_DELETED_TAINT,
        String.valueOf(NOW.getEpochSecond()), TaintEffect.NoSchedule, null)).build();
    assertThat(ClusterResourceLimits.isBeingDeleted(tainted, NOW.plus(Duration.ofMinutes(4)))).isTrue();
    assertThat(ClusterResourceLimits.isBeingDeleted(tainted, NOW.plus(Duration.ofMinutes(5)))).isFalse();
    Node noTime = Node.builder().name("m").taint(new Taint(ClusterAutoscaler.TO_BE_DELETED_TAINT, "soon",
        TaintEffect.NoSchedule, null)).build();
    assertThat(ClusterResourceLimits.isBeingDeleted(noTime, NOW)).isFalse();
  }

  // ---- limits_test.go TestCheckDeltaWithinLimits (scale-down; upstream's limitUnknown is math.MinInt64) ----

  static Stream<Arguments> scaleDownCheckDeltaWithinLimits() {
    return Stream.of(
        Arguments.of(Map.of("a", 10L), Map.of("a", 10L), List.of()),
        Arguments.of(Map.of("a", 10L), Map.of("a", 11L), List.of("a")),
        Arguments.of(Map.of("a", 10L), Map.of("b", 10L), List.of()),
        Arguments.of(Map.of("a", Long.MIN_VALUE), Map.of("a", 0L), List.of()),
        Arguments.of(Map.of("a", Long.MIN_VALUE), Map.of("a", 1L), List.of("a")),
        Arguments.of(Map.of("a", 10L, "b", 20L, "c", 30L), Map.of("a", 11L, "b", 20L, "c", 31L), List.of("a", "c")));
  }

  @ParameterizedTest
  @MethodSource
  void scaleDownCheckDeltaWithinLimits(Map<String, Long> left, Map<String, Long> delta, List<String> exceeded) {
    ClusterResourceLimits limits = ClusterResourceLimits.of(left);
    assertThat(limits.exceeded(delta)).isEqualTo(exceeded);
    // TryDecrementBy: taken only when nothing is exceeded
    assertThat(limits.tryDecrementBy(delta)).isEqualTo(exceeded);
    if (exceeded.isEmpty()) {
      left.forEach((k, v) -> assertThat(limits.left().get(k)).isEqualTo(v - delta.getOrDefault(k, 0L)));
    } else {
      assertThat(limits.left()).isEqualTo(left);
    }
  }

  // ---- the options ----

  @Test
  void scaleDownLeft_aboveTheMinima_noMinimumNoLimits() {
    Node n = Node.builder().name("n").capacity(ResourceList.ofCpuMemory(4000, 100)).build();
    AutoscalerOptions o = AutoscalerOptions.defaults().withCoresTotal(3, 0).withMemoryTotal(150, 0);
    assertThat(ClusterResourceLimits.scaleDownLeft(List.of(n, n), Map.of(), NOW, o).left())
        .isEqualTo(Map.of("cpu", 5L, "memory", 50L));
    assertThat(ClusterResourceLimits.scaleDownLeft(List.of(n), Map.of(), NOW, o).left())
        .as("already under the memory minimum: nothing may go").isEqualTo(Map.of("cpu", 1L, "memory", 0L));
    assertThat(ClusterResourceLimits.scaleDownLeft(List.of(n), Map.of(), NOW, AutoscalerOptions.defaults())).isNull();
  }

  @Test
  void options_minOverMaxOrNegative_rejectedNamingTheOption() {
    assertThat(AutoscalerOptions.defaults().minCoresTotal()).isZero();
    assertThat(AutoscalerOptions.defaults().maxCoresTotal()).isEqualTo(320_000);
    assertThat(AutoscalerOptions.defaults().maxMemoryTotal()).isEqualTo(6_400_000L * 1024 * 1024 * 1024);
    assertThatThrownBy(() -> AutoscalerOptions.defaults().withCoresTotal(10, 5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("autoscaler options: coresTotal min 10 must not exceed max 5 (--cores-total)");
    assertThatThrownBy(() -> AutoscalerOptions.defaults().withMemoryTotal(-1, 5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("autoscaler options: memoryTotal -1:5 must not be negative (--memory-total)");
    assertThat(AutoscalerOptions.defaults().withCoresTotal(10, 0).minCoresTotal()).as("max 0: no maximum")
        .isEqualTo(10);
    assertThatThrownBy(() -> AutoscalerOptions.defaults().withBalancingIgnoreLabels(List.of("a", "")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("balancingIgnoreLabels[1] must not be empty");
  }

  @Test
  void maxLimitReachedReason_upstreamsText() {
    assertThat(ClusterResourceLimits.maxLimitReachedReason(List.of("cpu", "memory")))
        .isEqualTo("max cluster cpu, memory limit reached");
  }
}
