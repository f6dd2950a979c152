package io.fleetkit.api.framework;

import java.util.List;

/**
 * Ranks feasible nodes. {@link #score} is called in parallel and must be thread-safe; its result is normalized
 * into [0, {@link #MAX_NODE_SCORE}] by {@link #normalizeScores}, multiplied by the profile's weight, and summed.
 */
public interface ScorePlugin extends Plugin {
  long MAX_NODE_SCORE = 100;
  long MIN_NODE_SCORE = 0;

  long score(CycleState state, PodInfo pod, NodeInfo node);

  /**
   * Rescales {@code scores} (index-aligned with {@code nodes}) in place into [0, 100]. The default does nothing:
   * plugins that already score in range need not override.
   */
  default void normalizeScores(CycleState state, PodInfo pod, List<NodeInfo> nodes, long[] scores) {}
}
