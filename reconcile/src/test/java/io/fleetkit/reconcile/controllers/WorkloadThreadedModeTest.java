package io.fleetkit.reconcile.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobCondition;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The StatefulSet and Job controllers with worker threads on the system clock and an asynchronously delivering
 * store: the caches lag behind the store, so these check that stale reads never create a pod twice.
 */
final class WorkloadThreadedModeTest {
  private static final PodSpec SPEC = PodSpec.builder().container("c", "img", ResourceList.EMPTY).build();

  /** One kubelet pass: every pending pod Running and Ready (or Succeeded when {@code complete}). */
  private static void kubelet(ObjectStore store, boolean complete) {
    for (Pod p : store.list(Pod.class, "ns").items()) {
      if (p.status().phase() != PodPhase.Pending) {
        continue;
      }
      try {
        PodPhase phase = complete ? PodPhase.Succeeded : PodPhase.Running;
        store.updateStatus(p.withStatus(p.status().withPhase(phase).withCondition(
            PodCondition.of(PodCondition.READY, ConditionStatus.True, "", "", Instant.now()))));
      } catch (ConflictException | io.fleetkit.api.NotFoundException e) {
        // the controller changed or removed it meanwhile; the next pass sees the new state
      }
    }
  }

  @Test
  void threaded_statefulSetOfFour_orderedPodsAllReady() throws Exception {
    try (ObjectStore store = ObjectStore.inMemory();
        StatefulSetController c = StatefulSetController.builder(store).workers(2).build()) {
      c.start().get(10, TimeUnit.SECONDS);
      store.create(StatefulSet.builder().namespace("ns").name("db").replicas(4).matchLabels(Map.of("app", "db"))
          .podSpec(SPEC).build());
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (System.nanoTime() < deadline
          && store.require(StatefulSet.class, "ns", "db").status().readyReplicas() != 4) {
        kubelet(store, false);
        Thread.sleep(5);
      }
      assertThat(store.list(Pod.class, "ns").items()).extracting(p -> p.metadata().name())
          .containsExactlyInAnyOrder("db-0", "db-1", "db-2", "db-3");
      assertThat(store.require(StatefulSet.class, "ns", "db").status().readyReplicas()).isEqualTo(4);
    }
  }

  /**
   * Repeated: two worker threads and two informers race. It caught two races of the finalizer tracking, each in about
   * one run in twenty: a sync on a Job cache behind the controller's own status write (pods created for completions
   * already counted), and the awaited removals read after the pod list (a pod counted twice).
   */
  @org.junit.jupiter.api.RepeatedTest(20)
  void threaded_jobOfSix_completesWithExactlySixPods() throws Exception {
    try (ObjectStore store = ObjectStore.inMemory();
        JobController c = JobController.builder(store).workers(2).build()) {
      c.start().get(10, TimeUnit.SECONDS);
      store.create(Job.builder().namespace("ns").name("calc").parallelism(3).completions(6)
          .podSpec(PodSpec.builder().container("c", "img", ResourceList.EMPTY).restartPolicy(RestartPolicy.Never)
              .build())
          .build());
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      int maxActive = 0;
      while (System.nanoTime() < deadline && !store.require(Job.class, "ns", "calc").status().isFinished()) {
        long active = store.list(Pod.class, "ns").items().stream().filter(ActivePods::isActive).count();
        maxActive = Math.max(maxActive, (int) active);
        kubelet(store, true);
        Thread.sleep(5);
      }
      Job j = store.require(Job.class, "ns", "calc");
      assertThat(j.status().condition(JobCondition.COMPLETE)).isNotNull();
      assertThat(j.status().succeeded()).isEqualTo(6);
      assertThat(store.list(Pod.class, "ns").items()).hasSize(6);
      assertThat(maxActive).isLessThanOrEqualTo(3);
    }
  }

  /**
   * Regression: with pods deleted continuously, the ReplicaSet controller's count expectations (fed by a separate
   * informer) let syncs on a lagging cache create pods again and again (up to 130 pods for 30 replicas before the
   * cache-checked expectations).
   */
  @Test
  void threaded_replicaSetUnderPodChurn_neverMorePodsThanReplicas() throws Exception {
    try (ObjectStore store = ObjectStore.inMemory();
        ReplicaSetController c = ReplicaSetController.builder(store).workers(2).build()) {
      c.start().get(10, TimeUnit.SECONDS);
      store.create(ReplicaSet.builder().namespace("ns").name("web").replicas(30).matchLabels(Map.of("app", "web"))
          .podSpec(SPEC).build());
      int max = 0;
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
      while (System.nanoTime() < end) {
        java.util.List<Pod> pods = store.list(Pod.class, "ns").items();
        max = Math.max(max, pods.size());
        if (pods.size() >= 30) {
          try {
            store.delete(Pod.class, "ns", pods.get(0).metadata().name());
          } catch (io.fleetkit.api.NotFoundException e) {
            // deleted meanwhile
          }
        }
        Thread.sleep(2);
      }
      long settle = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (System.nanoTime() < settle && store.list(Pod.class, "ns").items().size() != 30) {
        max = Math.max(max, store.list(Pod.class, "ns").items().size());
        Thread.sleep(5);
      }
      Thread.sleep(200);
      max = Math.max(max, store.list(Pod.class, "ns").items().size());
      assertThat(max).isLessThanOrEqualTo(30);
      assertThat(store.list(Pod.class, "ns").items()).hasSize(30);
    }
  }
}
