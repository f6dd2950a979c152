package io.fleetkit.api.framework;

import java.util.List;

/** Per-pod precomputation for Score over the feasible nodes; {@link Status#skip()} skips this plugin's Score. */
public interface PreScorePlugin extends Plugin {
  Status preScore(CycleState state, PodInfo pod, List<NodeInfo> feasibleNodes);
}
