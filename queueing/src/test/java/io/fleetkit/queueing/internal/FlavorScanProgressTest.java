package io.fleetkit.queueing.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.queueing.PodSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The rules of {@link FlavorScanProgress}. The outdated cases are kubernetes-sigs/kueue {@code
 * pkg/scheduler/scheduler_test.go} (commit ff69552e) TestLastAssignmentOutdated with {@code
 * FlavorFungibilityPreserveScanProgress} on (FleetKit has the gate's default only), the pending-flavor cases {@code
 * pkg/workload/workload_test.go} TestAssignmentClusterQueueState; upstream's scheduling hashes {@code shape-a} and
 * {@code shape-b} are two different pod-set lists.
 */
final class FlavorScanProgressTest {
  private static final List<PodSet> SHAPE_A = List.of(PodSet.of("main", 1, ResourceList.builder().put("cpu", "1")
      .build()));
  private static final List<PodSet> SHAPE_B = List.of(PodSet.of("main", 1, ResourceList.builder().put("cpu", "2")
      .build()));

  private static FlavorScanProgress progress(long generation, long cycle, List<PodSet> shape) {
    return new FlavorScanProgress(List.of(Map.of("cpu", 0)), generation, cycle, shape);
  }

  /** Upstream case name, the recorded generation and cycle, the current generation and cycle, and whether outdated. */
  record OutdatedCase(String name, long lastGeneration, long lastCycle, List<PodSet> lastShape, long currentGeneration,
      long currentCycle, List<PodSet> currentShape, boolean want) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<OutdatedCase> outdated() {
    return Stream.of(
        new OutdatedCase("Cluster queue allocatableResourceIncreasedGen increased", 0, 1, SHAPE_A, 1, 5, SHAPE_A,
            true),
        new OutdatedCase("AllocatableResourceGeneration not increased", 0, 1, SHAPE_A, 0, 5, SHAPE_A, false),
        new OutdatedCase("assignment from the immediately preceding cycle survives a generation bump",
            0, 4, SHAPE_A, 1, 5, SHAPE_A, false),
        new OutdatedCase("assignment from the current cycle survives a generation bump", 0, 5, SHAPE_A, 1, 5, SHAPE_A,
            false),
        new OutdatedCase("assignment older than one cycle falls back to the generation check", 0, 3, SHAPE_A, 1, 5,
            SHAPE_A, true),
        new OutdatedCase("a changed scheduling shape starts the scan over even in the preceding cycle",
            0, 4, SHAPE_A, 0, 5, SHAPE_B, true),
        new OutdatedCase("an unchanged scheduling shape keeps the preceding cycle's assignment",
            0, 4, SHAPE_A, 1, 5, SHAPE_A, false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void outdated(OutdatedCase c) {
    assertThat(progress(c.lastGeneration(), c.lastCycle(), c.lastShape())
        .outdated(c.currentGeneration(), c.currentCycle(), c.currentShape())).isEqualTo(c.want());
  }

  @Test
  void pendingFlavors_upstreamCases() {
    assertThat(new FlavorScanProgress(List.of(), 0, 0, SHAPE_A).pendingFlavors()).as("no info").isFalse();
    assertThat(new FlavorScanProgress(List.of(Map.of("cpu", -1, "memory", -1), Map.of("memory", -1)), 0, 0, SHAPE_A)
        .pendingFlavors()).as("all done").isFalse();
    assertThat(new FlavorScanProgress(List.of(Map.of("cpu", 0, "memory", -1), Map.of("memory", 1)), 0, 0, SHAPE_A)
        .pendingFlavors()).as("some pending").isTrue();
    assertThat(new FlavorScanProgress(List.of(Map.of("cpu", 1, "memory", 0), Map.of("memory", 1)), 0, 0, SHAPE_A)
        .pendingFlavors()).as("all pending").isTrue();
  }

  /** Kueue's {@code NextFlavorToTryForPodSetResource}: after the last tried, 0 for none or after the last flavor. */
  @Test
  void nextFlavorToTry_isAfterTheLastTried_orTheFirst() {
    FlavorScanProgress p = new FlavorScanProgress(List.of(Map.of("cpu", 1, "memory", -1), Map.of()), 0, 0, SHAPE_A);
    assertThat(p.nextFlavorToTry(0, "cpu")).isEqualTo(2);
    assertThat(p.nextFlavorToTry(0, "memory")).as("the scan reached the last flavor").isZero();
    assertThat(p.nextFlavorToTry(0, "example.com/gpu")).as("no entry for the resource").isZero();
    assertThat(p.nextFlavorToTry(1, "cpu")).as("a pod set that got no flavors").isZero();
    assertThat(p.nextFlavorToTry(2, "cpu")).as("a pod set the scan did not reach").isZero();
  }

  @Test
  void constructor_copiesTheMaps() {
    Map<String, Integer> m = new HashMap<>(Map.of("cpu", 0));
    List<Map<String, Integer>> l = new ArrayList<>(List.of(m));
    FlavorScanProgress p = new FlavorScanProgress(l, 0, 0, SHAPE_A);
    m.put("cpu", -1);
    l.clear();
    assertThat(p.lastTriedFlavorIdx()).containsExactly(Map.of("cpu", 0));
  }

  /** Progress from the current or the preceding cycle of an unchanged workload is never outdated. */
  @Property
  void recentProgressOfTheSameShape_isNeverOutdated(@ForAll @IntRange(max = 1000) int lastGeneration,
      @ForAll @IntRange(max = 1000) int currentGeneration, @ForAll @IntRange(max = 1000) int cycle,
      @ForAll @IntRange(max = 1) int age) {
    assertThat(progress(lastGeneration, cycle, SHAPE_A).outdated(currentGeneration, cycle + age, SHAPE_A)).isFalse();
  }

  /** Whatever the generations and cycles, a workload whose pod sets changed starts over. */
  @Property
  void changedShape_isAlwaysOutdated(@ForAll @IntRange(max = 1000) int lastGeneration,
      @ForAll @IntRange(max = 1000) int currentGeneration, @ForAll @IntRange(max = 1000) int cycle,
      @ForAll @IntRange(max = 1000) int age) {
    assertThat(progress(lastGeneration, cycle, SHAPE_A).outdated(currentGeneration, cycle + age, SHAPE_B)).isTrue();
  }

  /** Pending flavors exactly when some recorded index names a flavor, is not {@value FlavorScanProgress#START_OVER}. */
  @Property
  void pendingFlavors_iffSomeIndexIsNotStartOver(
      @ForAll @Size(max = 4) List<@Size(max = 3) List<@IntRange(min = -1, max = 3) Integer>> indices) {
    List<Map<String, Integer>> l = new ArrayList<>();
    boolean any = false;
    for (List<Integer> podSet : indices) {
      Map<String, Integer> m = new HashMap<>();
      for (int i = 0; i < podSet.size(); i++) {
        m.put("r" + i, podSet.get(i));
        any |= podSet.get(i) != FlavorScanProgress.START_OVER;
      }
      l.add(m);
    }
    assertThat(new FlavorScanProgress(l, 0, 0, SHAPE_A).pendingFlavors()).isEqualTo(any);
  }
}
