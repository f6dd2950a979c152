package io.fleetkit.reconcile.rollouts.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.rollouts.Rollout;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.reconcile.controllers.internal.ControllerRefManager;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The rollout controller's claim of ReplicaSets ({@link RolloutReconciler#claimReplicaSets}, Argo's
 * {@code getReplicaSetsForRollouts} over the shared {@link ControllerRefManager}). The first five tests are the
 * cases of argo-rollouts {@code rollout/replicaset_test.go} TestGetReplicaSetsForRollouts (commit 9f8d111d): rollout
 * {@code foo} and {@code bar} both select {@code app=nginx}; the claimed ReplicaSets are compared by name, in order,
 * as upstream does, and the store is checked to show the claim (upstream's fake clientset is not inspected).
 */
final class RolloutReplicaSetClaimTest {
  private static final Map<String, String> SELECTOR = Map.of("app", "nginx");
  private static final Map<String, String> DIFF_SELECTOR = Map.of("app", "nginx2");

  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = store(clock);
  private final Rollout rollout = store.create(rollout("foo"));
  /** Upstream's {@code diffRollout}: another rollout with the same selector (not in upstream's store either). */
  private final OwnerReference diffRollout = new OwnerReference(Rollout.API_VERSION, Rollout.KIND, "bar",
      "uid-bar", true, true);

  static ObjectStore store(ManualClock clock) {
    AtomicLong uids = new AtomicLong();
    return ObjectStore.builder().directDelivery().clock(clock.asClock())
        .uidGenerator(() -> String.format("uid-%06d", uids.incrementAndGet())).build();
  }

  static Rollout rollout(String name) {
    return Rollout.builder().namespace("default").name(name).replicas(1).matchLabels(SELECTOR)
        .podSpec(PodSpec.builder().container("app", "nginx:1", ResourceList.EMPTY).build()).build();
  }

  /**
   * Upstream's {@code rs(name, 1, labels, ts, ownerRef)}: metadata labels {@code labels} (none for null); the spec's
   * selector and template carry {@code labels}, or {@code app=other} for null, since FleetKit refuses a ReplicaSet
   * with an empty selector.
   */
  private ReplicaSet rs(String name, @Nullable Map<String, String> labels, @Nullable OwnerReference owner) {
    ReplicaSet.Builder b = ReplicaSet.builder().namespace("default").name(name).replicas(1)
        .matchLabels(labels == null ? Map.of("app", "other") : labels)
        .podSpec(PodSpec.builder().container("app", "nginx:0", ResourceList.EMPTY).build());
    if (labels != null) {
      labels.forEach(b::label);
    }
    if (owner != null) {
      b.ownerReference(owner);
    }
    return store.create(b.build());
  }

  private List<String> claimedNames() {
    ControllerRefManager.Claim<ReplicaSet> claim = RolloutReconciler.claimReplicaSets(store, rollout);
    assertThat(claim.errors()).isEmpty();
    return claim.claimed().stream().map(rs -> rs.metadata().name()).toList();
  }

  private @Nullable String controllerUid(String name) {
    OwnerReference ref = store.require(ReplicaSet.class, "default", name).metadata().controllerRef();
    return ref == null ? null : ref.uid();
  }

  /** "Grab corrected owned replicasets". */
  @Test
  void claim_ownedAndOthersReplicaSets_takesOnlyItsOwn() {
    rs("foo-v2", SELECTOR, OwnerReference.controllerOf(rollout));
    rs("foo-v1", SELECTOR, diffRollout);
    assertThat(claimedNames()).containsExactly("foo-v2");
    assertThat(controllerUid("foo-v1")).isEqualTo("uid-bar");
  }

  /** "Adopt orphaned replica sets". */
  @Test
  void claim_matchingOrphan_isAdopted() {
    rs("foo-v1", SELECTOR, null);
    assertThat(claimedNames()).containsExactly("foo-v1");
    assertThat(controllerUid("foo-v1")).isEqualTo(rollout.metadata().uid());
    OwnerReference ref = store.require(ReplicaSet.class, "default", "foo-v1").metadata().controllerRef();
    assertThat(ref.kind()).isEqualTo(Rollout.KIND);
    assertThat(ref.name()).isEqualTo("foo");
  }

  /** "No replica sets exist". */
  @Test
  void claim_noReplicaSets_claimsNothing() {
    assertThat(claimedNames()).isEmpty();
  }

  /** "No selector provided so no adoption": a ReplicaSet without labels, controlled by another rollout. */
  @Test
  void claim_unlabelledReplicaSetOfAnother_isLeftAlone() {
    rs("foo-v1", null, diffRollout);
    assertThat(claimedNames()).isEmpty();
    assertThat(controllerUid("foo-v1")).isEqualTo("uid-bar");
  }

  /** "Orphan RS with different selector" (upstream's is controlled by {@code bar} despite its name). */
  @Test
  void claim_otherSelectorReplicaSetOfAnother_isLeftAlone() {
    rs("foo-v1", DIFF_SELECTOR, diffRollout);
    assertThat(claimedNames()).isEmpty();
    assertThat(controllerUid("foo-v1")).isEqualTo("uid-bar");
  }

  // ---- beyond upstream's table: ClaimReplicaSets' other branches as the rollout controller meets them ----------

  @Test
  void claim_orphanWithOtherLabels_isNotAdopted() {
    rs("stray", DIFF_SELECTOR, null);
    assertThat(claimedNames()).isEmpty();
    assertThat(controllerUid("stray")).isNull();
  }

  @Test
  void claim_controlledReplicaSetThatStopsMatching_isReleased() {
    rs("foo-old", DIFF_SELECTOR, OwnerReference.controllerOf(rollout));
    assertThat(claimedNames()).isEmpty();
    assertThat(store.require(ReplicaSet.class, "default", "foo-old").metadata().ownerReferences()).isEmpty();
  }

  @Test
  void claim_rolloutDeletedSinceItWasRead_refusesToAdopt() {
    rs("foo-v1", SELECTOR, null);
    store.delete(Rollout.class, "default", "foo");
    ControllerRefManager.Claim<ReplicaSet> claim = RolloutReconciler.claimReplicaSets(store, rollout);
    assertThat(claim.claimed()).isEmpty();
    assertThat(claim.failed()).isTrue();
    assertThat(claim.errors().get(0)).contains("foo-v1").contains("is gone");
    assertThat(controllerUid("foo-v1")).isNull();
  }

  @Test
  void claim_orphanInAnotherNamespace_isNotAdopted() {
    store.create(ReplicaSet.builder().namespace("other").name("foo-v1").label("app", "nginx").replicas(1)
        .matchLabels(SELECTOR).podSpec(PodSpec.builder().container("app", "nginx:0", ResourceList.EMPTY).build())
        .build());
    assertThat(claimedNames()).isEmpty();
    assertThat(store.require(ReplicaSet.class, "other", "foo-v1").metadata().controllerRef()).isNull();
  }

  @Test
  void claim_orphanBeingDeleted_isNotAdopted() {
    ReplicaSet rs = rs("foo-v1", SELECTOR, null);
    store.update(rs.withMetadata(rs.metadata().toBuilder().finalizer("example.com/hold").build()));
    store.delete(ReplicaSet.class, "default", "foo-v1");
    assertThat(store.require(ReplicaSet.class, "default", "foo-v1").metadata().deletionTimestamp())
        .isNotNull();
    assertThat(claimedNames()).isEmpty();
    assertThat(controllerUid("foo-v1")).isNull();
  }
}
