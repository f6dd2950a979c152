package io.fleetkit.reconcile.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.reconcile.ObjectKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The ReplicaSet controller in stepping mode on a direct-delivery store with a manual clock. */
final class ReplicaSetControllerTest {
  static final Map<String, String> LABELS = Map.of("app", "web");
  static final PodSpec SPEC = PodSpec.builder().container("app", "nginx:1.27", ResourceList.EMPTY).build();

  static ReplicaSet rs(String name, int replicas) {
    return ReplicaSet.builder().namespace("ns").name(name).replicas(replicas).matchLabels(LABELS).podSpec(SPEC)
        .build();
  }

  private final ManualClock clock = ManualClock.atEpoch2026();

  private ReplicaSetController controller(ObjectStore store) {
    ReplicaSetController c = ReplicaSetController.builder(store).clock(clock).stepping().build();
    c.start().join();
    return c;
  }

  @Test
  void reconcile_newReplicaSet_createsOwnedPodsWithGeneratedNamesAndStatus() {
    try (ObjectStore store = Sim.store(clock); ReplicaSetController c = controller(store)) {
      ReplicaSet created = store.create(rs("web", 3));
      c.runUntilIdle();
      List<Pod> pods = Sim.podsOf(store, created.metadata().uid());
      assertThat(pods).hasSize(3);
      for (Pod p : pods) {
        assertThat(p.metadata().name()).matches("web-[bcdfghjklmnpqrstvwxz2456789]{5}");
        OwnerReference ref = p.metadata().controllerRef();
        assertThat(ref).isNotNull();
        assertThat(ref.kind()).isEqualTo("ReplicaSet");
        assertThat(ref.controller()).isTrue();
        assertThat(p.metadata().labels()).containsAllEntriesOf(LABELS);
      }
      ReplicaSet after = store.require(ReplicaSet.class, "ns", "web");
      assertThat(after.status().replicas()).isEqualTo(3);
      assertThat(after.status().readyReplicas()).isZero();
      assertThat(after.status().observedGeneration()).isEqualTo(after.metadata().generation());
    }
  }

  @Test
  void reconcile_podDeleted_isReplaced() {
    try (ObjectStore store = Sim.store(clock); ReplicaSetController c = controller(store)) {
      String uid = store.create(rs("web", 2)).metadata().uid();
      c.runUntilIdle();
      Pod victim = Sim.podsOf(store, uid).get(0);
      store.delete(Pod.class, "ns", victim.metadata().name());
      c.runUntilIdle();
      assertThat(Sim.podsOf(store, uid)).hasSize(2).noneMatch(p -> p.metadata().name()
          .equals(victim.metadata().name()));
    }
  }

  @Test
  void reconcile_scaleDown_deletesUnassignedThenPendingThenNotReadyFirst() {
    try (ObjectStore store = Sim.store(clock); ReplicaSetController c = controller(store)) {
      String uid = store.create(rs("web", 4)).metadata().uid();
      c.runUntilIdle();
      List<Pod> pods = Sim.podsOf(store, uid);
      Pod readyA = Sim.ready(store, clock, pods.get(0), "node-a");
      Pod readyB = Sim.ready(store, clock, pods.get(1), "node-b");
      Sim.run(store, pods.get(2), "node-a"); // running, not ready
      // pods.get(3) stays unassigned and pending
      c.runUntilIdle();
      assertThat(store.require(ReplicaSet.class, "ns", "web").status().readyReplicas()).isEqualTo(2);
      ReplicaSet cur = store.require(ReplicaSet.class, "ns", "web");
      store.update(cur.withSpec(cur.spec().withReplicas(2)));
      c.runUntilIdle();
      assertThat(Sim.finishTerminating(store)).as("the bound pod deleted is terminating").isEqualTo(1);
      c.runUntilIdle();
      assertThat(Sim.podsOf(store, uid)).extracting(p -> p.metadata().name())
          .containsExactlyInAnyOrder(readyA.metadata().name(), readyB.metadata().name());
      assertThat(store.require(ReplicaSet.class, "ns", "web").status().replicas()).isEqualTo(2);
    }
  }

