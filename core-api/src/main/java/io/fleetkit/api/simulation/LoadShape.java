package io.fleetkit.api.simulation;

/** The shape of a {@link LoadPattern}. */
public enum LoadShape {
  /** {@code base} requests/s throughout. */
  Constant,
  /** {@code base} before {@code at}, {@code peak} from then on. */
  Step,
  /**
   * A daily sine between {@code base} (trough) and {@code peak}, with period {@code period} (default 24 h) and the
   * peak at {@code at} into each period.
   */
  Diurnal,
  /** {@code base}, and {@code peak} for {@code length} from {@code at}. */
  Spike,
  /** The rates of {@code points}, each holding until the next point (a CSV of {@code seconds,requestsPerSecond}). */
  Csv
}
