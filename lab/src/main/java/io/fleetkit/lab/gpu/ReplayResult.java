package io.fleetkit.lab.gpu;

import java.util.Objects;

/**
 * The outcome of one replay. Arrays are indexed by arrived GPU demand as a whole percentage of cluster GPU capacity
 * (0..130), each the mean over the arrival events in that bucket (the published {@code analysis_*_discrete.csv}
 * columns), {@code NaN} when no event came near it.
 *
 * @param allocation GPU allocation ratio (%), allocated milli-GPU / total, rounded to 2 decimals per event
 * @param fragmentationRatio fragmented share (%) of unallocated GPU
 * @param finalAllocation allocation ratio (%) after the last pod
 * @param finalFragmentationRatio fragmentation ratio (%) after the last pod
 * @param arrived pods submitted; {@code placed} of them got a node (the rest were dropped, as in the paper)
 * @param nanos wall time of the replay loop
 */
public record ReplayResult(String policy, long seed, double[] allocation, double[] fragmentationRatio,
    double finalAllocation, double finalFragmentationRatio, int arrived, int placed, long nanos) {
  /** The last bucket: 130% of GPU capacity. */
  public static final int MAX_PERCENT = 130;

  public ReplayResult {
    Objects.requireNonNull(policy, "policy");
    allocation = allocation.clone();
    fragmentationRatio = fragmentationRatio.clone();
  }

  @Override
  public double[] allocation() {
    return allocation.clone();
  }

  @Override
  public double[] fragmentationRatio() {
    return fragmentationRatio.clone();
  }

  /** The allocation ratio (%) in bucket {@code percent} (0..130). */
  public double allocationAt(int percent) {
    return allocation[percent];
  }

  /** The fragmentation ratio (%) in bucket {@code percent} (0..130). */
  public double fragmentationRatioAt(int percent) {
    return fragmentationRatio[percent];
  }
}
