package io.fleetkit.autoscale.provisioner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.autoscale.provisioner.BalancedScoring.PoolTotals;
import io.fleetkit.autoscale.provisioner.BalancedScoring.ScoreResult;
import io.fleetkit.reconcile.controllers.WorkloadLabels;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link BalancedScoring}, ported from kubernetes-sigs/karpenter (mirror HEAD of 2026-08-20):
 * {@code pkg/controllers/disruption/balanced_test.go} (Describe "ScoreMove", every It) and
 * {@code pkg/controllers/disruption/balanced_scoring_test.go} (the "ScoreMove (SavingsRatio)" table,
 * "Candidate.SavingsRatio", and computeNodePoolTotals' first case through the per-node costs).
 */
final class BalancedScoringTest {
  private static final int K = BalancedScoring.BALANCED_K;
  /** The RFC's pool: eight m7i.xlarge at 4.84 and two m7i.2xlarge at 9.68 a day; 10 nodes and 80 pods. */
  private static final PoolTotals DEFAULT_TOTALS = new PoolTotals(58.08, 90);

  private static double expected(double savings, double disruption, PoolTotals t) {
    return (savings / t.totalCost()) / (disruption / t.totalDisruptionCost());
  }

  // ---- balanced_test.go, Describe "ScoreMove"

  @Test
  void approvesAnOversizedNodeConsolidation() {
    double savings = 7.26; // m7i.2xlarge - m7i.large
    double disruption = 4.0; // 1 per node + 3 pods
    ScoreResult r = BalancedScoring.scoreMove(savings, disruption, DEFAULT_TOTALS, K);
    assertThat(r.approved()).isTrue();
    assertThat(r.score()).isCloseTo(expected(savings, disruption, DEFAULT_TOTALS), within(0.02));
    assertThat(r.savingsFraction()).isCloseTo(savings / 58.08, within(0.001));
    assertThat(r.disruptionFraction()).isCloseTo(disruption / 90, within(0.001));
  }

  @Test
  void approvesASpareCapacityDelete() {
    ScoreResult r = BalancedScoring.scoreMove(4.84, 5.0, DEFAULT_TOTALS, K);
    assertThat(r.approved()).isTrue();
    assertThat(r.score()).isCloseTo(expected(4.84, 5.0, DEFAULT_TOTALS), within(0.02));
  }

  @Test
  void rejectsAMarginalMove() {
    ScoreResult r = BalancedScoring.scoreMove(2.42, 9.0, DEFAULT_TOTALS, K);
    assertThat(r.approved()).isFalse();
    assertThat(r.score()).isCloseTo(expected(2.42, 9.0, DEFAULT_TOTALS), within(0.01));
  }

  @Test
  void rejectsAWellPackedNodeWithZeroSavings() {
    ScoreResult r = BalancedScoring.scoreMove(0.0, 11.0, DEFAULT_TOTALS, K);
    assertThat(r.approved()).isFalse();
    assertThat(r.score()).isZero();
  }

  @Test
  void approvesAReplaceInAUniformPool() {
    PoolTotals uniform = new PoolTotals(48.40, 90);
    ScoreResult r = BalancedScoring.scoreMove(2.42, 9.0, uniform, K);
    assertThat(r.approved()).isTrue();
    assertThat(r.score()).isCloseTo(expected(2.42, 9.0, uniform), within(0.01));
  }

  @Test
  void approvesLowDisruptionNodes_rejectsHighDisruptionNodes() {
    PoolTotals het = new PoolTotals(58.08, 117); // 10 nodes + 107 pod disruption
    ScoreResult a = BalancedScoring.scoreMove(4.84, 5.0, het, K);
    assertThat(a.approved()).isTrue();
    assertThat(a.score()).isCloseTo(expected(4.84, 5.0, het), within(0.02));
    ScoreResult b = BalancedScoring.scoreMove(4.84, 32.0, het, K);
    assertThat(b.approved()).isFalse();
    assertThat(b.score()).isCloseTo(expected(4.84, 32.0, het), within(0.01));
  }

  @Test
  void sameScoreWhateverThePoolSize() {
    ScoreResult ten = BalancedScoring.scoreMove(7.26, 4.0, DEFAULT_TOTALS, K);
    ScoreResult hundred = BalancedScoring.scoreMove(7.26, 4.0, new PoolTotals(580.80, 900), K);
    assertThat(ten.score()).isCloseTo(hundred.score(), within(0.01));
    assertThat(ten.score()).isCloseTo(expected(7.26, 4.0, DEFAULT_TOTALS), within(0.02));
  }

  @Test
  void zeroMoveDisruption_positiveSavings_infiniteScore_approved() {
    ScoreResult r = BalancedScoring.scoreMove(4.84, 0.0, DEFAULT_TOTALS, K);
    assertThat(r.approved()).isTrue();
    assertThat(r.score()).isEqualTo(Double.POSITIVE_INFINITY);
  }

  @Test
  void zeroSavingsAndZeroDisruption_rejected() {
    assertThat(BalancedScoring.scoreMove(0.0, 0.0, DEFAULT_TOTALS, K).approved()).isFalse();
  }

  @Test
  void zeroPoolCost_rejected() {
    assertThat(BalancedScoring.scoreMove(4.84, 5.0, new PoolTotals(0, 90), K).approved()).isFalse();
  }

  @Test
  void zeroMoveDisruption_divisionByZeroGuard_approved() {
    assertThat(BalancedScoring.scoreMove(4.84, 0.0, DEFAULT_TOTALS, K).approved()).isTrue();
  }

  @Test
  void thresholdTuning_marginalMove_rejectedAtK2_approvedAtK3_rejectedAtK1() {
    assertThat(BalancedScoring.scoreMove(2.42, 9.0, DEFAULT_TOTALS, 2).approved()).isFalse();
    ScoreResult k3 = BalancedScoring.scoreMove(2.42, 9.0, DEFAULT_TOTALS, 3);
    assertThat(k3.approved()).isTrue();
    assertThat(k3.threshold()).isCloseTo(0.333, within(0.001));
    assertThat(BalancedScoring.scoreMove(2.42, 9.0, DEFAULT_TOTALS, 1).approved()).isFalse();
  }

  @Test
  void crossPool_proportionallyEquivalentMoves_sameScore() {
    ScoreResult onDemand = BalancedScoring.scoreMove(4.84, 4.0, new PoolTotals(48.40, 90), K);
    ScoreResult spot = BalancedScoring.scoreMove(1.45, 4.0, new PoolTotals(14.50, 90), K);
    assertThat(onDemand.score()).isCloseTo(spot.score(), within(0.01));
    assertThat(onDemand.approved()).isTrue();
    assertThat(spot.approved()).isTrue();
  }

  // ---- balanced_scoring_test.go, DescribeTable "should compute correct scores" (totals 100 / 100, k = 2)

  static Stream<Arguments> scoreTable() {
    return Stream.of(
        Arguments.of("high savings low disruption", 20.0, 5.0, 4.0, true, false),
        Arguments.of("equal fractions", 10.0, 10.0, 1.0, true, false),
        Arguments.of("low savings high disruption", 5.0, 50.0, 0.10, false, false),
        Arguments.of("zero disruption cost", 10.0, 0.0, 0.0, true, true),
        Arguments.of("zero savings", 0.0, 10.0, 0.0, false, false),
        Arguments.of("negative savings", -5.0, 10.0, 0.0, false, false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scoreTable")
  void scoreMove_table(String name, double savings, double disruption, double wantScore, boolean wantApproved,
      boolean wantInf) {
    ScoreResult r = BalancedScoring.scoreMove(savings, disruption, new PoolTotals(100, 100), 2);
    if (wantInf) {
      assertThat(r.score()).isEqualTo(Double.POSITIVE_INFINITY);
    } else {
      assertThat(r.score()).isCloseTo(wantScore, within(0.01));
    }
    assertThat(r.approved()).isEqualTo(wantApproved);
  }

  // ---- balanced_scoring_test.go, "Candidate.SavingsRatio" and computeNodePoolTotals

  private static Pod pod(String name) {
    return Pod.builder().name(name).container("app", "img", io.fleetkit.api.resource.ResourceList.ofCpuMemory(100, 1L << 20)).build();
  }

  @Test
  void savingsRatio_priceOverDisruption() {
    assertThat(BalancedScoring.savingsRatio(4.84, BalancedScoring.rescheduleDisruptionCost(List.of())))
        .isCloseTo(4.84, within(0.01));
    List<Pod> three = List.of(pod("p1"), pod("p2"), pod("p3"));
    assertThat(BalancedScoring.rescheduleDisruptionCost(three)).isEqualTo(4.0);
    assertThat(BalancedScoring.savingsRatio(4.84, BalancedScoring.rescheduleDisruptionCost(three)))
        .isCloseTo(1.21, within(0.01));
    assertThat(BalancedScoring.savingsRatio(0, BalancedScoring.rescheduleDisruptionCost(three))).isZero();
  }

  @Test
  void poolDisruption_eachNodeOnePlusItsPods() {
    // computeNodePoolTotals "should produce totals from ALL candidates": five nodes with one default pod each
    double total = 0;
    for (int i = 0; i < 5; i++) {
      total += BalancedScoring.nodeDisruptionCost(List.of(pod("pod")));
    }
    assertThat(total).isCloseTo(10.0, within(0.01));
  }

  // ---- pkg/utils/disruption/disruption.go EvictionCost (FleetKit's cases)

  @Test
  void evictionCost_deletionCostAndPriority_scaled_clamped_unreadableAnnotationIgnored() {
    assertThat(BalancedScoring.evictionCost(pod("plain"))).isEqualTo(1.0);
    Pod costly = pod("costly").toBuilder().annotation(WorkloadLabels.POD_DELETION_COST, "134217728").build();
    assertThat(BalancedScoring.evictionCost(costly)).isEqualTo(2.0); // 2^27: one more
    Pod cheap = pod("cheap").toBuilder().annotation(WorkloadLabels.POD_DELETION_COST, "-2147483647").build();
    assertThat(BalancedScoring.evictionCost(cheap)).isEqualTo(-10.0); // 1 - 16, clamped
    Pod bad = pod("bad").toBuilder().annotation(WorkloadLabels.POD_DELETION_COST, "1d").build();
    assertThat(BalancedScoring.evictionCost(bad)).isEqualTo(1.0);
    Pod critical = pod("critical").toBuilder().priority(2_000_000_000).build();
    assertThat(BalancedScoring.evictionCost(critical)).isEqualTo(10.0);
    Pod half = pod("half").toBuilder().priority(16_777_216).build(); // 2^24 / 2^25
    assertThat(BalancedScoring.evictionCost(half)).isEqualTo(1.5);
  }

  @Test
  void nodeDisruptionCost_leavesOutDaemonSetPodsAndNegativeCosts() {
    OwnerReference ds = new OwnerReference("apps/v1", "DaemonSet", "agent", "ds-1", true, true);
    List<Pod> pods = new ArrayList<>();
    pods.add(pod("web"));
    pods.add(pod("agent").toBuilder().ownerReference(ds).build());
    pods.add(pod("low").toBuilder().priority(-1_000_000_000).build());
    assertThat(BalancedScoring.nodeDisruptionCost(pods)).isEqualTo(2.0);
  }
}
