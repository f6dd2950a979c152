package io.fleetkit.reconcile.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.admission.QuotaLedger;
import io.fleetkit.admission.ResourceQuotaPlugin;
import io.fleetkit.api.admission.AdmissionChain;
import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.apps.DeploymentCondition;
import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.apps.ReplicaSetCondition;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.ResourceQuota;
import io.fleetkit.api.core.ResourceQuotaSpec;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.events.ObjectReference;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Workload controllers whose pod creates are refused by a quota, as kube's do ({@code replica_set.go}
 * {@code calculateStatus}, {@code controller_utils.go} {@code RealPodControl}, {@code stateful_pod_control.go}
 * {@code recordPodEvent}): a Warning {@code FailedCreate} event with the denial, the ReplicaFailure condition on
 * ReplicaSets (and their Deployment), retries with backoff rather than in a hot loop, what the quota allows is
 * created, and the rest follows once the quota grows.
 */
final class QuotaDenialTest {
  private static final String DENIAL = "exceeded quota: pods, requested: pods=1, used: pods=3, limited: pods=3";

  private final ManualClock clock = ManualClock.atEpoch2026();
  private final List<String> events = Collections.synchronizedList(new ArrayList<>());
  private final EventRecorder recorder = new EventRecorder() {
    @Override
    public void event(ObjectReference regarding, @Nullable ObjectReference related, String type, String reason,
        String action, String note) {
      events.add(regarding.kind() + " " + regarding.name() + " " + type + " " + reason + ": " + note);
    }
  };

