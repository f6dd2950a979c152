package io.fleetkit.observability.micrometer;

import io.fleetkit.api.metrics.Histogram;
import io.fleetkit.api.metrics.MetricDescriptor;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.Collector;
import io.prometheus.metrics.model.registry.MetricType;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.Exemplars;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.DoubleAdder;

/**
 * FleetKit's histograms on a {@link PrometheusMeterRegistry}, as collectors of its {@link PrometheusRegistry}: an
 * observation adds one to a bucket and to the sum (two uncontended atomic additions, no clock read), and a scrape
 * reads the buckets as they are. A Micrometer timer or summary reads the clock twice per observation (its
 * {@code _max} window and its histogram's rotation) and has no way to add observations in bulk, which at the
 * scheduler's cycle times (tens of µs) cost several per cent; kube's histograms have no {@code _max} either.
 *
 * <p>One collector per metric name and Prometheus registry, shared by every {@link MicrometerMetrics} on that
 * registry (registering a name twice would fail). Loaded only when the registry is a {@code PrometheusMeterRegistry},
 * so Micrometer's Prometheus registry stays an optional dependency. Thread-safe.
 */
final class PrometheusHistograms {
  /** Collectors by registry, then by metric name. */
  private static final Map<PrometheusRegistry, Map<String, HistogramCollector>> COLLECTORS = new WeakHashMap<>();

  private PrometheusHistograms() {}

  /** The series of {@code metric} with {@code labelValues} (already checked) in {@code registry}'s collectors. */
  static Histogram histogram(Object registry, MetricDescriptor metric, String[] labelValues) {
    PrometheusRegistry prometheus = ((PrometheusMeterRegistry) registry).getPrometheusRegistry();
    HistogramCollector collector;
    synchronized (COLLECTORS) {
      Map<String, HistogramCollector> byName = COLLECTORS.computeIfAbsent(prometheus, r -> new ConcurrentHashMap<>());
      collector = byName.get(metric.name());
      if (collector == null) {
        collector = new HistogramCollector(metric);
        prometheus.register(collector);
        byName.put(metric.name(), collector);
      } else if (!collector.metric.equals(metric)) {
        throw new IllegalArgumentException("metric " + metric.name() + " is already registered as " + collector.metric);
      }
    }
    return collector.child(labelValues);
  }

  /** All series of one histogram metric. */
  private static final class HistogramCollector implements Collector {
    final MetricDescriptor metric;
    /** The descriptor's bounds and +Inf. */
    final double[] bounds;
    final String[] labelNames;
    final Map<List<String>, Child> children = new ConcurrentHashMap<>();

    HistogramCollector(MetricDescriptor metric) {
      this.metric = metric;
      this.bounds = new double[metric.buckets().size() + 1];
      for (int i = 0; i < metric.buckets().size(); i++) {
        bounds[i] = metric.buckets().get(i);
      }
      bounds[bounds.length - 1] = Double.POSITIVE_INFINITY;
      this.labelNames = metric.labelNames().toArray(String[]::new);
    }

    Child child(String[] labelValues) {
      return children.computeIfAbsent(List.of(labelValues),
          k -> new Child(bounds, Labels.of(labelNames, labelValues.clone())));
    }

    @Override
    public MetricSnapshot collect() {
      List<HistogramSnapshot.HistogramDataPointSnapshot> points = new ArrayList<>(children.size());
      for (Child c : children.values()) {
        points.add(c.snapshot());
      }
      return new HistogramSnapshot(new MetricMetadata(metric.name(), metric.help()), points);
    }

    @Override
    public String getPrometheusName() {
      return metric.name();
    }

    @Override
    public MetricType getMetricType() {
      return MetricType.HISTOGRAM;
    }

    @Override
    public Set<String> getLabelNames() {
      return Set.copyOf(metric.labelNames());
    }
  }

  /** One series: a count per bucket and the sum. */
  private static final class Child implements Histogram {
    private final double[] bounds;
    /**
     * Per bucket, the largest number of nanoseconds {@code n} whose {@code n / 1e9} seconds the bucket holds
     * ({@code n / 1e9 <= bound}): bucketing nanoseconds compares integers, with no division, and lands every value in
     * the same bucket as its seconds would.
     */
    private final long[] nanosBounds;
    private final Labels labels;
    private final AtomicLongArray counts;
    private final DoubleAdder sum = new DoubleAdder();

