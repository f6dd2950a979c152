package io.fleetkit.reconcile.rollouts.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.rollouts.CanaryStep;
import io.fleetkit.reconcile.controllers.internal.DeploymentMath.RsView;
import io.fleetkit.reconcile.rollouts.internal.CanaryMath.Counts;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/** Cases ported from argoproj/argo-rollouts {@code utils/replicaset/canary_test.go}. */
final class CanaryMathTest {

  private static RsView rs(String name, int spec, int available) {
    return new RsView(name, spec, available, null);
  }

  /** newRollout(...) of canary_test.go: one step {setWeight, setCanaryScale}, current "canary", stable "stable". */
  private static CanaryView rollout(int replicas, int setWeight, IntOrPercent surge, IntOrPercent unavailable,
      CanaryStep.@Nullable SetCanaryScale scs, boolean trafficRouting, @Nullable Integer abortDelay, boolean abort,
      boolean promoteFull, @Nullable Integer minPods, String currentHash, String stableHash) {
    List<CanaryStep> steps = new ArrayList<>();
    steps.add(new CanaryStep.SetWeight(setWeight));
    if (scs != null) {
      // Go's fixture puts setWeight and setCanaryScale in one step; FleetKit's steps are one-of, so the fixture
      // becomes [setCanaryScale, setWeight] at current index 1: both are found looking back from the current step.
      steps.add(0, scs);
    }
    return new CanaryView(replicas, steps, scs != null ? 1 : 0, surge, unavailable, trafficRouting, false,
        abortDelay, minPods, abort, promoteFull, stableHash, currentHash);
  }

  record Case(String name, int replicas, int setWeight, IntOrPercent maxSurge, IntOrPercent maxUnavailable,
      boolean promoteFull, int stableSpec, int stableAvailable, int canarySpec, int canaryAvailable,
      int expectedStable, int expectedCanary, @Nullable RsView olderRs, CanaryStep.@Nullable SetCanaryScale scs,
      boolean trafficRouting, @Nullable Integer abortScaleDownDelaySeconds, boolean statusAbort,
      @Nullable Integer minPodsPerReplicaSet) {}

