package io.fleetkit.observability.otel;

import io.fleetkit.api.tracing.TraceSpan;
import io.fleetkit.api.tracing.Tracing;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.TracerProvider;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * {@link Tracing} on the OpenTelemetry API: spans come from the tracer {@value #INSTRUMENTATION_NAME} of the given
 * {@link OpenTelemetry}; remote parents are read and contexts written with the W3C trace-context propagator. With
 * no SDK installed the API hands out non-recording spans and {@link #enabled()} is false (FleetKit then starts none);
 * with an SDK, a span its
 * sampler drops reports {@link TraceSpan#isRecording()} false, and FleetKit then opens no children under it and sets
 * no attributes on it. Thread-safe.
 */
public final class OpenTelemetryTracing implements Tracing {
  /** The instrumentation scope name of FleetKit's tracer. */
  public static final String INSTRUMENTATION_NAME = "io.fleetkit";

  private static final TextMapGetter<Map<String, String>> GETTER = new TextMapGetter<>() {
    @Override
    public Iterable<String> keys(Map<String, String> carrier) {
      return carrier.keySet();
    }

    @Override
    public @Nullable String get(@Nullable Map<String, String> carrier, String key) {
      return carrier == null ? null : carrier.get(key);
    }
  };

  private final Tracer tracer;
  /** Whether {@link #tracer} is the API's no-op tracer (see {@link #enabled()}). */
  private final boolean noop;

  private OpenTelemetryTracing(Tracer tracer) {
    this.tracer = tracer;
    this.noop = tracer.getClass() == TracerProvider.noop().get(INSTRUMENTATION_NAME).getClass();
  }

  /** Tracing through {@code openTelemetry}'s tracer provider. */
  public static Tracing of(OpenTelemetry openTelemetry) {
    return new OpenTelemetryTracing(Objects.requireNonNull(openTelemetry, "openTelemetry")
        .getTracer(INSTRUMENTATION_NAME));
  }

  /**
   * False when the tracer is the OpenTelemetry API's no-op tracer, which records nothing: the API without an SDK
   * ({@code OpenTelemetry.noop()}, or {@code GlobalOpenTelemetry} when no SDK was installed), or an SDK tracer provider
   * without any span processor (the SDK then hands out the API's no-op tracer). Components given a tracing that is
   * not enabled skip their tracing code, so such a set-up costs nothing per operation. Spans {@link #start started}
   * anyway are the API's non-recording ones.
   */
  @Override
  public boolean enabled() {
    return !noop;
  }

  @Override
  public TraceSpan start(String name, @Nullable TraceSpan parent) {
    var b = tracer.spanBuilder(name);
    if (parent instanceof OtelSpan p) {
      b.setParent(Context.root().with(p.span));
    } else {
      b.setNoParent();
    }
    return new OtelSpan(b.startSpan());
  }

  @Override
  public TraceSpan start(String name, Map<String, String> remoteParent) {
    Context parent = W3CTraceContextPropagator.getInstance().extract(Context.root(), remoteParent, GETTER);
    return new OtelSpan(tracer.spanBuilder(name).setParent(parent).startSpan());
  }

  private static final class OtelSpan implements TraceSpan {
    private final Span span;

    OtelSpan(Span span) {
      this.span = span;
    }

    @Override
    public TraceSpan attribute(String key, String value) {
      span.setAttribute(key, value);
      return this;
    }

    @Override
    public TraceSpan attribute(String key, long value) {
      span.setAttribute(key, value);
      return this;
    }

    @Override
    public void error(String message) {
      span.setStatus(StatusCode.ERROR, message);
    }

    @Override
    public void end() {
      span.end();
    }

    @Override
    public boolean isRecording() {
      return span.isRecording();
    }

    @Override
    public Map<String, String> context() {
      if (!span.getSpanContext().isValid()) {
        return Map.of();
      }
      Map<String, String> out = new HashMap<>();
      W3CTraceContextPropagator.getInstance().inject(Context.root().with(span), out, Map::put);
      return out;
    }
  }
}
