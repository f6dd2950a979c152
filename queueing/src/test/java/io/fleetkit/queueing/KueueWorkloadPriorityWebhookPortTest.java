package io.fleetkit.queueing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ValidationException;
import java.time.Instant;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes-sigs/kueue {@code test/integration/singlecluster/webhook/core/workload_test.go} (commit
 * ff69552e), the priority cases: Kueue checks a Workload's priority fields with the CEL rules of its CRD (the
 * {@code pkg/webhooks/workload_webhook_test.go} of that commit has no priority-field case left, only priority boosts),
 * and tests them against an API server. Here creation is {@link Workload}'s validation and an update is {@link
 * AdmissionEngine#updatePriority} on a workload that is pending, or holds quota ({@code setQuotaReservation}:
 * restored with {@link AdmissionEngine#assumeAdmitted}). Upstream's v1beta2 {@code priorityClassRef} is FleetKit's
 * {@link PriorityClassSource} and class name (v1beta1's {@code priorityClassSource} and {@code priorityClassName});
 * a nil {@code priority} is 0. Skipped cases are listed in docs/conformance.md.
 */
final class KueueWorkloadPriorityWebhookPortTest {
  private static final WorkloadPriority NONE = WorkloadPriority.DEFAULT;

  private static WorkloadPriority wpc(String name, int value) {
    return new WorkloadPriority(value, PriorityClassSource.WORKLOAD_PRIORITY_CLASS, name);
  }

  private static WorkloadPriority pod(String name, int value) {
    return new WorkloadPriority(value, PriorityClassSource.POD_PRIORITY_CLASS, name);
  }

  // "Should have valid values when creating"

  @Test
  void create_invalidPriorityClassRefName() {
    assertThatThrownBy(() -> Workload.builder("ns", "wl").priority(pod("invalid_class", 0)).request("cpu", "1")
        .build()).isInstanceOf(ValidationException.class).hasMessageContaining("spec.priorityClassName")
        .hasMessageContaining("invalid_class");
  }

  @Test
  void create_invalidPriorityClassRefGroup() {
    // v1beta1: a source outside the CRD's enum
    assertThatThrownBy(() -> PriorityClassSource.fromApiValue("test/priorityclass"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("spec.priorityClassSource: Unsupported value: \"test/priorityclass\"");
  }

  @Test
  void create_invalidPriorityClassRefKind() {
    assertThatThrownBy(() -> PriorityClassSource.fromApiValue("scheduling.k8s.io/test"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("supported values");
  }

  @Test
  void create_omittedPriorityClassRefIsValid() {
    Workload w = Workload.builder("ns", "wl").priority(0).request("cpu", "1").build();
    assertThat(w.priorityInfo()).isEqualTo(NONE);
    assertThat(PriorityClassSource.fromApiValue("")).isEqualTo(PriorityClassSource.NONE);
  }

  @Test
  void create_classSourceWithoutName_isRefused() {
    // FleetKit's form of "priority should not be nil when priorityClassRef is set": a class needs a name
    assertThatThrownBy(() -> new Workload("ns", "wl", "lq", 1, PriorityClassSource.WORKLOAD_PRIORITY_CLASS, "",
        Instant.EPOCH, Workload.builder("ns", "wl").request("cpu", "1").build().podSets()))
        .isInstanceOf(ValidationException.class).hasMessageContaining("spec.priorityClassName Required value");
  }

  // "Validate Workload on update"

  /** Submits {@code initial}, reserves quota for it if asked, and applies {@code update}. */
  private static void update(WorkloadPriority initial, boolean setQuotaReservation, WorkloadPriority update,
      @Nullable String wantMessage) {
    AdmissionEngine engine = AdmissionEngine.builder().resourceFlavors("default")
        .clusterQueue(ClusterQueue.builder("cq").resourceGroup(FlavorQuotas.of("default",
            FlavorResourceQuota.of("cpu", "10"))).build())
        .localQueue(LocalQueue.of("ns", "lq", "cq")).build();
    Workload wl = Workload.builder("ns", "wl").queueName("lq").priority(initial).request("cpu", "1").build();
    if (setQuotaReservation) {
      engine.assumeAdmitted(wl, "cq", Map.of("cpu", "default"), Instant.EPOCH);
    } else {
      engine.submit(wl);
    }
    if (wantMessage == null) {
      assertThatCode(() -> engine.updatePriority("ns/wl", update)).doesNotThrowAnyException();
      assertThat(engine.workload("ns/wl").orElseThrow().priorityInfo()).isEqualTo(update);
    } else {
      assertThatThrownBy(() -> engine.updatePriority("ns/wl", update)).isInstanceOf(ValidationException.class)
          .hasMessageContaining(wantMessage);
      assertThat(engine.workload("ns/wl").orElseThrow().priorityInfo()).isEqualTo(initial);
    }
  }

  @Test
  void update_shouldAllowToChangePriorityWhenQuotaReservedFalse() {
    update(NONE, false, WorkloadPriority.of(10), null);
  }

  @Test
  void update_shouldAllowToChangePriorityWhenQuotaReservedTrue() {
    update(NONE, false, WorkloadPriority.of(10), null); // upstream's entry reserves no quota
    update(NONE, true, WorkloadPriority.of(10), null); // and what its name says
  }

  @Test
  void update_shouldAllowToChangePriorityWithPriorityClassRefWhenQuotaReservedFalse() {
    update(pod("low", 0), false, pod("low", 10), null);
  }

  @Test
  void update_shouldAllowToChangePriorityWithPriorityClassRefWhenQuotaReservedTrue() {
    update(pod("low", 0), false, pod("low", 10), null); // upstream's entry reserves no quota
    update(pod("low", 0), true, pod("low", 10), null);
  }

  @Test
  void update_canSetWorkloadPriorityClassRefWhenQuotaReservedFalse() {
    update(NONE, false, wpc("low", 100), null);
  }

  @Test
  void update_cantSetWorkloadPriorityClassWhenQuotaReservedTrue() {
    update(NONE, true, wpc("low", 100), "priorityClassRef is immutable while workload quota reserved");
  }

  @Test
  void update_canUpdateWorkloadPriorityClassWhenQuotaReservedFalse() {
    update(wpc("high", 1000), false, wpc("low", 100), null);
  }

  @Test
  void update_canUpdateWorkloadPriorityClassWhenQuotaReservedTrue() {
    update(wpc("high", 1000), true, wpc("low", 100), null);
  }

  @Test
  void update_canDeleteWorkloadPriorityClassWhenQuotaReservedFalse() {
    update(wpc("high", 1000), false, NONE, null);
  }

  @Test
  void update_cantDeleteWorkloadPriorityClassWhenQuotaReservedTrue() {
    update(wpc("high", 1000), true, NONE, "priorityClassRef is immutable while workload quota reserved");
  }

  @Test
  void update_canSetPodPriorityClassWhenQuotaReservedFalse() {
    update(NONE, false, pod("low", 100), null);
  }

  @Test
  void update_cantSetPodPriorityClassWhenQuotaReservedTrue() {
    update(NONE, true, pod("low", 100), "priorityClassRef is immutable while workload quota reserved");
  }

  @Test
  void update_canUpdatePodPriorityClassWhenQuotaReservedFalse() {
    update(pod("high", 1000), false, pod("low", 100), null);
  }

  @Test
  void update_cantUpdatePodPriorityClassWhenQuotaReservedTrue() {
    update(pod("high", 1000), true, pod("low", 100), "spec.priorityClassName \"low\" priorityClassName is immutable "
        + "while workload quota reserved and priorityClassSource is not equal to kueue.x-k8s.io/workloadpriorityclass");
  }

  @Test
  void update_canDeletePodPriorityClassWhenQuotaReservedFalse() {
    update(pod("high", 1000), false, NONE, null);
  }

  @Test
  void update_cantDeletePodPriorityClassWhenQuotaReservedTrue() {
    update(pod("high", 1000), true, NONE, "priorityClassRef is immutable while workload quota reserved");
  }

  @Test
  void update_sourceChangeWhileReserved_isRefused() {
    // v1beta1's "priorityClassSource is immutable while workload quota reserved" (v1beta2: group and kind)
    update(wpc("high", 1000), true, pod("high", 1000), "spec.priorityClassSource \"scheduling.k8s.io/priorityclass\" "
        + "priorityClassSource is immutable while workload quota reserved");
  }
}
