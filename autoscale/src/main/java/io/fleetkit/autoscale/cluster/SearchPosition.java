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
 * move a slot cursor ({@link SimulatedCluster#placeFrom}, {@link SimulatedCluster#placeAll}), which {@link #keep}
 * turns back into an index, so that two simulations of the same nodes with different slots (a reloaded one with the
 * slots of removed nodes empty, and a new one) search alike. Not thread-safe.
 */
final class SearchPosition {
  private int next = 1;
  /** The slot the last cursor made started at. */
  private int startSlot;

  /** A slot cursor for searches in {@code sim}, at this position (give it back to {@link #keep}). */
  int[] cursorIn(SimulatedCluster sim) {
    startSlot = sim.slotOfIndex(next);
    return new int[] {startSlot};
  }

  /**
   * Takes the position from {@code cursor}, the last one {@link #cursorIn} made, for {@code sim}, after its searches
   * moved it; a cursor that no search moved leaves the position as it was.
   */
  void keep(SimulatedCluster sim, int[] cursor) {
    if (cursor[0] != startSlot) {
      next = sim.nodesBefore(cursor[0]);
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
