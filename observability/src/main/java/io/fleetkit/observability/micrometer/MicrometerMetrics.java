package io.fleetkit.observability.micrometer;

import io.fleetkit.api.metrics.Counter;
import io.fleetkit.api.metrics.Gauge;
import io.fleetkit.api.metrics.Histogram;
import io.fleetkit.api.metrics.MetricDescriptor;
import io.fleetkit.api.metrics.MetricType;
import io.fleetkit.api.metrics.MetricsRegistry;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link MetricsRegistry} on a Micrometer {@link MeterRegistry}, registering meters so that Micrometer's
 * Prometheus naming gives back each descriptor's exact name:
 * <ul>
 *   <li>a counter {@code x_y_total} is the Micrometer counter {@code x.y} (Prometheus adds {@code _total});
 *   <li>a gauge {@code x_y} is the gauge {@code x.y}, holding its value strongly;
 *   <li>on Micrometer's {@code PrometheusMeterRegistry}, a histogram is a collector of its Prometheus registry with
 *       exactly the descriptor's name, labels and buckets (and no {@code _max}): an observation is two atomic
 *       additions, where a Micrometer timer reads the clock twice ({@link PrometheusHistograms});
 *   <li>on any other registry, a histogram {@code x_y_seconds} is the timer {@code x.y} with the descriptor's buckets as service-level
 *       objectives (Prometheus adds {@code _seconds}; bounds are rounded to whole nanoseconds); any other histogram
 *       is the distribution summary {@code x.y} with the buckets as objectives (Micrometer rounds each observation
 *       up to a whole number before bucketing, so these suit integer counts such as victims or attempts).
 * </ul>
 * On registries other than Prometheus, Micrometer also exports a {@code _max} gauge beside each timer and summary;
 * kube has no such series. Its window is
 * one buffer long (Micrometer's default is three rotating buffers), so an observation updates one maximum, not
 * three: the largest value since the last reset, every two minutes.
 *
 * <p>Series are cached, so repeated look-ups return the same object. Thread-safe.
 */
public final class MicrometerMetrics implements MetricsRegistry {
  private final MeterRegistry registry;
  private final Map<List<String>, Object> series = new ConcurrentHashMap<>();

  /** Whether histograms are the Prometheus registry's own collectors ({@link PrometheusHistograms}). */
  private final boolean prometheus;

  private MicrometerMetrics(MeterRegistry registry) {
    this.registry = Objects.requireNonNull(registry, "registry");
    this.prometheus = isPrometheus(registry);
  }

  /**
   * Whether {@code registry} is Micrometer's Prometheus registry, checked by class name so that neither it nor
   * {@link PrometheusHistograms} is loaded when the optional Prometheus registry is absent.
   */
  private static boolean isPrometheus(MeterRegistry registry) {
    for (Class<?> c = registry.getClass(); c != null; c = c.getSuperclass()) {
      if (c.getName().equals("io.micrometer.prometheusmetrics.PrometheusMeterRegistry")) {
        return true;
      }
    }
    return false;
  }

  /** FleetKit metrics recorded into {@code registry}. */
  public static MetricsRegistry of(MeterRegistry registry) {
    return new MicrometerMetrics(registry);
  }

  /** The Micrometer meter name for a descriptor's Prometheus name (suffix the naming convention adds removed). */
  public static String meterName(MetricDescriptor d) {
    String n = d.name();
    if (d.type() == MetricType.COUNTER) {
      n = n.substring(0, n.length() - "_total".length());
    } else if (d.type() == MetricType.HISTOGRAM && d.isSeconds()) {
      n = n.substring(0, n.length() - "_seconds".length());
    }
    return n.replace('_', '.');
  }

  @Override
  public Counter counter(MetricDescriptor metric, String... labelValues) {
    check(metric, MetricType.COUNTER, labelValues);
    return (Counter) series.computeIfAbsent(key(metric, labelValues), k -> {
      io.micrometer.core.instrument.Counter c = io.micrometer.core.instrument.Counter.builder(meterName(metric))
          .description(metric.help()).tags(tags(metric, labelValues)).register(registry);
      return (Counter) amount -> {
        if (amount < 0) {
          throw new IllegalArgumentException("metric " + metric.name() + ": counter increment " + amount
              + " must not be negative");
        }
        c.increment(amount);
      };
    });
  }

  @Override
  public Gauge gauge(MetricDescriptor metric, String... labelValues) {
    check(metric, MetricType.GAUGE, labelValues);
    return (Gauge) series.computeIfAbsent(key(metric, labelValues), k -> {
      DoubleCell cell = new DoubleCell();
      io.micrometer.core.instrument.Gauge.builder(meterName(metric), cell, DoubleCell::get)
          .description(metric.help()).tags(tags(metric, labelValues)).strongReference(true).register(registry);
      return cell;
    });
  }

  @Override
  public Histogram histogram(MetricDescriptor metric, String... labelValues) {
    check(metric, MetricType.HISTOGRAM, labelValues);
    return (Histogram) series.computeIfAbsent(key(metric, labelValues), k -> {
      if (prometheus) {
        return PrometheusHistograms.histogram(registry, metric, labelValues);
      }
      if (metric.isSeconds()) {
        Duration[] slos = metric.buckets().stream().map(b -> Duration.ofNanos(Math.round(b * 1e9)))
            .toArray(Duration[]::new);
        Timer t = Timer.builder(meterName(metric)).description(metric.help()).tags(tags(metric, labelValues))
            .serviceLevelObjectives(slos).distributionStatisticBufferLength(1).register(registry);
        return new Histogram() {
          @Override
          public void observe(double seconds) {
            t.record(Math.round(seconds * 1e9), TimeUnit.NANOSECONDS);
          }

          @Override
          public void observeNanos(long nanos) {
            t.record(nanos, TimeUnit.NANOSECONDS);
          }
        };
      }
      double[] slos = metric.buckets().stream().mapToDouble(Double::doubleValue).toArray();
      DistributionSummary s = DistributionSummary.builder(meterName(metric)).description(metric.help())
          .tags(tags(metric, labelValues)).serviceLevelObjectives(slos).distributionStatisticBufferLength(1)
          .register(registry);
      return (Histogram) s::record;
    });
  }

  private static void check(MetricDescriptor metric, MetricType type, String[] labelValues) {
    Objects.requireNonNull(metric, "metric");
    if (metric.type() != type) {
      throw new IllegalArgumentException("metric " + metric.name() + " is a " + metric.type() + ", not a " + type);
    }
    metric.checkLabelValues(labelValues);
  }

  private static List<String> key(MetricDescriptor metric, String[] labelValues) {
    List<String> k = new ArrayList<>(labelValues.length + 1);
    k.add(metric.name());
    k.addAll(Arrays.asList(labelValues));
    return k;
  }

  private static List<Tag> tags(MetricDescriptor metric, String[] labelValues) {
    List<Tag> tags = new ArrayList<>(labelValues.length);
    for (int i = 0; i < labelValues.length; i++) {
      tags.add(Tag.of(metric.labelNames().get(i), labelValues[i]));
    }
    return tags;
  }

  @Override
  public String toString() {
    return "MicrometerMetrics{" + registry.getClass().getSimpleName() + "}";
  }

  /** A double updated atomically (set and add) and read by the Micrometer gauge. */
  private static final class DoubleCell implements Gauge {
    private final AtomicLong bits = new AtomicLong(Double.doubleToRawLongBits(0));

    @Override
    public void set(double value) {
      // an ordered store: a scrape on another thread sees it, without a full fence on the (scheduling) hot path
      bits.lazySet(Double.doubleToRawLongBits(value));
    }

    @Override
    public void add(double delta) {
      long prev;
      long next;
      do {
        prev = bits.get();
        next = Double.doubleToRawLongBits(Double.longBitsToDouble(prev) + delta);
      } while (!bits.compareAndSet(prev, next));
    }

    double get() {
      return Double.longBitsToDouble(bits.get());
    }
  }
}
