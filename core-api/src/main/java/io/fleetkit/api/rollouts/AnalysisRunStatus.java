package io.fleetkit.api.rollouts;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The observed part of an {@link AnalysisRun}.
 *
 * @param message why the run ended as it did; empty while running or when successful
 * @param startedAt when the run started measuring; {@code null} before
 */
public record AnalysisRunStatus(AnalysisPhase phase, String message, List<MetricResult> metricResults,
    @Nullable Instant startedAt) {
  public static final AnalysisRunStatus EMPTY = new AnalysisRunStatus(AnalysisPhase.Pending, "", List.of(), null);

  public AnalysisRunStatus {
    Objects.requireNonNull(phase, "phase");
    Objects.requireNonNull(message, "message");
    metricResults = List.copyOf(metricResults);
  }

  /** The result of metric {@code name}, or {@code null} before its first measurement. */
  public @Nullable MetricResult result(String name) {
    for (MetricResult r : metricResults) {
      if (r.name().equals(name)) {
        return r;
      }
    }
    return null;
  }
}