    Child(double[] bounds, Labels labels) {
      this.bounds = bounds;
      this.labels = labels;
      this.counts = new AtomicLongArray(bounds.length);
      this.nanosBounds = new long[bounds.length];
      for (int i = 0; i < bounds.length; i++) {
        nanosBounds[i] = nanosAtMost(bounds[i]);
      }
    }

    /** The largest {@code n} with {@code n / 1e9 <= seconds} (as doubles), within the range of a long. */
    static long nanosAtMost(double seconds) {
      if (seconds * 1e9 >= Long.MAX_VALUE) {
        return Long.MAX_VALUE;
      }
      if (seconds * 1e9 <= Long.MIN_VALUE) {
        return Long.MIN_VALUE;
      }
      long n = (long) Math.floor(seconds * 1e9);
      while (n / 1e9 > seconds) {
        n--;
      }
      while (n + 1 > n && (n + 1) / 1e9 <= seconds) {
        n++;
      }
      return n;
    }

    @Override
    public void observe(double value) {
      counts.getAndIncrement(bucket(value));
      sum.add(value);
    }

    @Override
    public void observeNanos(long nanos) {
      counts.getAndIncrement(bucketOfNanos(nanos));
      sum.add(nanos / 1e9);
    }

    /**
     * The values in bulk: one atomic addition per run of consecutive values in the same bucket (a batch of attempt
     * durations mostly shares one) and one to the sum (their total in nanoseconds, converted once).
     */
    @Override
    public void observeNanos(long[] nanos, int count) {
      java.util.Objects.checkFromToIndex(0, count, nanos.length);
      if (count == 0) {
        return;
      }
      long total = 0;
      for (int i = 0; i < count; i++) {
        total += nanos[i];
      }
      countRuns(nanos, count, true);
      sum.add(total / 1e9);
    }

    /** The plain values in bulk, as {@link #observeNanos(long[], int)}: one atomic addition per run of a bucket. */
    @Override
    public void observe(long[] values, int count) {
      java.util.Objects.checkFromToIndex(0, count, values.length);
      if (count == 0) {
        return;
      }
      double total = 0;
      for (int i = 0; i < count; i++) {
        total += values[i];
      }
      countRuns(values, count, false);
      sum.add(total);
    }

    /**
     * Adds the bucket counts of the first {@code count} values (nanoseconds or plain values), one atomic addition per
     * run of consecutive values in the same bucket; {@code count} is at least 1.
     */
    private void countRuns(long[] values, int count, boolean nanos) {
      int run = -1;
      long runLength = 0;
      for (int i = 0; i < count; i++) {
        int b = nanos ? bucketOfNanos(values[i]) : bucket(values[i]);
        if (b != run) {
          if (runLength > 0) {
            counts.getAndAdd(run, runLength);
          }
          run = b;
          runLength = 0;
        }
        runLength++;
      }
      counts.getAndAdd(run, runLength);
    }

    /** The bucket of {@code nanos} nanoseconds: the same as {@link #bucket}'s of its seconds. */
    private int bucketOfNanos(long nanos) {
      long[] b = nanosBounds;
      if (nanos <= b[0]) {
        return 0;
      }
      int lo = 1;
      int hi = b.length - 1;
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (nanos <= b[mid]) {
          hi = mid;
        } else {
          lo = mid + 1;
        }
      }
      return lo;
    }

    /** The first bound {@code >= value} (Prometheus buckets are "less than or equal"); NaN lands in +Inf. */
    private int bucket(double value) {
      double[] b = bounds;
      if (value <= b[0]) {
        return 0;
      }
      int lo = 1;
      int hi = b.length - 1;
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (value <= b[mid]) {
          hi = mid;
        } else {
          lo = mid + 1;
        }
      }
      return lo;
    }

    HistogramSnapshot.HistogramDataPointSnapshot snapshot() {
      long[] c = new long[counts.length()];
      for (int i = 0; i < c.length; i++) {
        c[i] = counts.get(i);
      }
      return new HistogramSnapshot.HistogramDataPointSnapshot(ClassicHistogramBuckets.of(bounds.clone(), c),
          sum.sum(), labels, Exemplars.EMPTY, 0L);
    }

    @Override
    public String toString() {
      return "histogram " + labels + " " + Arrays.toString(bounds);
    }
  }
}
