package io.fleetkit.api.simulation;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Requests per second over simulated time. Which fields matter depends on {@link #shape()} (see {@link LoadShape});
 * the others are ignored. {@link #rateAt} is the whole model, so every consumer reads load the same way.
 *
 * @param base requests/s outside the peak (Constant: the rate; Diurnal: the trough)
 * @param peak requests/s at the peak (Step: after the step)
 * @param at when the step or spike starts; for Diurnal, when in each period the peak is
 * @param length how long a spike lasts
 * @param period the Diurnal period
 * @param points the Csv rows, sorted by time
 */
public record LoadPattern(LoadShape shape, double base, double peak, Duration at, Duration length, Duration period,
    List<RatePoint> points) {
  /** A day, the default Diurnal period. */
  public static final Duration DAY = Duration.ofHours(24);

  public LoadPattern {
    Objects.requireNonNull(shape, "shape");
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(length, "length");
    Objects.requireNonNull(period, "period");
    points = List.copyOf(points);
  }

  public static LoadPattern constant(double rate) {
    return new LoadPattern(LoadShape.Constant, rate, rate, Duration.ZERO, Duration.ZERO, DAY, List.of());
  }

  public static LoadPattern step(double before, double after, Duration at) {
    return new LoadPattern(LoadShape.Step, before, after, at, Duration.ZERO, DAY, List.of());
  }

  public static LoadPattern diurnal(double trough, double peak, Duration peakAt, Duration period) {
    return new LoadPattern(LoadShape.Diurnal, trough, peak, peakAt, Duration.ZERO, period, List.of());
  }

  public static LoadPattern spike(double base, double peak, Duration at, Duration length) {
    return new LoadPattern(LoadShape.Spike, base, peak, at, length, DAY, List.of());
  }

  public static LoadPattern csv(List<RatePoint> points) {
    return new LoadPattern(LoadShape.Csv, 0, 0, Duration.ZERO, Duration.ZERO, DAY, points);
  }

  /** Requests per second {@code t} after the start of the simulation (never negative). */
  public double rateAt(Duration t) {
    double r = switch (shape) {
      case Constant -> base;
      case Step -> t.compareTo(at) < 0 ? base : peak;
      case Spike -> t.compareTo(at) >= 0 && t.compareTo(at.plus(length)) < 0 ? peak : base;
      case Diurnal -> {
        double phase = 2 * Math.PI * (t.toMillis() - at.toMillis()) / (double) period.toMillis();
        yield base + (peak - base) * (1 + Math.cos(phase)) / 2;
      }
      case Csv -> {
        double rate = 0;
        for (RatePoint p : points) {
          if (p.at().compareTo(t) > 0) {
            break;
          }
          rate = p.requestsPerSecond();
        }
        yield rate;
      }
    };
    return Math.max(0, r);
  }
}
