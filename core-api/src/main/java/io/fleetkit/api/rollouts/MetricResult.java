package io.fleetkit.api.rollouts;

import java.util.List;
import java.util.Objects;

/**
 * The results of one metric of an {@link AnalysisRun}: its phase, its recent measurements and the counters the
 * limits are checked against.
 *
 * @param count measurements that finished Successful, Failed or Inconclusive (errors are not counted)
 * @param consecutiveError errors in a row (reset by any other outcome)
 * @param consecutiveSuccess successes in a row
 * @param dryRun whether the metric runs in dry-run mode (never decides the run's phase)
 */
public record MetricResult(String name, AnalysisPhase phase, List<Measurement> measurements, int count,
    int successful, int failed, int inconclusive, int error, int consecutiveError, int consecutiveSuccess,
    String message, boolean dryRun) {
  public MetricResult {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(phase, "phase");
    measurements = List.copyOf(measurements);
    Objects.requireNonNull(message, "message");
  }

  /** A result with no measurement yet. */
  public static MetricResult start(String name, boolean dryRun) {
    return new MetricResult(name, AnalysisPhase.Running, List.of(), 0, 0, 0, 0, 0, 0, 0, "", dryRun);
  }

  public MetricResult withPhase(AnalysisPhase p) {
    return new MetricResult(name, p, measurements, count, successful, failed, inconclusive, error, consecutiveError,
        consecutiveSuccess, message, dryRun);
  }

  public MetricResult withMessage(String m) {
    return new MetricResult(name, phase, measurements, count, successful, failed, inconclusive, error,
        consecutiveError, consecutiveSuccess, m, dryRun);
  }
}
