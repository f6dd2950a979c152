package io.fleetkit.lab.gpu;

import io.fleetkit.scheduler.plugins.gpu.GpuPolicy;
import java.io.IOException;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

final class TraceReplayTest {
  static List<TraceNode> nodes;
  static List<TracePod> pods;

  @BeforeAll
  static void load() {
    nodes = TraceData.gpuNodes();
    pods = TraceData.pods("default");
  }

  /** The published mean over seeds 42..51 at arrival {@code column}, from fgd-expected/analysis_allo_discrete.csv. */
  static double published(String workload, String policy, int column) throws IOException {
    List<String> lines = TraceData.publishedAllocation();
    List<String> header = List.of(lines.get(0).split(","));
    int col = header.indexOf(String.valueOf(column));
    return lines.stream().skip(1).map(l -> l.split(","))
        .filter(f -> f[0].equals(workload) && f[1].endsWith("-" + policy))
        .mapToDouble(f -> Double.parseDouble(f[col])).average().orElseThrow();
  }

  static double mean(GpuPolicy policy, int column) {
    double s = 0;
    for (int seed = 42; seed <= 51; seed++) {
      s += TraceReplay.run(nodes, pods, policy, seed).allocationAt(column);
    }
    return s / 10;
  }

  @Test
  void replay_fgdDefaultTrace_within1PointOfPublishedMean() throws IOException {
    double published = published("openb_pod_list_default", "FGD", 100);
    assertThat(published).isCloseTo(95.23, within(0.01));
    assertThat(mean(GpuPolicy.FGD, 100)).isCloseTo(published, within(1.0));
  }

  @Test
  void replay_bestFitDefaultTrace_within1PointOfPublishedMean() throws IOException {
    assertThat(mean(GpuPolicy.BEST_FIT, 100)).isCloseTo(published("openb_pod_list_default", "BestFit", 100),
        within(1.0));
  }

  @Test
  void replay_dotProductDefaultTrace_within1PointOfPublishedMean() throws IOException {
    assertThat(mean(GpuPolicy.DOT_PRODUCT, 100)).isCloseTo(published("openb_pod_list_default", "DotProd", 100),
        within(1.0));
  }

  /** Measured as this thread's CPU time, so that other processes on a shared machine do not count. */
  @Test
  void replay_fgdDefaultTrace_under3Seconds() {
    java.lang.management.ThreadMXBean cpu = java.lang.management.ManagementFactory.getThreadMXBean();
    TraceReplay.run(nodes, pods, GpuPolicy.FGD, 1); // warm-up
    long start = cpu.getCurrentThreadCpuTime();
    ReplayResult r = TraceReplay.run(nodes, pods, GpuPolicy.FGD, 42);
    long ms = (cpu.getCurrentThreadCpuTime() - start) / 1_000_000;
    assertThat(ms).isLessThanOrEqualTo(3000);
    assertThat(r.arrived()).isGreaterThan(pods.size());
  }

  @Test
  void replay_sameSeed_sameResult() {
    ReplayResult a = TraceReplay.run(nodes, pods, GpuPolicy.RANDOM, 7);
    ReplayResult b = TraceReplay.run(nodes, pods, GpuPolicy.RANDOM, 7);
    assertThat(a.allocation()).containsExactly(b.allocation());
    assertThat(a.finalAllocation()).isEqualTo(b.finalAllocation());
  }

  @Test
  void replay_inflation_arrivesAbout130PercentAndAllocationBelowArrival() {
    ReplayResult r = TraceReplay.run(nodes, pods, GpuPolicy.BEST_FIT, 42);
    assertThat(r.allocationAt(130)).isBetween(90.0, 100.0);
    assertThat(r.allocationAt(50)).isCloseTo(50.0, within(1.0));
    assertThat(r.finalFragmentationRatio()).isBetween(0.0, 100.0);
    assertThat(r.placed()).isLessThan(r.arrived());
  }

  @Test
  void policyOf_aliasesAndUnknown() {
    assertThat(GpuPolicy.of("dotprod")).isEqualTo(GpuPolicy.DOT_PRODUCT);
    assertThat(GpuPolicy.of("best_fit")).isEqualTo(GpuPolicy.BEST_FIT);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> GpuPolicy.of("tetris"))
        .hasMessageContaining("GPU policy \"tetris\" is unknown");
  }

  record Small(List<int[]> nodes, List<int[]> pods) {}

  @Provide
  Arbitrary<Small> smallTraces() {
    Arbitrary<int[]> node = Combinators.combine(Arbitraries.integers().between(1000, 64000),
        Arbitraries.of(1, 2, 4, 8), Arbitraries.integers().between(0, 1))
        .as((cpu, g, m) -> new int[] {cpu, g, m});
    Arbitrary<int[]> pod = Combinators.combine(Arbitraries.integers().between(0, 16000),
        Arbitraries.of(0, 1, 1, 1, 2, 4, 8), Arbitraries.integers().between(1, 1000), Arbitraries.integers().between(0, 2))
        .as((cpu, n, milli, spec) -> new int[] {cpu, n, n > 1 ? 1000 : milli, spec});
    return Combinators.combine(node.list().ofMinSize(1).ofMaxSize(12), pod.list().ofMinSize(1).ofMaxSize(80))
        .as(Small::new);
  }

  /** TraceCluster.place throws on any overcommitted device, so every policy finishing means none was. */
  @Property(tries = 40)
  void replay_randomTraces_neverOvercommitAnyPolicy(@ForAll("smallTraces") Small s) {
    String[] models = {"T4", "V100M32"};
    List<TraceNode> ns = new java.util.ArrayList<>();
    for (int i = 0; i < s.nodes().size(); i++) {
      int[] n = s.nodes().get(i);
      ns.add(new TraceNode("n" + i, n[0], 1 << 20, n[1], models[n[2]]));
    }
    List<TracePod> ps = new java.util.ArrayList<>();
    List<List<String>> specs = List.of(List.of(), List.of("T4"), List.of("V100M16", "V100M32"));
    for (int i = 0; i < s.pods().size(); i++) {
      int[] p = s.pods().get(i);
      ps.add(new TracePod("p" + i, p[0], 100, p[1], p[1] == 0 ? 0 : p[2], specs.get(p[3])));
    }
    for (GpuPolicy policy : GpuPolicy.values()) {
      ReplayResult r = TraceReplay.run(ns, ps, policy, 3);
      assertThat(r.finalAllocation()).as(policy.displayName()).isBetween(0.0, 100.0);
    }
  }
}
