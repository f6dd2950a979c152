package io.fleetkit.optimizer.internal;

import java.util.List;
import org.jspecify.annotations.Nullable;
import org.optaplanner.core.api.domain.solution.PlanningEntityCollectionProperty;
import org.optaplanner.core.api.domain.solution.PlanningScore;
import org.optaplanner.core.api.domain.solution.PlanningSolution;
import org.optaplanner.core.api.domain.solution.ProblemFactCollectionProperty;
import org.optaplanner.core.api.domain.valuerange.ValueRangeProvider;
import org.optaplanner.core.api.score.buildin.hardmediumsoftlong.HardMediumSoftLongScore;

/** The planning solution: nodes (the value range), gangs, pod slots and the score. */
@PlanningSolution
public class PlacementSolution {
  @ProblemFactCollectionProperty
  @ValueRangeProvider(id = "nodes")
  private List<NodeFact> nodes;
  @ProblemFactCollectionProperty
  private List<GangFact> gangs;
  @PlanningEntityCollectionProperty
  private List<PodSlot> pods;
  @PlanningScore
  private @Nullable HardMediumSoftLongScore score;

  /** For OptaPlanner's cloning. */
  public PlacementSolution() {
    this(List.of(), List.of(), List.of());
  }

  PlacementSolution(List<NodeFact> nodes, List<GangFact> gangs, List<PodSlot> pods) {
    this.nodes = nodes;
    this.gangs = gangs;
    this.pods = pods;
  }

  public List<NodeFact> getNodes() {
    return nodes;
  }

  public List<GangFact> getGangs() {
    return gangs;
  }

  public List<PodSlot> getPods() {
    return pods;
  }

  public @Nullable HardMediumSoftLongScore getScore() {
    return score;
  }

  public void setScore(@Nullable HardMediumSoftLongScore score) {
    this.score = score;
  }
}
