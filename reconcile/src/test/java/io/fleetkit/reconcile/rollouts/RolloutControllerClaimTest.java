package io.fleetkit.reconcile.rollouts;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.rollouts.BlueGreenStrategy;
import io.fleetkit.api.rollouts.Rollout;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.reconcile.Controller;
import io.fleetkit.reconcile.ObjectKey;
import io.fleetkit.reconcile.controllers.internal.TemplateHash;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The rollout controller adopts and releases ReplicaSets through the shared claim and is woken by orphan
 * ReplicaSets (stepping mode, no ReplicaSet controller: only the ReplicaSets' ownership and replicas are looked at).
 */
final class RolloutControllerClaimTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = store(clock);
  private final RolloutController rc = RolloutController.builder(store).clock(clock).stepping().build();

  RolloutControllerClaimTest() {
    rc.start().join();
  }

  @AfterEach
  void close() {
    rc.close();
    store.close();
  }

  static ObjectStore store(ManualClock clock) {
    AtomicLong uids = new AtomicLong();
    return ObjectStore.builder().directDelivery().clock(clock.asClock())
        .uidGenerator(() -> String.format("uid-%06d", uids.incrementAndGet())).build();
  }

  private static PodSpec podSpec(String image) {
    return PodSpec.builder().container("app", image, ResourceList.EMPTY).build();
  }

  private static Rollout blueGreen(String name) {
    return Rollout.builder().namespace("default").name(name).replicas(1).matchLabels(Map.of("app", "web"))
        .podSpec(podSpec("web:1")).blueGreen(BlueGreenStrategy.of("active", "preview")).build();
  }

  /** Upstream's {@code newReplicaSet(r, replicas)}: {@code NAME-HASH}, the selector's labels and the hash label. */
  private static ReplicaSet.Builder replicaSetOf(Rollout r, int replicas) {
    String hash = TemplateHash.compute(r.spec().template(), null);
    ReplicaSet.Builder b = ReplicaSet.builder().namespace("default").name(r.metadata().name() + "-" + hash)
        .replicas(replicas).matchLabels(Map.of("app", "web", Rollout.POD_TEMPLATE_HASH_LABEL, hash))
        .podSpec(r.spec().template().spec());
    b.label("app", "web").label(Rollout.POD_TEMPLATE_HASH_LABEL, hash);
    return b;
  }

  private List<ReplicaSet> replicaSets() {
    return store.list(ReplicaSet.class, "default").items();
  }

  private static List<ObjectKey> drain(Controller<?> c) {
    List<ObjectKey> keys = new ArrayList<>();
    for (var k = c.queue().poll(); k.isPresent(); k = c.queue().poll()) {
      keys.add(k.get());
      c.queue().done(k.get());
    }
    return keys;
  }

  /**
   * argo-rollouts {@code rollout/controller_test.go} TestAdoptReplicaSet (commit 9f8d111d): the ReplicaSet of the
   * rollout's template exists (controlled by it) before the rollout's first sync; the sync takes it as the new
   * ReplicaSet instead of creating one. Upstream's Progressing condition (FoundNewRS) is not modelled; the phase is
   * checked instead. The Services are not created (upstream patches the preview Service; here a missing Service is
   * left alone).
   */
  @Test
  void firstSync_existingReplicaSetOfTemplate_isTakenAsTheNewOne() {
    Rollout r = store.create(blueGreen("foo"));
    ReplicaSet rs = store.create(replicaSetOf(r, 1).ownerReference(OwnerReference.controllerOf(r)).build());
    rc.runUntilIdle();
    assertThat(replicaSets()).extracting(x -> x.metadata().uid()).containsExactly(rs.metadata().uid());
    Rollout after = store.require(Rollout.class, "default", "foo");
    assertThat(after.status().currentPodHash()).isEqualTo(TemplateHash.compute(r.spec().template(), null));
    assertThat(after.status().stableRs()).isEqualTo(after.status().currentPodHash());
  }

  /** The same with the ReplicaSet an orphan: the rollout adopts it rather than creating another. */
  @Test
  void firstSync_orphanReplicaSetOfTemplate_isAdoptedAsTheNewOne() {
    Rollout r = store.create(blueGreen("foo"));
    ReplicaSet orphan = store.create(replicaSetOf(r, 1).build());
    rc.runUntilIdle();
    List<ReplicaSet> sets = replicaSets();
    assertThat(sets).extracting(x -> x.metadata().uid()).containsExactly(orphan.metadata().uid());
    OwnerReference ref = sets.get(0).metadata().controllerRef();
    assertThat(ref).isNotNull();
    assertThat(ref.uid()).isEqualTo(r.metadata().uid());
    assertThat(ref.kind()).isEqualTo(Rollout.KIND);
  }

  /** An orphan ReplicaSet appearing later wakes the rollouts whose selector matches it, and only those. */
  @Test
  void orphanReplicaSetAdded_matchingRollout_isWokenAndAdoptsIt() {
    store.create(blueGreen("foo"));
    store.create(Rollout.builder().namespace("default").name("other").replicas(1).matchLabels(Map.of("app", "db"))
        .podSpec(podSpec("db:1")).blueGreen(BlueGreenStrategy.of("db-active", null)).build());
    rc.runUntilIdle();
    assertThat(drain(rc.controller())).isEmpty();
    ReplicaSet orphan = store.create(ReplicaSet.builder().namespace("default").name("leftover").label("app", "web")
        .replicas(0).matchLabels(Map.of("app", "web")).podSpec(podSpec("web:0")).build());
    assertThat(drain(rc.controller())).containsExactly(ObjectKey.of("default", "foo"));
    rc.controller().enqueue(ObjectKey.of("default", "foo"));
    rc.runUntilIdle();
    ReplicaSet adopted = store.require(ReplicaSet.class, "default", "leftover");
    assertThat(adopted.metadata().controllerRef()).isNotNull();
    assertThat(adopted.metadata().controllerRef().uid())
        .isEqualTo(store.require(Rollout.class, "default", "foo").metadata().uid());
    assertThat(orphan.metadata().controllerRef()).isNull();
  }

  /** An orphan no rollout selects wakes none. */
  @Test
  void orphanReplicaSetAdded_noMatchingRollout_wakesNothing() {
    store.create(blueGreen("foo"));
    rc.runUntilIdle();
    store.create(ReplicaSet.builder().namespace("default").name("cache").label("app", "cache").replicas(0)
        .matchLabels(Map.of("app", "cache")).podSpec(podSpec("cache:1")).build());
    assertThat(drain(rc.controller())).isEmpty();
    rc.runUntilIdle();
    assertThat(store.require(ReplicaSet.class, "default", "cache").metadata().controllerRef()).isNull();
  }

  /**
   * A controlled ReplicaSet whose labels stop matching is released in the rollout's next sync (its label change
   * wakes the rollout through the controller reference), and the rollout goes on with its own ReplicaSet.
   */
  @Test
  void ownedReplicaSetRelabelled_isReleased() {
    store.create(blueGreen("foo"));
    rc.runUntilIdle();
    ReplicaSet mine = replicaSets().get(0);
    assertThat(mine.metadata().controllerRef()).isNotNull();
    ReplicaSet extra = store.create(ReplicaSet.builder().namespace("default").name("extra").label("app", "web")
        .replicas(0).matchLabels(Map.of("app", "web")).podSpec(podSpec("web:0")).build());
    rc.runUntilIdle();
    assertThat(store.require(ReplicaSet.class, "default", "extra").metadata().controllerRef()).isNotNull();
    extra = store.require(ReplicaSet.class, "default", "extra");
    ObjectMeta relabelled = extra.metadata().toBuilder().labels(Map.of("app", "web-debug")).build();
    store.update(extra.withMetadata(relabelled));
    rc.runUntilIdle();
    assertThat(store.require(ReplicaSet.class, "default", "extra").metadata().ownerReferences()).isEmpty();
    assertThat(store.require(ReplicaSet.class, "default", mine.metadata().name()).metadata().controllerRef())
        .isNotNull();
  }
}
