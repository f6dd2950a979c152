package io.fleetkit.observability.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.metrics.Histogram;
import io.fleetkit.api.metrics.MetricDescriptor;
import io.fleetkit.api.metrics.MetricsRegistry;
import io.fleetkit.observability.prometheus.Exposition;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Histograms on Micrometer's Prometheus registry (its own collectors) and on any other registry (timers). */
final class MicrometerMetricsTest {
  private static final MetricDescriptor SECONDS = MetricDescriptor.histogram("test_op_duration_seconds", "Op latency.",
      MetricDescriptor.exponentialBuckets(0.001, 2, 3), "result");
  private static final MetricDescriptor COUNTS = MetricDescriptor.histogram("test_op_attempts", "Attempts.",
      List.of(1.0, 2.0, 4.0));

  @Test
  void prometheusRegistry_histogramHasUpstreamBucketsCountSumAndNoMax() {
    PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    Histogram h = MicrometerMetrics.of(prometheus).histogram(SECONDS, "ok");
    h.observe(0.0005);
    h.observe(0.001); // on a bound: counted in it ("less than or equal")
    h.observeNanos(3_000_000);
    h.observe(100);
    String text = prometheus.scrape();
    Exposition e = Exposition.parse(text);
    Map<String, String> ok = Map.of("result", "ok");
    assertThat(e.types()).containsEntry("test_op_duration_seconds", "histogram");
    assertThat(e.bucketBounds("test_op_duration_seconds", ok)).containsExactly(0.001, 0.002, 0.004,
        Double.POSITIVE_INFINITY);
    assertThat(List.of("0.001", "0.002", "0.004", "+Inf").stream()
        .map(le -> e.value("test_op_duration_seconds_bucket", Map.of("result", "ok", "le", le)).orElseThrow())
        .toList()).containsExactly(2.0, 2.0, 3.0, 4.0);
    assertThat(e.value("test_op_duration_seconds_count", ok)).contains(4.0);
    assertThat(e.value("test_op_duration_seconds_sum", ok).orElseThrow()).isCloseTo(100.0045,
        org.assertj.core.data.Offset.offset(1e-9));
    assertThat(text).contains("# HELP test_op_duration_seconds Op latency.").doesNotContain("_max");
  }

  /** A bulk observation is the same as the single ones: every bucket, the count and the sum (to rounding). */
  @net.jqwik.api.Property(tries = 200)
  void prometheusRegistry_bulkNanos_sameBucketsCountAndSumAsOneByOne(
      @net.jqwik.api.ForAll @net.jqwik.api.constraints.Size(max = 80)
      List<@net.jqwik.api.constraints.LongRange(min = 0, max = 20_000_000) Long> nanos) {
    PrometheusMeterRegistry single = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    PrometheusMeterRegistry bulk = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    Histogram one = MicrometerMetrics.of(single).histogram(SECONDS, "ok");
    Histogram all = MicrometerMetrics.of(bulk).histogram(SECONDS, "ok");
    long[] values = new long[nanos.size() + 3];
    for (int i = 0; i < nanos.size(); i++) {
      one.observeNanos(nanos.get(i));
      values[i] = nanos.get(i);
    }
    values[nanos.size()] = 99_999_999; // held beyond count: not observed
    all.observeNanos(values, nanos.size());
    Exposition a = Exposition.parse(single.scrape());
    Exposition b = Exposition.parse(bulk.scrape());
    Map<String, String> ok = Map.of("result", "ok");
    for (String le : List.of("0.001", "0.002", "0.004", "+Inf")) {
      Map<String, String> bucket = Map.of("result", "ok", "le", le);
      assertThat(b.value("test_op_duration_seconds_bucket", bucket)).as(le)
          .isEqualTo(a.value("test_op_duration_seconds_bucket", bucket));
    }
    assertThat(b.value("test_op_duration_seconds_count", ok)).contains((double) nanos.size());
    assertThat(b.value("test_op_duration_seconds_sum", ok).orElseThrow())
        .isCloseTo(a.value("test_op_duration_seconds_sum", ok).orElseThrow(), org.assertj.core.data.Offset.offset(1e-9));
    assertThatThrownBy(() -> all.observeNanos(values, values.length + 1))
        .isInstanceOf(IndexOutOfBoundsException.class);
  }

