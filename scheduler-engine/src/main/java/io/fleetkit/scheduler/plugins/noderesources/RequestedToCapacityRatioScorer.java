package io.fleetkit.scheduler.plugins.noderesources;

import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.ScorePlugin;
import java.util.List;

/**
 * kube's {@code requestedToCapacityRatioScorer}: per resource the utilization {@code requested * 100 / allocatable}
 * (100 when over-committed) mapped through a broken-linear shape whose scores are scaled from 0..10 to 0..100; the
 * weighted mean of the positive resource scores, rounded half away from zero. Resources the node lacks are left out.
 */
final class RequestedToCapacityRatioScorer implements FitScorer {
  private static final long MAX_UTILIZATION = 100;

  private final long[] utilization;
  private final long[] score;

  RequestedToCapacityRatioScorer(List<UtilizationShapePoint> shape) {
    utilization = new long[shape.size()];
    score = new long[shape.size()];
    long scale = ScorePlugin.MAX_NODE_SCORE / UtilizationShapePoint.MAX_SCORE;
    for (int i = 0; i < shape.size(); i++) {
      utilization[i] = shape.get(i).utilization();
      score[i] = shape.get(i).score() * scale;
    }
  }

  @Override
  public long score(ResourceVector resources, NodeInfo node, long[] podRequests) {
    long nodeScore = 0;
    long weightSum = 0;
    for (int i = 0; i < resources.size(); i++) {
      long allocatable = resources.allocatable(i, node, podRequests[i]);
      if (allocatable == 0) {
        continue;
      }
      long requested = resources.requested(i, node, podRequests[i]);
      long resourceScore = requested > allocatable
          ? brokenLinear(MAX_UTILIZATION)
          : brokenLinear(requested * MAX_UTILIZATION / allocatable);
      if (resourceScore > 0) {
        long weight = resources.weight(i);
        nodeScore += resourceScore * weight;
        weightSum += weight;
      }
    }
    return weightSum == 0 ? 0 : Math.round((double) nodeScore / weightSum);
  }

  long brokenLinear(long p) {
    return brokenLinear(utilization, score, p);
  }

  /** kube's {@code helper.BuildBrokenLinearFunction}: linear between points, flat outside them. */
  static long brokenLinear(long[] utilization, long[] score, long p) {
    for (int i = 0; i < utilization.length; i++) {
      if (p <= utilization[i]) {
        if (i == 0) {
          return score[0];
        }
        return score[i - 1]
            + (score[i] - score[i - 1]) * (p - utilization[i - 1]) / (utilization[i] - utilization[i - 1]);
      }
    }
    return score[score.length - 1];
  }
}
