package io.fleetkit.api.metrics;

/** The Prometheus type of a metric. */
public enum MetricType {
  /** A monotonically increasing count; its Prometheus name ends in {@code _total}. */
  COUNTER,
  /** A value that goes up and down. */
  GAUGE,
  /** Observations counted into fixed buckets (cumulative {@code le} buckets, {@code _sum}, {@code _count}). */
  HISTOGRAM
}
