package io.fleetkit.optimizer;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What a {@link DefragmentationPlanner} proposes.
 *
 * @param moves the pods to move, sorted by pod; at most the move budget
 * @param emptiedNodes nodes that ran pods before and none after the moves, sorted
 * @param freeWholeGpusBefore devices with nothing on them before the moves (cluster-wide)
 * @param freeWholeGpusAfter devices with nothing on them after the moves
 * @param score the solver's final score ({@code hard/medium/soft})
 * @param timeSpent wall time of the call
 */
public record DefragmentationPlan(List<PodMove> moves, List<String> emptiedNodes, int freeWholeGpusBefore,
    int freeWholeGpusAfter, String score, Duration timeSpent) {
  public DefragmentationPlan {
    moves = List.copyOf(moves);
    emptiedNodes = List.copyOf(emptiedNodes);
    Objects.requireNonNull(score, "score");
    Objects.requireNonNull(timeSpent, "timeSpent");
  }
}
