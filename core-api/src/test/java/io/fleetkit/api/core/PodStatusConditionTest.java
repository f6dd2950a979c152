package io.fleetkit.api.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.meta.ConditionStatus;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * {@link PodStatus#withConditionUpdated}: kube's {@code podutil.UpdatePodCondition} (pkg/api/v1/pod/util.go), whose
 * boolean answer ("updated") is here whether a new status comes back.
 */
final class PodStatusConditionTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final Instant T1 = T0.plusSeconds(60);

  private static PodCondition target(ConditionStatus s, String reason, Instant at) {
    return PodCondition.of(PodCondition.DISRUPTION_TARGET, s, reason, "msg", at);
  }

  @Test
  void absentCondition_added() {
    PodStatus s = PodStatus.of(PodPhase.Pending);
    PodStatus next = s.withConditionUpdated(target(ConditionStatus.True, "R", T0));
    assertThat(next).isNotSameAs(s);
    assertThat(next.condition(PodCondition.DISRUPTION_TARGET).lastTransitionTime()).isEqualTo(T0);
  }

  @Test
  void sameStatusReasonMessage_nothingToWrite() {
    PodStatus s = PodStatus.of(PodPhase.Pending).withCondition(target(ConditionStatus.True, "R", T0));
    assertThat(s.withConditionUpdated(target(ConditionStatus.True, "R", T1))).isSameAs(s);
  }

  @Test
  void sameStatusOtherReason_rewrittenKeepingTransitionTime() {
    PodStatus s = PodStatus.of(PodPhase.Pending).withCondition(target(ConditionStatus.True, "R", T0));
    PodCondition c = s.withConditionUpdated(target(ConditionStatus.True, "Other", T1))
        .condition(PodCondition.DISRUPTION_TARGET);
    assertThat(c.reason()).isEqualTo("Other");
    assertThat(c.lastTransitionTime()).isEqualTo(T0);
  }

  @Test
  void statusChanged_newTransitionTime() {
    PodStatus s = PodStatus.of(PodPhase.Pending).withCondition(target(ConditionStatus.False, "R", T0));
    PodCondition c = s.withConditionUpdated(target(ConditionStatus.True, "R", T1))
        .condition(PodCondition.DISRUPTION_TARGET);
    assertThat(c.status()).isEqualTo(ConditionStatus.True);
    assertThat(c.lastTransitionTime()).isEqualTo(T1);
  }
}