  private static final List<Case> CASES = List.of(
        new Case("Do not add extra RSs in scaleDownCount when .Spec.Replica < AvailableReplicas", 10, 100, IntOrPercent.of(3), IntOrPercent.of(0), false,
            7, 8, 6, 3, 7, 6, null, null, false, null, false, null),
        new Case("Use max surge int to scale up canary", 10, 20, IntOrPercent.of(2), IntOrPercent.of(0), false,
            10, 10, 0, 0, 10, 2, null, null, false, null, false, null),
        new Case("Use max surge percentage to scale up canary", 10, 20, IntOrPercent.ofPercent(20), IntOrPercent.of(0), false,
            10, 10, 0, 0, 10, 2, null, null, false, null, false, null),
        new Case("Scale down extra stable replicas", 10, 20, IntOrPercent.ofPercent(20), IntOrPercent.of(0), false,
            10, 10, 2, 2, 8, 2, null, null, false, null, false, null),
        new Case("Do not go past max surge", 10, 30, IntOrPercent.of(2), IntOrPercent.of(0), false,
            10, 10, 0, 0, 10, 2, null, null, false, null, false, null),
        new Case("Use max unavailable int to scale down stableRS", 10, 20, IntOrPercent.of(0), IntOrPercent.of(2), false,
            10, 10, 0, 0, 8, 0, null, null, false, null, false, null),
        new Case("Use max surge percentage to scale down stableRS", 10, 20, IntOrPercent.of(0), IntOrPercent.ofPercent(20), false,
            10, 10, 0, 0, 8, 0, null, null, false, null, false, null),
        new Case("Do not go past max unavailable", 10, 30, IntOrPercent.of(0), IntOrPercent.of(2), false,
            10, 10, 0, 0, 8, 0, null, null, false, null, false, null),
        new Case("Use Max Surge and Max Unavailable", 10, 50, IntOrPercent.of(2), IntOrPercent.of(1), false,
            10, 10, 0, 0, 9, 2, null, null, false, null, false, null),
        new Case("Scale canaryRS to zero on setWeight of 0%", 10, 0, IntOrPercent.of(1), IntOrPercent.of(1), false,
            10, 10, 1, 1, 10, 0, null, null, false, null, false, null),
        new Case("Scale stable to zero on setWeight of 100%", 10, 100, IntOrPercent.of(1), IntOrPercent.of(1), false,
            1, 1, 10, 10, 0, 10, null, null, false, null, false, null),
        new Case("Do not scale canaryRS down to zero on non-zero weight", 1, 20, IntOrPercent.of(1), IntOrPercent.of(0), false,
            1, 1, 0, 0, 1, 1, null, null, false, null, false, null),
        new Case("Do not scale canaryRS down to zero on non-100 weight", 1, 90, IntOrPercent.of(1), IntOrPercent.of(0), false,
            1, 1, 0, 0, 1, 1, null, null, false, null, false, null),
        new Case("Scale canaryRS to zero on <50 weight without surge", 1, 49, IntOrPercent.of(0), IntOrPercent.of(1), false,
            1, 1, 0, 0, 1, 0, null, null, false, null, false, null),
        new Case("Scale stableRS down to zero on >=50 weight without surge", 1, 51, IntOrPercent.of(0), IntOrPercent.of(1), false,
            1, 1, 0, 0, 0, 0, null, null, false, null, false, null),
        new Case("Scale canaryRS to one on >=50 weight without surge and stable replicas", 1, 51, IntOrPercent.of(0), IntOrPercent.of(1), false,
            0, 0, 0, 0, 0, 1, null, null, false, null, false, null),
        new Case("Scale up Stable before canaryRS", 10, 30, IntOrPercent.of(1), IntOrPercent.of(0), false,
            1, 1, 0, 0, 7, 1, rs("older", 3, 3), null, false, null, false, null),
        new Case("Scale down canaryRS and stable", 10, 30, IntOrPercent.of(0), IntOrPercent.of(3), false,
            8, 5, 4, 4, 7, 3, null, null, false, null, false, null),
        new Case("Scale down stable and canary available", 10, 100, IntOrPercent.of(1), IntOrPercent.of(0), false,
            10, 2, 10, 8, 2, 9, null, null, false, null, false, null),
        new Case("Do not scale down canaryRS or stable when older RS count >= scaleDownCount", 10, 30, IntOrPercent.of(0), IntOrPercent.of(1), false,
            8, 6, 4, 2, 8, 4, rs("older", 3, 3), null, false, null, false, null),
        new Case("Do not round past maxSurge with uneven setWeight divisor", 10, 5, IntOrPercent.of(0), IntOrPercent.of(1), false,
            10, 10, 0, 0, 9, 0, null, null, false, null, false, null),
        new Case("Do not round past maxSurge with uneven setWeight divisor (part 2)", 10, 5, IntOrPercent.of(0), IntOrPercent.of(1), false,
            9, 9, 0, 0, 9, 1, null, null, false, null, false, null),
        new Case("Use maxUnavailable of 1 when percentage of maxUnavailable and maxSurge result in 0 replicas", 10, 10, IntOrPercent.ofPercent(0), IntOrPercent.ofPercent(0), false,
            10, 10, 0, 0, 9, 0, null, null, false, null, false, null),
        new Case("For canary replicas, use setCanaryScale.replicas when specified along with trafficRouting (and ignore setWeight)", 1, 100, IntOrPercent.of(0), IntOrPercent.of(0), false,
            1, 1, 0, 0, 1, 9, null, new CanaryStep.SetCanaryScale(9, null, false), true, null, false, null),
        new Case("Use setCanaryScale.weight for canary replicas when specified with trafficRouting (and ignore setWeight)", 4, 100, IntOrPercent.of(0), IntOrPercent.of(0), false,
            4, 4, 0, 0, 4, 8, null, new CanaryStep.SetCanaryScale(null, 200, false), true, null, false, null),
        new Case("Ignore setCanaryScale replicas/weight when matchTrafficWeight is true", 10, 20, IntOrPercent.ofPercent(20), IntOrPercent.of(0), false,
            10, 10, 0, 0, 10, 2, null, new CanaryStep.SetCanaryScale(9, 100, true), true, null, false, null),
        new Case("Ignore setCanaryScale when trafficRouting is missing and use setWeight for replicas", 10, 20, IntOrPercent.ofPercent(20), IntOrPercent.of(0), false,
            10, 10, 0, 0, 10, 2, null, new CanaryStep.SetCanaryScale(9, 100, false), false, null, false, null),
        new Case("honor maxSurge during scale up when stableRS unavailable", 4, 100, IntOrPercent.of(1), IntOrPercent.of(0), false,
            4, 1, 0, 0, 4, 1, null, null, false, null, false, null),
        new Case("scale down to maxunavailable without exceeding maxSurge", 3, 99, IntOrPercent.of(0), IntOrPercent.of(2), false,
            3, 3, 0, 0, 1, 0, null, null, false, null, false, null),
        new Case("scale down to maxunavailable without exceeding maxSurge (part 2)", 3, 99, IntOrPercent.of(0), IntOrPercent.of(2), false,
            1, 1, 0, 0, 1, 2, null, null, false, null, false, null),
        new Case("honor maxUnavailable during scale down stableRS unavailable", 4, 100, IntOrPercent.of(1), IntOrPercent.of(0), false,
            4, 1, 1, 1, 3, 1, null, null, false, null, false, null),
        new Case("honor maxUnavailable when aborting or reducing weight part 1", 4, 0, IntOrPercent.of(1), IntOrPercent.of(0), false,
            0, 0, 4, 4, 1, 4, null, null, false, null, false, null),
        new Case("honor maxUnavailable when aborting or reducing weight part 2", 4, 0, IntOrPercent.of(1), IntOrPercent.of(0), false,
            1, 0, 4, 4, 1, 4, null, null, false, null, false, null),
        new Case("honor maxUnavailable when aborting or reducing weight part 3", 4, 0, IntOrPercent.of(1), IntOrPercent.of(0), false,
            1, 1, 4, 4, 1, 3, null, null, false, null, false, null),
        new Case("promote full does not consider weight", 4, 1, IntOrPercent.of(4), IntOrPercent.of(4), true,
            4, 4, 0, 0, 0, 4, null, null, false, null, false, null),
        new Case("promote full still honors maxSurge/maxUnavailable", 4, 1, IntOrPercent.of(3), IntOrPercent.of(0), true,
            4, 4, 0, 0, 4, 3, null, null, false, null, false, null),
        new Case("aborted with abortScaleDownDelaySeconds:0 and setCanaryScale", 1, 0, IntOrPercent.of(0), IntOrPercent.of(0), false,
            1, 1, 1, 1, 1, 1, null, new CanaryStep.SetCanaryScale(1, null, false), true, 0, true, null),
        new Case("aborted with abortScaleDownDelaySeconds>0 and setCanaryScale", 1, 0, IntOrPercent.of(0), IntOrPercent.of(0), false,
            1, 1, 1, 1, 1, 0, null, new CanaryStep.SetCanaryScale(1, null, false), true, 30, true, null),
        new Case("Honor MinPodsPerReplicaSet when using trafficRouting and starting canary", 10, 5, IntOrPercent.of(0), IntOrPercent.of(0), false,
            10, 10, 0, 0, 10, 2, null, null, true, null, false, 2),
        new Case("Cap MinPodsPerReplicaSet when it exceeds rollout replicas with trafficRouting", 1, 100, IntOrPercent.of(0), IntOrPercent.of(0), true,
            1, 1, 0, 0, 1, 1, null, null, true, null, false, 2)
  );

