package io.fleetkit.api.metrics;

import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What a metric is: its Prometheus name (as exposed, with the {@code _total} suffix on counters and the unit
 * suffix on durations), type, help text, label names and, for histograms, the bucket upper bounds (without
 * {@code +Inf}). Immutable.
 *
 * @param name the exposed Prometheus name, e.g. {@code scheduler_schedule_attempts_total}
 * @param type counter, gauge or histogram
 * @param help the {@code # HELP} text
 * @param labelNames the label names, in the order label values are given
 * @param buckets strictly increasing upper bounds; empty unless {@code type} is {@link MetricType#HISTOGRAM}
 */
public record MetricDescriptor(String name, MetricType type, String help, List<String> labelNames,
    List<Double> buckets) {
  private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
  private static final Pattern LABEL = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");

  public MetricDescriptor {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(help, "help");
    labelNames = List.copyOf(labelNames);
    buckets = List.copyOf(buckets);
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("metric " + name + ": name must match " + NAME.pattern());
    }
    if (type == MetricType.COUNTER && !name.endsWith("_total")) {
      throw new IllegalArgumentException("metric " + name + ": a counter's name must end in _total");
    }
    for (String l : labelNames) {
      if (!LABEL.matcher(l).matches() || l.equals("le")) {
        throw new IllegalArgumentException("metric " + name + ": label name \"" + l + "\" must match "
            + LABEL.pattern() + " and not be le");
      }
    }
    if (labelNames.stream().distinct().count() != labelNames.size()) {
      throw new IllegalArgumentException("metric " + name + ": label names " + labelNames + " repeat a name");
    }
    if (type == MetricType.HISTOGRAM) {
      if (buckets.isEmpty()) {
        throw new IllegalArgumentException("metric " + name + ": a histogram needs at least one bucket");
      }
      for (int i = 1; i < buckets.size(); i++) {
        if (!(buckets.get(i) > buckets.get(i - 1))) {
          throw new IllegalArgumentException("metric " + name + ": buckets must increase strictly, but "
              + buckets.get(i) + " follows " + buckets.get(i - 1));
        }
      }
    } else if (!buckets.isEmpty()) {
      throw new IllegalArgumentException("metric " + name + ": only histograms have buckets, not a " + type);
    }
  }

  /** A counter; {@code name} ends in {@code _total}. */
  public static MetricDescriptor counter(String name, String help, String... labelNames) {
    return new MetricDescriptor(name, MetricType.COUNTER, help, List.of(labelNames), List.of());
  }

  /** A gauge. */
  public static MetricDescriptor gauge(String name, String help, String... labelNames) {
    return new MetricDescriptor(name, MetricType.GAUGE, help, List.of(labelNames), List.of());
  }

  /** A histogram with the given bucket upper bounds. */
  public static MetricDescriptor histogram(String name, String help, List<Double> buckets, String... labelNames) {
    return new MetricDescriptor(name, MetricType.HISTOGRAM, help, List.of(labelNames), buckets);
  }

  /**
   * Go's {@code prometheus.ExponentialBuckets(start, factor, count)}: {@code count} bounds made by repeated
   * multiplication (not {@code Math.pow}), so the doubles are bit-identical to Go's.
   *
   * @throws IllegalArgumentException unless {@code start > 0}, {@code factor > 1} and {@code count >= 1}
   */
  public static List<Double> exponentialBuckets(double start, double factor, int count) {
    if (!(start > 0) || !(factor > 1) || count < 1) {
      throw new IllegalArgumentException("exponential buckets: start " + start + " must be > 0, factor " + factor
          + " > 1 and count " + count + " >= 1");
    }
    Double[] out = new Double[count];
    double b = start;
    for (int i = 0; i < count; i++) {
      out[i] = b;
      b *= factor;
    }
    return List.of(out);
  }

  /** Whether this is a duration histogram (its name ends in {@code _seconds}). */
  public boolean isSeconds() {
    return name.endsWith("_seconds");
  }

  /**
   * Checks that {@code values} fit the label names.
   *
   * @throws IllegalArgumentException naming the metric when the count differs or a value is null
   */
  public void checkLabelValues(String... values) {
    if (values.length != labelNames.size()) {
      throw new IllegalArgumentException("metric " + name + ": " + values.length + " label values given for labels "
          + labelNames);
    }
    for (int i = 0; i < values.length; i++) {
      if (values[i] == null) {
        throw new IllegalArgumentException("metric " + name + ": label " + labelNames.get(i) + " has no value");
      }
    }
  }
}
