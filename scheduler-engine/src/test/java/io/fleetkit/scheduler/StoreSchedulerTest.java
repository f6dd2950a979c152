package io.fleetkit.scheduler;

import static io.fleetkit.scheduler.testing.Fixtures.node;
import static io.fleetkit.scheduler.testing.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.scheduling.PriorityClass;
import io.fleetkit.api.store.DeleteOptions;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.scheduler.internal.SchedulerImpl;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

final class StoreSchedulerTest {
  private final ManualClock clock = ManualClock.atEpoch2026();

  @Test
  void attach_bindsPendingPodsIntoStore_andConfirmsThem() {
    try (ObjectStore store = ObjectStore.builder().directDelivery().build();
        Scheduler s = Scheduler.builder().clock(clock).binder(new StoreBinder(store, clock)).build()) {
      store.create(PriorityClass.of("high", 1000));
      store.create(node("n1", 4000, 8192, 110));
      store.create(pod("a", 500, 100));
      // as the store's Priority admission stores it: the class resolved into spec.priority
      store.create(pod("b", 500, 100).toBuilder().priorityClassName("high").priority(1000).build());
      try (StoreScheduler feed = s.attach(store)) {
        assertThat(feed).isNotNull();
        assertThat(s.pending()).hasSize(2);
        assertThat(s.runUntilIdle()).extracting(ScheduleResult::podKey)
            .containsExactly("default/b", "default/a");
        for (String name : new String[] {"a", "b"}) {
          Pod p = store.require(Pod.class, "default", name);
          assertThat(p.spec().nodeName()).isEqualTo("n1");
          PodCondition c = p.status().condition(PodCondition.POD_SCHEDULED);
          assertThat(c).isNotNull();
          assertThat(c.status()).isEqualTo(ConditionStatus.True);
          assertThat(((SchedulerImpl) s).cache().isAssumed("default/" + name)).isFalse();
        }
        // later events flow through the watch
        store.create(pod("c", 500, 100));
        assertThat(s.runUntilIdle()).singleElement().satisfies(r -> assertThat(r.nodeName()).isEqualTo("n1"));
        store.delete(Pod.class, "default", "a");
        // terminating: still on n1, its resources still accounted, until it is gone
        assertThat(s.nodeOf("default/a")).contains("n1");
        assertThat(s.nodeInfo("n1").orElseThrow().pods()).hasSize(3);
        store.delete(Pod.class, "default", "a", DeleteOptions.gracePeriod(0)); // its kubelet's final deletion
        assertThat(s.nodeOf("default/a")).isEmpty();
        assertThat(s.nodeInfo("n1").orElseThrow().pods()).hasSize(2);
      }
    }
  }

  /**
   * kube-scheduler's informers list the Services and workloads whose selectors make a pod's default spreading selector
   * ({@code helper.DefaultSelector}); fed from the store, a ReplicaSet's second pod goes to the other zone by
   * PodTopologySpread's system defaults (zone skew 5, ScheduleAnyway), where the two empty nodes score alike otherwise.
   */
  @Test
  void attach_feedsWorkloads_defaultSpreadingPlacesAReplicaSetsPodsInTheOtherZone() {
    io.fleetkit.api.meta.OwnerReference rs = new io.fleetkit.api.meta.OwnerReference("apps/v1", "ReplicaSet", "web",
        "rs-1", true, true);
    try (ObjectStore store = ObjectStore.builder().directDelivery().build();
        Scheduler s = Scheduler.builder().clock(clock).binder(new StoreBinder(store, clock)).build()) {
      for (String[] n : new String[][] {{"a-1", "zone-a"}, {"a-2", "zone-a"}, {"b-1", "zone-b"}}) {
        store.create(node(n[0], 4000, 8192, 110).toBuilder().label("kubernetes.io/hostname", n[0])
            .label("topology.kubernetes.io/zone", n[1]).build());
      }
      store.create(io.fleetkit.api.apps.ReplicaSet.builder().name("web").replicas(2)
          .matchLabels(java.util.Map.of("app", "web"))
          .podSpec(io.fleetkit.api.core.PodSpec.builder().container("app", "pause",
              io.fleetkit.api.resource.ResourceList.ofCpuMemory(500, 100L << 20)).build()).build());
      store.create(pod("web-1", 500, 100).toBuilder().label("app", "web").ownerReference(rs).nodeName("a-1")
          .build());
      store.create(pod("web-2", 500, 100).toBuilder().label("app", "web").ownerReference(rs).build());
      try (StoreScheduler feed = s.attach(store)) {
        assertThat(s.runUntilIdle()).singleElement().satisfies(r -> assertThat(r.nodeName()).isEqualTo("b-1"));
      }
    }
  }

