package io.fleetkit.autoscale.vpa;

/**
 * The VPA's {@code ResourceAmount} arithmetic ({@code recommender/model/types.go}): millicores for cpu, bytes for
 * memory, as {@code long}, clamped to {@code [0, 1e14]} and truncated when converted from floating point.
 */
final class ResourceAmounts {
  /** {@code MaxResourceAmount}. */
  static final long MAX = 100_000_000_000_000L;

  private ResourceAmounts() {}

  /** {@code resourceAmountFromFloat}: clamp to [0, 1e14], then truncate. */
  static long fromFloat(double amount) {
    if (!(amount >= 0)) {
      return 0;
    }
    if (amount > MAX) {
      return MAX;
    }
    return (long) amount;
  }

  /** {@code CPUAmountFromCores}. */
  static long cpuFromCores(double cores) {
    return fromFloat(cores * 1000.0);
  }

  /** {@code ScaleResource}: {@code amount * factor}, clamped. */
  static long scale(long amount, double factor) {
    return fromFloat(amount * factor);
  }
}
