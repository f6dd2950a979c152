package io.fleetkit.scheduler.nodetable;

import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.FilterPlugin;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.Status;
import org.jspecify.annotations.Nullable;

/**
 * A Filter plugin's fast path over the {@link NodeTable}: the same answer as
 * {@link FilterPlugin#filter(CycleState, PodInfo, io.fleetkit.api.framework.NodeInfo) filter} on
 * {@code table.view(node)}, reading the table's arrays where they suffice (and the view where they do not). The engine
 * calls it instead of {@code filter} for every node of a cycle; thread-safe and read-only, as {@code filter}.
 */
public interface TableFilter extends FilterPlugin {
  Status filter(CycleState state, PodInfo pod, NodeTable table, int node);

  /**
   * Filter over a range of nodes in one call: for each {@code pos} in {@code [from, to)} with {@code failed[pos] < 0}
   * (the node passed the plugins before this one), the answer of {@link #filter(CycleState, PodInfo, NodeTable, int)}
   * on node {@code nodes[pos]}; a failure sets {@code failed[pos] = mark} and {@code statuses[pos]} to the status.
   * Positions already failed are left alone. The engine calls this instead of the per-node method when it filters a
   * chunk of nodes, so that a plugin can run a tight loop over the table's arrays; the default loops over
   * {@code filter}.
   */
  default void filterAll(CycleState state, PodInfo pod, NodeTable table, int[] nodes, int from, int to, int[] failed,
      int mark, Status[] statuses) {
    for (int pos = from; pos < to; pos++) {
      if (failed[pos] < 0) {
        Status s = filter(state, pod, table, nodes[pos]);
        if (s.code() != Status.Code.SUCCESS) {
          failed[pos] = mark;
          statuses[pos] = s;
        }
      }
    }
  }

  /**
   * One node's answer from a plugin's table path, prepared once per cycle (typically from its PreFilter state):
   * {@code null} when the node at position {@code node} passes, else its status.
   */
  @FunctionalInterface
  interface NodeCheck {
    @Nullable Status check(int node);
  }

  /**
   * The loop of {@link #filterAll} for a plugin whose table path is a {@link NodeCheck}: each position of
   * {@code [from, to)} not yet failed is checked, a failure sets {@code failed[pos] = mark} and its status.
   */
  static void filterEach(int[] nodes, int from, int to, int[] failed, int mark, Status[] statuses, NodeCheck check) {
    for (int pos = from; pos < to; pos++) {
      if (failed[pos] < 0) {
        Status r = check.check(nodes[pos]);
        if (r != null) {
          failed[pos] = mark;
          statuses[pos] = r;
        }
      }
    }
  }
}
