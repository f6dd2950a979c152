package io.fleetkit.lab.gpu;

import io.fleetkit.scheduler.plugins.gpu.GpuPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/** Replays that used to hang, run out of memory or double capacity. */
final class TraceReplayBadInputTest {
  private static final List<TraceNode> NODES = List.of(new TraceNode("n1", 64_000, 256_000, 8, "V100M16"),
      new TraceNode("n2", 64_000, 256_000, 8, "V100M16"));

  @Test
  void run_sharesWithoutDevices_endsInsteadOfLoopingForever() {
    // gpu_milli > 0 but num_gpu = 0: no GPU demand at all, so nothing can reach the inflation target.
    List<TracePod> pods = List.of(new TracePod("a", 1000, 100, 0, 500, List.of()),
        new TracePod("b", 1000, 100, 0, 1000, List.of()));
    ReplayResult r = assertTimeoutPreemptively(Duration.ofSeconds(10),
        () -> TraceReplay.run(NODES, pods, GpuPolicy.FGD, 1));
    assertThat(r.arrived()).isEqualTo(2);
  }

  @Test
  void run_duplicateNodeNames_refusedInsteadOfDoublingCapacity() {
    List<TraceNode> dup = List.of(NODES.get(0), NODES.get(0));
    List<TracePod> pods = List.of(new TracePod("a", 1000, 100, 1, 1000, List.of()));
    assertThatThrownBy(() -> TraceReplay.run(dup, pods, GpuPolicy.FGD, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("node \"n1\" appears twice");
  }

  @Test
  void run_hugeInflation_refusedBeforeBuildingTheArrivals() {
    List<TracePod> pods = List.of(new TracePod("a", 1000, 100, 1, 10, List.of()));
    assertThatThrownBy(() -> TraceReplay.run(NODES, pods, GpuPolicy.FGD, 1, 1e6))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("inflate 1000000.0 would need about")
        .hasMessageContaining("at most " + TraceReplay.MAX_ARRIVALS);
  }

  @Test
  void run_nodeListOfHoursOfWork_refusedUpFront() {
    // 200,000 one-GPU nodes and 100-milli pods: 2.6 million arrivals (under MAX_ARRIVALS), each scoring every node.
    List<TraceNode> nodes = new ArrayList<>();
    for (int i = 0; i < 200_000; i++) {
      nodes.add(new TraceNode("n" + i, 64_000, 256_000, 1, "V100M16"));
    }
    List<TracePod> pods = List.of(new TracePod("a", 1000, 100, 1, 100, List.of()));
    assertThatThrownBy(() -> assertTimeoutPreemptively(Duration.ofSeconds(20),
        () -> TraceReplay.run(nodes, pods, GpuPolicy.FGD, 1, 1.3)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("trace replay: 200000 GPU nodes and about 2600000 arriving pods would need about 5.2e+11 node"
            + " visits (each pod scores every node); at most 1e+10 are allowed: use fewer nodes or a smaller inflate");
  }

  @Test
  void arrivals_manyRemovals_fast() {
    // 200,000 whole-GPU pods on 16 GPUs: almost every pod is removed. An ArrayList removal loop took minutes on 1M.
    List<TracePod> pods = new ArrayList<>();
    for (int i = 0; i < 200_000; i++) {
      pods.add(new TracePod("p" + i, 1000, 100, 1, 1000, List.of()));
    }
    List<TracePod> out = assertTimeoutPreemptively(Duration.ofSeconds(20),
        () -> TraceReplay.arrivals(pods, new Random(3), 1.3 * 16_000));
    assertThat(out).hasSize(20);
  }

  /** The fast removal picks exactly the pods the list-removal loop it replaced picked, in the same order. */
  @Property(tries = 200)
  void arrivals_removal_sameAsListRemoval(@ForAll @IntRange(min = 1, max = 300) int n,
      @ForAll @IntRange(min = 0, max = 400_000) int target, @ForAll long seed) {
    List<TracePod> pods = new ArrayList<>();
    Random shapes = new Random(seed);
    for (int i = 0; i < n; i++) {
      pods.add(new TracePod("p" + i, 1000, 100, shapes.nextInt(3), shapes.nextInt(1001), List.of()));
    }
    long total = pods.stream().mapToLong(TracePod::totalGpuMilli).sum();
    if (total < target) {
      return; // the resampling branch: unchanged code
    }
    assertThat(TraceReplay.arrivals(pods, new Random(seed), target)).isEqualTo(naive(pods, new Random(seed), target));
  }

  private static List<TracePod> naive(List<TracePod> pods, Random rng, double target) {
    rng.nextInt();
    List<TracePod> byName = new ArrayList<>(pods);
    byName.sort(Comparator.comparing(TracePod::name));
    List<TracePod> arrival = new ArrayList<>(byName);
    Collections.shuffle(arrival, rng);
    long total = arrival.stream().mapToLong(TracePod::totalGpuMilli).sum();
    while (total > target && !arrival.isEmpty()) {
      total -= arrival.remove(rng.nextInt(arrival.size())).totalGpuMilli();
    }
    return arrival;
  }
}
