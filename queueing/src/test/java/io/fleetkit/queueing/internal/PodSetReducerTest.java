package io.fleetkit.queueing.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes-sigs/kueue {@code pkg/scheduler/flavorassigner/podset_reducer_test.go} (commit ff69552e),
 * {@code TestSearch}, all 9 cases: pod sets as (count, minCount) pairs, a minCount left out as the count; the test
 * accepts counts whose sum is at most the case's limit, and answers that sum.
 */
final class PodSetReducerTest {
  /** {@code {count, minCount}} per pod set. */
  private static Integer search(int limit, int[]... podSets) {
    int[] counts = new int[podSets.length];
    int[] mins = new int[podSets.length];
    for (int i = 0; i < podSets.length; i++) {
      counts[i] = podSets[i][0];
      mins[i] = podSets[i].length > 1 ? podSets[i][1] : podSets[i][0];
    }
    return new PodSetReducer(counts, mins).search(next -> {
      int total = 0;
      for (int c : next) {
        total += c;
      }
      return total <= limit ? total : null;
    });
  }

  private static int[][] fourVariable() {
    return new int[][] {{5, 3}, {5, 4}, {5, 1}, {5, 2}};
  }

  @Test
  void empty() {
    assertThat(search(10)).isNull();
  }

  @Test
  void partialNotAvailable() {
    assertThat(search(2, new int[] {1}, new int[] {2, 2})).isNull();
  }

  @Test
  void partialAvailable() {
    assertThat(search(15, fourVariable())).isEqualTo(15);
  }

  @Test
  void onePartialAvailable() {
    assertThat(search(19, new int[] {5, 3}, new int[] {5}, new int[] {5}, new int[] {5})).isEqualTo(19);
  }

  @Test
  void toMin() {
    assertThat(search(10, fourVariable())).isEqualTo(10);
  }

  @Test
  void toMax() {
    assertThat(search(20, fourVariable())).isEqualTo(20);
  }

  @Test
  void noOverflow() {
    List<int[]> ps = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      ps.add(new int[] {150_000, 1});
    }
    assertThat(search(150_000, ps.toArray(int[][]::new))).isEqualTo(150_000);
  }

  @Test
  void maxPodsOn127() {
    List<int[]> ps = new ArrayList<>();
    ps.add(new int[] {150_000, 1});
    for (int i = 0; i < 7; i++) {
      ps.add(new int[] {1});
    }
    assertThat(search(150_000, ps.toArray(int[][]::new))).isEqualTo(150_000);
  }

  @Test
  void podSetWithReplicaCount0() {
    assertThat(search(0, new int[] {0, 0})).isNull();
  }

  @Test
  void everyPodSetIsReducedByTheSameFractionOfItsReduction() {
    PodSetReducer r = new PodSetReducer(new int[] {30, 15}, new int[] {10, 5});
    assertThat(r.countsAt(0)).containsExactly(30, 15);
    assertThat(r.countsAt(15)).containsExactly(20, 10);
    assertThat(r.countsAt(30)).containsExactly(10, 5);
  }
}
