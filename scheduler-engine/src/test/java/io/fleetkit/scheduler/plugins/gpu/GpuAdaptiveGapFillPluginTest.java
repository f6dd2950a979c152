package io.fleetkit.scheduler.plugins.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * AdaptiveGapFill's rules on the kernel directly (candidates in the given order, which is also the node order):
 * CPU-only pods on the nodes without a free GPU first, pods accepting any model kept off a model that the arrived
 * model-constrained pods will need, whole-GPU pods' ties on FGD's score broken by CPU/GPU balance only while the
 * arrived pods ask less CPU per GPU than the cluster holds, and the nodes multi-device pods still expected need kept
 * free of smaller pods.
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
  void cpuOnlyPod_takesTheLeastCpuLeftAmongNodesWithoutFreeGpu_elseFgdBalanced() {
    GpuScorer s = GpuPolicy.ADAPTIVE_GAP_FILL.create(M, 1);
    NodeGpu full6 = node("full6", 6, "G2", 0, 0);
    NodeGpu full40 = node("full40", 40, "G2", 0, 0);
    NodeGpu twoFree60 = node("twoFree60", 60, "T4", 1000, 1000);
    // FgdBalanced would take full40 (36 cores to spare against twoFree60's 60 - 4 - 2 x 13 = 30)
    assertThat(choose(s, cpuOnly("a", 4), full40, twoFree60, full6)).isEqualTo(2);
    assertThat(choose(GpuPolicy.FGD_BALANCED.create(M, 1), cpuOnly("a", 4), full40, twoFree60, full6)).isZero();
    // 8 cores: full6 does not fit (the host filters it), full40 is the only node without a free GPU
    assertThat(choose(s, cpuOnly("b", 8), twoFree60, full40)).isEqualTo(1);
    // every node has a free GPU: FgdBalanced's most spare CPU, 96 - 8 - 8 x 13 = -16 over 40 - 8 - 4 x 13 = -20
    NodeGpu fourFree40 = node("fourFree40", 40, "G2", 1000, 1000, 1000, 1000);
    NodeGpu eightFree96 = node("eightFree96", 96, "G2", 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000);
    assertThat(choose(s, cpuOnly("c", 8), fourFree40, eightFree96)).isEqualTo(1);
  }

  @Test
  void podAcceptingAnyModel_keepsOffAModelTheConstrainedPodsWillNeed() {
    NodeGpu t4 = node("t4", 64, "T4", 1000, 1000);
    NodeGpu g2 = node("g2", 128, "G2", 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000);
    GpuPod anyModel = new GpuPod("any", 8000, new GpuDemand(1, 0, List.of()));

    // t4 with one GPU used (not by the pods below: the nodes are given as the host sees them)
    NodeGpu t4Used = node("t4", 20, "T4", 0, 1000);
    GpuScorer fresh = GpuPolicy.ADAPTIVE_GAP_FILL.create(M, 1);
    choose(fresh, cpuOnly("c", 1), t4, g2);
    // no constrained pod yet: FGD ties the two; the CPU balance prefers the T4 node's last GPU (12 cores to spare
    // after it) to breaking into the idle G2 node (120 - 7 x 13 = 29)
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

  @Test
  void wholeGpuPod_tiesByCpuBalance_onlyWhileCpuIsAmple() {
    // both nodes fit every typical pod before and after: FGD scores them alike
    NodeGpu rich = node("rich", 200, "G2", 1000, 1000);
    NodeGpu fit = node("fit", 30, "G2", 1000, 1000);
    GpuPod whole = new GpuPod("w", 8000, new GpuDemand(1, 0, List.of()));
    GpuScorer fgd = GpuPolicy.FGD.create(M, 1);
    assertThat(fgd.score(whole, rich)).isEqualTo(fgd.score(whole, fit));

    // 8 cores per GPU arrived, the nodes hold 230 / 4 = 57.5: the balance (30 - 8 - 13 = 9 cores to spare against
    // 179) picks fit although rich comes first in the node order
    GpuScorer ample = GpuPolicy.ADAPTIVE_GAP_FILL.create(M, 1);
    assertThat(choose(ample, whole, rich, fit)).isEqualTo(1);

    // a 100-core CPU-only pod arrived first: 108 cores per GPU asked, more than the 57.5 held: FGD's node order
    GpuScorer pressed = GpuPolicy.ADAPTIVE_GAP_FILL.create(M, 1);
    choose(pressed, cpuOnly("big", 100), rich, fit);
    assertThat(choose(pressed, whole, rich, fit)).isZero();
  }

  private static NodeGpu eightFree(String name) {
    return node(name, 96, "G2", 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000);
  }

  @Test
  void smallerPods_keepOffTheLastNodesTheExpectedMultiDevicePodsNeed() {
    NodeGpu eightA = eightFree("eightA");
    NodeGpu fourB = node("fourB", 64, "G2", 1000, 1000, 1000, 1000);
    GpuPod one = new GpuPod("one", 8000, new GpuDemand(1, 0, List.of()));

    // no multi-device pod arrived: the CPU balance prefers eightA (88 - 7 x 13 = -3 against 56 - 3 x 13 = 17)
    GpuScorer fresh = GpuPolicy.ADAPTIVE_GAP_FILL.create(M, 1);
    assertThat(choose(fresh, one, eightA, fourB)).isZero();

    // an 8-device pod (64 cores) arrived and took eightX: 8 of 20 GPUs arrived, 1 x 12 / 8 -> 2 more such pods
    // expected, and eightA is the only node left that holds one: the 1-GPU pod goes to fourB
    GpuScorer s = GpuPolicy.ADAPTIVE_GAP_FILL.create(M, 1);
    GpuPod eight = new GpuPod("eight", 64_000, new GpuDemand(8, 0, List.of()));
    choose(s, eight, eightFree("eightX"), eightA, fourB);
    assertThat(choose(s, one, eightA, fourB)).isEqualTo(1);
    // a share that goes to an already shared device of the kept node takes no free device: not kept from it
    // (M has no share shape, so every gap counts as wasted: 0.1 left on the shared device against 0.6 on fourB)
    NodeGpu eightAShared = node("eightA", 96, "G2", 500, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000);
    GpuPod share = new GpuPod("share", 2000, new GpuDemand(0, 400, List.of()));
    assertThat(choose(s, share, eightAShared, fourB)).isZero();
    // the same share opening a free device: eightA and fourB cost alike (0.6 left), eightA is kept
    assertThat(choose(s, new GpuPod("share2", 2000, new GpuDemand(0, 400, List.of())), eightA, fourB)).isEqualTo(1);
    // a 4-device pod would leave eightA with 4 free: kept as well; an 8-device pod takes it
    GpuPod four = new GpuPod("four", 32_000, new GpuDemand(4, 0, List.of()));
    assertThat(choose(s, four, eightA, fourB)).isEqualTo(1);
    assertThat(choose(s, new GpuPod("eight2", 64_000, new GpuDemand(8, 0, List.of())), eightA)).isZero();
    // only the kept node fits: it is taken all the same
    assertThat(choose(s, new GpuPod("one2", 8000, new GpuDemand(1, 0, List.of())), eightA)).isZero();
  }
}
