package io.fleetkit.reconcile.rollouts;

import io.fleetkit.api.rollouts.AnalysisPhase;
import io.fleetkit.api.rollouts.AnalysisRun;
import io.fleetkit.api.rollouts.Measurement;
import io.fleetkit.api.rollouts.Metric;
import java.time.Instant;

/**
 * Takes measurements for one kind of {@link io.fleetkit.api.rollouts.MetricProvider} (Argo Rollouts' metric
 * provider interface). A provider that gets a value at once returns a finished measurement judged by the metric's
 * conditions ({@code io.fleetkit.reconcile.rollouts.internal.MetricConditions}); one that starts work (a Job)
 * returns a Running measurement and finishes it in {@link #resume}.
 *
 * <p>Implementations must not throw for a failed query: that is an {@link AnalysisPhase#Error} measurement with a
 * message.
 */
public interface MeasurementProvider {
  /** The provider field this implementation serves, e.g. {@code prometheus}. */
  String type();

  /** Starts (and, when possible, finishes) a measurement of {@code metric} for {@code run}. */
  Measurement run(AnalysisRun run, Metric metric, Instant now);

  /** Looks at an in-flight measurement again; by default it stays as it is. */
  default Measurement resume(AnalysisRun run, Metric metric, Measurement inFlight, Instant now) {
    return inFlight;
  }

  /** Stops an in-flight measurement because the run is terminating; by default it ends Successful. */
  default Measurement terminate(AnalysisRun run, Metric metric, Measurement inFlight, Instant now) {
    return new Measurement(AnalysisPhase.Successful, inFlight.value(), inFlight.startedAt(), now, null,
        "Metric Terminated");
  }
}
