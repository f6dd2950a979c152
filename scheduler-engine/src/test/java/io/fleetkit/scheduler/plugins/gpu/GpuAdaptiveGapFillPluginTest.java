package io.fleetkit.scheduler.plugins.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * AdaptiveGapFill's two adaptive rules on the kernel directly (candidates in the given order, which is also the node
 * order): CPU-only pods by best fit on the CPU beyond the free GPUs' needs, and pods accepting any model kept off a
 * model that the arrived model-constrained pods will need.
 */
final class GpuAdaptiveGapFillPluginTest {
  private static final GpuWorkload M = GpuWorkload.of(List.of(
      new GpuWorkload.Shape(8000, 1000, 1, List.of(), 2),
      new GpuWorkload.Shape(4000, 0, 0, List.of(), 1)));

  private static NodeGpu node(String name, long cores, String model, int... free) {
    int sum = 0;
    for (int f : free) {
      sum += f;
    }
    return new NodeGpu(name, cores * 1000, free, sum, Collections.nCopies(free.length, model), kind -> 0);
  }

  private static GpuScorer.Candidates candidates(NodeGpu... nodes) {
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
        return k;
      }
    };
  }

  /** The index of the candidate the scorer picks (highest normalised score, the first on ties). */
  private static int choose(GpuScorer s, GpuPod pod, NodeGpu... nodes) {
    long[] scores = new long[nodes.length];
    for (int k = 0; k < nodes.length; k++) {
      scores[k] = s.score(pod, nodes[k]);
    }
    s.normalize(pod, candidates(nodes), scores);
    int best = 0;
    for (int k = 1; k < nodes.length; k++) {
      if (scores[k] > scores[best]) {
        best = k;
      }
    }
    for (long v : scores) {
      assertThat(v).isBetween(0L, 100L);
    }
    return best;
  }

  private static GpuPod cpuOnly(String key, int cores) {
    return new GpuPod(key, cores * 1000L, GpuDemand.NONE);
  }

  @Test
  void cpuOnlyPod_takesTheSmallestCpuLeftOverThatFits_beyondWhatFreeGpusNeed() {
    GpuScorer s = GpuPolicy.ADAPTIVE_GAP_FILL.create(M, 1);
    // Before any GPU pod the scorer keeps 13 cores per free GPU. Excess after a 4-core pod:
    // full6 2, full40 36, twoFree60 60 - 4 - 26 = 30.
    NodeGpu full6 = node("full6", 6, "G2", 0, 0);
    NodeGpu full40 = node("full40", 40, "G2", 0, 0);
    NodeGpu twoFree60 = node("twoFree60", 60, "T4", 1000, 1000);
    assertThat(choose(s, cpuOnly("a", 4), full40, twoFree60, full6)).isEqualTo(2);
    // 8 cores: full6 does not fit (the host filters it); twoFree60's excess 26 is smaller than full40's 32.
    assertThat(choose(s, cpuOnly("b", 8), full40, twoFree60)).isEqualTo(1);
    // no excess anywhere: the largest (least negative) one, 96 - 8 - 104 = -16 over 40 - 8 - 52 = -20
    NodeGpu fourFree40 = node("fourFree40", 40, "G2", 1000, 1000, 1000, 1000);
    NodeGpu eightFree96 = node("eightFree96", 96, "G2", 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000);
    assertThat(choose(s, cpuOnly("c", 8), fourFree40, eightFree96)).isEqualTo(1);
  }

  @Test
  void cpuOnlyPod_cpuPerGpu_followsTheArrivedPods() {
    NodeGpu g = node("g", 60, "G2", 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000);
    NodeGpu full = node("full", 30, "G2", 0, 0);
    // CPU-light GPU pods so far: 2 cores for 1 GPU, then this 4-core pod: 6 cores per GPU.
    // Excess: g 60 - 4 - 8 x 6 = 8, full 26 -> g
    GpuScorer light = GpuPolicy.ADAPTIVE_GAP_FILL.create(M, 1);
    choose(light, new GpuPod("w", 2_000, new GpuDemand(1, 0, List.of())), node("x", 64, "G2", 1000));
    assertThat(choose(light, cpuOnly("c", 4), g, full)).isEqualTo(0);
    // CPU-heavy: 20 + 4 cores per GPU: g 60 - 4 - 8 x 24 < 0, full 26 -> full
    GpuScorer heavy = GpuPolicy.ADAPTIVE_GAP_FILL.create(M, 1);
    choose(heavy, new GpuPod("w", 20_000, new GpuDemand(1, 0, List.of())), node("x", 64, "G2", 1000));
    assertThat(choose(heavy, cpuOnly("c", 4), g, full)).isEqualTo(1);
  }

  @Test
  void podAcceptingAnyModel_keepsOffAModelTheConstrainedPodsWillNeed() {
    NodeGpu t4 = node("t4", 64, "T4", 1000, 1000);
    NodeGpu g2 = node("g2", 96, "G2", 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000);
    GpuPod anyModel = new GpuPod("any", 8000, new GpuDemand(1, 0, List.of()));

    // t4 with one GPU used (not by the pods below: the nodes are given as the host sees them)
    NodeGpu t4Used = node("t4", 56, "T4", 0, 1000);
    GpuScorer fresh = GpuPolicy.ADAPTIVE_GAP_FILL.create(M, 1);
    choose(fresh, cpuOnly("c", 1), t4, g2);
    // no constrained pod yet: FGD prefers emptying the T4 node's last GPU to breaking into the idle G2 node
    int first = choose(fresh, anyModel, t4Used, g2);

    GpuScorer s = GpuPolicy.ADAPTIVE_GAP_FILL.create(M, 1);
    choose(s, cpuOnly("c", 1), t4, g2); // sees both nodes: 2 T4, 8 G2 GPUs
    assertThat(choose(s, new GpuPod("t4only", 8000, new GpuDemand(1, 0, List.of("T4"))), t4)).isEqualTo(0);
    // half the arrived GPU demand asks for T4: about 0.5 x (10 - 2) = 4 GPUs of it still expected, 1 T4 free
    int chosen = choose(s, anyModel, t4Used, g2);

    assertThat(first).as("without constrained pods").isEqualTo(0);
    assertThat(chosen).as("with T4 reserved").isEqualTo(1);
    // only T4 fits: it is taken all the same
    assertThat(choose(s, new GpuPod("any2", 8000, new GpuDemand(1, 0, List.of())), t4Used)).isEqualTo(0);
  }
}
