package io.fleetkit.scheduler.plugins.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * ReservingGapFill's kernel driven as the trace replay drives it (every node to {@link GpuScorer#preFilter},
 * {@link GpuScorer#admits} on the nodes where the pod fits when it asks, the highest normalised score wins, a share
 * gets {@link GpuScorer#shareDevice}) on random nodes and pods, against the rule computed from scratch for every pod:
 * the arrived GPU demand A (this pod included, placed or not), its whole-device part W, the arrived pods' CPU, the
 * capacity C, the nodes' CPU and the fully free devices F. The reservation holds exactly for the shares that accept
 * any model while the arrived pods ask less CPU per GPU than the nodes hold and F × 1000 < W / A × (C − A);
 * then a node is admitted exactly when one of its devices already holds shares and has room, and the share never
 * lands on a fully free device. Otherwise every node where the pod fits is admitted: the rule never turns a pod away
 * while the free devices cover the whole-GPU demand expected. No device or node CPU is ever over-allocated.
 */
final class GpuReservingGapFillPropertyTest {
  private static final String[] MODELS = {"T4", "G2"};
  private static final int[] SHARES = {160, 230, 320, 470, 650, 810};

  /** A node: devices, cores, model index. A pod: kind (0 CPU-only, 1 share, 2 whole), size, cores, constrained. */
  record Scenario(List<int[]> nodes, List<int[]> pods) {}

  @Provide
  Arbitrary<Scenario> scenarios() {
    Arbitrary<int[]> node = Combinators.combine(Arbitraries.integers().between(1, 4),
        Arbitraries.integers().between(32, 128), Arbitraries.integers().between(0, 1))
        .as((devices, cores, model) -> new int[] {devices, cores, model});
    Arbitrary<int[]> pod = Combinators.combine(Arbitraries.of(0, 1, 1, 2, 2), Arbitraries.integers().between(0, 99),
        Arbitraries.integers().between(1, 4), Arbitraries.integers().between(0, 5))
        .as((kind, size, cores, constrained) -> new int[] {kind, size, cores, constrained});
    return Combinators.combine(node.list().ofMinSize(1).ofMaxSize(8), pod.list().ofMinSize(1).ofMaxSize(80))
        .as(Scenario::new);
  }

  @Property(tries = 200)
  void reservation_holdsExactlyWhileFreeDevicesAreShortOfTheExpectedWholeDemand(
      @ForAll("scenarios") Scenario sc) {
    int n = sc.nodes().size();
    int[][] free = new int[n][];
    long[] cpu = new long[n];
    double capacity = 0;
    double clusterCpu = 0;
    for (int i = 0; i < n; i++) {
      int[] spec = sc.nodes().get(i);
      free[i] = new int[spec[0]];
      Arrays.fill(free[i], NodeGpu.FULL);
      cpu[i] = spec[1] * 1000L;
      capacity += spec[0] * (double) NodeGpu.FULL;
      clusterCpu += cpu[i];
    }
    List<GpuPod> pods = new ArrayList<>();
    List<GpuWorkload.Shape> shapes = new ArrayList<>();
    for (int p = 0; p < sc.pods().size(); p++) {
      int[] spec = sc.pods().get(p);
      List<String> models = spec[3] == 0 ? List.of(MODELS[spec[1] % 2]) : List.of();
      GpuDemand d = switch (spec[0]) {
        case 0 -> GpuDemand.NONE;
        case 1 -> new GpuDemand(0, SHARES[spec[1] % SHARES.length], models);
        default -> new GpuDemand(1 + spec[1] % 3, 0, models);
      };
      pods.add(new GpuPod("default/p" + p, spec[2] * 1000L, d));
      shapes.add(new GpuWorkload.Shape(spec[2] * 1000L, d.isShare() ? d.milli() : d.isNone() ? 0 : NodeGpu.FULL,
          d.isShare() ? 1 : d.whole(), models, 1));
    }
    GpuScorer scorer = GpuPolicy.RESERVING_GAP_FILL.create(GpuWorkload.of(shapes), 7);
    double arrived = 0;
    double arrivedWhole = 0;
    double arrivedCpu = 0;
    for (GpuPod pod : pods) {
      GpuDemand d = pod.demand();
      arrived += d.totalMilli();
      arrivedCpu += pod.milliCpu();
      arrivedWhole += d.whole() > 0 ? d.totalMilli() : 0;
      long freeDevices = 0;
      NodeGpu[] all = new NodeGpu[n];
      for (int i = 0; i < n; i++) {
        all[i] = view(sc, i, free[i], cpu[i]);
        for (int v : free[i]) {
          freeDevices += v == NodeGpu.FULL ? 1 : 0;
        }
      }
      boolean expected = d.isShare() && d.models().isEmpty() && arrived > 0
          && arrivedCpu / arrived < clusterCpu / capacity
          && (double) freeDevices * NodeGpu.FULL < arrivedWhole / arrived * Math.max(0, capacity - arrived);

      boolean ask = scorer.preFilter(pod, candidates(all));
      Statistics.label("shares held off free devices").collect(d.isShare() ? ask : null);

      assertThat(ask).as("reservation for %s (F %d, W %s, A %s, C %s)", pod, freeDevices, arrivedWhole, arrived,
          capacity).isEqualTo(expected);
      List<Integer> fit = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        if (!fits(pod, free[i], cpu[i], model(sc, i))) {
          continue;
        }
        boolean admitted = scorer.admits(pod, all[i]);
        assertThat(admitted).as("%s on n%d %s, reservation %s", pod.key(), i, Arrays.toString(free[i]), ask)
            .isEqualTo(!ask || sharedRoom(free[i], d.milli()));
        if (admitted) {
          fit.add(i);
        }
      }
      if (fit.isEmpty()) {
        continue;
      }
      NodeGpu[] view = new NodeGpu[fit.size()];
      long[] scores = new long[fit.size()];
      for (int k = 0; k < view.length; k++) {
        view[k] = all[fit.get(k)];
        scores[k] = scorer.score(pod, view[k]);
      }
      scorer.normalize(pod, candidates(view), scores);
      int best = 0;
      for (int k = 1; k < view.length; k++) {
        if (scores[k] > scores[best]) {
          best = k;
        }
      }
      int i = fit.get(best);
      if (d.isShare()) {
        int device = scorer.shareDevice(pod, view[best]);
        if (device < 0) {
          device = tightest(free[i], d.milli());
        }
        assertThat(free[i][device]).as("free milli of device %d on n%d for %s", device, i, pod.key())
            .isGreaterThanOrEqualTo(d.milli());
        if (ask) {
          assertThat(free[i][device]).as("%s held off free devices, got device %d on n%d", pod.key(), device, i)
              .isLessThan(NodeGpu.FULL);
        }
        free[i][device] -= d.milli();
      } else if (!d.isNone()) {
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
    }
  }

  private static NodeGpu view(Scenario sc, int i, int[] free, long cpu) {
    int sum = 0;
    for (int v : free) {
      sum += v;
    }
    return new NodeGpu("n" + i, cpu, free.clone(), sum, Collections.nCopies(free.length, model(sc, i)), kind -> 0);
  }

  private static boolean sharedRoom(int[] free, int milli) {
    for (int v : free) {
      if (v < NodeGpu.FULL && v >= milli) {
        return true;
      }
    }
    return false;
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