  @Test
  void reconcile_scaleDownAmongReady_prefersMoreColocatedNode() {
    try (ObjectStore store = Sim.store(clock); ReplicaSetController c = controller(store)) {
      String uid = store.create(rs("web", 3)).metadata().uid();
      c.runUntilIdle();
      List<Pod> pods = Sim.podsOf(store, uid);
      Sim.ready(store, clock, pods.get(0), "node-a");
      Sim.ready(store, clock, pods.get(1), "node-a");
      Pod alone = Sim.ready(store, clock, pods.get(2), "node-b");
      c.runUntilIdle();
      ReplicaSet cur = store.require(ReplicaSet.class, "ns", "web");
      store.update(cur.withSpec(cur.spec().withReplicas(2)));
      c.runUntilIdle();
      assertThat(Sim.finishTerminating(store)).isEqualTo(1);
      List<Pod> left = Sim.podsOf(store, uid);
      assertThat(left).hasSize(2).anyMatch(p -> p.metadata().name().equals(alone.metadata().name()));
      assertThat(left).filteredOn(p -> p.spec().nodeName().equals("node-a")).hasSize(1);
    }
  }

  @Test
  void reconcile_matchingOrphan_isAdoptedInsteadOfCreatingOne() {
    try (ObjectStore store = Sim.store(clock); ReplicaSetController c = controller(store)) {
      store.create(Pod.builder().namespace("ns").name("orphan").labels(LABELS).spec(SPEC).build());
      store.create(Pod.builder().namespace("ns").name("stranger").label("app", "db").spec(SPEC).build());
      String uid = store.create(rs("web", 2)).metadata().uid();
      c.runUntilIdle();
      List<Pod> pods = Sim.podsOf(store, uid);
      assertThat(pods).hasSize(2).anyMatch(p -> p.metadata().name().equals("orphan"));
      assertThat(store.require(Pod.class, "ns", "stranger").metadata().controllerRef()).isNull();
    }
  }

  @Test
  void reconcile_podRelabelled_isReleasedAndReplaced() {
    try (ObjectStore store = Sim.store(clock); ReplicaSetController c = controller(store)) {
      String uid = store.create(rs("web", 1)).metadata().uid();
      c.runUntilIdle();
      Pod p = Sim.podsOf(store, uid).get(0);
      store.update(p.withMetadata(p.metadata().withLabels(Map.of("app", "debug"))));
      c.runUntilIdle();
      assertThat(store.require(Pod.class, "ns", p.metadata().name()).metadata().controllerRef()).isNull();
      assertThat(Sim.podsOf(store, uid)).hasSize(1).noneMatch(q -> q.metadata().name()
          .equals(p.metadata().name()));
    }
  }

  @Test
  void status_minReadySeconds_availableOnlyAfterTheClockPassesIt() {
    try (ObjectStore store = Sim.store(clock); ReplicaSetController c = controller(store)) {
      ReplicaSet spec = ReplicaSet.builder().namespace("ns").name("web").replicas(2).matchLabels(LABELS)
          .podSpec(SPEC).minReadySeconds(10).build();
      String uid = store.create(spec).metadata().uid();
      c.runUntilIdle();
      for (Pod p : Sim.podsOf(store, uid)) {
        Sim.ready(store, clock, p, "node-a");
      }
      c.runUntilIdle();
      ReplicaSet now = store.require(ReplicaSet.class, "ns", "web");
      assertThat(now.status().readyReplicas()).isEqualTo(2);
      assertThat(now.status().availableReplicas()).isZero();
      clock.advance(Duration.ofSeconds(5));
      c.runUntilIdle();
      assertThat(store.require(ReplicaSet.class, "ns", "web").status().availableReplicas()).isZero();
      clock.advance(Duration.ofSeconds(7));
      c.runUntilIdle();
      assertThat(store.require(ReplicaSet.class, "ns", "web").status().availableReplicas()).isEqualTo(2);
    }
  }

