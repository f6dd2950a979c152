package io.fleetkit.lab.gpu;

import io.fleetkit.scheduler.plugins.gpu.GpuPolicy;
import java.util.List;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The upper bound on the allocation any policy reaches (docs/gpu-benchmarks.md, "How far can 96.0% go"). */
final class AllocationBoundTest {
  private static TracePod share(String name, int milli) {
    return new TracePod(name, 1000, 0, 1, milli, List.of());
  }

  @Test
  void bound_twoBigSharesOnTwoDevices_keepsBothBigSharesNotTheHalf() {
    // 810 + 810 on their own devices beats 810 + 500; the 500 fits no 190 gap
    assertThat(AllocationBound.bound(2, List.of(share("a", 810), share("b", 810), share("c", 500))))
        .isEqualTo(1620);
  }

  @Test
  void bound_smallShareFitsTheGap_fillsTheDevice() {
    assertThat(AllocationBound.bound(1, List.of(share("a", 810), share("b", 190)))).isEqualTo(1000);
  }

  @Test
  void bound_smallShareLargerThanTheGap_cannotFillIt() {
    assertThat(AllocationBound.bound(1, List.of(share("a", 810), share("b", 200)))).isEqualTo(810);
  }

  @Test
  void bound_wholeGpuPods_areCappedByDevices() {
    TracePod four = new TracePod("w", 8000, 0, 4, 1000, List.of());
    assertThat(AllocationBound.bound(6, List.of(four, four.renamed("w2")))).isEqualTo(6000);
    assertThat(AllocationBound.bound(6, List.of(four))).isEqualTo(4000);
  }

  @Test
  void configurationBound_twoHalvesLeaveAGapTooSmallForTheTinyShare_isBelowTheSimpleBound() {
    List<TracePod> pods = List.of(share("a", 470), share("b", 470), share("c", 70));
    assertThat(AllocationBound.bound(1, pods)).isEqualTo(1000);
    // fractional configurations (0.87 device of {470, 470}, 0.13 of {470} + 70) give 947.9, not the integer 940
    assertThat(ConfigurationBound.bound(1, pods)).isEqualTo(947);
    assertThat(ConfigurationBound.bound(1, List.of(share("a", 470), share("b", 470), share("c", 60))))
        .isEqualTo(1000);
  }

  @Test
  void configurationBound_bigShareAndNonTinyShare_cannotShare() {
    // integer optimum 810; the LP may take 0.8 device of {810} and 0.2 of {200 x 5}: 848
    assertThat(ConfigurationBound.bound(1, List.of(share("a", 810), share("b", 200)))).isEqualTo(848);
    TracePod two = new TracePod("w", 8000, 0, 2, 1000, List.of());
    assertThat(ConfigurationBound.bound(3, List.of(two, share("a", 810), share("b", 190)))).isEqualTo(3000);
  }

  @Test
  void maximize_smallLp_findsTheOptimum() {
    // max 3x + 2y s.t. x + y <= 4, x + 3y <= 6, x <= 3: optimum x = 3, y = 1, value 11
    double opt = ConfigurationBound.maximize(new double[][] {{1, 1}, {1, 3}, {1, 0}}, new double[] {4, 6, 3},
        new double[] {3, 2});
    assertThat(opt).isCloseTo(11, org.assertj.core.api.Assertions.within(1e-9));
  }

  @Test
  void atArrival_noGpuNode_isRejected() {
    assertThatThrownBy(() -> AllocationBound.atArrival(List.of(new TraceNode("cpu", 64000, 0, 0, "")),
        List.of(share("a", 500)), 42, 1.3, 100))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no GPU node");
  }

  @Test
  void atArrival_defaultTrace_boundsEveryPolicyAndIsAbove96() {
    double sum = 0;
    for (long seed = 42; seed <= 51; seed++) {
      double bound = AllocationBound.atArrival(TraceBenchmarkTest.nodes(), TraceBenchmarkTest.pods("default"), seed,
          1.3, 100);
      sum += bound;
      assertThat(bound).as("bound, seed %d", seed).isBetween(96.9, 97.05);
      if (seed <= 44) {
        for (GpuPolicy p : List.of(GpuPolicy.FGD, GpuPolicy.FGD_BALANCED, GpuPolicy.GAP_FILL)) {
          assertThat(TraceReplay.run(TraceBenchmarkTest.nodes(), TraceBenchmarkTest.pods("default"), p, seed)
              .allocationAt(100)).as("%s, seed %d", p, seed).isLessThanOrEqualTo(bound);
        }
      }
    }
    // 96.97: 0.92 point above GapFill (96.05), our best
    assertThat(sum / 10).isBetween(96.95, 97.0);
  }
}
