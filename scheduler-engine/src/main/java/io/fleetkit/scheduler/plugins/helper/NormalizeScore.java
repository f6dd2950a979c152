package io.fleetkit.scheduler.plugins.helper;

import java.util.Arrays;

/**
 * kube-scheduler's {@code DefaultNormalizeScore} ({@code pkg/scheduler/framework/plugins/helper/normalize_score.go}):
 * rescales scores from [0, max(scores)] to [0, maxPriority] with integer arithmetic, optionally reversed so that
 * the lowest raw score gets the highest normalized score.
 */
public final class NormalizeScore {
  private NormalizeScore() {}

  /**
   * Normalizes {@code scores} in place: {@code score * maxPriority / max}, then {@code maxPriority - score} when
   * {@code reverse}. When every score is 0 they stay 0, or all become {@code maxPriority} when {@code reverse}.
   * Scores are assumed non-negative (as upstream); allocates nothing.
   */
  public static void defaultNormalizeScore(long maxPriority, boolean reverse, long[] scores) {
    long maxCount = 0;
    for (long s : scores) {
      if (s > maxCount) {
        maxCount = s;
      }
    }
    if (maxCount == 0) {
      if (reverse) {
        Arrays.fill(scores, maxPriority);
      }
      return;
    }
    for (int i = 0; i < scores.length; i++) {
      long score = maxPriority * scores[i] / maxCount;
      scores[i] = reverse ? maxPriority - score : score;
    }
  }
}
