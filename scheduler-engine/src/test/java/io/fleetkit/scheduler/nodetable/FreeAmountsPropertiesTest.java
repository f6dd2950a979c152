package io.fleetkit.scheduler.nodetable;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.NodeInfos;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.scheduler.plugins.helper.SimpleCycleState;
import io.fleetkit.scheduler.plugins.noderesources.NodeResourcesFitPlugin;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The table's free amounts are allocatable minus requested, and NodeResourcesFit's range Filter, which tests them,
 * answers as its per-node Filter for small and for huge amounts (near {@code Long.MAX_VALUE}, where the per-node path
 * is the judge).
 */
final class FreeAmountsPropertiesTest {

  @Provide
  Arbitrary<Long> amounts() {
    return Arbitraries.oneOf(Arbitraries.longs().between(0, 5000),
        Arbitraries.longs().between(Long.MAX_VALUE / 4, Long.MAX_VALUE / 2), Arbitraries.just(0L));
  }

  @Property(tries = 200)
  void freeAmounts_andRangeFilter_answerAsThePerNodePath(@ForAll("amounts") long allocCpu,
      @ForAll("amounts") long allocMem, @ForAll("amounts") long allocPods, @ForAll("amounts") long usedCpu,
      @ForAll("amounts") long usedMem, @ForAll("amounts") long wantCpu, @ForAll("amounts") long wantMem) {
    ResourceList a = ResourceList.builder().put("cpu", Quantity.ofMilli(allocCpu))
        .put("memory", Quantity.ofBytes(allocMem)).put("pods", Quantity.of(Math.min(allocPods, 1000))).build();
    Node node = Node.builder().name("n").capacity(a).allocatable(a).build();
    List<PodInfo> pods = new ArrayList<>();
    pods.add(PodInfos.of(pod("used", usedCpu, usedMem)));
    NodeInfo view = NodeInfos.of(node, pods);
    NodeTable table = new NodeTable();
    table.ensureCapacity(1);
    table.set(0, view);
    assertThat(table.freeMilliCpu(0)).isEqualTo(view.allocatable().milliCpu() - view.requestedMilliCpu());
    assertThat(table.freeMemory(0)).isEqualTo(view.allocatable().memoryBytes() - view.requestedMemory());
    assertThat(table.freeEphemeralStorage(0))
        .isEqualTo(view.allocatable().ephemeralStorageBytes() - view.requestedEphemeralStorage());
    assertThat(table.freePods(0)).isEqualTo(view.allocatable().pods() - view.podCount());

    NodeResourcesFitPlugin fit = new NodeResourcesFitPlugin();
    PodInfo p = PodInfos.of(pod("p", wantCpu, wantMem));
    CycleState state = new SimpleCycleState();
    fit.preFilter(state, p, null);
    int[] failed = {-1};
    Status[] statuses = new Status[1];
    fit.filterAll(state, p, table, new int[] {0}, 0, 1, failed, 4, statuses);
    Status expected = fit.filter(state, p, view);
    if (expected.isSuccess()) {
      assertThat(failed).containsExactly(-1);
    } else {
      assertThat(failed).containsExactly(4);
      assertThat(statuses[0]).isEqualTo(expected);
    }
    assertThat(Arrays.asList(statuses)).hasSize(1);
  }

  private static Pod pod(String name, long cpuMilli, long memBytes) {
    ResourceList.Builder r = ResourceList.builder();
    if (cpuMilli > 0) {
      r.put("cpu", Quantity.ofMilli(cpuMilli));
    }
    if (memBytes > 0) {
      r.put("memory", Quantity.ofBytes(memBytes));
    }
    return Pod.builder().name(name).container("c", "pause", r.build()).build();
  }
}
