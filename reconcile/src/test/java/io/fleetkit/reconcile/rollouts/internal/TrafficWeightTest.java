package io.fleetkit.reconcile.rollouts.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.rollouts.CanaryStep;
import io.fleetkit.reconcile.controllers.internal.DeploymentMath.RsView;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The weight the rollout controller hands its traffic router: cases of Argo Rollouts'
 * {@code rollout/trafficrouting_test.go}, each the weight its fake router asserts in {@code SetWeight}.
 */
final class TrafficWeightTest {
  private static final List<CanaryStep> W10_PAUSE = List.of(new CanaryStep.SetWeight(10), CanaryStep.Pause.indefinite());
  private static final List<CanaryStep> W50_PAUSE = List.of(new CanaryStep.SetWeight(50), CanaryStep.Pause.indefinite());

  private static RsView rs(String name, int replicas, int available) {
    return new RsView(name, replicas, available, null);
  }

  /** {@code newCanaryRollout} with traffic routing, canary "new" and stable "stable". */
  private static CanaryView rollout(int replicas, List<CanaryStep> steps, @Nullable Integer index, int surge,
      int unavailable, boolean dynamic, boolean abort, boolean promoteFull) {
    return new CanaryView(replicas, steps, index, IntOrPercent.of(surge), IntOrPercent.of(unavailable), true, dynamic,
        null, null, abort, promoteFull, "stable", "new");
  }

  /** {@code AtDesiredReplicaCountsForCanary} with traffic routing (older ReplicaSets are not looked at). */
  private static boolean atDesired(CanaryView r, RsView newRs, RsView stableRs, int weightInEffect) {
    CanaryMath.Counts c = CanaryMath.trafficRoutedCanary(r, newRs, stableRs,
        new CanaryMath.TrafficWeights(weightInEffect, 100 - weightInEffect));
    return newRs.replicas() == c.canary() && newRs.available() == c.canary() && stableRs.replicas() == c.stable();
  }

  private static int weight(CanaryView r, RsView newRs, RsView stableRs, int weightInEffect) {
    return CanaryMath.desiredTrafficWeight(r, newRs, stableRs, atDesired(r, newRs, stableRs, weightInEffect),
        weightInEffect);
  }

  // TestRolloutUseDesiredWeight
  @Test
  void atAPauseWithTheCanaryUp_theCurrentSetWeight() {
    CanaryView r = rollout(10, W10_PAUSE, 1, 1, 0, false, false, false);
    assertThat(weight(r, rs("new", 1, 1), rs("stable", 10, 10), 0)).isEqualTo(10);
  }

  // TestRolloutUseDesiredWeight100, TestReconcileTrafficRoutingVerifyWeightEndOfRollout
  @Test
  void pastTheLastStep_100() {
    CanaryView r = rollout(10, W10_PAUSE, 2, 1, 0, false, false, false);
    assertThat(weight(r, rs("new", 10, 10), rs("stable", 10, 10), 10)).isEqualTo(100);
  }

  // TestRolloutUsePreviousSetWeight
  @Test
  void canaryNotYetAtItsCount_thePreviousSetWeight() {
    CanaryView r = rollout(10, List.of(new CanaryStep.SetWeight(10), new CanaryStep.SetWeight(20)), 1, 1, 0, false,
        false, false);
    assertThat(weight(r, rs("new", 1, 1), rs("stable", 10, 10), 10)).isEqualTo(10);
  }

  // TestRolloutUseDynamicWeightOnPromoteFull: "DynamicStableScale true" 50, "DynamicStableScale false" 5
  @Test
  void promoteFull_dynamicByCanaryAvailability_otherwiseTheWeightInEffect() {
    List<CanaryStep> steps = List.of(new CanaryStep.SetWeight(5), new CanaryStep.SetWeight(25));
    CanaryView dynamic = rollout(10, steps, 1, 1, 0, true, false, true);
    CanaryView fixed = rollout(10, steps, 1, 1, 0, false, false, true);
    assertThat(weight(dynamic, rs("new", 10, 5), rs("stable", 5, 5), 5)).isEqualTo(50);
    assertThat(weight(fixed, rs("new", 10, 5), rs("stable", 5, 5), 5)).isEqualTo(5);
  }

  // TestRolloutSetWeightToZeroWhenFullyRolledOut
  @Test
  void fullyPromoted_zero() {
    CanaryView r = new CanaryView(10, List.of(new CanaryStep.SetWeight(10)), 1, IntOrPercent.of(1),
        IntOrPercent.of(0), true, false, null, null, false, false, "stable", "stable");
    assertThat(weight(r, rs("stable", 10, 10), rs("stable", 10, 10), 10)).isZero();
  }

  // TestDynamicScalingDontIncreaseWeightWhenAborted
  @Test
  void abortedDynamic_neverAboveTheWeightInEffect() {
    CanaryView r = rollout(5, W50_PAUSE, 1, 1, 1, true, true, false);
    assertThat(weight(r, rs("new", 0, 0), rs("stable", 5, 4), 0)).isZero();
  }

  // TestDynamicScalingDecreaseWeightAccordingToStepWeightsAvailabilityWhenAborted
  @Test
  void abortedDynamic_backThroughTheStepWeights() {
    CanaryView r = rollout(5, W50_PAUSE, 1, 1, 1, true, true, false);
    assertThat(weight(r, rs("new", 4, 4), rs("stable", 5, 3), 100)).isEqualTo(50);
  }

  // TestDynamicScalingDecreaseWeightAccordingToStableAvailabilityWhenAborted
  @Test
  void abortedDynamic_withoutStepWeights_byStableAvailability() {
    CanaryView r = rollout(5, List.of(CanaryStep.Pause.indefinite()), 1, 1, 1, true, true, false);
    assertThat(weight(r, rs("new", 4, 4), rs("stable", 5, 1), 100)).isEqualTo(80);
  }

  // TestDynamicScalingDecreaseWeightAccordingToStableAvailabilityWhenAbortedAndResetService
  @Test
  void aborted_stableUp_zero() {
    CanaryView r = rollout(5, W50_PAUSE, 1, 1, 1, false, true, false);
    assertThat(weight(r, rs("new", 0, 0), rs("stable", 5, 5), 20)).isZero();
  }

  // TestDynamicScalingAbortWithZeroReplicas
  @Test
  void abortedDynamic_zeroReplicas_zero() {
    CanaryView r = rollout(0, W50_PAUSE, 1, 1, 1, true, true, false);
    assertThat(weight(r, rs("new", 0, 0), rs("stable", 0, 0), 50)).isZero();
  }

  // TestTrafficRoutingErrorsWhenNewCanaryHasNoReplicas: a new canary without available pods gets no traffic
  @Test
  void newCanaryWithoutAvailablePods_zero() {
    CanaryView r = rollout(10, List.of(new CanaryStep.SetWeight(5)), 0, 1, 0, false, false, false);
    assertThat(weight(r, rs("new", 0, 0), rs("stable", 10, 10), 5)).isZero();
  }

  // checkReplicasAvailable: stable cannot carry its share yet, the weight in effect stays
  @Test
  void stableShortOfItsShare_weightInEffectStays() {
    CanaryView r = rollout(10, W10_PAUSE, 1, 1, 0, false, true, false);
    assertThat(CanaryMath.desiredTrafficWeight(r, rs("new", 1, 1), rs("stable", 10, 7), true, 10)).isEqualTo(10);
    assertThat(CanaryMath.desiredTrafficWeight(r, rs("new", 1, 1), rs("stable", 10, 10), true, 10)).isZero();
  }
}
