package io.fleetkit.reconcile;

import io.fleetkit.api.time.ManualClock;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.observability.micrometer.MicrometerMetrics;
import io.fleetkit.observability.prometheus.Exposition;
import io.fleetkit.reconcile.metrics.ControllerMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * controller-runtime's controller metrics: names, labels and buckets from {@code kubernetes-sigs/controller-runtime
 * pkg/internal/controller/metrics/metrics.go}; result labels from {@code pkg/internal/controller/controller.go}
 * ({@code reconcileHandler}).
 */
final class ControllerMetricsTest {
  /** name, type, labels, from controller-runtime's metrics.go. */
  private static final List<List<String>> UPSTREAM = List.of(
      List.of("controller_runtime_reconcile_total", "COUNTER", "controller,result"),
      List.of("controller_runtime_reconcile_errors_total", "COUNTER", "controller"),
      List.of("controller_runtime_reconcile_time_seconds", "HISTOGRAM", "controller"),
      List.of("controller_runtime_max_concurrent_reconciles", "GAUGE", "controller"),
      List.of("controller_runtime_active_workers", "GAUGE", "controller"));

  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().directDelivery().build();
  private final PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void descriptors_matchUpstream() {
    assertThat(ControllerMetrics.ALL.stream().map(d -> List.of(d.name(), d.type().name(),
        String.join(",", d.labelNames()))).toList()).isEqualTo(UPSTREAM);
    assertThat(ControllerMetrics.RECONCILE_TIME_BUCKETS).hasSize(40).startsWith(0.005, 0.01, 0.025, 0.05, 0.1)
        .endsWith(15.0, 20.0, 25.0, 30.0, 40.0, 50.0, 60.0);
  }

  @Test
  void reconciles_countedByResultWithErrorsAndQueueMetricsUnderTheControllerName() throws Exception {
    store.create(Gadget.of("ns", "ok", 1));
    store.create(Gadget.of("ns", "boom", 2));
    store.create(Gadget.of("ns", "again", 3));
    store.create(Gadget.of("ns", "later", 4));
    try (Controller<Gadget> c = Controller.builder(store, Gadget.class).name("gadgets").stepping().clock(clock)
        .metrics(MicrometerMetrics.of(prometheus)).reconciler(ctx -> switch (ctx.key().name()) {
          case "boom" -> throw new IllegalStateException("fails");
          case "again" -> Result.requeue();
          case "later" -> Result.requeueAfter(Duration.ofMinutes(1));
          default -> Result.done();
        }).build()) {
      c.start().get();
      for (int i = 0; i < 4; i++) {
        assertThat(c.runOnce()).isTrue();
      }
      Exposition e = Exposition.parse(prometheus.scrape());
      for (String r : List.of("success", "error", "requeue", "requeue_after")) {
        assertThat(e.value("controller_runtime_reconcile_total", Map.of("controller", "gadgets", "result", r)))
            .as(r).contains(1.0);
      }
      assertThat(e.value("controller_runtime_reconcile_errors_total", Map.of("controller", "gadgets")))
          .contains(1.0);
      assertThat(e.value("controller_runtime_reconcile_time_seconds_count", Map.of("controller", "gadgets")))
          .contains(4.0);
      assertThat(e.value("controller_runtime_active_workers", Map.of("controller", "gadgets"))).contains(0.0);
      assertThat(e.value("workqueue_adds_total", Map.of("name", "gadgets"))).contains(4.0);
      for (List<String> u : UPSTREAM) {
        String series = u.get(1).equals("HISTOGRAM") ? u.get(0) + "_count" : u.get(0);
        assertThat(String.join(",", e.labelNames(series))).as(series).isEqualTo(u.get(2));
      }
    }
  }

  @Test
  void failingReconcile_recordsBackOffEventOnTheObject() throws Exception {
    store.create(Gadget.of("ns", "boom", 2));
    List<String> events = new java.util.concurrent.CopyOnWriteArrayList<>();
    io.fleetkit.api.events.EventRecorder recorder = (regarding, related, type, reason, action, note) ->
        events.add(regarding.name() + " " + type + " " + reason + " " + action + ": " + note);
    try (Controller<Gadget> c = Controller.builder(store, Gadget.class).name("gadgets").stepping().clock(clock)
        .events(recorder).reconciler(ctx -> {
          throw new IllegalStateException("disk full");
        }).build()) {
      c.start().get();
      assertThat(c.runOnce()).isTrue();
    }
    assertThat(events).containsExactly(
        "boom Warning BackOff Reconcile: controller gadgets: reconcile failed, retrying with backoff: disk full");
  }

  @Test
  void noRegistry_noSeries() throws Exception {
    store.create(Gadget.of("ns", "ok", 1));
    try (Controller<Gadget> c = Controller.builder(store, Gadget.class).stepping().clock(clock)
        .reconciler(ctx -> Result.done()).build()) {
      c.start().get();
      c.runUntilIdle();
    }
    assertThat(Exposition.parse(prometheus.scrape()).samples()).isEmpty();
  }
}
