package io.fleetkit.reconcile.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.core.ReplicationController;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.events.ObjectReference;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The replication manager: the ReplicaSet reconciler over ReplicationControllers. Scenarios of the pre-1.8 upstream
 * {@code pkg/controller/replication/replication_controller_test.go} (TestSyncReplicationControllerDoesNothing,
 * ...Deletes, ...Creates, TestControllerUpdateReplicas), which since 1.8 are the ReplicaSet controller's own
 * (ReplicaSetControllerTest, ReplicaSetUpstreamCasesTest); here they check what the adapter adds: the kind of the
 * controller references and events, and the status written to the ReplicationController.
 */
final class ReplicationManagerTest {
  static final Map<String, String> LABELS = Map.of("name", "foo", "type", "production");
  static final PodSpec SPEC = PodSpec.builder().container("app", "foo/bar", ResourceList.EMPTY).build();

  private final ManualClock clock = ManualClock.atEpoch2026();
  private final List<String> events = new ArrayList<>();
  private final EventRecorder recorder = new EventRecorder() {
    @Override
    public void event(ObjectReference regarding, @Nullable ObjectReference related, String type, String reason,
        String action, String note) {
      events.add(regarding.apiVersion() + " " + regarding.kind() + " " + regarding.name() + " " + reason);
    }
  };

  static ReplicationController rc(int replicas) {
    return ReplicationController.builder().namespace("ns").name("foobar").replicas(replicas)
        .selector(Map.of("name", "foo")).template(PodTemplateSpec.of(LABELS, SPEC)).build();
  }

  private ReplicationManager manager(ObjectStore store) {
    ReplicationManager m = ReplicationManager.builder(store).clock(clock).stepping().events(recorder).build();
    m.start().join();
    return m;
  }

  @Test
  void creates_podsControlledByTheReplicationController_andItsStatus() {
    try (ObjectStore store = Sim.store(clock); ReplicationManager m = manager(store)) {
      ReplicationController created = store.create(rc(2));
      m.runUntilIdle();
      List<Pod> pods = Sim.podsOf(store, created.metadata().uid());
      assertThat(pods).hasSize(2);
      for (Pod p : pods) {
        assertThat(p.metadata().name()).startsWith("foobar-");
        OwnerReference ref = p.metadata().controllerRef();
        assertThat(ref).isNotNull();
        assertThat(ref.kind()).isEqualTo("ReplicationController");
        assertThat(ref.apiVersion()).isEqualTo("v1");
        assertThat(ref.name()).isEqualTo("foobar");
        assertThat(p.metadata().labels()).isEqualTo(LABELS);
      }
      ReplicationController after = store.require(ReplicationController.class, "ns", "foobar");
      assertThat(after.status().replicas()).isEqualTo(2);
      assertThat(after.status().fullyLabeledReplicas()).isEqualTo(2);
      assertThat(after.status().observedGeneration()).isEqualTo(after.metadata().generation());
      assertThat(events).containsExactly("v1 ReplicationController foobar SuccessfulCreate",
          "v1 ReplicationController foobar SuccessfulCreate");
    }
  }

  @Test
  void doesNothing_whenReplicasMatch_thenDeletesOneOnScaleDown() {
    try (ObjectStore store = Sim.store(clock); ReplicationManager m = manager(store)) {
      String uid = store.create(rc(2)).metadata().uid();
      m.runUntilIdle();
      List<String> names = Sim.podsOf(store, uid).stream().map(p -> p.metadata().name()).toList();
      events.clear();
      m.runUntilIdle();
      assertThat(Sim.podsOf(store, uid)).extracting(p -> p.metadata().name()).containsExactlyElementsOf(names);
      assertThat(events).isEmpty();

      ReplicationController cur = store.require(ReplicationController.class, "ns", "foobar");
      store.update(cur.withSpec(cur.spec().withReplicas(1)));
      m.runUntilIdle();
      assertThat(Sim.podsOf(store, uid).stream().filter(p -> p.metadata().deletionTimestamp() == null))
          .hasSize(1);
      assertThat(events).containsExactly("v1 ReplicationController foobar SuccessfulDelete");
    }
  }

  // TestControllerUpdateReplicas: 2 orphans with the template's labels and 2 that only match the selector are
  // adopted; status.replicas 4, fullyLabeledReplicas 2, and one more pod created for 5 replicas
  @Test
  void adoptsMatchingOrphans_countsFullyLabeled_andCreatesTheRest() {
    try (ObjectStore store = Sim.store(clock); ReplicationManager m = manager(store)) {
      for (int i = 0; i < 2; i++) {
        store.create(new Pod(ObjectMeta.builder().namespace("ns").name("pod" + i).labels(LABELS).build(), SPEC,
            PodStatus.PENDING));
        store.create(new Pod(ObjectMeta.builder().namespace("ns").name("partial" + i)
            .labels(Map.of("name", "foo")).build(), SPEC, PodStatus.PENDING));
      }
      String uid = store.create(rc(4)).metadata().uid();
      m.runUntilIdle();
      List<Pod> owned = Sim.podsOf(store, uid);
      assertThat(owned).hasSize(4).allSatisfy(p -> assertThat(p.metadata().controllerRef().kind())
          .isEqualTo("ReplicationController"));
      ReplicationController after = store.require(ReplicationController.class, "ns", "foobar");
      assertThat(after.status().replicas()).isEqualTo(4);
      assertThat(after.status().fullyLabeledReplicas()).isEqualTo(2);

      store.update(after.withSpec(after.spec().withReplicas(5)));
      m.runUntilIdle();
      assertThat(Sim.podsOf(store, uid)).hasSize(5);
      assertThat(store.require(ReplicationController.class, "ns", "foobar").status().fullyLabeledReplicas())
          .isEqualTo(3);
    }
  }

  @Test
  void podDeleted_isReplaced() {
    try (ObjectStore store = Sim.store(clock); ReplicationManager m = manager(store)) {
      String uid = store.create(rc(2)).metadata().uid();
      m.runUntilIdle();
      Pod victim = Sim.podsOf(store, uid).get(0);
      store.delete(Pod.class, "ns", victim.metadata().name());
      m.runUntilIdle();
      assertThat(Sim.podsOf(store, uid)).hasSize(2).noneMatch(p -> p.metadata().name()
          .equals(victim.metadata().name()));
    }
  }
}
