package io.fleetkit.reconcile.rollouts.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.apps.ReplicaSetSpec;
import io.fleetkit.api.apps.ReplicaSetStatus;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.rollouts.Rollout;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.reconcile.controllers.internal.TemplateHash;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Which owned ReplicaSet is a rollout's new one ({@link RolloutSync#findNew}), as argo-rollouts
 * {@code utils/replicaset/replicaset.go} {@code FindNewReplicaSet}: by the hash label first, then by pod template
 * equality (preferring the ReplicaSet {@code status.currentPodHash} names), so that a ReplicaSet whose hash was
 * computed by another hashing is adopted rather than replaced by an unwarranted rollout. The first two tests are the
 * cases of {@code utils/replicaset/replicaset_test.go} TestFindNewReplicaSet ("by hash", "by deprecated hash": a
 * label of another algorithm on an equal template); the others check the preference and the order upstream's code
 * gives, which its test of that version does not cover.
 */
final class RolloutNewReplicaSetTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = RolloutReplicaSetClaimTest.store(clock);

  private Rollout rollout(String image, String currentPodHash) {
    Rollout r = Rollout.builder().namespace("default").name("red").replicas(1).matchLabels(Map.of("app", "red"))
        .podSpec(PodSpec.builder().container("app", image, ResourceList.EMPTY).build()).build();
    Rollout created = store.create(r);
    if (currentPodHash.isEmpty()) {
      return created;
    }
    return store.updateStatus(created.withStatus(created.status().toBuilder().currentPodHash(currentPodHash).build()));
  }

  /** A ReplicaSet of {@code r} with the hash label {@code hash} over {@code r}'s template as it is (or {@code image}). */
  private ReplicaSet rs(Rollout r, String hash, String image) {
    PodTemplateSpec t = r.spec().template();
    Map<String, String> labels = new HashMap<>(t.metadata().labels());
    labels.put(Rollout.POD_TEMPLATE_HASH_LABEL, hash);
    PodSpec spec = image.isEmpty() ? t.spec()
        : PodSpec.builder().container("app", image, ResourceList.EMPTY).build();
    PodTemplateSpec tpl = new PodTemplateSpec(t.metadata().toBuilder().labels(labels).build(), spec);
    Map<String, String> match = new HashMap<>(r.spec().selector().matchLabels());
    match.put(Rollout.POD_TEMPLATE_HASH_LABEL, hash);
    ReplicaSet rs = new ReplicaSet(ObjectMeta.builder().namespace("default").name("red-" + hash).labels(labels)
        .ownerReference(OwnerReference.controllerOf(r)).build(),
        new ReplicaSetSpec(1, new LabelSelector(match, List.of()), tpl, 0), ReplicaSetStatus.EMPTY);
    ReplicaSet created = store.create(rs);
    clock.advance(Duration.ofSeconds(1));
    return created;
  }

  private static String hashOf(Rollout r) {
    return TemplateHash.compute(r.spec().template(), null);
  }

  /** TestFindNewReplicaSet, "FindNewReplicaSet by hash". */
  @Test
  void byHash() {
    Rollout r = rollout("nginx:1", "");
    ReplicaSet rs1 = rs(r, hashOf(r), "");
    assertThat(RolloutSync.findNew(r, hashOf(r), List.of(rs1))).isEqualTo(rs1);
  }

  /**
   * TestFindNewReplicaSet, "FindNewReplicaSet by deprecated hash": the ReplicaSet's label was computed by another
   * hashing; its template is the rollout's, so it is the new one, and a sync adopts it: no ReplicaSet is created and
   * the sync's hash is that label.
   */
  @Test
  void byAnotherHashingsLabel_templateEqual_adopted() {
    Rollout r = rollout("nginx:1", "");
    ReplicaSet old = rs(r, "5d9f7c8b6", "");
    assertThat(hashOf(r)).isNotEqualTo("5d9f7c8b6");
    assertThat(RolloutSync.findNew(r, hashOf(r), List.of(old))).isEqualTo(old);
    RolloutSync s = new RolloutSync(store, r, clock.instant(), hashOf(r), List.of(old));
    assertThat(s.newRs.metadata().name()).isEqualTo("red-5d9f7c8b6");
    assertThat(s.hash).isEqualTo("5d9f7c8b6");
    assertThat(store.list(ReplicaSet.class, "default").items()).hasSize(1);
  }

  /** Two twins with the rollout's template: the one {@code status.currentPodHash} names wins over the older. */
  @Test
  void twins_currentPodHashPreferredOverTheOldest() {
    Rollout r = rollout("nginx:1", "bbbbbbbbb");
    ReplicaSet older = rs(r, "aaaaaaaaa", "");
    ReplicaSet recorded = rs(r, "bbbbbbbbb", "");
    assertThat(RolloutSync.findNew(r, hashOf(r), List.of(recorded, older))).isEqualTo(recorded);
  }

  /** Without a usable {@code status.currentPodHash}, the oldest twin is taken, as the Deployment controller does. */
  @Test
  void twins_noRecord_theOldest() {
    Rollout r = rollout("nginx:1", "");
    ReplicaSet older = rs(r, "aaaaaaaaa", "");
    ReplicaSet newer = rs(r, "bbbbbbbbb", "");
    assertThat(RolloutSync.findNew(r, hashOf(r), List.of(newer, older))).isEqualTo(older);
  }

  /**
   * A genuine template change: the ReplicaSet {@code status.currentPodHash} names runs the old image, so nothing
   * matches and the sync creates the new ReplicaSet under the computed hash.
   */
  @Test
  void templateChanged_noMatch_newReplicaSetCreated() {
    Rollout r = rollout("nginx:2", "aaaaaaaaa");
    ReplicaSet old = rs(r, "aaaaaaaaa", "nginx:1");
    assertThat(RolloutSync.findNew(r, hashOf(r), List.of(old))).isNull();
    RolloutSync s = new RolloutSync(store, r, clock.instant(), hashOf(r), List.of(old));
    assertThat(s.hash).isEqualTo(hashOf(r));
    assertThat(s.newRs.metadata().name()).isEqualTo("red-" + hashOf(r));
    assertThat(store.list(ReplicaSet.class, "default").items()).hasSize(2);
  }
}