  @Test
  void builderStore_makesTheStoreTheDefaultBindingTarget() {
    try (ObjectStore store = ObjectStore.builder().directDelivery().build();
        Scheduler s = Scheduler.builder().clock(clock).store(store).build()) {
      store.create(node("n1", 4000, 8192, 110));
      store.create(pod("a", 500, 100));
      try (StoreScheduler feed = s.attach(store)) {
        assertThat(feed.scheduler()).isSameAs(s);
        assertThat(s.runUntilIdle()).singleElement().satisfies(r -> assertThat(r.isBound()).isTrue());
        assertThat(store.require(Pod.class, "default", "a").spec().nodeName()).isEqualTo("n1");
      }
    }
  }

  @Test
  void storeBinder_podMissingOrBoundElsewhere_isError() {
    try (ObjectStore store = ObjectStore.builder().directDelivery().build()) {
      StoreBinder b = new StoreBinder(store);
      assertThat(b.bind(pod("ghost", 1, 1), "n1").code()).isEqualTo(Status.Code.ERROR);
      store.create(pod("x", 1, 1).withNodeName("n2"));
      Status s = b.bind(pod("x", 1, 1), "n1");
      assertThat(s.code()).isEqualTo(Status.Code.ERROR);
      assertThat(s.message()).contains("already bound to node n2");
      b.evict(store.require(Pod.class, "default", "x"));
      // deleted with its own grace period, as kube-scheduler's DeletePod: terminating on its node
      assertThat(store.require(Pod.class, "default", "x").metadata().deletionGracePeriodSeconds()).isEqualTo(30L);
    }
  }

  @Test
  void storeBinder_evict_marksDisruptionTargetThenDeletes() {
    try (ObjectStore store = ObjectStore.builder().directDelivery().build()) {
      Pod victim = pod("v", 1, 1).withNodeName("n1");
      victim = victim.withMetadata(victim.metadata().toBuilder().finalizer("example.com/keep").build());
      store.create(victim);
      new StoreBinder(store, clock).evict(victim);
      Pod after = store.require(Pod.class, "default", "v");
      assertThat(after.metadata().deletionTimestamp()).isNotNull();
      PodCondition c = after.status().condition(PodCondition.DISRUPTION_TARGET);
      assertThat(c).isNotNull();
      assertThat(c.reason()).isEqualTo(StoreBinder.REASON_PREEMPTION);
    }
  }

  @Test
  void start_runsSchedulerInBackground() throws InterruptedException {
    try (ObjectStore store = ObjectStore.builder().build();
        Scheduler s = Scheduler.builder().binder(new StoreBinder(store)).build();
        StoreScheduler feed = s.attach(store).start(Duration.ofMillis(20))) {
      store.create(node("n1", 4000, 8192, 110));
      store.create(pod("bg", 100, 10));
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (System.nanoTime() < deadline
          && store.require(Pod.class, "default", "bg").spec().nodeName().isEmpty()) {
        Thread.sleep(10);
      }
      assertThat(store.require(Pod.class, "default", "bg").spec().nodeName()).isEqualTo("n1");
      assertThat(feed.scheduler()).isSameAs(s);
    }
  }
}