  @Test
  void reconcile_ownCreatesNotYetInCache_neverOverCreates() {
    List<Runnable> held = new ArrayList<>();
    Executor holding = held::add;
    AtomicLong uids = new AtomicLong();
    try (ObjectStore store = ObjectStore.builder().deliveryExecutor(holding).clock(clock.asClock())
        .uidGenerator(() -> "uid-" + uids.incrementAndGet()).build();
         ReplicaSetController c = controller(store)) {
      String uid = store.create(rs("web", 3)).metadata().uid();
      drain(held);
      c.runUntilIdle();
      assertThat(Sim.podsOf(store, uid)).hasSize(3);
      assertThat(c.pendingCreations(ObjectKey.of("ns", "web"))).isEqualTo(3);
      // the cache has not seen the pods yet: a resync must not create 3 more
      c.controller().enqueue(ObjectKey.of("ns", "web"));
      c.runUntilIdle();
      assertThat(Sim.podsOf(store, uid)).hasSize(3);
      drain(held);
      assertThat(c.pendingCreations(ObjectKey.of("ns", "web"))).isZero();
      c.runUntilIdle();
      drain(held);
      c.runUntilIdle();
      assertThat(Sim.podsOf(store, uid)).hasSize(3);
      assertThat(store.require(ReplicaSet.class, "ns", "web").status().replicas()).isEqualTo(3);
    }
  }

  @Test
  void reconcile_lostEvent_expectationsExpireAfterFiveMinutes() {
    List<Runnable> held = new ArrayList<>();
    AtomicLong uids = new AtomicLong();
    try (ObjectStore store = ObjectStore.builder().deliveryExecutor(held::add).clock(clock.asClock())
        .uidGenerator(() -> "uid-" + uids.incrementAndGet()).build();
         ReplicaSetController c = controller(store)) {
      String uid = store.create(rs("web", 2)).metadata().uid();
      drain(held);
      c.runUntilIdle();
      held.clear(); // the pod events are lost
      Pod p = Sim.podsOf(store, uid).get(0);
      store.delete(Pod.class, "ns", p.metadata().name());
      held.clear();
      clock.advance(Duration.ofMinutes(4));
      c.controller().enqueue(ObjectKey.of("ns", "web"));
      c.runUntilIdle();
      assertThat(Sim.podsOf(store, uid)).hasSize(1);
      clock.advance(Duration.ofMinutes(2));
      c.controller().enqueue(ObjectKey.of("ns", "web"));
      c.runUntilIdle();
      // expired: the controller acts on its (stale, empty) cache again and creates 2
      assertThat(Sim.podsOf(store, uid)).hasSize(3);
    }
  }

  private static void drain(List<Runnable> held) {
    while (!held.isEmpty()) {
      List<Runnable> batch = new ArrayList<>(held);
      held.clear();
      batch.forEach(Runnable::run);
    }
  }

  /** Upstream's addPod/updatePod for an orphan: every ReplicaSet whose selector matches it is queued to adopt it. */
  @Test
  void orphanEvents_queueEveryReplicaSetSelectingTheOrphan() {
    try (ObjectStore store = Sim.store(clock); ReplicaSetController c = controller(store)) {
      store.create(rs("web", 0));
      store.create(rs("web2", 0));
      store.create(ReplicaSet.builder().namespace("ns").name("db").replicas(0).matchLabels(Map.of("app", "db"))
          .podSpec(SPEC).build());
      c.runUntilIdle();
      Pod orphan = store.create(Pod.builder().namespace("ns").name("orphan").label("app", "other").spec(SPEC)
          .build());
      assertThat(Sim.drain(c.controller())).as("no ReplicaSet selects it").isEmpty();
      store.update(orphan.withMetadata(orphan.metadata().withLabels(LABELS)));
      assertThat(Sim.drain(c.controller())).containsExactlyInAnyOrder(ObjectKey.of("ns", "web"),
          ObjectKey.of("ns", "web2"));
      store.delete(Pod.class, "ns", "orphan");
      assertThat(Sim.drain(c.controller())).as("an orphan's deletion").isEmpty();
    }
  }
}
