package io.fleetkit.reconcile.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.metrics.MetricDescriptor;
import io.fleetkit.api.metrics.MetricType;
import io.fleetkit.observability.micrometer.MicrometerMetrics;
import io.fleetkit.observability.prometheus.Exposition;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.reconcile.RateLimiters;
import io.fleetkit.reconcile.RateLimitingQueue;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The work-queue metrics against upstream: names, types, labels and buckets from {@code kubernetes/component-base
 * metrics/prometheus/workqueue/metrics.go}; semantics from {@code kubernetes/client-go util/workqueue/queue.go},
 * {@code delaying_queue.go} and {@code metrics.go}.
 */
final class WorkQueueMetricsTest {
  /** name, type, labels, as component-base registers them (buckets: ExponentialBuckets(10e-9, 10, 10)). */
  private static final List<List<String>> UPSTREAM = List.of(
      List.of("workqueue_depth", "GAUGE", "name"),
      List.of("workqueue_adds_total", "COUNTER", "name"),
      List.of("workqueue_queue_duration_seconds", "HISTOGRAM", "name"),
      List.of("workqueue_work_duration_seconds", "HISTOGRAM", "name"),
      List.of("workqueue_unfinished_work_seconds", "GAUGE", "name"),
      List.of("workqueue_longest_running_processor_seconds", "GAUGE", "name"),
      List.of("workqueue_retries_total", "COUNTER", "name"));
  private static final Map<String, String> Q = Map.of("name", "q");

  private final ManualClock clock = ManualClock.atEpoch2026();
  private final PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

  private RateLimitingQueue<String> queue(String name) {
    return RateLimitingQueue.create(clock, RateLimiters.itemExponential(Duration.ofSeconds(1),
        Duration.ofSeconds(10)), name, MicrometerMetrics.of(prometheus));
  }

  private Exposition scrape() {
    return Exposition.parse(prometheus.scrape());
  }

  @Test
  void descriptors_matchUpstreamNamesTypesLabelsAndBuckets() {
    assertThat(WorkQueueMetrics.ALL).hasSameSizeAs(UPSTREAM);
    for (int i = 0; i < UPSTREAM.size(); i++) {
      MetricDescriptor d = WorkQueueMetrics.ALL.get(i);
      assertThat(List.of(d.name(), d.type().name(), String.join(",", d.labelNames()))).isEqualTo(UPSTREAM.get(i));
    }
    assertThat(WorkQueueMetrics.QUEUE_DURATION.buckets()).containsExactly(1e-08, 1e-07, 1e-06,
        9.999999999999999e-06, 9.999999999999999e-05, 0.001, 0.01, 0.1, 1.0, 10.0);
    assertThat(WorkQueueMetrics.WORK_DURATION.buckets()).isEqualTo(WorkQueueMetrics.QUEUE_DURATION.buckets());
    assertThat(WorkQueueMetrics.ALL.stream().filter(d -> d.type() == MetricType.HISTOGRAM)).hasSize(2);
  }

  @Test
  void scrape_exposesEveryUpstreamSeriesWithItsLabels() throws Exception {
    RateLimitingQueue<String> q = queue("q");
    q.add("a");
    q.get();
    q.done("a");
    Exposition e = scrape();
    for (List<String> u : UPSTREAM) {
      String series = u.get(1).equals("HISTOGRAM") ? u.get(0) + "_count" : u.get(0);
      assertThat(e.samples(series)).as(series).isNotEmpty();
      assertThat(e.labelNames(series)).as(series).containsExactly(u.get(2));
    }
    assertThat(e.bucketBounds("workqueue_queue_duration_seconds", Q)).hasSize(11).last()
        .isEqualTo(Double.POSITIVE_INFINITY);
  }

  @Test
  void addGetDone_countsDedupedAddsDepthAndDurations() throws Exception {
    RateLimitingQueue<String> q = queue("q");
    q.add("a");
    q.add("a"); // deduplicated: no second add
    q.add("b");
    Exposition e = scrape();
    assertThat(e.value("workqueue_adds_total", Q)).contains(2.0);
    assertThat(e.value("workqueue_depth", Q)).contains(2.0);

    clock.advance(Duration.ofSeconds(1));
    assertThat(q.get()).contains("a");
    q.add("a"); // re-added while processing: counts as an add now, queued again on done
    clock.advance(Duration.ofSeconds(2));
    q.done("a");
    e = scrape();
    assertThat(e.value("workqueue_adds_total", Q)).contains(3.0);
    assertThat(e.value("workqueue_depth", Q)).contains(2.0);
    assertThat(e.value("workqueue_queue_duration_seconds_count", Q)).contains(1.0);
    assertThat(e.value("workqueue_queue_duration_seconds_sum", Q)).contains(1.0);
    assertThat(e.value("workqueue_work_duration_seconds_count", Q)).contains(1.0);
    assertThat(e.value("workqueue_work_duration_seconds_sum", Q)).contains(2.0);
    assertThat(e.value("workqueue_queue_duration_seconds_bucket", Map.of("name", "q", "le", "1.0"))).contains(1.0);
  }

  @Test
  void unfinishedWork_isRecomputedEvery500ms() throws Exception {
    RateLimitingQueue<String> q = queue("q");
    q.add("a");
    q.add("b");
    q.get();
    clock.advance(Duration.ofMillis(500));
    q.get();
    clock.advance(Duration.ofMillis(500));
    Exposition e = scrape();
    // a has run 1 s, b 0.5 s
    assertThat(e.value("workqueue_unfinished_work_seconds", Q)).contains(1.5);
    assertThat(e.value("workqueue_longest_running_processor_seconds", Q)).contains(1.0);
    q.done("a");
    q.done("b");
    clock.advance(Duration.ofMillis(500));
    assertThat(scrape().value("workqueue_unfinished_work_seconds", Q)).contains(0.0);
    q.shutDown();
    assertThat(clock.pendingTasks()).isZero();
  }

  @Test
  void retries_countEveryAddAfterIncludingRateLimitedAndZeroDelay() {
    RateLimitingQueue<String> q = queue("q");
    q.addAfter("a", Duration.ofSeconds(5));
    q.addAfter("b", Duration.ZERO);
    q.addRateLimited("c");
    assertThat(scrape().value("workqueue_retries_total", Q)).contains(3.0);
  }

  @Test
  void emptyName_recordsNothing() throws Exception {
    RateLimitingQueue<String> q = queue("");
    q.add("a");
    q.get();
    assertThat(scrape().samples()).noneMatch(s -> s.name().startsWith("workqueue_"));
    assertThat(clock.pendingTasks()).isZero();
  }
}