  // TestCalculateReplicaCountsForCanary (40 rows)
  @Test
  void calculateReplicaCountsForCanary_table() {
    assertThat(CASES).hasSize(40);
    for (Case c : CASES) {
      CanaryView r = rollout(c.replicas(), c.setWeight(), c.maxSurge(), c.maxUnavailable(), c.scs(),
          c.trafficRouting(), c.abortScaleDownDelaySeconds(), c.statusAbort(), c.promoteFull(),
          c.minPodsPerReplicaSet(), "canary", "stable");
      RsView stable = rs("stable", c.stableSpec(), c.stableAvailable());
      RsView canary = rs("canary", c.canarySpec(), c.canaryAvailable());
      Counts got = c.trafficRouting() ? CanaryMath.trafficRoutedCanary(r, null, null, null)
          : CanaryMath.basicCanary(r, canary, stable, c.olderRs() == null ? List.of() : List.of(c.olderRs()));
      assertThat(got.canary()).as(c.name() + ": canary").isEqualTo(c.expectedCanary());
      assertThat(got.stable()).as(c.name() + ": stable").isEqualTo(c.expectedStable());
    }
  }

  private static final int[][] APPROX = {
        {0, 0, 100, 0, 0, 0},
        {0, 50, 100, 0, 0, 0},
        {0, 100, 100, 0, 0, 0},
        {0, 0, 100, 1, 0, 0},
        {0, 50, 100, 1, 0, 0},
        {0, 100, 100, 1, 0, 0},
        {1, 0, 100, 0, 0, 1},
        {1, 1, 100, 0, 0, 1},
        {1, 49, 100, 0, 0, 1},
        {1, 50, 100, 0, 1, 0},
        {1, 99, 100, 0, 1, 0},
        {1, 100, 100, 0, 1, 0},
        {1, 0, 100, 1, 0, 1},
        {1, 1, 100, 1, 1, 1},
        {1, 49, 100, 1, 1, 1},
        {1, 50, 100, 1, 1, 1},
        {1, 99, 100, 1, 1, 1},
        {1, 100, 100, 1, 1, 0},
        {2, 0, 100, 0, 0, 2},
        {2, 1, 100, 0, 1, 1},
        {2, 50, 100, 0, 1, 1},
        {2, 99, 100, 0, 1, 1},
        {2, 100, 100, 0, 2, 0},
        {2, 0, 100, 1, 0, 2},
        {2, 1, 100, 1, 1, 2},
        {2, 50, 100, 1, 1, 1},
        {2, 99, 100, 1, 2, 1},
        {2, 100, 100, 1, 2, 0},
        {3, 10, 100, 0, 1, 2},
        {3, 25, 100, 0, 1, 2},
        {3, 33, 100, 0, 1, 2},
        {3, 34, 100, 0, 1, 2},
        {3, 49, 100, 0, 1, 2},
        {3, 50, 100, 0, 2, 1},
        {3, 10, 100, 1, 1, 3},
        {3, 25, 100, 1, 1, 3},
        {3, 33, 100, 1, 1, 2},
        {3, 34, 100, 1, 1, 2},
        {3, 49, 100, 1, 2, 2},
        {3, 50, 100, 1, 2, 2},
        {10, 0, 100, 1, 0, 10},
        {10, 1, 100, 0, 1, 9},
        {10, 14, 100, 0, 1, 9},
        {10, 15, 100, 0, 2, 8},
        {10, 16, 100, 0, 2, 8},
        {10, 99, 100, 0, 9, 1},
        {10, 100, 100, 1, 10, 0},
        {10, 0, 100, 1, 0, 10},
        {10, 1, 100, 1, 1, 10},
        {10, 18, 100, 1, 2, 9},
        {10, 19, 100, 1, 2, 9},
        {10, 20, 100, 1, 2, 8},
        {10, 23, 100, 1, 2, 8},
        {10, 24, 100, 1, 3, 8},
        {10, 25, 100, 1, 3, 8},
        {10, 99, 100, 1, 10, 1},
        {10, 100, 100, 1, 10, 0}
  };

