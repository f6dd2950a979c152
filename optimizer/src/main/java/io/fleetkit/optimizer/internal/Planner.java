package io.fleetkit.optimizer.internal;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.scheduling.PodGroup;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.optaplanner.core.api.score.buildin.hardmediumsoftlong.HardMediumSoftLongScore;
import org.optaplanner.core.api.score.stream.ConstraintStreamImplType;
import org.optaplanner.core.api.solver.SolutionManager;
import org.optaplanner.core.api.solver.Solver;
import org.optaplanner.core.api.solver.SolverFactory;
import org.optaplanner.core.config.heuristic.selector.move.composite.UnionMoveSelectorConfig;
import org.optaplanner.core.config.heuristic.selector.move.generic.ChangeMoveSelectorConfig;
import org.optaplanner.core.config.heuristic.selector.move.generic.SwapMoveSelectorConfig;
import org.optaplanner.core.config.localsearch.LocalSearchPhaseConfig;
import org.optaplanner.core.config.localsearch.decider.acceptor.LocalSearchAcceptorConfig;
import org.optaplanner.core.config.localsearch.decider.forager.LocalSearchForagerConfig;
import org.optaplanner.core.config.score.director.ScoreDirectorFactoryConfig;
import org.optaplanner.core.config.solver.EnvironmentMode;
import org.optaplanner.core.config.solver.SolverConfig;
import org.optaplanner.core.config.solver.termination.TerminationConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one solve: builds the model, constructs greedily, improves with OptaPlanner local search (Late Acceptance
 * over change and swap moves, Bavet constraint streams, seeded, {@link EnvironmentMode#REPRODUCIBLE}), keeps the
 * greedy start if the search ever ends infeasible, and for defragmentation undoes moves that gain nothing.
 */
public final class Planner {
  private static final Logger LOG = LoggerFactory.getLogger(Planner.class);
  /** Moves evaluated at most per local-search step (fewer on small problems: about twice the neighbourhood). */
  private static final long MAX_MOVES_PER_STEP = 20_000;

  /** How long and how reproducibly to search. A step limit makes runs independent of wall time. */
  public record Settings(Duration timeLimit, long seed, @Nullable Integer stepLimit,
      @Nullable Integer unimprovedStepLimit) {}

  /** What a solve produced, keyed by pod {@code namespace/name}. */
  public record Result(Map<String, String> placements, Map<String, String> unplaced, long placedGpuMilli,
      long initialPlacedGpuMilli, String score, Duration timeSpent) {}

  private Planner() {}

  /** Places {@code pending} around {@code running}; see {@code BatchOptimizer}. */
  public static Result place(List<Node> nodes, List<Pod> running, List<Pod> pending, List<PodGroup> groups,
      Settings settings) {
    long start = System.nanoTime();
    Model m = Model.of(nodes, running, pending, groups, null, 0, 0, 0);
    Greedy.construct(m.solution);
    PlacementSolution best = solve(m.solution, settings);
    Map<String, String> placements = new TreeMap<>();
    Map<String, String> unplaced = new TreeMap<>();
    Map<GangFact, Integer> placedPerGang = new HashMap<>();
    long gpu = 0;
    for (PodSlot p : best.getPods()) {
      NodeFact n = p.getNode();
      if (n != null) {
        placements.put(p.key, n.name);
        gpu += p.gpuMilli();
        if (p.gang != null) {
          placedPerGang.merge(p.gang, 1, Integer::sum);
        }
      }
    }
    for (PodSlot p : best.getPods()) {
      if (p.getNode() == null) {
        unplaced.put(p.key, reason(p, placedPerGang));
      }
    }
    long initialGpu = m.solution.getPods().stream().filter(p -> p.getNode() != null).mapToLong(PodSlot::gpuMilli)
        .sum();
    return new Result(Collections.unmodifiableMap(placements), Collections.unmodifiableMap(unplaced), gpu,
        initialGpu, String.valueOf(best.getScore()), Duration.ofNanos(System.nanoTime() - start));
  }

  /**
   * Plans moves of {@code movable} (on nodes {@code origins}, same order) with {@code fixed} staying put. Returns in
   * {@link Result#placements()} only the pods that move (pod -> new node).
   */
  public static Result defragment(List<Node> nodes, List<Pod> fixed, List<Pod> movable, List<String> origins,
      int moveBudget, Settings settings) {
    long start = System.nanoTime();
    Model m = Model.of(nodes, fixed, movable, List.of(), origins, moveBudget, 1_000_000, 1_000);
    PlacementSolution best = solve(m.solution, settings);
    undoUselessMoves(best);
    Map<String, String> moves = new TreeMap<>();
    for (PodSlot p : best.getPods()) {
      if (p.moved()) {
        moves.put(p.key, Objects.requireNonNull(p.getNode()).name);
      }
    }
    return new Result(Collections.unmodifiableMap(moves), Map.of(), 0, 0, String.valueOf(best.getScore()),
        Duration.ofNanos(System.nanoTime() - start));
  }

  private static SolverConfig config(Settings s, long movesPerStep) {
    TerminationConfig phase = new TerminationConfig().withSpentLimit(s.timeLimit());
    if (s.stepLimit() != null) {
      phase.setStepCountLimit(s.stepLimit());
    }
    if (s.unimprovedStepLimit() != null) {
      phase.setUnimprovedStepCountLimit(s.unimprovedStepLimit());
    }
    return new SolverConfig()
        .withSolutionClass(PlacementSolution.class)
        .withEntityClasses(PodSlot.class)
        .withScoreDirectorFactory(new ScoreDirectorFactoryConfig()
            .withConstraintProviderClass(PlacementConstraints.class)
            .withConstraintStreamImplType(ConstraintStreamImplType.BAVET))
        .withEnvironmentMode(EnvironmentMode.REPRODUCIBLE)
        .withRandomSeed(s.seed())
        .withPhases(new LocalSearchPhaseConfig()
            // A finite random selection per step: when no move is accepted the phase ends instead of spinning
            // until the time limit (tiny problems run out of improving moves quickly).
            .withMoveSelectorConfig(new UnionMoveSelectorConfig(List.of(new ChangeMoveSelectorConfig(),
                new SwapMoveSelectorConfig())).withSelectedCountLimit(movesPerStep))
            .withAcceptorConfig(new LocalSearchAcceptorConfig().withLateAcceptanceSize(400))
            .withForagerConfig(new LocalSearchForagerConfig().withAcceptedCountLimit(1))
            .withTerminationConfig(phase));
  }

  private static PlacementSolution solve(PlacementSolution start, Settings s) {
    long neighbourhood = 2L * start.getPods().size() * (start.getNodes().size() + 1);
    SolverFactory<PlacementSolution> factory =
        SolverFactory.create(config(s, Math.max(64, Math.min(MAX_MOVES_PER_STEP, neighbourhood))));
    SolutionManager<PlacementSolution, HardMediumSoftLongScore> scorer = SolutionManager.create(factory);
    HardMediumSoftLongScore initial = scorer.update(start);
    if (start.getPods().isEmpty() || start.getNodes().isEmpty()) {
      return start;
    }
    Solver<PlacementSolution> solver = factory.buildSolver();
    PlacementSolution best = solver.solve(start);
    HardMediumSoftLongScore score = Objects.requireNonNull(best.getScore());
    LOG.debug("optimizer: initial {} best {}", initial, score);
    if (initial.hardScore() >= 0 && score.compareTo(initial) < 0) {
      return start; // never hand back worse than the construction (cannot happen with a best-score tracker)
    }
    return best;
  }

  /** Moves each moved pod back to its origin when that keeps the score at least as good, fewest moves first. */
  private static void undoUselessMoves(PlacementSolution s) {
    SolverFactory<PlacementSolution> factory = SolverFactory.create(config(new Settings(Duration.ofSeconds(1), 0,
        null, null), 64));
    SolutionManager<PlacementSolution, HardMediumSoftLongScore> scorer = SolutionManager.create(factory);
    HardMediumSoftLongScore current = scorer.update(s);
    List<PodSlot> moved = new ArrayList<>(s.getPods().stream().filter(PodSlot::moved).toList());
    for (PodSlot p : moved) {
      NodeFact to = p.getNode();
      p.setNode(p.origin);
      HardMediumSoftLongScore back = scorer.update(s);
      if (back.compareTo(current) >= 0) {
        current = back;
      } else {
        p.setNode(to);
      }
    }
    s.setScore(scorer.update(s));
  }

  private static String reason(PodSlot p, Map<GangFact, Integer> placedPerGang) {
    if (p.allowed.isEmpty()) {
      return "no node matches the pod's tolerations, required node affinity or GPU models";
    }
    GangFact g = p.gang;
    if (g != null && placedPerGang.getOrDefault(g, 0) == 0) {
      return "pod group " + g.key + ": fewer than minMember " + g.minMember + " members fit at once"
          + (g.topologyKey != null && g.topologyRequired ? " in one domain of " + g.topologyKey : "");
    }
    return "no node has room for cpu " + p.cpu + "m, memory " + p.mem + ", gpus " + p.wholeGpus + " whole + "
        + p.milli + " milli once the planned pods are placed";
  }
}
