package io.fleetkit.autoscale.provisioner;

import io.fleetkit.api.apps.DaemonSet;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.text.GoFloats;
import io.fleetkit.reconcile.controllers.WorkloadLabels;
import java.util.List;

/**
 * Karpenter's scoring of consolidation moves under the {@link ConsolidationPolicy#Balanced} policy
 * (kubernetes-sigs/karpenter {@code pkg/controllers/disruption/balanced.go} and {@code types.go}, with
 * {@code EvictionCost} from {@code pkg/utils/disruption/disruption.go}): a move is approved when the share of the
 * NodePool's cost it saves, over the share of the NodePool's disruption cost it causes, is at least {@code 1/k}
 * ({@link #BALANCED_K} = 2). A node's disruption cost is {@link #PER_NODE_BASE_DISRUPTION_COST} plus the positive
 * eviction costs of its pods (DaemonSet pods left out). The same ratio for one node, its price over its disruption
 * cost, orders consolidation candidates under every policy ({@link #savingsRatio}). Pure functions.
 */
final class BalancedScoring {
  /** Karpenter's {@code PerNodeBaseDisruptionCost}: draining any node costs this much before its pods. */
  static final double PER_NODE_BASE_DISRUPTION_COST = 1.0;
  /** Karpenter's {@code BalancedK}: a move passes at a score of {@code 1/k} or more. */
  static final int BALANCED_K = 2;

  /** 2^27 and 2^25: the divisors of a pod's deletion cost and priority in {@link #evictionCost}. */
  private static final double DELETION_COST_SCALE = 134_217_728.0;
  private static final double PRIORITY_SCALE = 33_554_432.0;

  /** A NodePool's cost per hour and disruption cost, the denominators of a move's fractions. */
  record PoolTotals(double totalCost, double totalDisruptionCost) {}

  /** Karpenter's {@code ScoreResult}: a move's saved and disrupted shares of its NodePool, and {@code k}. */
  record ScoreResult(double savingsFraction, double disruptionFraction, int k) {
    /** Saved share over disrupted share; 0 without savings, infinite without disruption. */
    double score() {
      if (savingsFraction <= 0) {
        return 0;
      }
      if (disruptionFraction == 0) {
        return Double.POSITIVE_INFINITY;
      }
      return savingsFraction / disruptionFraction;
    }

    double threshold() {
      return 1.0 / k;
    }

    boolean approved() {
      return score() >= threshold();
    }
  }

  private BalancedScoring() {}

  /**
   * Karpenter's {@code ScoreMove}: the move's savings and disruption cost as shares of the pool's totals; a pool
   * without cost or disruption gives the zero result (not approved).
   */
  static ScoreResult scoreMove(double savings, double disruptionCost, PoolTotals totals, int k) {
    if (totals.totalCost() <= 0 || totals.totalDisruptionCost() <= 0) {
      return new ScoreResult(0, 0, k);
    }
    return new ScoreResult(savings / totals.totalCost(), disruptionCost / totals.totalDisruptionCost(), k);
  }

  /**
   * Karpenter's {@code EvictionCost}: 1, plus the pod's {@value WorkloadLabels#POD_DELETION_COST} annotation over
   * 2^27 (an annotation Go's {@code ParseFloat} cannot read is left out, as Karpenter logs and ignores it), plus its
   * priority over 2^25, clamped to [-10, 10].
   */
  static double evictionCost(Pod pod) {
    double cost = 1.0;
    String deletionCost = pod.metadata().annotations().get(WorkloadLabels.POD_DELETION_COST);
    if (deletionCost != null) {
      try {
        cost += GoFloats.parseFloat(deletionCost) / DELETION_COST_SCALE;
      } catch (NumberFormatException e) {
        // Karpenter logs the parse error and leaves the annotation out
      }
    }
    Integer priority = pod.spec().priority();
    if (priority != null) {
      cost += priority / PRIORITY_SCALE;
    }
    return Math.max(-10.0, Math.min(10.0, cost));
  }

  /**
   * Karpenter's {@code computeRescheduleDisruptionCost}: the base cost plus the positive eviction costs of the pods a
   * consolidation would move.
   */
  static double rescheduleDisruptionCost(List<Pod> reschedulable) {
    double cost = PER_NODE_BASE_DISRUPTION_COST;
    for (Pod p : reschedulable) {
      cost += Math.max(0, evictionCost(p));
    }
    return cost;
  }

  /**
   * A node's disruption cost as Karpenter's cluster state keeps it ({@code StateNode.DisruptionCost}): the base cost
   * plus the positive eviction costs of its pods that no DaemonSet controls.
   */
  static double nodeDisruptionCost(List<Pod> onNode) {
    double cost = PER_NODE_BASE_DISRUPTION_COST;
    for (Pod p : onNode) {
      OwnerReference c = p.metadata().controllerRef();
      if (c == null || !DaemonSet.KIND.equals(c.kind())) {
        cost += Math.max(0, evictionCost(p));
      }
    }
    return cost;
  }

  /** Karpenter's {@code Candidate.SavingsRatio}: price per unit of disruption (higher: disrupted first). */
  static double savingsRatio(double price, double rescheduleDisruptionCost) {
    return price / rescheduleDisruptionCost;
  }
}
