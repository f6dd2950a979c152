package io.fleetkit.scheduler.plugins.helper;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

final class NormalizeScoreTest {
  /**
   * All 7 cases of kubernetes pkg/scheduler/framework/plugins/helper/normalize_score_test.go,
   * TestDefaultNormalizeScore.
   */
  static Stream<Arguments> upstreamCases() {
    return Stream.of(
        Arguments.of("case_0", false, new long[] {1, 2, 3, 4}, new long[] {25, 50, 75, 100}),
        Arguments.of("case_1", true, new long[] {1, 2, 3, 4}, new long[] {75, 50, 25, 0}),
        Arguments.of("case_2", false, new long[] {1000, 10, 20, 30}, new long[] {100, 1, 2, 3}),
        Arguments.of("case_3", true, new long[] {1000, 10, 20, 30}, new long[] {0, 99, 98, 97}),
        Arguments.of("case_4", false, new long[] {1, 1, 1, 1}, new long[] {100, 100, 100, 100}),
        Arguments.of("case_5", false, new long[] {1000, 1, 1, 1}, new long[] {100, 0, 0, 0}),
        Arguments.of("case_6", true, new long[] {0, 1, 1, 1}, new long[] {100, 0, 0, 0}));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("upstreamCases")
  void defaultNormalizeScore_upstreamTable_matchesKube(String name, boolean reverse, long[] scores, long[] want) {
    NormalizeScore.defaultNormalizeScore(100, reverse, scores);
    assertThat(scores).containsExactly(want);
  }

  @Test
  void defaultNormalizeScore_allZero_staysZeroOrBecomesMaxWhenReversed() {
    long[] forward = {0, 0, 0};
    long[] reversed = {0, 0, 0};
    NormalizeScore.defaultNormalizeScore(100, false, forward);
    NormalizeScore.defaultNormalizeScore(100, true, reversed);
    assertThat(forward).containsExactly(0, 0, 0);
    assertThat(reversed).containsExactly(100, 100, 100);
  }

  @Test
  void defaultNormalizeScore_empty_doesNothing() {
    long[] none = {};
    NormalizeScore.defaultNormalizeScore(100, true, none);
    assertThat(none).isEmpty();
  }
}