  private ObjectStore store() {
    ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock())
        .admission(AdmissionChain.of(new ResourceQuotaPlugin(clock.asClock(), QuotaLedger.publishingEveryCharge())))
        .build();
    store.create(ResourceQuota.of("ns", "pods", ResourceList.builder().put("pods", "3").build()));
    return store;
  }

  private List<String> failedCreates() {
    synchronized (events) {
      return events.stream().filter(e -> e.contains(" Warning FailedCreate: ")).toList();
    }
  }

  /**
   * Backoff, not a hot loop: running the controller again at this instant records no new FailedCreate; a second
   * later it retries. Returns how many FailedCreate events the retry recorded.
   */
  private int retriesAfterBackoff(Runnable runUntilIdle) {
    int before = failedCreates().size();
    runUntilIdle.run();
    assertThat(failedCreates()).as("FailedCreate events without time passing").hasSize(before);
    clock.advance(Duration.ofSeconds(1));
    runUntilIdle.run();
    return failedCreates().size() - before;
  }

  private static void growQuota(ObjectStore store) {
    ResourceQuota quota = store.require(ResourceQuota.class, "ns", "pods"); // its status changed with every charge
    store.update(quota.withSpec(ResourceQuotaSpec.of(ResourceList.builder().put("pods", "5").build())));
  }

  @Test
  void replicaSet_quotaDeniesSomePods_createsTheRestAfterTheQuotaGrows() {
    try (ObjectStore store = store();
        ReplicaSetController c = ReplicaSetController.builder(store).clock(clock).stepping().build()) {
      c.start().join();
      String uid = store.create(ReplicaSetControllerTest.rs("web", 5)).metadata().uid();
      c.runUntilIdle();

      assertThat(Sim.podsOf(store, uid)).hasSize(3);
      assertThat(store.require(ReplicaSet.class, "ns", "web").status().replicas()).isEqualTo(3);

      growQuota(store);
      clock.advance(Duration.ofMinutes(1)); // past the retry backoff
      c.runUntilIdle();

      assertThat(Sim.podsOf(store, uid)).hasSize(5);
      assertThat(store.require(ResourceQuota.class, "ns", "pods").status().used().pods()).isEqualTo(5);
    }
  }

  @Test
  void replicaSet_quotaDenies_failedCreateEventAndReplicaFailureConditionUntilCreatesSucceed() {
    try (ObjectStore store = store();
        ReplicaSetController c = ReplicaSetController.builder(store).clock(clock).stepping().events(recorder)
            .build()) {
      c.start().join();
      store.create(ReplicaSetControllerTest.rs("web", 5));
      c.runUntilIdle();

      assertThat(failedCreates()).isNotEmpty().allSatisfy(e -> assertThat(e)
          .startsWith("ReplicaSet web Warning FailedCreate: Error creating: Pod ns/web-").contains(DENIAL));
      ReplicaSetCondition cond = store.require(ReplicaSet.class, "ns", "web").status()
          .condition(ReplicaSetCondition.REPLICA_FAILURE);
      assertThat(cond).isNotNull();
      assertThat(cond.status()).isEqualTo(ConditionStatus.True);
      assertThat(cond.reason()).isEqualTo("FailedCreate");
      assertThat(cond.message()).contains(DENIAL).contains("(plugin ResourceQuota, field spec)");
      assertThat(cond.lastTransitionTime()).isEqualTo(clock.now());

      assertThat(retriesAfterBackoff(c::runUntilIdle)).isEqualTo(1);
      assertThat(store.require(ReplicaSet.class, "ns", "web").status().replicas()).isEqualTo(3);

      growQuota(store);
      clock.advance(Duration.ofMinutes(1));
      c.runUntilIdle();
      ReplicaSet rs = store.require(ReplicaSet.class, "ns", "web");
      assertThat(rs.status().replicas()).isEqualTo(5);
      assertThat(rs.status().conditions()).isEmpty();
    }
  }

  @Test
  void deployment_newReplicaSetDenied_deploymentGetsTheReplicaFailureCondition() {
    try (ObjectStore store = store();
        ReplicaSetController rsc = ReplicaSetController.builder(store).clock(clock).stepping().build();
        DeploymentController dc = DeploymentController.builder(store).clock(clock).stepping().build()) {
      rsc.start().join();
      dc.start().join();
      store.create(Cluster.web(5));
      for (int i = 0; i < 5; i++) {
        dc.runUntilIdle();
        rsc.runUntilIdle();
      }
      DeploymentCondition cond = store.require(Deployment.class, "ns", "web").status()
          .condition(DeploymentCondition.REPLICA_FAILURE);
      assertThat(cond).isNotNull();
      assertThat(cond.status()).isEqualTo(ConditionStatus.True);
      assertThat(cond.reason()).isEqualTo("FailedCreate");
      assertThat(cond.message()).contains(DENIAL);

      growQuota(store);
      clock.advance(Duration.ofMinutes(1));
      for (int i = 0; i < 5; i++) {
        rsc.runUntilIdle();
        dc.runUntilIdle();
      }
      Deployment d = store.require(Deployment.class, "ns", "web");
      assertThat(d.status().replicas()).isEqualTo(5);
      assertThat(d.status().condition(DeploymentCondition.REPLICA_FAILURE)).isNull();
    }
  }

  @Test
  void job_quotaDenies_failedCreateEventAndRetriesWithBackoffUntilTheQuotaGrows() {
    try (ObjectStore store = store();
        JobController c = JobController.builder(store).clock(clock).stepping().events(recorder).build()) {
      c.start().join();
      store.create(Job.builder().namespace("ns").name("calc").parallelism(5).completions(5)
          .podSpec(PodSpec.builder().container("c", "busybox", ResourceList.EMPTY)
              .restartPolicy(RestartPolicy.Never).build()).build());
      c.runUntilIdle();

      assertThat(store.require(Job.class, "ns", "calc").status().active()).isEqualTo(3);
      assertThat(failedCreates()).isNotEmpty().allSatisfy(e -> assertThat(e)
          .startsWith("Job calc Warning FailedCreate: Error creating: Pod ns/calc-").contains(DENIAL));
      assertThat(retriesAfterBackoff(c::runUntilIdle)).isPositive();

      growQuota(store);
      clock.advance(Duration.ofMinutes(1));
      c.runUntilIdle();
      assertThat(store.require(Job.class, "ns", "calc").status().active()).isEqualTo(5);
    }
  }

  @Test
  void statefulSet_quotaDenies_failedCreateEventNamesThePodAndTheSetAndRetriesWithBackoff() {
    try (ObjectStore store = store();
        StatefulSetController c = StatefulSetController.builder(store).clock(clock).stepping().events(recorder)
            .build()) {
      c.start().join();
      StatefulSet set = StatefulSetHarness.burst(StatefulSet.builder().namespace("ns").name("db").replicas(5)
          .matchLabels(Map.of("app", "db")).serviceName("db")
          .podSpec(PodSpec.builder().container("db", "postgres", ResourceList.EMPTY).build()).build());
      store.create(set);
      c.runUntilIdle();

      assertThat(store.require(StatefulSet.class, "ns", "db").status().replicas()).isEqualTo(3);
      assertThat(failedCreates()).isNotEmpty().allSatisfy(e -> assertThat(e)
          .startsWith("StatefulSet db Warning FailedCreate: create Pod db-3 in StatefulSet db failed error: ")
          .contains(DENIAL));
      assertThat(events).contains("StatefulSet db Normal SuccessfulCreate: create Pod db-0 in StatefulSet db "
          + "successful");
      assertThat(retriesAfterBackoff(c::runUntilIdle)).isPositive();
      assertThat(store.require(StatefulSet.class, "ns", "db").status().replicas()).isEqualTo(3);

      growQuota(store);
      clock.advance(Duration.ofMinutes(1));
      c.runUntilIdle();
      assertThat(store.require(StatefulSet.class, "ns", "db").status().replicas()).isEqualTo(5);
    }
  }
}
