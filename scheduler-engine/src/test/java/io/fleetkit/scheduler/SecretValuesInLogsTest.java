package io.fleetkit.scheduler;

import static io.fleetkit.scheduler.testing.Fixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.events.ObjectReference;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.testing.CapturedLogs;
import io.fleetkit.api.testing.SecretFixtures;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.observability.micrometer.MicrometerMetrics;
import io.fleetkit.observability.otel.OpenTelemetryTracing;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * No secret value leaves the scheduler: a pod whose env holds the test secrets goes through an unschedulable attempt
 * with preemption, a failed binding (the binder throws) and a binding, with metrics, events and tracing on; neither the
 * results' messages, the events, the Prometheus exposition, the spans' attributes nor any log line of this module's
 * whole test run ({@link CapturedLogs}; this class runs last) holds a value.
 */
@Order(Integer.MAX_VALUE)
final class SecretValuesInLogsTest {
  private static final List<String> VALUES = List.of(CapturedLogs.TEST_SECRET, CapturedLogs.TEST_TOKEN,
      CapturedLogs.TEST_CONFIG_SECRET);

  @Test
  void secretBearingPod_noValueInResultsEventsMetricsTracesOrLogs() {
    ManualClock clock = ManualClock.atEpoch2026();
    PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    InMemorySpanExporter spans = InMemorySpanExporter.create();
    OpenTelemetrySdk otel = OpenTelemetrySdk.builder().setTracerProvider(SdkTracerProvider.builder()
        .addSpanProcessor(SimpleSpanProcessor.create(spans)).build()).build();
    List<String> events = Collections.synchronizedList(new ArrayList<>());
    EventRecorder recorder = new EventRecorder() {
      @Override
      public void event(ObjectReference regarding, @Nullable ObjectReference related, String type, String reason,
          String action, String note) {
        events.add(regarding + " " + related + " " + type + " " + reason + " " + action + " " + note);
      }
    };
    AtomicInteger binds = new AtomicInteger();
    List<String> outputs = new ArrayList<>();
    try (Scheduler s = Scheduler.builder().clock(clock).seed(1).parallelism(1)
        .metrics(MicrometerMetrics.of(prometheus)).events(recorder).tracing(OpenTelemetryTracing.of(otel))
        .binder((pod, node) -> {
          if (binds.getAndIncrement() == 0) {
            throw new IllegalStateException("binding refused for " + pod.metadata().key());
          }
          return Status.success();
        }).build()) {
      s.addNode(node("n1", 1000, 8192, 110).toBuilder().unschedulable(true).build());
      Pod pod = SecretFixtures.pod("ns", "web");
      s.addPod(pod);
      ScheduleResult unschedulable = s.scheduleOne();
      assertThat(unschedulable.isBound()).isFalse();
      s.updateNode(node("n1", 1000, 8192, 110));
      clock.advance(java.time.Duration.ofMinutes(1));
      for (ScheduleResult r : s.runUntilIdle()) {
        outputs.add(r.toString());
      }
      clock.advance(java.time.Duration.ofMinutes(1));
      for (ScheduleResult r : s.runUntilIdle()) {
        outputs.add(r.toString());
      }
      outputs.add(unschedulable.toString());
      outputs.add(s.pending().toString());
    }
    assertThat(binds.get()).isEqualTo(2);
    assertThat(outputs).anyMatch(o -> o.contains("binder failed"));
    assertThat(events).anyMatch(e -> e.contains("Scheduled"));
    String exposition = prometheus.scrape();
    assertThat(exposition).contains("scheduler_schedule_attempts_total");
    List<String> spanText = spans.getFinishedSpanItems().stream().map(Object::toString).toList();
    assertThat(spanText).isNotEmpty();
    for (String v : VALUES) {
      assertThat(outputs).as("results").noneMatch(o -> o.contains(v));
      assertThat(events).as("events").noneMatch(e -> e.contains(v));
      assertThat(exposition).as("metrics").doesNotContain(v);
      assertThat(spanText).as("spans").noneMatch(t -> t.contains(v));
    }
    CapturedLogs.assertNoLeaks();
  }
}
