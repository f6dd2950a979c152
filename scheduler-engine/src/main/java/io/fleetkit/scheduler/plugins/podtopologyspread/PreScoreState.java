package io.fleetkit.scheduler.plugins.podtopologyspread;

import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.scheduler.nodetable.NodeTable;
import org.jspecify.annotations.Nullable;

/**
 * What PreScore computed for Score (upstream {@code preScoreState}): the pod's soft constraints, per constraint the
 * matching-pod counts of the domains holding a feasible node ({@code null} for hostname topologies, counted per node
 * in Score) and the constraint's normalizing weight {@code log(#domains + 2)}. Read-only once written.
 */
final class PreScoreState {
  final SpreadConstraint[] constraints;
  /** Whether nodes lacking some topology key are ignored (scored 0); false only for system defaults. */
  final boolean requireAllTopologies;
  final @Nullable DomainCounts[] counts;
  final double[] weights;
  final String namespace;
  /** Score's answers from the table's numbering of each constraint's key, or {@code null}. */
  final @Nullable TablePath tablePath;

  PreScoreState(SpreadConstraint[] constraints, boolean requireAllTopologies, @Nullable DomainCounts[] counts,
      double[] weights, String namespace, @Nullable TablePath tablePath) {
    this.constraints = constraints;
    this.requireAllTopologies = requireAllTopologies;
    this.counts = counts;
    this.weights = weights;
    this.namespace = namespace;
    this.tablePath = tablePath;
  }

  /**
   * The counts Score reads on {@code table}: per constraint, its key's numbering, and the matching pods by value number
   * ({@code byValue}, for domain keys) or by node position ({@code byNode}, for the hostname, whose pods Score counts
   * per node).
   */
  record TablePath(NodeTable table, NodeTable.Domains[] keys, int[] @Nullable [] byValue, int[] @Nullable [] byNode,
      DomainCounter counter, long written) {
    /** Whether {@code byNode} still holds what PreScore wrote (the counter reuses its array for the next pod). */
    boolean current() {
      return counter.softCalls() == written;
    }
  }

  /** Whether {@code node} is left out of scoring (upstream IgnoredNodes): it misses a required topology key. */
  boolean ignored(NodeInfo node) {
    return requireAllTopologies && !SpreadConstraint.nodeHasAllKeys(node.labels(), constraints);
  }
}