  // TestApproximateWeightedNewStableReplicaCounts (57 rows)
  @Test
  void approximateWeightedCanaryStableReplicaCounts_table() {
    assertThat(APPROX).hasNumberOfRows(57);
    for (int[] t : APPROX) {
      Counts got = CanaryMath.approximateWeightedCanaryStableReplicaCounts(t[0], t[1], t[2], t[3]);
      String name = "replicas " + t[0] + " weight " + t[1] + " surge " + t[3];
      assertThat(got.canary()).as(name + ": canary").isEqualTo(t[4]);
      assertThat(got.stable()).as(name + ": stable").isEqualTo(t[5]);
    }
  }

  // TestCalculateReplicaCountsForCanaryTrafficRoutingDynamicScale (8 rows): {replicas, setWeight of the fixture's
  // first step, abort 0/1, extra setWeight step (-1 none), canary weight, stable weight, canary RS replicas (0 =
  // none; available = replicas, as in the Go fixture), stable RS replicas (0 = none), stable available,
  // expected canary, expected stable}
  private static final int[][] DYNAMIC = {
      {10, 20, 1, 60, 60, 40, 6, 4, 4, 6, 8},
      {10, 20, 1, 60, 60, 40, 1, 4, 4, 6, 8},
      {10, 20, 1, 60, 60, 40, 2, 8, 4, 6, 8},
      {10, 20, 1, 60, 60, 40, 0, 0, 0, 6, 10},
      {10, 10, 0, -1, 10, 90, 0, 0, 0, 1, 9},
      {10, 20, 0, -1, 10, 90, 0, 0, 0, 2, 9},
      {10, 20, 1, -1, 20, 80, 0, 0, 0, 2, 10},
      {10, 20, 1, -1, 10, 90, 0, 0, 0, 1, 10},
  };

