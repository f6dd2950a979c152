package io.fleetkit.api.tracing;

import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Starts spans. Span and attribute names FleetKit uses are constants here. Thread-safe.
 *
 * <p>{@link #NOOP} (the default everywhere) starts nothing; components given it skip their tracing code.
 */
public interface Tracing {
  /**
   * A pod annotation holding the W3C {@code traceparent} of the operation that created the pod; the scheduler
   * continues that trace, so a pod's creation and its binding are one trace.
   */
  String TRACEPARENT_ANNOTATION = "fleetkit.io/traceparent";
  /** One scheduling attempt of one pod. */
  String SPAN_SCHEDULE = "fleetkit.schedule";
  /** One reconcile of one key. */
  String SPAN_RECONCILE = "fleetkit.reconcile";

  /** Traces nothing; {@link #enabled()} is false. */
  Tracing NOOP = new Tracing() {
    @Override
    public TraceSpan start(String name, @Nullable TraceSpan parent) {
      return TraceSpan.NOOP;
    }

    @Override
    public TraceSpan start(String name, Map<String, String> remoteParent) {
      return TraceSpan.NOOP;
    }

    @Override
    public boolean enabled() {
      return false;
    }
  };

  /** Starts a span, a child of {@code parent} (a root when null). */
  TraceSpan start(String name, @Nullable TraceSpan parent);

  /**
   * Starts a span continuing a remote trace: {@code remoteParent} holds W3C {@code traceparent} (and maybe
   * {@code tracestate}); a root span when it holds none or an invalid one.
   */
  TraceSpan start(String name, Map<String, String> remoteParent);

  /** Whether anything is recorded. */
  default boolean enabled() {
    return true;
  }
}
