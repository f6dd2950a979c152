package io.fleetkit.queueing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The engine's admission fair sharing (Kueue's {@code AdmissionFairSharing}): the LocalQueues' usage sampled by the
 * cycles on the engine's clock, entry penalties, the order it gives a usage-based ClusterQueue, and its validation.
 * With a half-life equal to the sampling interval a sample moves halfway and a reservation's entry penalty is half its
 * requests.
 */
final class AdmissionFairSharingEngineTest {
  private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");
  private static final AdmissionFairSharing AFS =
      new AdmissionFairSharing(Duration.ofMinutes(5), Duration.ofMinutes(5), Map.of());

  private final ManualClock clock = new ManualClock(T0);

  private AdmissionEngine.Builder base(@Nullable AdmissionMode mode, String... checks) {
    ClusterQueue.Builder cq = ClusterQueue.builder("cq")
        .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "2")))
        .admissionChecks(checks);
    if (mode != null) {
      cq.admissionMode(mode);
    }
    return AdmissionEngine.builder().clock(clock).resourceFlavors("default").clusterQueue(cq.build())
        .localQueue(LocalQueue.of("ns", "lq-a", "cq")).localQueue(LocalQueue.of("ns", "lq-b", "cq"));
  }

  private static Workload wl(String name, String queue, long createdAfterSeconds) {
    return Workload.builder("ns", name).queueName(queue).request("cpu", "1")
        .creationTime(T0.plusSeconds(createdAfterSeconds)).build();
  }

  private static List<String> admitted(CycleResult r) {
    return r.admitted().stream().map(QuotaReservation::workload).toList();
  }

  private static void submitThree(AdmissionEngine e) {
    e.submit(wl("a1", "lq-a", 0));
    e.submit(wl("a2", "lq-a", 1));
    e.submit(wl("b1", "lq-b", 2));
  }

  @Test
  void schedule_usageBasedQueue_admitsFromTheLessUsedLocalQueueBeforeOlderWorkloads() {
    AdmissionEngine e = base(AdmissionMode.USAGE_BASED_ADMISSION_FAIR_SHARING).admissionFairSharing(AFS).build();
    submitThree(e);

    assertThat(admitted(e.schedule())).containsExactly("ns/a1");
    // a1's entry penalty (1 cpu x 0.5) settled into lq-a's usage when it was admitted
    assertThat(e.localQueueUsage("ns", "lq-a")).isEqualTo(0.5);
    assertThat(e.localQueueUsage("ns", "lq-b")).isZero();
    assertThat(admitted(e.schedule())).containsExactly("ns/b1"); // not a2, older but in the busier queue
    // sampled once, at the first cycle before a1 was admitted; the second is within the sampling interval
    assertThat(e.localQueueFairSharing("ns", "lq-a")).contains(new LocalQueueFairSharingStatus(Map.of(), T0));

    clock.advance(Duration.ofMinutes(5));
    e.schedule(); // the sample: halfway from 0.5 towards the 1 cpu admitted
    assertThat(e.localQueueFairSharing("ns", "lq-a")).contains(
        new LocalQueueFairSharingStatus(Map.of("cpu", Quantity.parse("750m")), T0.plus(Duration.ofMinutes(5))));
    assertThat(e.localQueueUsage("ns", "lq-a")).isEqualTo(0.75);
  }

  @Test
  void schedule_withoutTheConfiguration_admissionModeChangesNothing() {
    AdmissionEngine e = base(AdmissionMode.USAGE_BASED_ADMISSION_FAIR_SHARING).build();
    submitThree(e);

    assertThat(admitted(e.schedule())).containsExactly("ns/a1");
    assertThat(admitted(e.schedule())).containsExactly("ns/a2");
    assertThat(e.localQueueFairSharing("ns", "lq-a")).isEmpty();
    assertThat(e.localQueueUsage("ns", "lq-a")).isZero();
    assertThat(e.admissionFairSharing()).isEmpty();
  }

  @Test
  void schedule_noAdmissionFairSharingMode_keepsPriorityOrderButSamplesUsage() {
    AdmissionEngine e = base(AdmissionMode.NO_ADMISSION_FAIR_SHARING).admissionFairSharing(AFS).build();
    submitThree(e);

    assertThat(admitted(e.schedule())).containsExactly("ns/a1");
    assertThat(admitted(e.schedule())).containsExactly("ns/a2");
    clock.advance(Duration.ofMinutes(5));
    e.schedule();
    // Kueue's LocalQueue controller samples every LocalQueue; no penalty outside usage-based queues
    assertThat(e.localQueueFairSharing("ns", "lq-a").orElseThrow().consumedResources())
        .containsEntry("cpu", Quantity.of(1));
  }

  @Test
  void putClusterQueue_admissionModeChangedAtRuntime_reordersTheQueuedWorkloads() {
    AdmissionEngine e = base(null).admissionFairSharing(AFS).build();
    submitThree(e);
    assertThat(admitted(e.schedule())).containsExactly("ns/a1"); // no admission scope: by age

    e.putClusterQueue(e.clusterQueue("cq").orElseThrow().toBuilder()
        .admissionMode(AdmissionMode.USAGE_BASED_ADMISSION_FAIR_SHARING).build());
    // a1's reservation pushed no penalty (the queue was not usage-based): equal usage, still by age
    assertThat(e.pending("cq")).containsExactly("ns/a2", "ns/b1");
    clock.advance(Duration.ofMinutes(5));
    assertThat(admitted(e.schedule())).containsExactly("ns/b1"); // the sample put lq-a at 0.5
    assertThat(e.localQueueUsage("ns", "lq-a")).isEqualTo(0.5);
  }

  @Test
  void preemptionWithinClusterQueue_takesTheVictimOfTheBusierLocalQueue() {
    ClusterQueue cq = ClusterQueue.builder("cq")
        .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "2")))
        .preemption(ClusterQueuePreemption.of(QueuePreemptionPolicy.LOWER_PRIORITY, QueuePreemptionPolicy.NEVER))
        .admissionMode(AdmissionMode.USAGE_BASED_ADMISSION_FAIR_SHARING).build();
    AdmissionEngine e = AdmissionEngine.builder().clock(clock).resourceFlavors("default").clusterQueue(cq)
        .localQueue(LocalQueue.of("ns", "lq-a", "cq")).localQueue(LocalQueue.of("ns", "lq-b", "cq"))
        .admissionFairSharing(AFS).build();
    e.assumeLocalQueueFairSharing("ns", "lq-a", new LocalQueueFairSharingStatus(Map.of("cpu", Quantity.of(8)), T0));
    e.assumeAdmitted(wl("a-low", "lq-a", 0), "cq", Map.of("cpu", "default"), T0);
    // admitted later: without admission fair sharing the newest admission would be preempted first
    e.assumeAdmitted(wl("b-low", "lq-b", 1), "cq", Map.of("cpu", "default"), T0.plusSeconds(1));
    e.submit(Workload.builder("ns", "urgent").queueName("lq-b").priority(10).request("cpu", "1")
        .creationTime(T0.plusSeconds(2)).build());

    CycleResult r = e.schedule();

    assertThat(r.preempted()).extracting(Preemption::workload).containsExactly("ns/a-low");
  }

  @Test
  void entryPenalty_countsWhileChecksArePending_andIsDroppedWithTheWorkload() {
    AdmissionEngine e = base(AdmissionMode.USAGE_BASED_ADMISSION_FAIR_SHARING, "prov")
        .admissionCheck(AdmissionCheck.of("prov", "x")).admissionFairSharing(AFS).build();
    e.submit(wl("a1", "lq-a", 0));
    assertThat(admitted(e.schedule())).containsExactly("ns/a1");
    assertThat(e.isAdmitted("ns/a1")).isFalse();

    assertThat(e.localQueueUsage("ns", "lq-a")).isEqualTo(0.5);
    assertThat(e.delete("ns/a1")).isTrue();
    assertThat(e.localQueueUsage("ns", "lq-a")).isZero();
  }

  @Test
  void entryPenalty_settlesWhenTheChecksAreReady() {
    AdmissionEngine e = base(AdmissionMode.USAGE_BASED_ADMISSION_FAIR_SHARING, "prov")
        .admissionCheck(AdmissionCheck.of("prov", "x")).admissionFairSharing(AFS).build();
    e.submit(wl("a1", "lq-a", 0));
    e.schedule();
    clock.advance(Duration.ofMinutes(5));
    e.setCheckState("ns/a1", AdmissionCheckState.of("prov", CheckState.READY, ""));

    assertThat(e.isAdmitted("ns/a1")).isTrue();
    // decayed 5 minutes towards the 1 cpu now admitted (0 x 0.5 + 1 x 0.5), plus the settled penalty 0.5
    assertThat(e.localQueueUsage("ns", "lq-a")).isEqualTo(1.0);
    e.delete("ns/a1");
    assertThat(e.localQueueUsage("ns", "lq-a")).isEqualTo(1.0); // settled history stays, only pending goes
  }

  @Test
  void assumedStatus_seedsTheLocalQueueOnTheNextCycle() {
    AdmissionEngine e = base(AdmissionMode.USAGE_BASED_ADMISSION_FAIR_SHARING).admissionFairSharing(AFS).build();
    e.assumeLocalQueueFairSharing("ns", "lq-a",
        new LocalQueueFairSharingStatus(Map.of("cpu", Quantity.of(8)), T0.minus(Duration.ofMinutes(10))));
    submitThree(e);

    assertThat(admitted(e.schedule())).containsExactly("ns/b1");
    assertThat(e.localQueueFairSharing("ns", "lq-a")).contains(
        new LocalQueueFairSharingStatus(Map.of("cpu", Quantity.of(8)), T0));
  }

  @Test
  void localQueueWeight_dividesItsUsage() {
    AdmissionEngine e = base(AdmissionMode.USAGE_BASED_ADMISSION_FAIR_SHARING).admissionFairSharing(AFS).build();
    e.assumeLocalQueueFairSharing("ns", "lq-a", new LocalQueueFairSharingStatus(Map.of("cpu", Quantity.of(8)), T0));
    e.assumeLocalQueueFairSharing("ns", "lq-b", new LocalQueueFairSharingStatus(Map.of("cpu", Quantity.of(6)), T0));
    e.putLocalQueue(LocalQueue.of("ns", "lq-a", "cq").withFairSharingWeight(Quantity.of(2)));
    submitThree(e);

    assertThat(admitted(e.schedule())).containsExactly("ns/a1"); // 8 / 2 < 6 / 1
    assertThat(e.localQueueUsage("ns", "lq-a")).isEqualTo(4.25); // (8 + 0.5 settled penalty) / 2
  }

  @Test
  void removedLocalQueue_forgetsItsUsage() {
    AdmissionEngine e = base(AdmissionMode.USAGE_BASED_ADMISSION_FAIR_SHARING).admissionFairSharing(AFS).build();
    e.submit(wl("a1", "lq-a", 0));
    e.schedule();
    assertThat(e.localQueueUsage("ns", "lq-a")).isEqualTo(0.5);

    e.removeLocalQueue("ns", "lq-a");
    e.putLocalQueue(LocalQueue.of("ns", "lq-a", "cq"));
    assertThat(e.localQueueFairSharing("ns", "lq-a")).isEmpty();
    assertThat(e.localQueueUsage("ns", "lq-a")).isZero();
  }

  @Test
  void configuration_badValues_rejectedNamingTheField() {
    assertThatThrownBy(() -> new AdmissionFairSharing(Duration.ofSeconds(-1), Duration.ofMinutes(5), Map.of()))
        .isInstanceOf(ValidationException.class).hasMessageContaining("admissionFairSharing.usageHalfLifeTime");
    assertThatThrownBy(() -> new AdmissionFairSharing(Duration.ZERO, Duration.ZERO, Map.of()))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("admissionFairSharing.usageSamplingInterval").hasMessageContaining("greater than 0");
    assertThatThrownBy(() -> AdmissionFairSharing.of(Duration.ZERO).withResourceWeights(Map.of("cpu", -1.0)))
        .isInstanceOf(ValidationException.class).hasMessageContaining("admissionFairSharing.resourceWeights[cpu]");
    assertThat(AdmissionFairSharing.of(Duration.ofMinutes(1)).usageSamplingInterval())
        .isEqualTo(Duration.ofMinutes(5));
    assertThat(AdmissionFairSharing.of(Duration.ZERO).withResourceWeights(Map.of("GPU", 2.0)).resourceWeight("cpu"))
        .isEqualTo(1.0);
  }

  @Test
  void apiObjects_badValues_rejectedNamingObjectAndField() {
    assertThatThrownBy(() -> LocalQueue.of("ns", "lq", "cq").withFairSharingWeight(Quantity.of(-1)))
        .isInstanceOf(ValidationException.class).hasMessageContaining("ns/lq")
        .hasMessageContaining("spec.fairSharing.weight");
    assertThat(LocalQueue.of("ns", "lq", "cq").fairSharingWeight()).isEqualTo(Quantity.of(1));
    assertThatThrownBy(() -> ClusterQueue.builder("cq").admissionMode(AdmissionMode.NO_ADMISSION_FAIR_SHARING)
        .admissionMode(AdmissionMode.USAGE_BASED_ADMISSION_FAIR_SHARING))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("admissionMode already set");
    assertThatThrownBy(() -> new LocalQueueFairSharingStatus(Map.of("cpu", Quantity.of(-1)), T0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("consumedResources[cpu]");
    assertThatThrownBy(() -> AdmissionEngine.builder().admissionFairSharing(AFS).admissionFairSharing(AFS))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("admissionFairSharing was already set");
    AdmissionEngine without = base(null).build();
    assertThatThrownBy(() -> without.assumeLocalQueueFairSharing("ns", "lq-a",
        new LocalQueueFairSharingStatus(Map.of(), T0)))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("ns/lq-a");
    assertThatThrownBy(() -> without.localQueueUsage("ns", "nope"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ns/nope");
  }
}
