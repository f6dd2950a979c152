package io.fleetkit.optimizer;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.GpuRequests;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.PodGroup;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;

final class BatchOptimizerPropertiesTest {
  private static final BatchOptimizer OPT =
      BatchOptimizer.builder().seed(1).stepLimit(40).timeLimit(Duration.ofSeconds(20)).build();

  @Property(tries = 40)
  void plan_randomSmallCluster_neverOverCapacityAndGangsAllOrNothing(@ForAll @LongRange(min = 0, max = 1_000_000)
      long seed) {
    Random rnd = new Random(seed);
    List<Node> nodes = new ArrayList<>();
    for (int i = 0, n = 1 + rnd.nextInt(4); i < n; i++) {
      nodes.add(Fixtures.node("n" + i, 2000 + 1000L * rnd.nextInt(8), 4 + rnd.nextInt(8), rnd.nextInt(5)));
    }
    List<PodGroup> groups = new ArrayList<>();
    List<Pod> pending = new ArrayList<>();
    for (int g = 0, ng = rnd.nextInt(3); g < ng; g++) {
      int size = 2 + rnd.nextInt(3);
      groups.add(Fixtures.group("g" + g, size - rnd.nextInt(2)));
      for (int m = 0; m < size; m++) {
        pending.add(Fixtures.pod("g" + g + "-" + m, 500 + 250L * rnd.nextInt(4), 1, rnd.nextInt(3), 0)
            .podGroup("g" + g).build());
      }
    }
    for (int i = 0, np = rnd.nextInt(10); i < np; i++) {
      boolean share = rnd.nextBoolean();
      pending.add(Fixtures.pod("p" + i, 250 + 250L * rnd.nextInt(8), 1 + rnd.nextInt(3), share ? 0 : rnd.nextInt(3),
          share ? 100 * (1 + rnd.nextInt(9)) : 0).build());
    }
    BatchPlan plan = OPT.plan(new BatchProblem(nodes, List.of(), pending, groups));

    assertThat(plan.placements().size() + plan.unplaced().size()).isEqualTo(pending.size());
    Map<String, List<Pod>> byNode = new HashMap<>();
    Map<String, Integer> perGroup = new HashMap<>();
    for (Pod p : pending) {
      String node = plan.placements().get(p.metadata().key());
      if (node != null) {
        byNode.computeIfAbsent(node, k -> new ArrayList<>()).add(p);
        if (p.podGroupName() != null) {
          perGroup.merge(p.podGroupName(), 1, Integer::sum);
        }
      }
    }
    for (Node n : nodes) {
      List<Pod> on = byNode.getOrDefault(n.name(), List.of());
      long cpu = on.stream().mapToLong(p -> p.effectiveRequests().milliCpu()).sum();
      long mem = on.stream().mapToLong(p -> p.effectiveRequests().memoryBytes()).sum();
      assertThat(cpu).as("cpu on %s", n.name()).isLessThanOrEqualTo(n.allocatable().milliCpu());
      assertThat(mem).as("memory on %s", n.name()).isLessThanOrEqualTo(n.allocatable().memoryBytes());
      assertThat(devicesFit(n.status().gpus().size(), on)).as("GPU devices on %s: %s", n.name(), on).isTrue();
    }
    for (PodGroup g : groups) {
      int placed = perGroup.getOrDefault(g.metadata().name(), 0);
      assertThat(placed == 0 || placed >= g.spec().minMember()).as("gang %s placed %d", g.metadata().name(), placed)
          .isTrue();
    }
  }

  /** Exhaustive device assignment: whole devices exclusive, shares of a device summing to at most 1000. */
  private static boolean devicesFit(int devices, List<Pod> pods) {
    int whole = 0;
    List<Integer> shares = new ArrayList<>();
    for (Pod p : pods) {
      ResourceList r = p.effectiveRequests();
      whole += (int) GpuRequests.whole(r);
      if (GpuRequests.milli(r) > 0) {
        shares.add((int) GpuRequests.milli(r));
      }
    }
    if (whole > devices) {
      return false;
    }
    return assign(shares, 0, new int[devices - whole]);
  }

  private static boolean assign(List<Integer> shares, int i, int[] used) {
    if (i == shares.size()) {
      return true;
    }
    for (int d = 0; d < used.length; d++) {
      if (used[d] + shares.get(i) <= 1000) {
        used[d] += shares.get(i);
        if (assign(shares, i + 1, used)) {
          return true;
        }
        used[d] -= shares.get(i);
      }
    }
    return false;
  }
}
