package io.fleetkit.lab.gpu;

import io.fleetkit.scheduler.plugins.gpu.GpuPolicy;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The policy score plugins in the real engine on the openb default trace (bundled in fleetkit-traces). The fast
 * tests use a quarter of the trace (every 4th GPU node and pod by name) and compare with the trace replay's policies on the same quarter; the full-trace test (-Dfleetkit.gpu.fullTrace=true, about a minute)
 * compares with the FGD paper's published means (FGD 95.23%, BestFit 92.86%, Random 86.30% at 100% arrival).
 */
final class GpuPolicyTraceTest {
  private static final long[] SEEDS = {42, 43, 44};
  private static List<TraceNode> nodes;
  private static List<TracePod> pods;
  private static List<TraceNode> quarterNodes;
  private static List<TracePod> quarterPods;

  @BeforeAll
  static void load() {
    nodes = TraceData.gpuNodes();
    pods = TraceData.pods("default");
    quarterNodes = everyFourth(nodes.stream().sorted(Comparator.comparing(TraceNode::name)).toList());
    quarterPods = everyFourth(pods.stream().sorted(Comparator.comparing(TracePod::name)).toList());
  }

  private static <T> List<T> everyFourth(List<T> all) {
    List<T> out = new ArrayList<>();
    for (int i = 0; i < all.size(); i += 4) {
      out.add(all.get(i));
    }
    return out;
  }

  private static final java.util.Map<GpuPolicy, Double> ENGINE = new java.util.EnumMap<>(GpuPolicy.class);

  /** The engine's mean allocation over {@link #SEEDS} on the quarter, computed once per policy. */
  private static synchronized double engine(GpuPolicy policy) {
    return ENGINE.computeIfAbsent(policy, p -> LongStream.of(SEEDS)
        .mapToDouble(s -> EngineTraceReplay.run(quarterNodes, quarterPods, p, s)).average().orElseThrow());
  }

  /** The trace replay's mean allocation on the quarter at the arrival the engine replay reaches (all pods). */
  private static double traceReplay(GpuPolicy policy) {
    long capacity = 1000L * quarterNodes.stream().mapToInt(TraceNode::gpus).sum();
    long demand = quarterPods.stream().mapToLong(TracePod::totalGpuMilli).sum();
    int arrival = (int) Math.min(100, Math.round(100.0 * demand / capacity));
    return LongStream.of(SEEDS).mapToDouble(s -> TraceReplay.run(quarterNodes, quarterPods, policy, s)
        .allocationAt(arrival)).average().orElseThrow();
  }

  @Test
  void fgd_quarterTrace_withinOnePointOfTraceReplay() {
    double engine = engine(GpuPolicy.FGD);
    double trace = traceReplay(GpuPolicy.FGD);
    assertThat(engine).isCloseTo(trace, org.assertj.core.data.Offset.offset(1.0));
  }

  @Test
  void policies_quarterTrace_orderedAsPublished() {
    double fgd = engine(GpuPolicy.FGD);
    double balanced = engine(GpuPolicy.FGD_BALANCED);
    double bestFit = engine(GpuPolicy.BEST_FIT);
    double random = engine(GpuPolicy.RANDOM);
    assertThat(balanced).isGreaterThanOrEqualTo(fgd - 0.3);
    assertThat(fgd).isGreaterThan(bestFit);
    assertThat(bestFit).isGreaterThan(random);
    assertThat(bestFit).isCloseTo(traceReplay(GpuPolicy.BEST_FIT), org.assertj.core.data.Offset.offset(1.0));
  }

  @Test
  void gapFill_quarterTrace_withinOnePointOfTraceReplay_notBelowFgd() {
    double engine = engine(GpuPolicy.GAP_FILL);
    double trace = traceReplay(GpuPolicy.GAP_FILL);
    assertThat(engine).isCloseTo(trace, org.assertj.core.data.Offset.offset(1.0));
    assertThat(engine).isGreaterThanOrEqualTo(engine(GpuPolicy.FGD));
  }

  /** AdaptiveGapFill keeps state (the arrived pods, the nodes' free GPU as seen): the engine feeds it the same. */
  @Test
  void adaptiveGapFill_quarterTrace_withinOnePointOfTraceReplay() {
    double engine = engine(GpuPolicy.ADAPTIVE_GAP_FILL);
    double trace = traceReplay(GpuPolicy.ADAPTIVE_GAP_FILL);
    assertThat(engine).isCloseTo(trace, org.assertj.core.data.Offset.offset(1.0));
    assertThat(engine).isGreaterThanOrEqualTo(engine(GpuPolicy.FGD));
  }

  /**
   * ReservingGapFill turns shares away through its Filter in the engine (Unschedulable, the pod counted as failed)
   * and by dropping a pod no node admits in the replay: the two agree.
   */
  @Test
  void reservingGapFill_quarterTrace_withinOnePointOfTraceReplay() {
    double engine = engine(GpuPolicy.RESERVING_GAP_FILL);
    double trace = traceReplay(GpuPolicy.RESERVING_GAP_FILL);
    assertThat(engine).isCloseTo(trace, org.assertj.core.data.Offset.offset(1.0));
    assertThat(engine).isGreaterThanOrEqualTo(engine(GpuPolicy.FGD));
  }

  @Test
  @EnabledIfSystemProperty(named = "fleetkit.gpu.fullTrace", matches = "true")
  void fullTrace_matchesPublishedMeans() {
    double fgd = EngineTraceReplay.run(nodes, pods, GpuPolicy.FGD, 42);
    double balanced = EngineTraceReplay.run(nodes, pods, GpuPolicy.FGD_BALANCED, 42);
    double bestFit = EngineTraceReplay.run(nodes, pods, GpuPolicy.BEST_FIT, 42);
    double random = EngineTraceReplay.run(nodes, pods, GpuPolicy.RANDOM, 42);
    double gapFill = EngineTraceReplay.run(nodes, pods, GpuPolicy.GAP_FILL, 42);
    System.err.printf("engine replay, default trace, seed 42: FGD %.2f, FgdBalanced %.2f, GapFill %.2f, BestFit %.2f, "
        + "Random %.2f%n", fgd, balanced, gapFill, bestFit, random);
    assertThat(fgd).isBetween(94.2, 96.2);
    assertThat(bestFit).isBetween(91.9, 93.9);
    assertThat(random).isBetween(85.3, 87.3);
    assertThat(balanced).isGreaterThanOrEqualTo(fgd - 0.3);
    assertThat(gapFill).isGreaterThanOrEqualTo(fgd);
  }
}