  @Test
  void trafficRoutedDynamicStableScale_table() {
    for (int[] t : DYNAMIC) {
      List<CanaryStep> steps = new ArrayList<>(List.of(new CanaryStep.SetWeight(t[1])));
      if (t[3] >= 0) {
        steps.add(new CanaryStep.SetWeight(t[3]));
      }
      CanaryView r = new CanaryView(t[0], steps, null, IntOrPercent.of(0), IntOrPercent.of(1), true, true, null,
          null, t[2] == 1, false, "stable", "canary");
      RsView canary = t[6] > 0 ? rs("canary", t[6], t[6]) : null;
      RsView stable = t[7] > 0 ? rs("stable", t[7], t[8]) : null;
      Counts got = CanaryMath.trafficRoutedCanary(r, canary, stable, new CanaryMath.TrafficWeights(t[4], t[5]));
      assertThat(got).as(java.util.Arrays.toString(t)).isEqualTo(new Counts(t[9], t[10]));
    }
  }

  // TestCalculateReplicaCountsForCanaryStableRSdEdgeCases
  @Test
  void noStableOrStableIsNew_allToNew() {
    CanaryView r = rollout(10, 10, IntOrPercent.of(0), IntOrPercent.of(1), null, false, null, false, false, null,
        "", "");
    RsView newRs = rs("stable", 9, 9);
    assertThat(CanaryMath.basicCanary(r, newRs, null, List.of())).isEqualTo(new Counts(10, 0));
    assertThat(CanaryMath.basicCanary(r, newRs, newRs, List.of())).isEqualTo(new Counts(10, 0));
  }

  // TestGetReplicasForScaleDown (4 rows)
  @Test
  void replicasForScaleDown_table() {
    assertThat(CanaryMath.replicasForScaleDown(null, false)).as("rs is nil").isZero();
    assertThat(CanaryMath.replicasForScaleDown(rs("a", 3, 5), false)).as("expected < actual").isEqualTo(3);
    assertThat(CanaryMath.replicasForScaleDown(rs("a", 3, 2), true)).as("ignore availability").isEqualTo(3);
    assertThat(CanaryMath.replicasForScaleDown(rs("a", 3, 2), false)).as("not ignore availability").isEqualTo(2);
  }

  // TestGetCanaryReplicasOrWeight (4 rows)
  @Test
  void canaryReplicasOrWeight_table() {
    CanaryView promoteFull = new CanaryView(1, List.of(), null, null, null, false, false, null, null, false, true,
        "", "");
    assertThat(CanaryMath.canaryReplicasOrWeight(promoteFull, null, null))
        .isEqualTo(new CanaryMath.ScaleOrWeight(null, 100));
    CanaryView weight = new CanaryView(1, List.of(new CanaryStep.SetWeight(10),
        new CanaryStep.SetCanaryScale(null, 20, false)), 1, null, null, true, false, null, null, false, false,
        "stable-rs", "");
    assertThat(CanaryMath.canaryReplicasOrWeight(weight, null, null))
        .isEqualTo(new CanaryMath.ScaleOrWeight(null, 20));
    CanaryView replicas = new CanaryView(1, List.of(new CanaryStep.SetWeight(10),
        new CanaryStep.SetCanaryScale(5, null, false)), 1, null, null, true, false, null, null, false, false,
        "stable-rs", "");
    assertThat(CanaryMath.canaryReplicasOrWeight(replicas, null, null))
        .isEqualTo(new CanaryMath.ScaleOrWeight(5, 0));
    CanaryView blueGreenAborted = new CanaryView(1, List.of(), null, null, null, false, false, null, null, true,
        false, "", "");
    assertThat(CanaryMath.canaryReplicasOrWeight(blueGreenAborted, null, null))
        .isEqualTo(new CanaryMath.ScaleOrWeight(null, 100));
  }

  // TestGetCurrentCanaryStep
  @Test
  void currentStep_noneWithoutSteps_nonePastTheLast() {
    CanaryView none = new CanaryView(10, List.of(), null, null, null, false, false, null, null, false, false, "",
        "");
    assertThat(CanaryMath.currentStep(none)).isNull();
    CanaryView one = new CanaryView(10, List.of(CanaryStep.Pause.indefinite()), 0, null, null, false, false, null,
        null, false, false, "", "");
    assertThat(CanaryMath.currentStep(one)).isNotNull();
    assertThat(CanaryMath.currentStepIndex(one)).isZero();
    CanaryView past = new CanaryView(10, List.of(CanaryStep.Pause.indefinite()), 1, null, null, false, false, null,
        null, false, false, "", "");
    assertThat(CanaryMath.currentStep(past)).isNull();
  }

