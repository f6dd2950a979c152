package io.fleetkit.autoscale.cluster;

import io.fleetkit.autoscale.cluster.simulator.SimulatedCluster;

/**
 * Where the cluster autoscaler's next search for a node starts (cluster-autoscaler's {@code lastIndexOrderMapping},
 * the default node ordering of the {@code SchedulerPluginRunner} of the autoscaler's one cluster snapshot): one past
 * the node the last successful search found, as an index in the simulated node list, whichever simulation, step and
 * loop that search was in. Upstream's runner lives as long as the autoscaler, and scale-up's filter, its estimator,
 * the placing of pods from ongoing deletions and the drain simulations all search through it, so each search goes on
 * round-robin from the last one's node instead of starting at the first node. Here too the filter, the estimator
 * ({@link BinpackingEstimator}: its searches over the template nodes it added, an index past the cluster's nodes
 * staying as it is for the next search, taken modulo that search's node count as upstream's), that placing and the
 * drain simulations share it. A new position is upstream's last match 0 plus its offset 1: the first search starts
 * at the second node.
 *
 * <p>The index is taken modulo the number of nodes of the simulation it is used in; within a simulation the searches
 * move a slot cursor ({@link SimulatedCluster#placeFrom}, {@link SimulatedCluster#placeAll}), and {@link #keep} takes
 * upstream's position after the last of them that found a node: that node's index in the node list at that search,
 * plus one ({@link SimulatedCluster#indexAfterFound}). Nodes the simulation removes
 * afterwards (a drain simulation's removed node) do not move it, and two simulations of the same nodes with different
 * slots (a reloaded one with the slots of removed nodes empty, and a new one) keep the same position. Not thread-safe.
 */
final class SearchPosition {
  private int next = 1;

  /**
   * A slot cursor for searches in {@code sim}, at this position, taken over the nodes {@code sim} holds now; the
   * searches' position is taken back with {@link #keep}.
   */
  int[] cursorIn(SimulatedCluster sim) {
    sim.startSearches();
    return new int[] {sim.slotOfIndex(next)};
  }

  /**
   * Takes the position from the searches in {@code sim} since {@link #cursorIn}: past the node the last one that found
   * a node found; when none found one, the position stays as it was.
   */
  void keep(SimulatedCluster sim) {
    int after = sim.indexAfterFound();
    if (after >= 0) {
      next = after;
    }
  }

  /**
   * Takes the position from a search over a node list (upstream's {@code MarkMatch}): the node found is at
   * {@code index} of the simulation's {@link SimulatedCluster#nodes()}, the next search starts past it.
   */
  void found(int index) {
    next = index + 1;
  }

  /** The index in the node list the next search starts at (before taking it modulo the nodes). */
  int next() {
    return next;
  }
}
