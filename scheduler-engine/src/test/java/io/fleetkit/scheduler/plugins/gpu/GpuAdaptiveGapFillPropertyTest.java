package io.fleetkit.scheduler.plugins.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * AdaptiveGapFill's kernel driven as the trace replay drives it (every node where the pod fits is a candidate, the
 * highest normalised score wins, the first in node order on ties, a share gets {@link GpuScorer#shareDevice}), on
 * random nodes and pods of both GPU models, with and without model constraints: no device and no node's CPU is ever
 * allocated beyond its capacity (a share's device always has room for it), the normalised scores stay in [0, 100],
 * and the same pods on the same nodes give the same placements (the policy's online state is deterministic).
 */
final class GpuAdaptiveGapFillPropertyTest {
  private static final String[] MODELS = {"T4", "G2"};
  private static final int[] SHARES = {50, 160, 230, 320, 470, 650, 810};

  /** A node: devices, cores, model index. A pod: kind (0 CPU-only, 1 share, 2 whole), size, cores, constrained. */
  record Scenario(List<int[]> nodes, List<int[]> pods) {}

  @Provide
  Arbitrary<Scenario> scenarios() {
    Arbitrary<int[]> node = Combinators.combine(Arbitraries.integers().between(1, 8),
        Arbitraries.integers().between(2, 96), Arbitraries.integers().between(0, 1))
        .as((devices, cores, model) -> new int[] {devices, cores, model});
    Arbitrary<int[]> pod = Combinators.combine(Arbitraries.of(0, 1, 1, 1, 2), Arbitraries.integers().between(0, 99),
        Arbitraries.integers().between(1, 16), Arbitraries.integers().between(0, 3))
        .as((kind, size, cores, constrained) -> new int[] {kind, size, cores, constrained});
    return Combinators.combine(node.list().ofMinSize(1).ofMaxSize(8), pod.list().ofMinSize(1).ofMaxSize(80))
        .as(Scenario::new);
  }

  @Property(tries = 100)
  void replay_randomPodsAndNodes_neverOverAllocatesAndIsDeterministic(@ForAll("scenarios") Scenario sc) {
    List<Integer> first = replay(sc);
    assertThat(replay(sc)).isEqualTo(first);
  }

  /** Places the scenario's pods in order; returns each pod's node (-1: unplaced) and, for a share, its device. */
  private static List<Integer> replay(Scenario sc) {
    int n = sc.nodes().size();
    int[][] free = new int[n][];
    long[] cpu = new long[n];
    for (int i = 0; i < n; i++) {
      int[] spec = sc.nodes().get(i);
      free[i] = new int[spec[0]];
      java.util.Arrays.fill(free[i], NodeGpu.FULL);
      cpu[i] = spec[1] * 1000L;
    }
    List<GpuPod> pods = new ArrayList<>();
    List<GpuWorkload.Shape> shapes = new ArrayList<>();
    for (int p = 0; p < sc.pods().size(); p++) {
      int[] spec = sc.pods().get(p);
      List<String> models = spec[3] == 0 ? List.of(MODELS[spec[1] % 2]) : List.of();
      GpuDemand d = switch (spec[0]) {
        case 0 -> GpuDemand.NONE;
        case 1 -> new GpuDemand(0, spec[1] < 70 ? SHARES[spec[1] % SHARES.length] : 1 + spec[1] * 10, models);
        default -> new GpuDemand(1 + spec[1] % 4, 0, models);
      };
      pods.add(new GpuPod("default/p" + p, spec[2] * 1000L, d));
      shapes.add(new GpuWorkload.Shape(spec[2] * 1000L, d.isShare() ? d.milli() : d.isNone() ? 0 : NodeGpu.FULL,
          d.isShare() ? 1 : d.whole(), models, 1));
    }
    GpuScorer scorer = GpuPolicy.ADAPTIVE_GAP_FILL.create(GpuWorkload.of(shapes), 7);
    List<Integer> placed = new ArrayList<>();
    for (GpuPod pod : pods) {
      List<Integer> fit = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        if (fits(pod, free[i], cpu[i], model(sc, i))) {
          fit.add(i);
        }
      }
      if (fit.isEmpty()) {
        placed.add(-1);
        continue;
      }
      NodeGpu[] view = new NodeGpu[fit.size()];
      long[] scores = new long[fit.size()];
      for (int k = 0; k < view.length; k++) {
        int i = fit.get(k);
        view[k] = new NodeGpu("n" + i, cpu[i], free[i].clone(), sum(free[i]),
            Collections.nCopies(free[i].length, model(sc, i)), kind -> 0);
        scores[k] = scorer.score(pod, view[k]);
      }
      scorer.normalize(pod, candidates(view), scores);
      int best = 0;
      for (int k = 0; k < view.length; k++) {
        assertThat(scores[k]).as("normalised score of %s on %s", pod.key(), view[k].name()).isBetween(0L, 100L);
        if (scores[k] > scores[best]) {
          best = k;
        }
      }
      int i = fit.get(best);
      GpuDemand d = pod.demand();
      int device = -1;
      if (d.isShare()) {
        device = scorer.shareDevice(pod, view[best]);
        if (device < 0) {
          device = tightest(free[i], d.milli());
        }
        assertThat(free[i][device]).as("free milli of device %d on n%d for %s", device, i, pod.key())
            .isGreaterThanOrEqualTo(d.milli());
        free[i][device] -= d.milli();
      } else {
        int left = d.whole();
        for (int g = 0; g < free[i].length && left > 0; g++) {
          if (free[i][g] == NodeGpu.FULL) {
            free[i][g] = 0;
            left--;
          }
        }
        assertThat(left).as("whole devices missing on n%d for %s", i, pod.key()).isZero();
      }
      cpu[i] -= pod.milliCpu();
      assertThat(cpu[i]).as("CPU left on n%d", i).isNotNegative();
      for (int v : free[i]) {
        assertThat(v).as("free milli on n%d", i).isBetween(0, NodeGpu.FULL);
      }
      placed.add(i);
      placed.add(device);
    }
    return placed;
  }

  private static boolean fits(GpuPod pod, int[] free, long cpuLeft, String model) {
    GpuDemand d = pod.demand();
    if (pod.milliCpu() > cpuLeft || !d.accepts(model)) {
      return false;
    }
    if (d.isShare()) {
      return tightest(free, d.milli()) >= 0;
    }
    int whole = 0;
    for (int v : free) {
      whole += v == NodeGpu.FULL ? 1 : 0;
    }
    return whole >= d.whole();
  }

  private static int tightest(int[] free, int milli) {
    int best = -1;
    for (int g = 0; g < free.length; g++) {
      if (free[g] >= milli && (best < 0 || free[g] < free[best])) {
        best = g;
      }
    }
    return best;
  }

  private static String model(Scenario sc, int i) {
    return MODELS[sc.nodes().get(i)[2]];
  }

  private static int sum(int[] free) {
    int s = 0;
    for (int v : free) {
      s += v;
    }
    return s;
  }

  private static GpuScorer.Candidates candidates(NodeGpu[] nodes) {
    return new GpuScorer.Candidates() {
      @Override
      public int size() {
        return nodes.length;
      }

      @Override
      public NodeGpu node(int k) {
        return nodes[k];
      }

      @Override
      public long order(int k) {
        return Integer.parseInt(nodes[k].name().substring(1));
      }
    };
  }
}
