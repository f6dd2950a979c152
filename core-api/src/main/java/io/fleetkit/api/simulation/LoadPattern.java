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
 * @throws IllegalArgumentException if {@code base} or {@code peak} is negative, NaN or infinite
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
    requireRate(shape, "base", base);
    requireRate(shape, "peak", peak);
    points = List.copyOf(points);
  }

  /** A rate must be a finite number of requests/s, at least 0 (a {@link RatePoint} checks its own). */
  private static void requireRate(LoadShape shape, String field, double rate) {
    if (!(rate >= 0) || rate == Double.POSITIVE_INFINITY) {
      throw new IllegalArgumentException("load pattern " + shape + ": " + field + " " + rate
          + " requests/s must be a finite number greater than or equal to 0");
    }
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

  /**
   * The requests arriving from {@code from} to {@code to}: the integral of {@link #rateAt} over that time, exactly (a
   * sum over the constant pieces of Constant, Step, Spike and Csv; the closed form of the Diurnal cosine).
   *
   * @throws IllegalArgumentException if {@code to} is before {@code from}
   */
  public double requests(Duration from, Duration to) {
    return requestsBeyond(0, from, to);
  }

  /**
   * The requests arriving from {@code from} to {@code to} beyond {@code capacity} requests/s: the integral of
   * {@code max(0, rateAt(t) - capacity)}, exactly as {@link #requests}. An infinite capacity takes every request.
   *
   * @param capacity requests/s that can be served, at least 0
   * @throws IllegalArgumentException if {@code capacity} is negative or NaN, or {@code to} is before {@code from}
   */
  public double requestsBeyond(double capacity, Duration from, Duration to) {
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(to, "to");
    if (!(capacity >= 0)) {
      throw new IllegalArgumentException("load pattern: capacity " + capacity + " must be at least 0");
    }
    if (to.compareTo(from) < 0) {
      throw new IllegalArgumentException("load pattern: interval end " + to + " is before its start " + from);
    }
    if (capacity == Double.POSITIVE_INFINITY || to.equals(from)) {
      return 0;
    }
    return switch (shape) {
      case Constant -> beyond(base, capacity, from, to);
      case Step -> piecewise(capacity, from, to, List.of(at));
      case Spike -> piecewise(capacity, from, to, List.of(at, at.plus(length)));
      case Csv -> piecewise(capacity, from, to, points.stream().map(RatePoint::at).toList());
      case Diurnal -> diurnalBeyond(capacity, seconds(from), seconds(to));
    };
  }

  /** The integral over pieces on which the rate is constant: split at the {@code breaks} (sorted) inside the time. */
  private double piecewise(double capacity, Duration from, Duration to, List<Duration> breaks) {
    double sum = 0;
    Duration start = from;
    for (Duration b : breaks) {
      if (b.compareTo(start) > 0 && b.compareTo(to) < 0) {
        sum += beyond(rateAt(start), capacity, start, b);
        start = b;
      }
    }
    return sum + beyond(rateAt(start), capacity, start, to);
  }

  private static double beyond(double rate, double capacity, Duration from, Duration to) {
    return rate > capacity ? (rate - capacity) * (seconds(to) - seconds(from)) : 0;
  }

  /**
   * The Diurnal integral of {@code max(0, m + h cos(phase))} with {@code m = base + (peak - base) / 2 - capacity},
   * {@code h = (peak - base) / 2}: the rate is above the capacity where the cosine is above {@code -m / h}, an arc of
   * half-width {@code acos(-m / h)} around each peak, integrated in closed form.
   */
  private double diurnalBeyond(double capacity, double a, double b) {
    double m = base + (peak - base) / 2 - capacity;
    double h = (peak - base) / 2;
    double w = 2 * Math.PI / seconds(period);
    double shift = 0;
    if (h < 0) { // a trough above the peak: the cosine turned over
      h = -h;
      shift = Math.PI;
    }
    double phaseA = w * (a - seconds(at)) + shift;
    double phaseB = w * (b - seconds(at)) + shift;
    if (h == 0) {
      return Math.max(0, m) * (b - a);
    }
    double k = -m / h;
    if (k >= 1) {
      return 0;
    }
    if (k <= -1) {
      return m * (b - a) + h / w * (Math.sin(phaseB) - Math.sin(phaseA));
    }
    double theta = Math.acos(k);
    double sum = 0;
    for (long n = (long) Math.floor((phaseA + theta) / (2 * Math.PI)); 2 * Math.PI * n - theta < phaseB; n++) {
      double u = Math.max(phaseA, 2 * Math.PI * n - theta);
      double v = Math.min(phaseB, 2 * Math.PI * n + theta);
      if (v > u) {
        sum += m * (v - u) / w + h / w * (Math.sin(v) - Math.sin(u));
      }
    }
    return Math.max(0, sum);
  }

  private static double seconds(Duration d) {
    return d.getSeconds() + d.getNano() / 1e9;
  }
}
