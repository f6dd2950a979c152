package io.fleetkit.cli;

import io.fleetkit.api.metrics.MetricsRegistry;
import io.fleetkit.observability.micrometer.MicrometerMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/** The {@code --metrics FILE} option: a Prometheus registry while the command runs, its scrape written at the end. */
final class MetricsFile {
  private final @Nullable Path file;
  private final @Nullable PrometheusMeterRegistry prometheus;
  private final MetricsRegistry registry;

  private MetricsFile(@Nullable Path file) {
    this.file = file;
    this.prometheus = file == null ? null : new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    this.registry = prometheus == null ? MetricsRegistry.NOOP : MicrometerMetrics.of(prometheus);
  }

  /** For {@code file}, or none when the option was not given. */
  static MetricsFile of(@Nullable Path file) {
    return new MetricsFile(file);
  }

  /** What the command records into ({@link MetricsRegistry#NOOP} without the option). */
  MetricsRegistry registry() {
    return registry;
  }

  /** Writes the final metrics; on failure prints a message naming the file and returns false. */
  boolean write(PrintWriter err) {
    if (file == null || prometheus == null) {
      return true;
    }
    try {
      Files.writeString(file, prometheus.scrape());
      return true;
    } catch (IOException e) {
      err.println("--metrics " + file + ": cannot write: " + e.getMessage());
      err.flush();
      return false;
    }
  }
}
