package io.fleetkit.api.rollouts;

import java.util.List;

/**
 * The desired part of an {@link AnalysisRun}: the metrics (copied from its templates), the resolved arguments, and
 * whether it has been told to stop.
 *
 * @param terminate set to end the run: in-flight measurements are terminated and unfinished metrics end Successful
 */
public record AnalysisRunSpec(List<Metric> metrics, List<AnalysisArgument> args, boolean terminate) {
  public AnalysisRunSpec {
    metrics = List.copyOf(metrics);
    args = List.copyOf(args);
  }

  public AnalysisRunSpec withTerminate(boolean v) {
    return new AnalysisRunSpec(metrics, args, v);
  }
}