  // TestGetCurrentSetWeight
  @Test
  void currentSetWeight_pastLast100_atStep10_aborted0() {
    List<CanaryStep> steps = List.of(new CanaryStep.SetWeight(10));
    assertThat(CanaryMath.currentSetWeight(new CanaryView(10, steps, 1, null, null, false, false, null, null, false,
        false, "", ""))).isEqualTo(100);
    assertThat(CanaryMath.currentSetWeight(new CanaryView(10, steps, 0, null, null, false, false, null, null, false,
        false, "", ""))).isEqualTo(10);
    assertThat(CanaryMath.currentSetWeight(new CanaryView(10, steps, 0, null, null, false, false, null, null, true,
        false, "", ""))).isZero();
  }

  private static CanaryView abortedDynamic(@Nullable Integer abortDelay) {
    return new CanaryView(10, List.of(new CanaryStep.SetWeight(10), new CanaryStep.SetWeight(50)), null,
        IntOrPercent.of(1), IntOrPercent.of(0), true, true, abortDelay, null, true, false, "stable", "canary");
  }

  // TestGetDesiredCanaryWeightOnAbortWithScaleDownDelay (4 rows + the stable scale-up subtest)
  @Test
  void desiredCanaryWeightOnAbortWithScaleDownDelay_table() {
    RsView canary = rs("canary", 5, 5);
    assertThat(CanaryMath.desiredCanaryWeight(abortedDynamic(null), canary, rs("stable", 9, 9))).isEqualTo(10);
    assertThat(CanaryMath.desiredCanaryWeight(abortedDynamic(30), canary, rs("stable", 5, 5))).isEqualTo(10);
    assertThat(CanaryMath.desiredCanaryWeight(abortedDynamic(30), canary, rs("stable", 9, 9))).isZero();
    assertThat(CanaryMath.desiredCanaryWeight(abortedDynamic(0), canary, rs("stable", 9, 9))).isEqualTo(10);
    Counts c = CanaryMath.trafficRoutedCanary(abortedDynamic(30), canary, rs("stable", 9, 9),
        new CanaryMath.TrafficWeights(10, 90));
    assertThat(c.stable()).isEqualTo(10);
  }

  // TestCalculateReplicaCountsForNewDeployment
  @Test
  void newDeployment_stableIsNew_allToNew() {
    CanaryView r = rollout(10, 10, IntOrPercent.of(0), IntOrPercent.of(1), null, false, null, false, false, null,
        "canary", "stable");
    Counts got = CanaryMath.basicCanary(r, rs("stable", 10, 0), rs("stable", 10, 0), List.of());
    assertThat(got).isEqualTo(new Counts(10, 0));
  }

  // TestCalculateReplicaCountsForCanaryTrafficRouting
  @Test
  void trafficRouting_canaryByWeight_stableFull() {
    CanaryView r = rollout(10, 10, IntOrPercent.of(0), IntOrPercent.of(1), null, true, null, false, false, null,
        "canary", "stable");
    assertThat(CanaryMath.trafficRoutedCanary(r, null, null, null)).isEqualTo(new Counts(1, 10));
  }

  // TestTrafficWeightToReplicas
  @Test
  void trafficWeightToReplicas_roundsUp() {
    assertThat(CanaryMath.trafficWeightToReplicas(10, 0, 100)).isEqualTo(0);
    assertThat(CanaryMath.trafficWeightToReplicas(10, 20, 100)).isEqualTo(2);
    assertThat(CanaryMath.trafficWeightToReplicas(10, 25, 100)).isEqualTo(3);
    assertThat(CanaryMath.trafficWeightToReplicas(10, 33, 100)).isEqualTo(4);
    assertThat(CanaryMath.trafficWeightToReplicas(10, 99, 100)).isEqualTo(10);
    assertThat(CanaryMath.trafficWeightToReplicas(10, 100, 100)).isEqualTo(10);
    assertThat(CanaryMath.trafficWeightToReplicas(23, 100000000, 100000000)).isEqualTo(23);
  }
}