  /**
   * Nanoseconds are bucketed by integer comparison: a duration lands in the bucket its seconds ({@code nanos / 1e9})
   * land in, also a nanosecond either side of a bound that is no whole number of nanoseconds (kube's plugin buckets,
   * 1e-5·1.5^k).
   */
  @net.jqwik.api.Property(tries = 300)
  void prometheusRegistry_nanos_landInTheBucketOfTheirSeconds(
      @net.jqwik.api.ForAll @net.jqwik.api.constraints.IntRange(min = 0, max = 19) int bound,
      @net.jqwik.api.ForAll @net.jqwik.api.constraints.IntRange(min = -2, max = 2) int delta) {
    List<Double> buckets = MetricDescriptor.exponentialBuckets(0.00001, 1.5, 20);
    MetricDescriptor plugin = MetricDescriptor.histogram("test_plugin_duration_seconds", "Plugin.", buckets, "via");
    PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    MetricsRegistry m = MicrometerMetrics.of(prometheus);
    long nanos = Math.round(buckets.get(bound) * 1e9) + delta;
    m.histogram(plugin, "nanos").observeNanos(nanos);
    m.histogram(plugin, "bulk").observeNanos(new long[] {nanos}, 1);
    m.histogram(plugin, "seconds").observe(nanos / 1e9);
    Exposition e = Exposition.parse(prometheus.scrape());
    for (double le : buckets) {
      String l = Double.toString(le);
      Optional<Double> seconds = e.value("test_plugin_duration_seconds_bucket", Map.of("via", "seconds", "le", l));
      assertThat(seconds).as("le %s", l).isPresent();
      assertThat(e.value("test_plugin_duration_seconds_bucket", Map.of("via", "nanos", "le", l))).as("le %s", l)
          .isEqualTo(seconds);
      assertThat(e.value("test_plugin_duration_seconds_bucket", Map.of("via", "bulk", "le", l))).as("le %s", l)
          .isEqualTo(seconds);
    }
  }

  /** Plain values in bulk: the same buckets, count and sum as one by one; values held beyond the count are left out. */
  @net.jqwik.api.Property(tries = 100)
  void prometheusRegistry_bulkValues_sameBucketsCountAndSumAsOneByOne(
      @net.jqwik.api.ForAll @net.jqwik.api.constraints.Size(max = 40)
      List<@net.jqwik.api.constraints.LongRange(min = 0, max = 9) Long> plain) {
    PrometheusMeterRegistry single = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    PrometheusMeterRegistry bulk = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    Histogram one = MicrometerMetrics.of(single).histogram(COUNTS);
    long[] values = new long[plain.size() + 1];
    for (int i = 0; i < plain.size(); i++) {
      one.observe(plain.get(i));
      values[i] = plain.get(i);
    }
    values[plain.size()] = 3; // held beyond count: not observed
    MicrometerMetrics.of(bulk).histogram(COUNTS).observe(values, plain.size());
    Exposition a = Exposition.parse(single.scrape());
    Exposition b = Exposition.parse(bulk.scrape());
    for (String le : List.of("1.0", "2.0", "4.0", "+Inf")) {
      assertThat(b.value("test_op_attempts_bucket", Map.of("le", le))).as(le)
          .isEqualTo(a.value("test_op_attempts_bucket", Map.of("le", le)));
    }
    assertThat(b.value("test_op_attempts_count", Map.of())).contains((double) plain.size());
    assertThat(b.value("test_op_attempts_sum", Map.of())).isEqualTo(a.value("test_op_attempts_sum", Map.of()));
  }

  @Test
  void prometheusRegistry_twoAdaptersShareOneSeries_aMismatchedDescriptorIsRefused() {
    PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    MicrometerMetrics.of(prometheus).histogram(COUNTS).observe(3);
    MicrometerMetrics.of(prometheus).histogram(COUNTS).observe(1);
    Exposition e = Exposition.parse(prometheus.scrape());
    assertThat(e.value("test_op_attempts_count", Map.of())).contains(2.0);
    assertThat(e.value("test_op_attempts_bucket", Map.of("le", "1.0"))).contains(1.0);
    assertThat(e.value("test_op_attempts_bucket", Map.of("le", "4.0"))).contains(2.0);
    MetricDescriptor other = MetricDescriptor.histogram("test_op_attempts", "Attempts.", List.of(1.0, 10.0));
    assertThatThrownBy(() -> MicrometerMetrics.of(prometheus).histogram(other))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("test_op_attempts");
  }

  @Test
  void otherRegistry_histogramIsATimerOrSummary() {
    SimpleMeterRegistry simple = new SimpleMeterRegistry();
    MetricsRegistry m = MicrometerMetrics.of(simple);
    m.histogram(SECONDS, "ok").observeNanos(2_000_000);
    m.histogram(SECONDS, "ok").observe(0.5);
    m.histogram(COUNTS).observe(2);
    assertThat(simple.get("test.op.duration").tag("result", "ok").timer().count()).isEqualTo(2);
    assertThat(simple.get("test.op.attempts").summary().totalAmount()).isEqualTo(2.0);
  }
}
