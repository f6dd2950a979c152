package io.fleetkit.queueing;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.time.ManualClock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Kueue's {@code stopPolicy} on ClusterQueues and LocalQueues, through {@link AdmissionEngine}. */
final class StopPolicyTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private final ManualClock clock = new ManualClock(T0);

  private static Workload wl(String name, String queue, int createdSecond, String cpu) {
    return Workload.builder("team", name).queueName(queue).creationTime(T0.plusSeconds(createdSecond))
        .request("cpu", cpu).build();
  }

  private static ClusterQueue.Builder cq(String cpu) {
    return ClusterQueue.builder("cq").resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", cpu)));
  }

  private AdmissionEngine engine(ClusterQueue queue) {
    return AdmissionEngine.builder().clock(clock).resourceFlavors("default").clusterQueue(queue)
        .admissionCheck(AdmissionCheck.of("check", "example.com/manual"))
        .localQueue(LocalQueue.of("team", "q", "cq")).localQueue(LocalQueue.of("team", "other", "cq")).build();
  }

  private static List<QueueStopEviction> stops(List<CycleResult> cycles) {
    List<QueueStopEviction> out = new ArrayList<>();
    for (CycleResult c : cycles) {
      out.addAll(c.queueStops());
    }
    return out;
  }

  @Test
  void hold_clusterQueue_admitsNothingNewKeepsAdmittedAndResumesOnNone() {
    AdmissionEngine e = engine(cq("4").build());
    e.submit(wl("running", "q", 0, "2"));
    e.scheduleUntilIdle(10);

    e.putClusterQueue(cq("4").stopPolicy(StopPolicy.HOLD).build());
    e.submit(wl("waiting", "q", 1, "1"));
    List<CycleResult> held = e.scheduleUntilIdle(10);

    assertThat(held).isEmpty();
    assertThat(e.isAdmitted("team/running")).isTrue();
    assertThat(e.isAdmitted("team/waiting")).isFalse();
    assertThat(e.clusterQueueActive("cq")).isEqualTo(
        new ActiveCondition(false, ActiveCondition.STOPPED, "Can't admit new workloads: is stopped."));
    assertThat(e.inactiveReason("cq")).contains("Can't admit new workloads: is stopped.");
    assertThat(e.queueBlocker("team/waiting")).contains(
        new QueueBlocker(QueueBlocker.SUSPENDED, "ClusterQueue cq is inactive"));
    assertThat(e.localQueueActive("team", "q")).isEqualTo(new ActiveCondition(false,
        ActiveCondition.CLUSTER_QUEUE_IS_INACTIVE, "Can't submit new workloads to clusterQueue"));

    e.putClusterQueue(cq("4").build());
    e.scheduleUntilIdle(10);

    assertThat(e.isAdmitted("team/waiting")).isTrue();
    assertThat(e.clusterQueueActive("cq")).isEqualTo(
        new ActiveCondition(true, ActiveCondition.READY, "Can admit new workloads"));
    assertThat(e.localQueueActive("team", "q")).isEqualTo(
        new ActiveCondition(true, ActiveCondition.READY, "Can submit new workloads to localQueue"));
  }

  @Test
  void holdAndDrain_clusterQueue_evictsAdmittedReportedByTheNextCycle_resumedTheyAreAdmittedAgain() {
    AdmissionEngine e = engine(cq("4").build());
    e.submit(wl("a", "q", 0, "2"));
    e.submit(wl("b", "other", 1, "2"));
    e.scheduleUntilIdle(10);

    e.putClusterQueue(cq("4").stopPolicy(StopPolicy.HOLD_AND_DRAIN).build());

    assertThat(e.admittedCount()).isZero();
    assertThat(e.usage("cq", "default", "cpu")).isEqualTo(Quantity.ZERO);
    assertThat(e.pending("cq")).containsExactlyInAnyOrder("team/a", "team/b");
    CycleResult next = e.schedule();
    assertThat(next.queueStops()).containsExactly(
        new QueueStopEviction("team/a", "cq", QueueStopEviction.Kind.EVICTED,
            QueueStopEviction.CLUSTER_QUEUE_STOPPED, "The ClusterQueue is stopped"),
        new QueueStopEviction("team/b", "cq", QueueStopEviction.Kind.EVICTED,
            QueueStopEviction.CLUSTER_QUEUE_STOPPED, "The ClusterQueue is stopped"));
    assertThat(next.admitted()).isEmpty();
    assertThat(next.progressed()).isTrue();
    assertThat(e.schedule().queueStops()).isEmpty();

    e.putClusterQueue(cq("4").stopPolicy(StopPolicy.NONE).build());
    e.scheduleUntilIdle(10);
    assertThat(e.isAdmitted("team/a")).isTrue();
    assertThat(e.isAdmitted("team/b")).isTrue();
  }

  @Test
  void hold_clusterQueue_releasesAReservationWhoseChecksAreNotReady() {
    AdmissionEngine e = engine(cq("4").admissionChecks("check").build());
    e.submit(wl("a", "q", 0, "2"));
    e.scheduleUntilIdle(10);
    assertThat(e.admission("team/a")).isPresent();
    assertThat(e.isAdmitted("team/a")).isFalse();

    e.putClusterQueue(cq("4").admissionChecks("check").stopPolicy(StopPolicy.HOLD).build());

    assertThat(e.admission("team/a")).isEmpty();
    assertThat(e.admissionChecks("team/a")).extracting(AdmissionCheckState::state).containsExactly(CheckState.PENDING);
    assertThat(e.schedule().queueStops()).containsExactly(new QueueStopEviction("team/a", "cq",
        QueueStopEviction.Kind.RESERVATION_RELEASED, QueueBlocker.SUSPENDED, "ClusterQueue cq is stopped"));
  }

  @Test
  void hold_localQueue_holdsOnlyItsWorkloads() {
    AdmissionEngine e = engine(cq("4").build());
    e.putLocalQueue(LocalQueue.of("team", "q", "cq").withStopPolicy(StopPolicy.HOLD));
    e.submit(wl("held", "q", 0, "1"));
    e.submit(wl("free", "other", 1, "1"));
    e.scheduleUntilIdle(10);

    assertThat(e.isAdmitted("team/free")).isTrue();
    assertThat(e.isAdmitted("team/held")).isFalse();
    assertThat(e.pending("cq")).isEmpty();
    assertThat(e.pendingCount()).isEqualTo(1);
    assertThat(e.queueBlocker("team/held")).contains(
        new QueueBlocker(QueueBlocker.SUSPENDED, "LocalQueue q is inactive"));
    assertThat(e.localQueueActive("team", "q")).isEqualTo(
        new ActiveCondition(false, ActiveCondition.STOPPED, "LocalQueue is stopped"));
    assertThat(e.clusterQueueActive("cq").status()).isTrue();

    e.putLocalQueue(LocalQueue.of("team", "q", "cq"));
    e.scheduleUntilIdle(10);
    assertThat(e.isAdmitted("team/held")).isTrue();
  }

  @Test
  void holdAndDrain_localQueue_evictsOnlyItsAdmittedWorkloads() {
    AdmissionEngine e = engine(cq("4").build());
    e.submit(wl("mine", "q", 0, "1"));
    e.submit(wl("theirs", "other", 1, "1"));
    e.scheduleUntilIdle(10);

    e.putLocalQueue(LocalQueue.of("team", "q", "cq").withStopPolicy(StopPolicy.HOLD_AND_DRAIN));

    assertThat(e.isAdmitted("team/theirs")).isTrue();
    assertThat(e.admission("team/mine")).isEmpty();
    assertThat(e.schedule().queueStops()).containsExactly(new QueueStopEviction("team/mine", "cq",
        QueueStopEviction.Kind.EVICTED, QueueStopEviction.LOCAL_QUEUE_STOPPED, "The LocalQueue is stopped"));
    assertThat(e.queueBlocker("team/mine")).contains(
        new QueueBlocker(QueueBlocker.SUSPENDED, "LocalQueue q is inactive"));
  }

  @Test
  void hold_localQueue_keepsAdmittedWorkloadsButReleasesReservations() {
    AdmissionEngine e = AdmissionEngine.builder().clock(clock).resourceFlavors("default")
        .clusterQueue(cq("4").build())
        .clusterQueue(ClusterQueue.builder("checked").admissionChecks("check")
            .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "4"))).build())
        .admissionCheck(AdmissionCheck.of("check", "example.com/manual"))
        .localQueue(LocalQueue.of("team", "q", "cq")).build();
    e.submit(wl("admitted", "q", 0, "1"));
    e.scheduleUntilIdle(10);
    e.assumeReserved(wl("reserved", "q", 1, "1"), "checked", List.of(new PodSetAssignment("main", 1,
        java.util.Map.of("cpu", "default"), io.fleetkit.api.resource.ResourceList.builder().build(), null)), T0);

    e.putLocalQueue(LocalQueue.of("team", "q", "cq").withStopPolicy(StopPolicy.HOLD));

    assertThat(e.isAdmitted("team/admitted")).isTrue();
    assertThat(e.admission("team/reserved")).isEmpty();
    assertThat(e.schedule().queueStops()).containsExactly(new QueueStopEviction("team/reserved", "checked",
        QueueStopEviction.Kind.RESERVATION_RELEASED, QueueBlocker.SUSPENDED, "LocalQueue q is stopped"));
  }

  @Test
  void bothQueuesStopped_theLocalQueueDecidesFirst_asKueuesWorkloadController() {
    AdmissionEngine e = engine(cq("4").build());
    e.submit(wl("a", "q", 0, "1"));
    e.submit(wl("b", "other", 1, "1"));
    e.scheduleUntilIdle(10);

    e.putLocalQueue(LocalQueue.of("team", "q", "cq").withStopPolicy(StopPolicy.HOLD_AND_DRAIN));
    e.putLocalQueue(LocalQueue.of("team", "other", "cq").withStopPolicy(StopPolicy.HOLD));
    e.putClusterQueue(cq("4").stopPolicy(StopPolicy.HOLD_AND_DRAIN).build());

    assertThat(e.schedule().queueStops()).extracting(QueueStopEviction::workload, QueueStopEviction::reason)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("team/a", QueueStopEviction.LOCAL_QUEUE_STOPPED),
            org.assertj.core.groups.Tuple.tuple("team/b", QueueStopEviction.CLUSTER_QUEUE_STOPPED));
  }

  @Test
  void stoppedQueueNamingAMissingFlavor_reportsEveryReasonStoppedFirst() {
    AdmissionEngine e = AdmissionEngine.builder().clock(clock)
        .clusterQueue(cq("4").stopPolicy(StopPolicy.HOLD).build()).build();

    assertThat(e.clusterQueueActive("cq")).isEqualTo(new ActiveCondition(false, ActiveCondition.STOPPED,
        "Can't admit new workloads: is stopped, references missing ResourceFlavor(s): default."));
  }

  @Test
  void holdAndDrain_restoredAdmission_isEvictedAtOnce() {
    AdmissionEngine e = engine(cq("4").stopPolicy(StopPolicy.HOLD_AND_DRAIN).build());
    e.assumeAdmitted(wl("a", "q", 0, "1"), "cq", java.util.Map.of("cpu", "default"), T0);

    assertThat(e.admission("team/a")).isEmpty();
    assertThat(e.pending("cq")).containsExactly("team/a");
    assertThat(e.schedule().queueStops()).extracting(QueueStopEviction::reason)
        .containsExactly(QueueStopEviction.CLUSTER_QUEUE_STOPPED);
  }

  @Test
  void hold_builtStopped_queueAdmitsNothingUntilResumed() {
    AdmissionEngine e = engine(cq("4").stopPolicy(StopPolicy.HOLD).build());
    e.submit(wl("a", "q", 0, "1"));

    assertThat(e.scheduleUntilIdle(10)).isEmpty();
    e.putClusterQueue(cq("4").build());
    e.scheduleUntilIdle(10);
    assertThat(e.isAdmitted("team/a")).isTrue();
  }
}
