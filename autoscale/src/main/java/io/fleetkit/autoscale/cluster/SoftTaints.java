package io.fleetkit.autoscale.cluster;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.store.ObjectStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Soft taints on unneeded nodes, as cluster-autoscaler's {@code UpdateSoftDeletionTaints}
 * ({@code core/scaledown/actuation/softtaint.go}): each loop puts {@value #DELETION_CANDIDATE_TAINT}{@code
 * :PreferNoSchedule} on the nodes scale-down found unneeded and takes it off the others, within a budget of
 * {@code maxBulkSoftTaintCount} writes and {@code maxBulkSoftTaintTime} on the clock (the needed nodes first). The
 * scheduler's TaintToleration score then prefers other nodes for new pods, so that pods evicted from one node do not
 * land on the next to go. Nodes already tainted {@value ClusterAutoscaler#TO_BE_DELETED_TAINT} are left as they are.
 */
final class SoftTaints {
  private static final Logger LOG = LoggerFactory.getLogger(SoftTaints.class);

  /** Upstream's soft taint key ({@code taints.DeletionCandidateTaint}). */
  static final String DELETION_CANDIDATE_TAINT = "DeletionCandidateOfClusterAutoscaler";

  private SoftTaints() {}

  /** Whether a needed node's soft taint is for {@link #update} to remove: it has one, and no ToBeDeleted taint. */
  static boolean mayLoseTaint(Node n) {
    return NodeTaintWrites.has(n, DELETION_CANDIDATE_TAINT)
        && !NodeTaintWrites.has(n, ClusterAutoscaler.TO_BE_DELETED_TAINT);
  }

  /**
   * Adds the soft taint to {@code unneeded} and removes it from {@code needed}, within the budget.
   *
   * @return the errors of failed writes (upstream logs and returns them)
   */
  static List<String> update(ObjectStore store, Clock clock, int maxCount, Duration maxTime, List<Node> unneeded,
      List<Node> needed) {
    List<String> errors = new ArrayList<>();
    Instant start = clock.instant();
    int budget = maxCount;
    int skipped = 0;
    for (Node n : needed) {
      if (!mayLoseTaint(n)) {
        continue;
      }
      if (budget <= 0 || !Duration.between(start, clock.instant()).minus(maxTime).isNegative()) {
        skipped++;
        continue;
      }
      budget--;
      String err = NodeTaintWrites.remove(store, n.name(), DELETION_CANDIDATE_TAINT);
      if (err != null) {
        errors.add(err);
        LOG.debug("soft taint removal from node {} failed: {}", n.name(), err);
      }
    }
    for (Node n : unneeded) {
      if (NodeTaintWrites.has(n, ClusterAutoscaler.TO_BE_DELETED_TAINT)
          || NodeTaintWrites.has(n, DELETION_CANDIDATE_TAINT)) {
        continue;
      }
      if (budget <= 0 || !Duration.between(start, clock.instant()).minus(maxTime).isNegative()) {
        skipped++;
        continue;
      }
      budget--;
      String err = NodeTaintWrites.add(store, n.name(), DELETION_CANDIDATE_TAINT, TaintEffect.PreferNoSchedule,
          clock.instant());
      if (err != null) {
        errors.add(err);
        LOG.debug("soft taint on node {} failed: {}", n.name(), err);
      }
    }
    if (skipped > 0) {
      LOG.debug("soft taints: {} node(s) left for later loops (budget {} writes, {})", skipped, maxCount, maxTime);
    }
    return errors;
  }
}
