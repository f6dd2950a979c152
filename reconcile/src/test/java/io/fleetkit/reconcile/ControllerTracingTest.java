package io.fleetkit.reconcile;

import io.fleetkit.api.time.ManualClock;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.tracing.Tracing;
import io.fleetkit.observability.otel.OpenTelemetryTracing;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

/** A span per reconcile, and the MDC keys a reconciler's log lines carry. */
final class ControllerTracingTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().directDelivery().build();
  private final InMemorySpanExporter exporter = InMemorySpanExporter.create();

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void reconcile_spanPerKey_andMdcKeysDuringTheCallOnly() throws Exception {
    store.create(Gadget.of("ns", "ok", 1));
    store.create(Gadget.of("ns", "boom", 2));
    var otel = OpenTelemetrySdk.builder().setTracerProvider(SdkTracerProvider.builder()
        .addSpanProcessor(SimpleSpanProcessor.create(exporter)).build()).build();
    List<Map<String, String>> mdc = new CopyOnWriteArrayList<>();
    try (Controller<Gadget> c = Controller.builder(store, Gadget.class).name("gadgets").stepping().clock(clock)
        .tracing(OpenTelemetryTracing.of(otel)).reconciler(ctx -> {
          mdc.add(MDC.getCopyOfContextMap() == null ? Map.of() : MDC.getCopyOfContextMap());
          if (ctx.key().name().equals("boom")) {
            throw new IllegalStateException("fails");
          }
          return Result.done();
        }).build()) {
      c.start().get();
      c.runOnce();
      c.runOnce();
    }
    assertThat(mdc).hasSize(2).allSatisfy(m -> {
      assertThat(m).containsEntry("controller", "gadgets").containsKey("object");
      assertThat(m.get("reconcileID")).startsWith("gadgets-");
    });
    assertThat(mdc.get(0).get("reconcileID")).isNotEqualTo(mdc.get(1).get("reconcileID"));
    assertThat(MDC.get("controller")).as("cleared after the reconcile").isNull();

    List<SpanData> spans = exporter.getFinishedSpanItems();
    assertThat(spans).hasSize(2).allSatisfy(s -> {
      assertThat(s.getName()).isEqualTo(Tracing.SPAN_RECONCILE);
      assertThat(s.getAttributes().get(AttributeKey.stringKey("fleetkit.controller"))).isEqualTo("gadgets");
    });
    SpanData boom = spans.stream().filter(s -> "ns/boom".equals(s.getAttributes()
        .get(AttributeKey.stringKey("fleetkit.object")))).findFirst().orElseThrow();
    assertThat(boom.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
    assertThat(boom.getAttributes().get(AttributeKey.stringKey("fleetkit.result"))).isEqualTo("error");
  }
}
