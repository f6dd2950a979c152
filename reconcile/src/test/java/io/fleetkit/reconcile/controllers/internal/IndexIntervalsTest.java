package io.fleetkit.reconcile.controllers.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ported from upstream {@code pkg/controller/job/indexed_job_utils_test.go} (kubernetes commit
 * 4a37f009ca615534484b1116d0f147f1f23cf067; {@code indexed_job_utils.go} 78fc8e44052f699bf598f84b697b41e5a328c9c5):
 * {@code TestIntervalsHaveIndex} (6 of 6), {@code TestCalculateSucceededIndexes} (12 of 12, through what it
 * exercises: {@code parseIndexesFromString} of the previous {@code completedIndexes} and {@code withOrderedIndexes}
 * of the succeeded pods' valid indexes below completions, both interval lists compared) and
 * {@code TestFirstPendingIndexes} (6 of 6, {@code JobReconciler.firstPendingIndexes}; upstream's pods with index
 * {@code "-"} have none). Plus properties: the
 * interval form round-trips and merging is a set union.
 */
final class IndexIntervalsTest {

  static Stream<Arguments> has() {
    return Stream.of(
        Arguments.of("empty", IndexIntervals.EMPTY, 4, false),
        Arguments.of("before all", IndexIntervals.of(2, 4, 5, 7), 1, false),
        Arguments.of("after all", IndexIntervals.of(2, 4, 6, 8), 9, false),
        Arguments.of("in between", IndexIntervals.of(2, 4, 6, 8), 5, false),
        Arguments.of("in first", IndexIntervals.of(2, 4, 6, 8), 2, true),
        Arguments.of("in second", IndexIntervals.of(2, 4, 6, 8), 8, true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("has")
  void intervalsHaveIndex_upstreamTable(String name, IndexIntervals intervals, int index, boolean want) {
    assertThat(intervals.has(index)).isEqualTo(want);
  }

  /** {@code pods}: upstream's {@code indexPhase} pairs, index text (or "-" for none) and whether Succeeded. */
  static Stream<Arguments> succeeded() {
    return Stream.of(
        Arguments.of("one index", "", List.of("1:S"), 2, IndexIntervals.EMPTY, IndexIntervals.of(1, 1)),
        Arguments.of("two separate", "", List.of("2:F", "5:S", "5:S", "10:F", "10:S"), 11, IndexIntervals.EMPTY,
            IndexIntervals.of(5, 5, 10, 10)),
        Arguments.of("two intervals", "", List.of("0:R", "1:P", "2:S", "3:S", "5:S", "6:S", "7:S"), 8,
            IndexIntervals.EMPTY, IndexIntervals.of(2, 3, 5, 7)),
        Arguments.of("one index and one interval", "",
            List.of("0:S", "1:F", "2:S", "3:S", "4:S", "5:S", "-:S", "-2:S"), 6, IndexIntervals.EMPTY,
            IndexIntervals.of(0, 0, 2, 5)),
        Arguments.of("out of range", "", List.of("0:S", "1:S", "2:S", "3:F", "4:S", "5:S", "-:S", "-2:S"), 5,
            IndexIntervals.EMPTY, IndexIntervals.of(0, 2, 4, 4)),
        Arguments.of("prev interval out of range", "0-5,8-10", List.of(), 8, IndexIntervals.of(0, 5),
            IndexIntervals.of(0, 5)),
        Arguments.of("prev interval partially out of range", "0-5,8-10", List.of(), 10, IndexIntervals.of(0, 5, 8, 9),
            IndexIntervals.of(0, 5, 8, 9)),
        Arguments.of("prev and new separate", "0,4,5,10-12", List.of("2:S", "7:S", "8:S"), 13,
            IndexIntervals.of(0, 0, 4, 5, 10, 12), IndexIntervals.of(0, 0, 2, 2, 4, 5, 7, 8, 10, 12)),
        Arguments.of("prev between new", "3,4,6", List.of("2:S", "7:S", "8:S"), 9, IndexIntervals.of(3, 4, 6, 6),
            IndexIntervals.of(2, 4, 6, 8)),
        Arguments.of("new between prev", "2,7,8", List.of("3:S", "4:S", "6:S"), 9, IndexIntervals.of(2, 2, 7, 8),
            IndexIntervals.of(2, 4, 6, 8)),
        Arguments.of("new within prev", "2-7", List.of("0:S", "3:S", "5:S", "9:S"), 10, IndexIntervals.of(2, 7),
            IndexIntervals.of(0, 0, 2, 7, 9, 9)),
        Arguments.of("corrupted interval", "0,1-foo,bar", List.of("3:S"), 4, IndexIntervals.of(0, 0),
            IndexIntervals.of(0, 0, 3, 3)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("succeeded")
  void calculateSucceededIndexes_upstreamTable(String name, String prev, List<String> pods, int completions,
      IndexIntervals wantStatus, IndexIntervals want) {
    IndexIntervals status = IndexIntervals.parse(prev, completions);
    TreeSet<Integer> fresh = new TreeSet<>();
    for (String p : pods) {
      String[] ixPhase = p.split(":");
      if (!ixPhase[1].equals("S") || ixPhase[0].equals("-")) {
        continue;
      }
      int ix = Integer.parseInt(ixPhase[0]);
      if (ix >= 0 && ix < completions) {
        fresh.add(ix);
      }
    }
    assertThat(status).as("from status").isEqualTo(wantStatus);
    assertThat(status.withOrderedIndexes(fresh)).isEqualTo(want);
  }

  private static List<io.fleetkit.api.core.Pod> activePods(String... indexes) {
    List<io.fleetkit.api.core.Pod> out = new ArrayList<>();
    int n = 0;
    for (String ix : indexes) {
      io.fleetkit.api.meta.ObjectMeta.Builder m = io.fleetkit.api.meta.ObjectMeta.builder().namespace("default")
          .name("p" + n++);
      if (!ix.equals("-")) {
        m.annotation(io.fleetkit.reconcile.controllers.WorkloadLabels.JOB_COMPLETION_INDEX, ix);
      }
      out.add(io.fleetkit.api.core.Pod.of(m.build(), io.fleetkit.api.core.PodSpec.builder()
          .container("main", "image", io.fleetkit.api.resource.ResourceList.EMPTY).build()));
    }
    return out;
  }

  static Stream<Arguments> pending() {
    return Stream.of(
        Arguments.of("cnt greater than completions", activePods(), IndexIntervals.EMPTY, IndexIntervals.EMPTY, 5, 3,
            List.of(0, 1, 2)),
        Arguments.of("cnt less than completions", activePods(), IndexIntervals.EMPTY, IndexIntervals.EMPTY, 2, 5,
            List.of(0, 1)),
        Arguments.of("first pods active", activePods("0", "1"), IndexIntervals.EMPTY, IndexIntervals.EMPTY, 3, 10,
            List.of(2, 3, 4)),
        Arguments.of("last pods active or succeeded", activePods("6"), IndexIntervals.of(4, 5), IndexIntervals.EMPTY,
            6, 6, List.of(0, 1, 2, 3)),
        Arguments.of("mixed", activePods("3", "5", "8", "-", "-3"), IndexIntervals.of(2, 4, 9, 9),
            IndexIntervals.EMPTY, 5, 20, List.of(0, 1, 6, 7, 10)),
        Arguments.of("with failed indexes", activePods("3", "9"), IndexIntervals.of(1, 1, 5, 5, 9, 9),
            IndexIntervals.of(2, 2, 6, 7), 5, 20, List.of(0, 4, 8, 10, 11)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("pending")
  void firstPendingIndexes_upstreamTable(String name, List<io.fleetkit.api.core.Pod> active,
      IndexIntervals succeeded, IndexIntervals failed, int count, int completions, List<Integer> want) {
    assertThat(JobReconciler.firstPendingIndexes(active, succeeded, failed, count, completions))
        .containsExactlyElementsOf(want);
  }

  @Property(tries = 300)
  void intervalForm_roundTripsAndMergeIsUnion(
      @ForAll @Size(max = 30) List<@IntRange(min = 0, max = 60) Integer> a,
      @ForAll @Size(max = 30) List<@IntRange(min = 0, max = 60) Integer> b) {
    IndexIntervals x = IndexIntervals.ofIndexes(a);
    IndexIntervals y = IndexIntervals.ofIndexes(b);
    assertThat(IndexIntervals.parse(x.toString(), 61)).isEqualTo(x);
    TreeSet<Integer> union = new TreeSet<>(a);
    union.addAll(b);
    IndexIntervals merged = x.merge(y);
    assertThat(merged.total()).isEqualTo(union.size());
    List<Integer> members = new ArrayList<>();
    for (int i = 0; i <= 60; i++) {
      if (merged.has(i)) {
        members.add(i);
      }
    }
    assertThat(members).containsExactlyElementsOf(union);
    assertThat(merged.toString()).isEqualTo(io.fleetkit.reconcile.controllers.internal.JobReconciler
        .formatIndexes(union));
  }
}
