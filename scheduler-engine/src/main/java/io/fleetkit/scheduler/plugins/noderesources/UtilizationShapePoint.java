package io.fleetkit.scheduler.plugins.noderesources;

/**
 * A point of RequestedToCapacityRatio's piecewise-linear shape (kube's {@code config.UtilizationShapePoint}).
 *
 * @param utilization in [0, 100] percent
 * @param score in [0, {@value #MAX_SCORE}]; scaled by 10 to the scheduler's 0..100 node-score range
 */
public record UtilizationShapePoint(int utilization, int score) {
  /** kube's {@code config.MaxCustomPriorityScore}. */
  public static final int MAX_SCORE = 10;

  public UtilizationShapePoint {
    if (utilization < 0 || utilization > 100) {
      throw new IllegalArgumentException("shape point: utilization " + utilization + " must be in [0, 100]");
    }
    if (score < 0 || score > MAX_SCORE) {
      throw new IllegalArgumentException("shape point: score " + score + " must be in [0, " + MAX_SCORE + "]");
    }
  }

  public static UtilizationShapePoint of(int utilization, int score) {
    return new UtilizationShapePoint(utilization, score);
  }
}
