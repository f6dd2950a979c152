package io.fleetkit.reconcile.internal;

import io.fleetkit.api.metrics.Counter;
import io.fleetkit.api.metrics.Gauge;
import io.fleetkit.api.metrics.Histogram;
import io.fleetkit.api.metrics.MetricsRegistry;
import io.fleetkit.reconcile.metrics.WorkQueueMetrics;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One queue's series and the timestamps behind them, as client-go's {@code defaultQueueMetrics}. Every method is
 * called under the queue's lock.
 */
final class QueueMetrics<T> {
  private final Gauge depth;
  private final Counter adds;
  private final Histogram latency;
  private final Histogram workDuration;
  private final Gauge unfinishedWork;
  private final Gauge longestRunning;
  private final Counter retries;
  private final Map<T, Instant> addTimes = new HashMap<>();
  private final Map<T, Instant> processingStartTimes = new HashMap<>();

  private QueueMetrics(MetricsRegistry registry, String name) {
    depth = registry.gauge(WorkQueueMetrics.DEPTH, name);
    adds = registry.counter(WorkQueueMetrics.ADDS, name);
    latency = registry.histogram(WorkQueueMetrics.QUEUE_DURATION, name);
    workDuration = registry.histogram(WorkQueueMetrics.WORK_DURATION, name);
    unfinishedWork = registry.gauge(WorkQueueMetrics.UNFINISHED_WORK, name);
    longestRunning = registry.gauge(WorkQueueMetrics.LONGEST_RUNNING_PROCESSOR, name);
    retries = registry.counter(WorkQueueMetrics.RETRIES, name);
  }

  /** The metrics of queue {@code name}, or null when nothing is to be recorded (no registry, or no name). */
  static <T> @Nullable QueueMetrics<T> of(MetricsRegistry registry, String name) {
    return registry.enabled() && !name.isEmpty() ? new QueueMetrics<>(registry, name) : null;
  }

  void add(T item, Instant now) {
    adds.increment();
    depth.add(1);
    addTimes.putIfAbsent(item, now);
  }

  void get(T item, Instant now) {
    depth.add(-1);
    Instant added = addTimes.remove(item);
    if (added != null) {
      latency.observeNanos(Duration.between(added, now).toNanos());
    }
    processingStartTimes.put(item, now);
  }

  void done(T item, Instant now) {
    Instant started = processingStartTimes.remove(item);
    if (started != null) {
      workDuration.observeNanos(Duration.between(started, now).toNanos());
    }
  }

  void retry() {
    retries.increment();
  }

  /** client-go's {@code updateUnfinishedWork}: the summed and the largest age of the items in processing. */
  void updateUnfinishedWork(Instant now) {
    double total = 0;
    double longest = 0;
    for (Instant t : processingStartTimes.values()) {
      double age = Duration.between(t, now).toNanos() / 1e9;
      total += age;
      longest = Math.max(longest, age);
    }
    unfinishedWork.set(total);
    longestRunning.set(longest);
  }
}
