package io.fleetkit.scheduler.internal;

import java.util.SplittableRandom;

/**
 * Draws the gaps between sampled scheduling cycles. kube samples each cycle independently
 * ({@code rand.Intn(100) < pluginMetricsSamplePercent}, {@code pkg/scheduler/schedule_one.go}); the number of
 * unsampled cycles before the next sampled one is then geometric: {@code P(gap >= k) = (1 - p)^k}. Drawing the gap
 * once per sampled cycle (inverse transform, {@code floor(ln U / ln(1 - p))} with {@code U} uniform in (0, 1]) gives
 * the same distribution of sampled cycles as a draw per cycle, and an unsampled cycle only counts down. Stateless.
 */
final class SampleGaps {
  private SampleGaps() {}

  /**
   * The unsampled cycles before the next sampled one, for a sampled share of {@code percent} % of cycles.
   *
   * @param percent within 1..99
   */
  static long next(SplittableRandom random, int percent) {
    if (percent < 1 || percent > 99) {
      throw new IllegalArgumentException("sample percent " + percent + " must be within 1..99 to draw a gap");
    }
    double u = 1.0 - random.nextDouble(); // (0, 1]
    double gap = Math.floor(Math.log(u) / Math.log1p(-percent / 100.0));
    return gap >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) gap;
  }
}
