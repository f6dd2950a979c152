package io.fleetkit.queueing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.time.ManualClock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Runtime updates of ClusterQueues, LocalQueues and Cohorts on {@link AdmissionEngine}. */
final class QueueUpdatesTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private final ManualClock clock = new ManualClock(T0);

  private static Workload wl(String name, String queue, int createdSecond, String cpu) {
    return Workload.builder("team", name).queueName(queue).creationTime(T0.plusSeconds(createdSecond))
        .request("cpu", cpu).build();
  }

  private static ClusterQueue cq(String name, String cpu) {
    return ClusterQueue.builder(name).resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", cpu)))
        .build();
  }

  private static ClusterQueue cq(String name, String cohort, String cpu) {
    return ClusterQueue.builder(name).cohort(cohort)
        .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", cpu))).build();
  }

  private AdmissionEngine engine(ClusterQueue... queues) {
    AdmissionEngine.Builder b = AdmissionEngine.builder().clock(clock).resourceFlavors("default");
    for (ClusterQueue q : queues) {
      b.clusterQueue(q);
    }
    return b.localQueue(LocalQueue.of("team", "q", queues[0].name())).build();
  }

  @Test
  void putClusterQueue_quotaIncrease_admitsTheParkedWorkload() {
    AdmissionEngine e = engine(cq("cq", "2"));
    e.submit(wl("big", "q", 0, "3"));
    e.scheduleUntilIdle(10);
    assertThat(e.inadmissible("cq")).containsExactly("team/big");

    e.putClusterQueue(cq("cq", "4"));

    assertThat(e.inadmissible("cq")).isEmpty();
    e.scheduleUntilIdle(10);
    assertThat(e.isAdmitted("team/big")).isTrue();
    assertThat(e.usage("cq", "default", "cpu")).isEqualTo(Quantity.of(3));
  }

  @Test
  void putClusterQueue_quotaDecrease_keepsAdmittedWorkloadsAndAdmitsNothingUntilUsageFits() {
    AdmissionEngine e = engine(cq("cq", "4"));
    e.submit(wl("a", "q", 0, "3"));
    e.scheduleUntilIdle(10);

    e.putClusterQueue(cq("cq", "2"));
    e.submit(wl("b", "q", 1, "1"));
    List<CycleResult> cycles = e.scheduleUntilIdle(10);

    assertThat(e.isAdmitted("team/a")).isTrue();
    assertThat(e.usage("cq", "default", "cpu")).isEqualTo(Quantity.of(3));
    assertThat(cycles.stream().allMatch(c -> c.preempted().isEmpty() && c.queueStops().isEmpty())).isTrue();
    assertThat(e.isAdmitted("team/b")).isFalse();

    e.delete("team/a");
    e.scheduleUntilIdle(10);
    assertThat(e.isAdmitted("team/b")).isTrue();
  }

  @Test
  void putClusterQueue_newQueueAndLocalQueue_admitAtRuntime() {
    AdmissionEngine e = engine(cq("cq", "1"));
    e.putClusterQueue(cq("gpu-cq", "8"));
    e.putLocalQueue(LocalQueue.of("team", "gpu", "gpu-cq"));
    e.submit(wl("train", "gpu", 0, "8"));
    e.scheduleUntilIdle(10);

    assertThat(e.admission("team/train").orElseThrow().clusterQueue()).isEqualTo("gpu-cq");
    assertThat(e.clusterQueue("gpu-cq")).isPresent();
    assertThat(e.localQueue("team", "gpu")).isPresent();
  }

  @Test
  void removeClusterQueue_withoutWorkloadsWithQuota_pendingWaitForAQueueOfThatName() {
    AdmissionEngine e = engine(cq("cq", "1"));
    e.submit(wl("a", "q", 0, "2"));

    assertThat(e.removeClusterQueue("cq")).isTrue();

    assertThat(e.clusterQueue("cq")).isEmpty();
    assertThat(e.pendingCount()).isEqualTo(1);
    assertThat(e.queueBlocker("team/a")).contains(
        new QueueBlocker(QueueBlocker.MISCONFIGURED, "ClusterQueue cq doesn't exist"));
    assertThat(e.localQueueActive("team", "q")).isEqualTo(new ActiveCondition(false,
        ActiveCondition.CLUSTER_QUEUE_DOES_NOT_EXIST, "Can't submit new workloads to clusterQueue"));
    assertThatThrownBy(() -> e.pending("cq")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ClusterQueue \"cq\" is not known");
    e.submit(wl("b", "q", 1, "1"));
    assertThat(e.scheduleUntilIdle(10)).isEmpty();

    e.putClusterQueue(cq("cq", "4"));
    e.scheduleUntilIdle(10);
    assertThat(e.isAdmitted("team/a")).isTrue();
    assertThat(e.isAdmitted("team/b")).isTrue();
    assertThat(e.removeClusterQueue("nope")).isFalse();
  }

  @Test
  void removeClusterQueue_withAdmittedWorkloads_isTerminatingUntilTheLastOneFinishes() {
    AdmissionEngine e = engine(cq("cq", "4"));
    e.submit(wl("a", "q", 0, "2"));
    e.submit(wl("b", "q", 1, "2"));
    e.scheduleUntilIdle(10);
    e.submit(wl("c", "q", 2, "1"));

    assertThat(e.removeClusterQueue("cq")).isTrue();

    assertThat(e.clusterQueueActive("cq")).isEqualTo(new ActiveCondition(false, ActiveCondition.TERMINATING,
        "Can't admit new workloads; clusterQueue is terminating"));
    assertThat(e.queueBlocker("team/c")).contains(
        new QueueBlocker(QueueBlocker.SUSPENDED, "ClusterQueue cq is inactive"));
    assertThatThrownBy(() -> e.putClusterQueue(cq("cq", "8"))).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ClusterQueue cq: is terminating");
    e.delete("team/a");
    e.scheduleUntilIdle(10);
    assertThat(e.isAdmitted("team/c")).isFalse();
    assertThat(e.clusterQueue("cq")).isPresent();

    e.delete("team/b");

    assertThat(e.clusterQueue("cq")).isEmpty();
    assertThat(e.queueBlocker("team/c")).contains(
        new QueueBlocker(QueueBlocker.MISCONFIGURED, "ClusterQueue cq doesn't exist"));
  }

  @Test
  void removeLocalQueue_pendingWaitAdmittedKeepQuota_addedAgainTheyQueue() {
    AdmissionEngine e = engine(cq("cq", "2"));
    e.submit(wl("a", "q", 0, "1"));
    e.scheduleUntilIdle(10);
    e.submit(wl("b", "q", 1, "1"));

    assertThat(e.removeLocalQueue("team", "q")).isTrue();

    assertThat(e.isAdmitted("team/a")).isTrue();
    assertThat(e.pending("cq")).isEmpty();
    assertThat(e.queueBlocker("team/b")).contains(
        new QueueBlocker(QueueBlocker.MISCONFIGURED, "LocalQueue q doesn't exist"));
    assertThatThrownBy(() -> e.submit(wl("c", "q", 2, "1"))).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("spec.queueName \"q\" must name a LocalQueue in namespace team");
    assertThat(e.scheduleUntilIdle(10)).isEmpty();

    e.putLocalQueue(LocalQueue.of("team", "q", "cq"));
    assertThat(e.pending("cq")).containsExactly("team/b");
    e.scheduleUntilIdle(10);
    assertThat(e.isAdmitted("team/b")).isTrue();
    assertThat(e.removeLocalQueue("team", "q")).isTrue();
    assertThat(e.removeLocalQueue("team", "q")).isFalse();
  }

  @Test
  void putLocalQueue_otherClusterQueue_isRefusedAsImmutable() {
    AdmissionEngine e = engine(cq("cq", "2"), cq("other", "2"));

    assertThatThrownBy(() -> e.putLocalQueue(LocalQueue.of("team", "q", "other")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("LocalQueue team/q: spec.clusterQueue \"other\": field is immutable (is \"cq\")");
    assertThat(e.localQueue("team", "q").orElseThrow().clusterQueue()).isEqualTo("cq");
  }

  @Test
  void putLocalQueue_namingAMissingClusterQueue_itsWorkloadsWaitUntilTheQueueIsAdded() {
    AdmissionEngine e = engine(cq("cq", "2"));
    e.putLocalQueue(LocalQueue.of("team", "later", "later-cq"));
    e.submit(wl("a", "later", 0, "1"));

    assertThat(e.queueBlocker("team/a")).contains(
        new QueueBlocker(QueueBlocker.MISCONFIGURED, "ClusterQueue later-cq doesn't exist"));
    e.putClusterQueue(cq("later-cq", "1"));
    assertThat(e.queueBlocker("team/a")).isEmpty();
    e.scheduleUntilIdle(10);
    assertThat(e.isAdmitted("team/a")).isTrue();
  }

  @Test
  void putCohort_withQuota_letsItsQueuesBorrowIt_removedTheQuotaIsGone() {
    AdmissionEngine e = engine(cq("cq", "pool", "2"));
    e.submit(wl("big", "q", 0, "5"));
    e.scheduleUntilIdle(10);
    assertThat(e.isAdmitted("team/big")).isFalse();

    e.putCohort(Cohort.builder("pool").resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "4")))
        .build());
    e.scheduleUntilIdle(10);
    assertThat(e.isAdmitted("team/big")).isTrue();
    assertThat(e.cohort("pool")).isPresent();

    assertThat(e.removeCohort("pool")).isTrue();
    assertThat(e.cohort("pool")).isEmpty();
    e.submit(wl("small", "q", 1, "1"));
    e.scheduleUntilIdle(10);
    assertThat(e.isAdmitted("team/big")).isTrue();
    assertThat(e.isAdmitted("team/small")).isFalse();
    assertThat(e.removeCohort("pool")).isFalse();
  }

  @Test
  void putCohort_parentFormsACycle_isRefusedAndTheEngineUnchanged() {
    AdmissionEngine e = engine(cq("cq", "a", "2"));
    e.putCohort(Cohort.of("a", "b"));

    assertThatThrownBy(() -> e.putCohort(Cohort.of("b", "a"))).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Cohort").hasMessageContaining("spec.parentName forms a cycle");
    assertThat(e.cohort("b")).isEmpty();
    e.submit(wl("x", "q", 0, "2"));
    e.scheduleUntilIdle(10);
    assertThat(e.isAdmitted("team/x")).isTrue();
  }

  @Test
  void putCohort_refusedWithQuotaInANewFlavor_leavesTheEngineWorking() {
    AdmissionEngine e = engine(cq("cq", "a", "2"));
    e.putCohort(Cohort.of("a", "b"));

    assertThatThrownBy(() -> e.putCohort(Cohort.builder("b").parent("a")
        .resourceGroup(FlavorQuotas.of("gpu", FlavorResourceQuota.of("nvidia.com/gpu", "8"))).build()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("spec.parentName forms a cycle");
    assertThat(e.usage("cq", "gpu", "nvidia.com/gpu")).isEqualTo(Quantity.ZERO);
    e.submit(wl("x", "q", 0, "2"));
    e.scheduleUntilIdle(10);
    assertThat(e.isAdmitted("team/x")).isTrue();
    assertThat(e.usage("cq", "default", "cpu")).isEqualTo(Quantity.of(2));
  }

  @Test
  void putCohort_underAParentWithQuota_withFairSharing_lendsTheParentsQuota() {
    AdmissionEngine e = AdmissionEngine.builder().clock(clock).resourceFlavors("default").fairSharing(true)
        .clusterQueue(cq("cq", "flat", "2")).localQueue(LocalQueue.of("team", "q", "cq")).build();
    e.putCohort(Cohort.of("flat", null));
    e.submit(wl("big", "q", 0, "4"));
    e.scheduleUntilIdle(10);
    assertThat(e.isAdmitted("team/big")).isFalse();

    e.putCohort(Cohort.builder("root").resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "2")))
        .build());
    e.putCohort(Cohort.of("flat", "root"));
    e.scheduleUntilIdle(10);
    assertThat(e.cohort("flat").orElseThrow().parent()).isEqualTo("root");
    assertThat(e.isAdmitted("team/big")).isTrue();
    // cq borrows 2 of the 4 cpu its parent could give it (flat lends 2, root holds 2)
    assertThat(e.dominantResourceShare("cq")).isEqualTo(500);
  }

  @Test
  void putClusterQueue_queueingStrategyAndCohortChange_keepPendingWorkloads() {
    AdmissionEngine e = engine(cq("cq", "1"), cq("lender", "pool", "4"));
    e.submit(wl("a", "q", 0, "3"));
    e.submit(wl("b", "q", 1, "1"));
    e.scheduleUntilIdle(10);
    assertThat(e.isAdmitted("team/b")).isTrue();
    assertThat(e.inadmissible("cq")).containsExactly("team/a");

    e.putClusterQueue(cq("cq", "1").toBuilder().queueingStrategy(QueueingStrategy.STRICT_FIFO).cohort("pool").build());
    e.scheduleUntilIdle(10);

    assertThat(e.isAdmitted("team/a")).isTrue();
    assertThat(e.admission("team/a").orElseThrow().borrowing()).isTrue();
  }

  @Test
  void clusterQueueAndLocalQueue_recordsKeepTheirOldConstructors_defaultNotStopped() {
    ClusterQueue q = cq("cq", "1");
    assertThat(q.stopPolicy()).isEqualTo(StopPolicy.NONE);
    assertThat(q.toBuilder().build()).isEqualTo(q);
    assertThat(q.withStopPolicy(StopPolicy.HOLD).toBuilder().build().stopPolicy()).isEqualTo(StopPolicy.HOLD);
    assertThat(new LocalQueue("ns", "lq", "cq").stopPolicy()).isEqualTo(StopPolicy.NONE);
    assertThat(LocalQueue.of("ns", "lq", "cq").withStopPolicy(StopPolicy.HOLD_AND_DRAIN).stopPolicy())
        .isEqualTo(StopPolicy.HOLD_AND_DRAIN);
    assertThatThrownBy(() -> ClusterQueue.builder("cq").stopPolicy(StopPolicy.HOLD).stopPolicy(StopPolicy.NONE))
        .isInstanceOf(IllegalStateException.class).hasMessage("cluster queue cq: stopPolicy already set to HOLD");
    assertThat(Map.of(StopPolicy.NONE, "None", StopPolicy.HOLD, "Hold", StopPolicy.HOLD_AND_DRAIN, "HoldAndDrain"))
        .allSatisfy((p, api) -> assertThat(p.apiName()).isEqualTo(api));
  }
}
