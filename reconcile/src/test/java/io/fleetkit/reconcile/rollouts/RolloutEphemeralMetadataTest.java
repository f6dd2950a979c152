package io.fleetkit.reconcile.rollouts;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.rollouts.PodTemplateMetadata;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.rollouts.BlueGreenStrategy;
import io.fleetkit.api.rollouts.CanaryStrategy;
import io.fleetkit.api.rollouts.Rollout;
import io.fleetkit.api.rollouts.RolloutStatus;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Ephemeral metadata: the labels of a role on the ReplicaSets' pod templates and on their pods, moved when the roles
 * change. Cases of argo-rollouts {@code rollout/ephemeralmetadata_test.go} (commit 9f8d111d):
 * TestSyncCanaryEphemeralMetadataInitialRevision, TestSyncBlueGreenEphemeralMetadataInitialRevision,
 * TestSyncCanaryEphemeralMetadataSecondRevision, TestSyncBlueGreenEphemeralMetadataSecondRevision,
 * TestSyncCanaryEphemeralMetadataReplicaSetAlreadyPatched, TestSyncBlueGreenEphemeralMetadataReplicaSetAlreadyPatched,
 * TestReconcileEphemeralMetadataSkipsWhenNotConfigured (nothing changes; the store does not count pod lists) and
 * TestSyncEphemeralMetadataSkipsPodListOnZeroReplicaRS (a scaled-down ReplicaSet's pods are left alone). The
 * ReplicaSets' templates and the pods in the store are checked, not the fake client's actions.
 */
final class RolloutEphemeralMetadataTest extends RolloutControllerFixture {
  private static final PodTemplateMetadata CANARY = PodTemplateMetadata.ofLabels(Map.of("role", "canary"));
  private static final PodTemplateMetadata STABLE = PodTemplateMetadata.ofLabels(Map.of("role", "stable"));
  private static final PodTemplateMetadata PREVIEW = PodTemplateMetadata.ofLabels(Map.of("role", "preview"));
  private static final PodTemplateMetadata ACTIVE = PodTemplateMetadata.ofLabels(Map.of("role", "active"));

  private static Rollout basicCanary(String image, int replicas, @Nullable PodTemplateMetadata canary,
      @Nullable PodTemplateMetadata stable) {
    return canary(image, replicas, c -> new CanaryStrategy(List.of(), IntOrPercent.of(1), IntOrPercent.of(1), null,
        null, null, null, false, null, null).withEphemeralMetadata(canary, stable));
  }

  private Pod pod(String name, ReplicaSet owner, Map<String, String> labels) {
    return store.create(Pod.builder().metadata(ObjectMeta.builder().namespace("default").name(name)
        .labels(labels).ownerReference(OwnerReference.controllerOf(owner)).build())
        .spec(owner.spec().template().spec()).build());
  }

  private Map<String, String> podLabels(String name) {
    return store.require(Pod.class, "default", name).metadata().labels();
  }

  private Map<String, String> templateLabels(Rollout r) {
    return rs(r).spec().template().metadata().labels();
  }

  /** TestSyncCanaryEphemeralMetadataInitialRevision: the first ReplicaSet is created with the stable metadata. */
  @Test
  void canary_firstRevision_createdWithStableMetadata() {
    Rollout r1 = basicCanary("web:1", 1, CANARY, STABLE);
    store.create(r1);
    rc.runUntilIdle();
    assertThat(templateLabels(r1)).isEqualTo(Map.of("foo", "bar", "role", "stable",
        Rollout.POD_TEMPLATE_HASH_LABEL, hash(r1)));
  }

  /** TestSyncBlueGreenEphemeralMetadataInitialRevision: the first ReplicaSet gets the active metadata. */
  @Test
  void blueGreen_firstRevision_createdWithActiveMetadata() {
    Rollout r1 = blueGreen("web:1", b -> BlueGreenStrategy.of("active", "preview").withEphemeralMetadata(ACTIVE,
        PREVIEW));
    service("active", hash(r1));
    service("preview", hash(r1));
    store.create(r1);
    rc.runUntilIdle();
    assertThat(templateLabels(r1)).isEqualTo(Map.of("foo", "bar", "role", "active",
        Rollout.POD_TEMPLATE_HASH_LABEL, hash(r1)));
  }

  /**
   * TestSyncCanaryEphemeralMetadataSecondRevision: the new version's ReplicaSet gets the canary metadata, the stable
   * one and its pods the stable metadata.
   */
  @Test
  void canary_secondRevision_canaryAndStableMetadata_podsPatched() {
    Rollout r1 = basicCanary("web:1", 1, CANARY, STABLE);
    Rollout r2 = basicCanary("web:2", 1, CANARY, STABLE);
    ReplicaSet rs1 = replicaSet(r1, 3, 3, null);
    Map<String, String> podLabels = Map.of("foo", "bar", Rollout.POD_TEMPLATE_HASH_LABEL, hash(r1));
    pod("foo-abc123", rs1, podLabels);
    pod("foo-abc456", rs1, podLabels);
    rollout(r2, RolloutStatus.builder().currentPodHash(hash(r1)).stableRs(hash(r1)));
    rc.runUntilIdle();
    assertThat(templateLabels(r2)).isEqualTo(Map.of("foo", "bar", "role", "canary",
        Rollout.POD_TEMPLATE_HASH_LABEL, hash(r2)));
    Map<String, String> stableLabels = Map.of("foo", "bar", "role", "stable", Rollout.POD_TEMPLATE_HASH_LABEL,
        hash(r1));
    assertThat(templateLabels(r1)).isEqualTo(stableLabels);
    assertThat(podLabels("foo-abc123")).isEqualTo(stableLabels);
    assertThat(podLabels("foo-abc456")).isEqualTo(stableLabels);
    assertThat(rs(r1).metadata().annotations()).containsEntry("rollout.argoproj.io/ephemeral-metadata",
        "{\"labels\":{\"role\":\"stable\"}}");
  }

  /** TestSyncBlueGreenEphemeralMetadataSecondRevision: preview metadata on the new, active on the stable. */
  @Test
  void blueGreen_secondRevision_previewAndActiveMetadata_podsPatched() {
    UnaryOperator<BlueGreenStrategy> bg = b -> BlueGreenStrategy.of("active", "preview")
        .withAutoPromotion(false, 0).withEphemeralMetadata(ACTIVE, PREVIEW);
    Rollout r1 = blueGreen("web:1", bg);
    Rollout r2 = blueGreen("web:2", bg);
    ReplicaSet rs1 = replicaSet(r1, 1, 1, null);
    Map<String, String> podLabels = Map.of("foo", "bar", Rollout.POD_TEMPLATE_HASH_LABEL, hash(r1));
    pod("foo-abc123", rs1, podLabels);
    pod("foo-abc456", rs1, podLabels);
    service("active", hash(r1));
    service("preview", hash(r1));
    rollout(r2, RolloutStatus.builder().currentPodHash(hash(r1)).stableRs(hash(r1)).activeSelector(hash(r1)));
    rc.runUntilIdle();
    assertThat(templateLabels(r2)).isEqualTo(Map.of("foo", "bar", "role", "preview",
        Rollout.POD_TEMPLATE_HASH_LABEL, hash(r2)));
    Map<String, String> activeLabels = Map.of("foo", "bar", "role", "active", Rollout.POD_TEMPLATE_HASH_LABEL,
        hash(r1));
    assertThat(templateLabels(r1)).isEqualTo(activeLabels);
    assertThat(podLabels("foo-abc123")).isEqualTo(activeLabels);
    assertThat(podLabels("foo-abc456")).isEqualTo(activeLabels);
  }

  /**
   * TestSyncCanaryEphemeralMetadataReplicaSetAlreadyPatched: the ReplicaSet already carries the label (no record of
   * it), so it is left as it is; the pod without it is patched, the pod with it is not.
   */
  @Test
  void canary_replicaSetAlreadyPatched_podsStillPatched() {
    Rollout r1 = basicCanary("web:1", 3, CANARY, STABLE);
    ReplicaSet rs1 = replicaSet(r1, 3, 3, null);
    ReplicaSet labelled = store.update(rs1.withSpec(new io.fleetkit.api.apps.ReplicaSetSpec(3, rs1.spec().selector(),
        new io.fleetkit.api.core.PodTemplateSpec(rs1.spec().template().metadata().toBuilder().label("role", "stable")
            .build(), rs1.spec().template().spec()), 0)));
    Pod p1 = pod("foo-abc123", labelled, Map.of("foo", "bar", "role", "stable", Rollout.POD_TEMPLATE_HASH_LABEL,
        hash(r1)));
    pod("foo-abc456", labelled, Map.of("foo", "bar", "role", "canary", Rollout.POD_TEMPLATE_HASH_LABEL, hash(r1)));
    rollout(r1, RolloutStatus.builder().currentPodHash(hash(r1)).stableRs(hash(r1)));
    rc.runUntilIdle();
    // the ReplicaSet is not updated for its metadata (it is adopted, which adds an owner reference only)
    assertThat(rs(r1).spec().template()).isEqualTo(labelled.spec().template());
    assertThat(rs(r1).metadata().annotations()).doesNotContainKey("rollout.argoproj.io/ephemeral-metadata");
    assertThat(store.require(Pod.class, "default", "foo-abc123").metadata().resourceVersion())
        .as("pod1 not updated").isEqualTo(p1.metadata().resourceVersion());
    assertThat(podLabels("foo-abc456")).isEqualTo(Map.of("foo", "bar", "role", "stable",
        Rollout.POD_TEMPLATE_HASH_LABEL, hash(r1)));
  }

  /** TestSyncBlueGreenEphemeralMetadataReplicaSetAlreadyPatched: the same for the active metadata. */
  @Test
  void blueGreen_replicaSetAlreadyPatched_podsStillPatched() {
    Rollout r1 = blueGreen("web:1", b -> BlueGreenStrategy.of("active", "preview").withEphemeralMetadata(ACTIVE,
        PREVIEW));
    ReplicaSet rs1 = replicaSet(r1, 1, 1, null);
    ReplicaSet labelled = store.update(rs1.withSpec(new io.fleetkit.api.apps.ReplicaSetSpec(1, rs1.spec().selector(),
        new io.fleetkit.api.core.PodTemplateSpec(rs1.spec().template().metadata().toBuilder().label("role", "active")
            .build(), rs1.spec().template().spec()), 0)));
    pod("foo-abc456", labelled, Map.of("foo", "bar", "role", "preview", Rollout.POD_TEMPLATE_HASH_LABEL, hash(r1)));
    service("active", hash(r1));
    service("preview", hash(r1));
    rollout(r1, RolloutStatus.builder().currentPodHash(hash(r1)).stableRs(hash(r1)).activeSelector(hash(r1)));
    rc.runUntilIdle();
    assertThat(podLabels("foo-abc456")).containsEntry("role", "active");
  }

  /** TestReconcileEphemeralMetadataSkipsWhenNotConfigured: without ephemeral metadata nothing is touched. */
  @Test
  void notConfigured_nothingTouched() {
    Rollout r1 = basicCanary("web:1", 1, null, null);
    ReplicaSet rs1 = replicaSet(r1, 1, 1, null);
    Pod p = pod("foo-abc123", rs1, Map.of("foo", "bar", "role", "x", Rollout.POD_TEMPLATE_HASH_LABEL, hash(r1)));
    rollout(r1, RolloutStatus.builder().currentPodHash(hash(r1)).stableRs(hash(r1)));
    rc.runUntilIdle();
    assertThat(store.require(Pod.class, "default", "foo-abc123")).isEqualTo(p);
    assertThat(rs(r1).metadata().annotations()).doesNotContainKey("rollout.argoproj.io/ephemeral-metadata");
  }

  /**
   * TestSyncEphemeralMetadataSkipsPodListOnZeroReplicaRS, and the roles moving: after the update completes the new
   * version carries the stable metadata (its pods patched), the old one, scaled to 0, loses the injected label on its
   * template while its leftover pod is left alone.
   */
  @Test
  void rolesMove_whenPromoted_oldScaledDownReplicaSetCleaned_itsPodsLeftAlone() {
    Rollout r1 = basicCanary("web:1", 1, CANARY, STABLE);
    Rollout r2 = basicCanary("web:2", 1, CANARY, STABLE);
    ReplicaSet rs1 = replicaSet(r1, 0, 0, null);
    store.update(EphemeralMetadataAccess.inject(rs(r1), STABLE));
    Pod old = pod("foo-old", rs1, Map.of("foo", "bar", "role", "stable", Rollout.POD_TEMPLATE_HASH_LABEL, hash(r1)));
    ReplicaSet rs2 = replicaSet(r2, 1, 1, null);
    store.update(EphemeralMetadataAccess.inject(rs(r2), CANARY));
    pod("foo-new", rs2, Map.of("foo", "bar", "role", "canary", Rollout.POD_TEMPLATE_HASH_LABEL, hash(r2)));
    rollout(r2, RolloutStatus.builder().currentPodHash(hash(r2)).stableRs(hash(r2)));
    rc.runUntilIdle();
    assertThat(templateLabels(r2)).containsEntry("role", "stable");
    assertThat(podLabels("foo-new")).containsEntry("role", "stable");
    assertThat(templateLabels(r1)).doesNotContainKey("role");
    assertThat(rs(r1).metadata().annotations()).doesNotContainKey("rollout.argoproj.io/ephemeral-metadata");
    assertThat(store.require(Pod.class, "default", "foo-old").metadata().resourceVersion())
        .isEqualTo(old.metadata().resourceVersion());
  }
}
