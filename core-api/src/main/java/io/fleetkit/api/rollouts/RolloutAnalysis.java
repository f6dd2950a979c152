package io.fleetkit.api.rollouts;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Which analysis a rollout runs at some point (a canary step, in the background, or before/after a blue-green
 * promotion): the {@link AnalysisTemplate}s (by name, in the rollout's namespace) whose metrics are combined into
 * one {@link AnalysisRun}, and the arguments passed to them.
 *
 * @param startingStep for background analysis: the canary step index from which it runs; {@code null} from the
 *     start
 */
public record RolloutAnalysis(List<String> templates, List<AnalysisArgument> args, @Nullable Integer startingStep) {
  public RolloutAnalysis {
    templates = List.copyOf(templates);
    args = List.copyOf(args);
  }

  /** An analysis of the given templates, without arguments. */
  public static RolloutAnalysis of(String... templates) {
    return new RolloutAnalysis(List.of(templates), List.of(), null);
  }

  /** This analysis with one more argument. */
  public RolloutAnalysis withArg(String name, String value) {
    List<AnalysisArgument> a = new java.util.ArrayList<>(args);
    a.add(AnalysisArgument.of(name, value));
    return new RolloutAnalysis(templates, a, startingStep);
  }
}
