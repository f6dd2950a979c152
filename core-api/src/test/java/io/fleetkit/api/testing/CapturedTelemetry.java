package io.fleetkit.api.testing;

import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.metrics.Counter;
import io.fleetkit.api.metrics.Gauge;
import io.fleetkit.api.metrics.Histogram;
import io.fleetkit.api.metrics.MetricDescriptor;
import io.fleetkit.api.metrics.MetricsRegistry;
import io.fleetkit.api.tracing.TraceSpan;
import io.fleetkit.api.tracing.Tracing;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;

/**
 * What a component reports besides its logs, captured as text for the secret scans of FleetKit's test suites: a
 * {@link MetricsRegistry} (every series: name and label values), an {@link EventRecorder} (every event: objects, type,
 * reason, action, note) and a {@link Tracing} (every span: name, attributes, error messages, remote parents), each to
 * be given to the component under test. {@link #assertNoSecrets()} fails when any of it holds a value
 * {@link CapturedLogs} scans for; {@link #metricNames()}, {@link #reasons()} and {@link #spanNames()} let a test also
 * check that what was reported is what the documentation lists. Thread-safe.
 */
public final class CapturedTelemetry {
  private final List<String> events = new CopyOnWriteArrayList<>();
  private final List<String> series = new CopyOnWriteArrayList<>();
  private final List<String> spans = new CopyOnWriteArrayList<>();
  private final Set<String> metricNames = ConcurrentHashMap.newKeySet();
  private final Set<String> reasons = ConcurrentHashMap.newKeySet();
  private final Set<String> spanNames = ConcurrentHashMap.newKeySet();

  private final MetricsRegistry metrics = new MetricsRegistry() {
    @Override
    public Counter counter(MetricDescriptor metric, String... labelValues) {
      seen(metric, labelValues);
      return amount -> { };
    }

    @Override
    public Gauge gauge(MetricDescriptor metric, String... labelValues) {
      seen(metric, labelValues);
      return new Gauge() {
        @Override
        public void set(double value) { }

        @Override
        public void add(double delta) { }
      };
    }

    @Override
    public Histogram histogram(MetricDescriptor metric, String... labelValues) {
      seen(metric, labelValues);
      return value -> { };
    }

    @Override
    public String toString() {
      return "CapturedTelemetry.metrics";
    }
  };

  private final EventRecorder recorder = (regarding, related, type, reason, action, note) -> {
    reasons.add(reason);
    events.add(regarding + " " + related + " " + type + " " + reason + " " + action + " " + note);
  };

  private final Tracing tracing = new Tracing() {
    @Override
    public TraceSpan start(String name, @Nullable TraceSpan parent) {
      return new Span(name);
    }

    @Override
    public TraceSpan start(String name, Map<String, String> remoteParent) {
      Span s = new Span(name);
      s.text.append(" parent=").append(remoteParent);
      return s;
    }
  };

  /** The registry to give the component; values are dropped, series are kept. */
  public MetricsRegistry metrics() {
    return metrics;
  }

  /** The recorder to give the component. */
  public EventRecorder events() {
    return recorder;
  }

  /** The tracing to give the component; every span records. */
  public Tracing tracing() {
    return tracing;
  }

  /** Metric names of the series the component asked for. */
  public Set<String> metricNames() {
    return Set.copyOf(metricNames);
  }

  /** Reasons of the events the component recorded. */
  public Set<String> reasons() {
    return Set.copyOf(reasons);
  }

  /** Names of the spans the component started. */
  public Set<String> spanNames() {
    return Set.copyOf(spanNames);
  }

  /** Everything captured, one line per series, event and ended or open span. */
  public List<String> lines() {
    List<String> out = new ArrayList<>(series);
    out.addAll(events);
    out.addAll(spans);
    return out;
  }

  /**
   * @throws AssertionError naming every captured line (secrets masked) that holds a value {@link CapturedLogs} scans
   *     for, or when nothing at all was captured (a scan of nothing proves nothing)
   */
  public void assertNoSecrets() {
    List<String> all = lines();
    if (all.isEmpty()) {
      throw new AssertionError("no metric series, event or span was captured: the component was given none of them");
    }
    List<String> leaks = new ArrayList<>();
    for (String line : all) {
      if (CapturedLogs.secretIn(line) != null) {
        leaks.add(CapturedLogs.mask(line));
      }
    }
    if (!leaks.isEmpty()) {
      throw new AssertionError(leaks.size() + " metric series, events or spans hold a secret value:\n"
          + String.join("\n", leaks));
    }
  }

  private void seen(MetricDescriptor metric, String[] labelValues) {
    metricNames.add(metric.name());
    StringBuilder b = new StringBuilder(metric.name()).append('{');
    for (int i = 0; i < labelValues.length; i++) {
      b.append(i == 0 ? "" : ",").append(metric.labelNames().get(i)).append("=\"").append(labelValues[i]).append('"');
    }
    series.add(b.append('}').toString());
  }

  private final class Span implements TraceSpan {
    final StringBuilder text = new StringBuilder();

    Span(String name) {
      spanNames.add(name);
      text.append("span ").append(name);
      synchronized (spans) { // its line, replaced on every change so that a span never ended is scanned too
        spans.add(text.toString());
        index = spans.size() - 1;
      }
    }

    private final int index;

    private synchronized void update() {
      spans.set(index, text.toString());
    }

    @Override
    public synchronized TraceSpan attribute(String key, String value) {
      text.append(' ').append(key).append('=').append(value);
      update();
      return this;
    }

    @Override
    public synchronized TraceSpan attribute(String key, long value) {
      text.append(' ').append(key).append('=').append(value);
      update();
      return this;
    }

    @Override
    public synchronized void error(String message) {
      text.append(" error=").append(message);
      update();
    }

    @Override
    public void end() { }

    @Override
    public Map<String, String> context() {
      return Map.of();
    }
  }
}
