package io.fleetkit.scheduler.plugins.noderesources;

import static io.fleetkit.scheduler.plugins.noderesources.Fixtures.info;
import static io.fleetkit.scheduler.plugins.noderesources.Fixtures.node;
import static io.fleetkit.scheduler.plugins.noderesources.Fixtures.nodeInfo;
import static io.fleetkit.scheduler.plugins.noderesources.Fixtures.res;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.Status;
import java.lang.management.ManagementFactory;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** Filter and Score allocate nothing on fitting nodes; Filter agrees with {@link ResourceList#insufficient}. */
final class NodeResourcesHotPathTest {

  private static long allocatedBytes() {
    return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
  }

  @Test
  void filterAndScore_fittingNode_allocateNothing() {
    assumeThat(ManagementFactory.getThreadMXBean()).isInstanceOf(com.sun.management.ThreadMXBean.class);
    NodeResourcesFitPlugin fit = new NodeResourcesFitPlugin();
    NodeResourcesBalancedAllocationPlugin balanced = new NodeResourcesBalancedAllocationPlugin(
        NodeResourcesBalancedAllocationArgs.of("cpu", "memory", "nvidia.com/gpu"));
    NodeInfo node = nodeInfo(node("n", res("cpu", "32", "memory", "128Gi", "pods", "110", "nvidia.com/gpu", "8")),
        info(res("cpu", "2", "memory", "4Gi", "nvidia.com/gpu", "1")));
    PodInfo pod = info(res("cpu", "100m", "memory", "500Mi", "nvidia.com/gpu", "1"));
    CycleState state = new Fixtures.MapCycleState();
    fit.preFilter(state, pod, null);
    fit.preScore(state, pod, List.of(node));
    balanced.preScore(state, pod, List.of(node));
    long sink = 0;
    for (int i = 0; i < 20_000; i++) { // warm up
      sink += fit.filter(state, pod, node).isSuccess() ? 1 : 0;
      sink += fit.score(state, pod, node) + balanced.score(state, pod, node);
    }
    int calls = 200_000;
    long before = allocatedBytes();
    for (int i = 0; i < calls; i++) {
      sink += fit.filter(state, pod, node).isSuccess() ? 1 : 0;
      sink += fit.score(state, pod, node) + balanced.score(state, pod, node);
    }
    long perCall = (allocatedBytes() - before) / calls;
    assertThat(sink).isPositive();
    assertThat(perCall).as("bytes allocated per Filter+Score+Score").isZero();
  }

  @Property(tries = 300)
  void filter_agreesWithResourceListInsufficient(@ForAll @IntRange(max = 20) int cpu, @ForAll @IntRange(max = 20) int mem,
      @ForAll @IntRange(max = 4) int gpu, @ForAll @IntRange(max = 20) int usedCpu, @ForAll @IntRange(max = 20) int usedMem,
      @ForAll @IntRange(max = 4) int usedGpu, @ForAll @IntRange(min = 1, max = 3) int maxPods) {
    ResourceList alloc = ResourceList.builder().put("cpu", Quantity.ofMilli(16)).put("memory", Quantity.of(16))
        .put("pods", Quantity.of(maxPods)).put("nvidia.com/gpu", Quantity.of(3)).build();
    ResourceList used = ResourceList.builder().put("cpu", Quantity.ofMilli(usedCpu)).put("memory", Quantity.of(usedMem))
        .put("nvidia.com/gpu", Quantity.of(usedGpu)).build();
    ResourceList want = ResourceList.builder().put("cpu", Quantity.ofMilli(cpu)).put("memory", Quantity.of(mem))
        .put("nvidia.com/gpu", Quantity.of(gpu)).build();
    NodeInfo node = nodeInfo(node("n", alloc), info(used));
    NodeResourcesFitPlugin fit = new NodeResourcesFitPlugin();
    CycleState state = new Fixtures.MapCycleState();
    PodInfo pod = info(want);
    fit.preFilter(state, pod, null);
    Status s = fit.filter(state, pod, node);

    List<String> expected = new java.util.ArrayList<>();
    if (1 + 1 > maxPods) {
      expected.add("Too many pods");
    }
    for (String r : want.insufficient(alloc.subtract(used))) {
      expected.add("Insufficient " + r);
    }
    assertThat(s.reasons()).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(s.isSuccess()).isEqualTo(expected.isEmpty());
    boolean unresolvable = !want.insufficient(alloc).isEmpty();
    if (!expected.isEmpty()) {
      assertThat(s.code()).isEqualTo(unresolvable ? Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE
          : Status.Code.UNSCHEDULABLE);
    }
  }
}
