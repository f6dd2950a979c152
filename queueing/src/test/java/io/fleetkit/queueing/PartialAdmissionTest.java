package io.fleetkit.queueing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Partial admission: pod set {@code minCount}, its validation, and the engine's reduced admissions. */
final class PartialAdmissionTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
  private static final ResourceList ONE_CPU = ResourceList.builder().put("cpu", "1").build();

  private static AdmissionEngine engine(String cpu) {
    return AdmissionEngine.builder().clock(Clock.fixed(NOW, ZoneOffset.UTC)).resourceFlavors("default")
        .clusterQueue(ClusterQueue.builder("cq")
            .preemption(ClusterQueuePreemption.of(QueuePreemptionPolicy.LOWER_PRIORITY, QueuePreemptionPolicy.NEVER))
            .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", cpu))).build())
        .localQueue(LocalQueue.of("ns", "lq", "cq"))
        .build();
  }

  private static Workload wl(String name, int priority, int count, Integer minCount) {
    return Workload.builder("ns", name).queueName("lq").priority(priority).creationTime(NOW)
        .podSet(PodSet.of("main", count, ONE_CPU).withMinCount(minCount)).build();
  }

  @Test
  void minCountBelowOneIsRefusedNamingTheField() {
    assertThatThrownBy(() -> wl("w", 0, 5, 0))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("spec.podSets[0].minCount")
        .hasMessageContaining("must be greater than or equal to 1");
  }

  @Test
  void minCountAboveCountIsRefusedNamingTheField() {
    assertThatThrownBy(() -> wl("w", 0, 5, 6))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("spec.podSets[0].minCount")
        .hasMessageContaining("must be less than or equal to count (5)");
  }

  @Test
  void minCountEqualToCountIsValidButNotPartial() {
    assertThat(wl("w", 0, 5, 5).canBePartiallyAdmitted()).isFalse();
    assertThat(wl("w", 0, 5, 4).canBePartiallyAdmitted()).isTrue();
    assertThat(wl("w", 0, 5, null).canBePartiallyAdmitted()).isFalse();
  }

  @Test
  void aWorkloadThatFitsWholeIsNotReduced() {
    AdmissionEngine e = engine("10");
    e.submit(wl("w", 0, 8, 2));
    assertThat(e.schedule().admitted()).hasSize(1);
    assertThat(e.admission("ns/w").orElseThrow().podSets().get(0).count()).isEqualTo(8);
  }

  @Test
  void theLargestCountThatFitsIsAdmitted() {
    AdmissionEngine e = engine("10");
    e.assumeAdmitted(wl("running", 0, 3, null), "cq", Map.of("cpu", "default"), NOW);
    e.submit(wl("w", 0, 12, 2));
    assertThat(e.schedule().admitted()).hasSize(1);
    PodSetAssignment a = e.admission("ns/w").orElseThrow().podSets().get(0);
    assertThat(a.count()).isEqualTo(7);
    assertThat(a.resourceUsage().get("cpu")).isEqualTo(Quantity.parse("7"));
    assertThat(e.usage("cq", "default", "cpu")).isEqualTo(Quantity.parse("10"));
  }

  @Test
  void belowTheMinimumCountTheWorkloadWaitsWithTheFullAssignmentsReason() {
    AdmissionEngine e = engine("10");
    e.assumeAdmitted(wl("running", 0, 8, null), "cq", Map.of("cpu", "default"), NOW);
    e.submit(wl("w", 0, 12, 3));
    CycleResult r = e.schedule();
    assertThat(r.admitted()).isEmpty();
    assertThat(r.pending().get("ns/w")).contains("insufficient quota for cpu in flavor default");
  }

  @Test
  void aPartiallyAdmittedWorkloadIsRequeuedWhole() {
    AdmissionEngine e = engine("10");
    e.submit(wl("w", 0, 12, 2));
    e.schedule();
    assertThat(e.admission("ns/w").orElseThrow().podSets().get(0).count()).isEqualTo(10);
    e.submit(wl("high", 5, 10, null));
    CycleResult r = e.schedule();
    assertThat(r.preempted()).extracting(Preemption::workload).containsExactly("ns/w");
    CycleResult next = e.schedule();
    assertThat(next.admitted()).extracting(QuotaReservation::workload).containsExactly("ns/high");
    // the preempted workload is queued with all its pods: not even its minimum fits, and the reason is the full one
    assertThat(e.schedule().pending().get("ns/w"))
        .contains("current podset request (12) > maximum capacity (10)");
    e.delete("ns/high");
    e.scheduleUntilIdle(5);
    assertThat(e.admission("ns/w").orElseThrow().podSets().get(0).count()).isEqualTo(10);
  }

  @Test
  void assumeAdmittedRecordsTheAdmittedCount() {
    AdmissionEngine e = engine("10");
    QuotaReservation a = e.assumeAdmitted(wl("w", 0, 12, 2), "cq", Map.of("cpu", "default"), Map.of("main", 4), NOW);
    assertThat(a.podSets().get(0).count()).isEqualTo(4);
    assertThat(e.usage("cq", "default", "cpu")).isEqualTo(Quantity.parse("4"));
  }

  @Test
  void assumeAdmittedRefusesACountOutsideMinCountAndCount() {
    AdmissionEngine e = engine("10");
    assertThatThrownBy(() -> e.assumeAdmitted(wl("w", 0, 12, 2), "cq", Map.of("cpu", "default"),
        Map.of("main", 1), NOW))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("admitted count 1 of pod set main must be from 2 to 12");
    assertThatThrownBy(() -> e.assumeAdmitted(wl("w", 0, 12, 2), "cq", Map.of("cpu", "default"),
        Map.of("other", 3), NOW))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("pod set other");
  }
}
