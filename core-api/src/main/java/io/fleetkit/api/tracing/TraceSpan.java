package io.fleetkit.api.tracing;

import java.util.Map;

/** An operation being traced. Used by one thread at a time; {@link #end()} exactly once. */
public interface TraceSpan {
  /** A span that records nothing. */
  TraceSpan NOOP = new TraceSpan() {
    @Override
    public TraceSpan attribute(String key, String value) {
      return this;
    }

    @Override
    public TraceSpan attribute(String key, long value) {
      return this;
    }

    @Override
    public void error(String message) { }

    @Override
    public void end() { }

    @Override
    public Map<String, String> context() {
      return Map.of();
    }

    @Override
    public boolean isRecording() {
      return false;
    }
  };

  /** Sets a string attribute. */
  TraceSpan attribute(String key, String value);

  /** Sets an integer attribute. */
  TraceSpan attribute(String key, long value);

  /** Marks the span failed with {@code message}. */
  void error(String message);

  /** Ends the span. */
  void end();

  /**
   * Whether this span records what is set on it. A span that a sampler dropped does not, and neither would its
   * children (parent-based sampling), so callers skip its attributes and child spans: an unsampled attempt costs one
   * span start. True unless the implementation knows otherwise.
   */
  default boolean isRecording() {
    return true;
  }

  /** This span's W3C trace context ({@code traceparent}, maybe {@code tracestate}); empty when not recording. */
  Map<String, String> context();
}
