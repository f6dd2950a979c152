package io.fleetkit.scheduler;

import static io.fleetkit.scheduler.testing.Fixtures.node;
import static io.fleetkit.scheduler.testing.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.api.tracing.TraceSpan;
import io.fleetkit.api.tracing.Tracing;
import io.fleetkit.observability.otel.OpenTelemetryTracing;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Spans of scheduling attempts through OpenTelemetry, continuing the trace that created the pod. */
final class SchedulerTracingTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
  private final OpenTelemetry otel = OpenTelemetrySdk.builder().setTracerProvider(SdkTracerProvider.builder()
      .addSpanProcessor(SimpleSpanProcessor.create(exporter)).build()).build();

  private static String attr(SpanData s, String key) {
    return s.getAttributes().get(AttributeKey.stringKey(key));
  }

  @Test
  void attempt_continuesThePodsCreationTrace_withAChildPerExtensionPoint() {
    Tracing tracing = OpenTelemetryTracing.of(otel);
    TraceSpan creation = tracing.start("create pod", (TraceSpan) null);
    String traceparent = creation.context().get("traceparent");
    creation.end();
    assertThat(traceparent).matches("00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}");
    try (Scheduler s = Scheduler.builder().clock(clock).tracing(tracing).build()) {
      s.addNode(node("n1", 1000, 8192, 110));
      s.addNode(node("n2", 1000, 8192, 110));
      Pod p = pod("web", 100, 10);
      s.addPod(p.toBuilder().metadata(p.metadata().toBuilder()
          .annotations(java.util.Map.of(Tracing.TRACEPARENT_ANNOTATION, traceparent)).build()).build());
      s.addPod(pod("huge", 5000, 10));
      assertThat(s.runUntilIdle()).hasSize(2);
    }
    List<SpanData> spans = exporter.getFinishedSpanItems();
    SpanData created = spans.stream().filter(x -> x.getName().equals("create pod")).findFirst().orElseThrow();
    List<SpanData> attempts = spans.stream().filter(x -> x.getName().equals(Tracing.SPAN_SCHEDULE)).toList();
    assertThat(attempts).hasSize(2);
    SpanData web = attempts.stream().filter(x -> "web".equals(attr(x, "k8s.pod.name"))).findFirst().orElseThrow();
    assertThat(web.getTraceId()).isEqualTo(created.getTraceId());
    assertThat(web.getParentSpanId()).isEqualTo(created.getSpanId());
    assertThat(attr(web, "fleetkit.result")).isEqualTo("Success");
    assertThat(attr(web, "k8s.node.name")).isIn("n1", "n2");
    assertThat(spans).filteredOn(x -> x.getParentSpanId().equals(web.getSpanId())).extracting(SpanData::getName)
        .containsExactly("PreFilter", "Filter", "PreScore", "Score", "Reserve", "Permit", "PreBind", "Bind",
            "PostBind");

    SpanData huge = attempts.stream().filter(x -> "huge".equals(attr(x, "k8s.pod.name"))).findFirst().orElseThrow();
    assertThat(huge.getTraceId()).as("no annotation: a trace of its own").isNotEqualTo(created.getTraceId());
    assertThat(attr(huge, "fleetkit.result")).isEqualTo("UnschedulableAndUnresolvable");
    assertThat(attr(huge, "fleetkit.rejected_by")).isEqualTo("NodeResourcesFit");
  }

  @Test
  void ratioSampler_unsampledAttemptsOpenNoChildren_aSampledCreationTraceIsContinued() {
    InMemorySpanExporter out = InMemorySpanExporter.create();
    OpenTelemetry sampled = OpenTelemetrySdk.builder().setTracerProvider(SdkTracerProvider.builder()
        .setSampler(Sampler.parentBased(Sampler.traceIdRatioBased(0.0)))
        .addSpanProcessor(SimpleSpanProcessor.create(out)).build()).build();
    // the creating operation was traced (its own tracer samples everything): the attempt follows its parent
    TraceSpan creation = OpenTelemetryTracing.of(otel).start("create pod", (TraceSpan) null);
    String traceparent = creation.context().get("traceparent");
    creation.end();
    Tracing tracing = OpenTelemetryTracing.of(sampled);
    TraceSpan dropped = tracing.start(Tracing.SPAN_SCHEDULE, (TraceSpan) null);
    assertThat(dropped.isRecording()).as("ratio 0 drops a root span").isFalse();
    dropped.end();
    try (Scheduler s = Scheduler.builder().clock(clock).tracing(tracing).build()) {
      s.addNode(node("n1", 1000, 8192, 110));
      for (int i = 0; i < 5; i++) {
        s.addPod(pod("unsampled-" + i, 100, 10));
      }
      Pod p = pod("sampled", 100, 10);
      s.addPod(p.toBuilder().metadata(p.metadata().toBuilder()
          .annotations(java.util.Map.of(Tracing.TRACEPARENT_ANNOTATION, traceparent)).build()).build());
      assertThat(s.runUntilIdle()).hasSize(6).allMatch(ScheduleResult::isBound);
    }
    List<SpanData> spans = out.getFinishedSpanItems();
    SpanData attempt = spans.stream().filter(x -> x.getName().equals(Tracing.SPAN_SCHEDULE)).findFirst()
        .orElseThrow();
    assertThat(spans).filteredOn(x -> x.getName().equals(Tracing.SPAN_SCHEDULE)).hasSize(1);
    assertThat(attr(attempt, "k8s.pod.name")).isEqualTo("sampled");
    assertThat(spans).extracting(SpanData::getName).containsExactlyInAnyOrder(Tracing.SPAN_SCHEDULE, "PreFilter",
        "Filter", "Reserve", "Permit", "PreBind", "Bind", "PostBind");
    assertThat(spans).allMatch(x -> x.getTraceId().equals(attempt.getTraceId()));
  }

  @Test
  void noSdk_apiIsANoOp_andSchedulingWorks() {
    Tracing api = OpenTelemetryTracing.of(OpenTelemetry.noop());
    assertThat(api.enabled()).as("the API without an SDK records nothing").isFalse();
    try (Scheduler s = Scheduler.builder().clock(clock).tracing(api)
        .build()) {
      s.addNode(node("n1", 1000, 8192, 110));
      s.addPod(pod("web", 100, 10));
      assertThat(s.scheduleOne().isBound()).isTrue();
    }
    assertThat(exporter.getFinishedSpanItems()).isEmpty();
  }

  @Test
  void sdkWithoutSpanProcessor_isNotEnabled_withOne_isAndRecords() {
    OpenTelemetry bare = OpenTelemetrySdk.builder().setTracerProvider(SdkTracerProvider.builder().build()).build();
    assertThat(OpenTelemetryTracing.of(bare).enabled()).as("an SDK without a processor hands out the no-op tracer")
        .isFalse();
    Tracing tracing = OpenTelemetryTracing.of(otel);
    assertThat(tracing.enabled()).isTrue();
    try (Scheduler s = Scheduler.builder().clock(clock).tracing(tracing).build()) {
      s.addNode(node("n1", 1000, 8192, 110));
      s.addPod(pod("web", 100, 10));
      assertThat(s.scheduleOne().isBound()).isTrue();
    }
    assertThat(exporter.getFinishedSpanItems()).extracting(SpanData::getName).contains(Tracing.SPAN_SCHEDULE);
  }
}
