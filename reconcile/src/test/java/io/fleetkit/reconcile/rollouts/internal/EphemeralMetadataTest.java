package io.fleetkit.reconcile.rollouts.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.rollouts.PodTemplateMetadata;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The ephemeral metadata helpers, ported from argo-rollouts {@code utils/replicaset/canary_test.go} (commit
 * 9f8d111d): TestSyncEphemeralPodMetadata 3/3 subtests, TestSyncReplicaSetEphemeralPodMetadata 3/3 blocks and
 * TestParseExistingPodMetadata 4/4. A ReplicaSet here needs a selector its template matches, so every template also
 * carries {@code app: web}, left out of the comparisons.
 */
final class EphemeralMetadataTest {
  private static final ObjectMeta META = ObjectMeta.builder()
      .labels(Map.of("aaa", "111", "do-not", "touch", "bbb", "222"))
      .annotations(Map.of("ccc", "333", "do-not", "touch", "ddd", "444")).build();
  private static final PodTemplateMetadata EXISTING = new PodTemplateMetadata(Map.of("aaa", "111", "bbb", "222"),
      Map.of("ccc", "333", "ddd", "444"));

  @Test
  void syncMetadata_noChanges_sameObject() {
    assertThat(EphemeralMetadata.syncMetadata(META, EXISTING, EXISTING)).isSameAs(META);
  }

  @Test
  void syncMetadata_noActualDeletions_sameObject() {
    Map<String, String> labels = new HashMap<>(EXISTING.labels());
    labels.put("foo", "bar");
    PodTemplateMetadata extra = new PodTemplateMetadata(labels, EXISTING.annotations());
    assertThat(EphemeralMetadata.syncMetadata(META, extra, EXISTING)).isSameAs(META);
  }

  @Test
  void syncMetadata_metadataNotInjectedByUs_untouched() {
    PodTemplateMetadata desired = new PodTemplateMetadata(Map.of("aaa", "222"), Map.of("ccc", "444"));
    ObjectMeta out = EphemeralMetadata.syncMetadata(META, EXISTING, desired);
    assertThat(out).isNotSameAs(META);
    assertThat(out.labels()).isEqualTo(Map.of("aaa", "222", "do-not", "touch"));
    assertThat(out.annotations()).isEqualTo(Map.of("ccc", "444", "do-not", "touch"));
  }

  private static ReplicaSet rs(Map<String, String> annotations, Map<String, String> templateLabels,
      Map<String, String> templateAnnotations) {
    Map<String, String> labels = new HashMap<>(templateLabels);
    labels.put("app", "web");
    return ReplicaSet.builder().metadata(ObjectMeta.builder().namespace("default").name("guestbook")
            .annotations(annotations).build()).replicas(1).matchLabels(Map.of("app", "web"))
        .template(new PodTemplateSpec(ObjectMeta.builder().labels(labels).annotations(templateAnnotations).build(),
            PodSpec.builder().container("app", "web:1", ResourceList.EMPTY).build())).build();
  }

  private static Map<String, String> labelsWithoutApp(ReplicaSet rs) {
    Map<String, String> m = new HashMap<>(rs.spec().template().metadata().labels());
    m.remove("app");
    return m;
  }

  @Test
  void syncReplicaSet_TestSyncReplicaSetEphemeralPodMetadata() {
    ReplicaSet rs = rs(Map.of(EphemeralMetadata.ANNOTATION,
        "{\"labels\":{\"aaa\":\"111\",\"bbb\":\"222\"},\"annotations\":{\"ccc\":\"333\",\"ddd\":\"444\"}}"),
        Map.of("aaa", "111", "bbb", "222"), Map.of("ccc", "333", "ddd", "444"));
    // applying the same pod metadata is a no-op
    assertThat(EphemeralMetadata.syncReplicaSet(rs, EXISTING)).isSameAs(rs);
    // a new update
    PodTemplateMetadata update = new PodTemplateMetadata(Map.of("aaa", "111"), Map.of("ccc", "333"));
    ReplicaSet updated = EphemeralMetadata.syncReplicaSet(rs, update);
    assertThat(updated).isNotSameAs(rs);
    assertThat(labelsWithoutApp(updated)).isEqualTo(update.labels());
    assertThat(updated.spec().template().metadata().annotations()).isEqualTo(update.annotations());
    assertThat(updated.metadata().annotations().get(EphemeralMetadata.ANNOTATION))
        .isEqualTo("{\"labels\":{\"aaa\":\"111\"},\"annotations\":{\"ccc\":\"333\"}}");
    // removing the metadata
    ReplicaSet removed = EphemeralMetadata.syncReplicaSet(rs, null);
    assertThat(labelsWithoutApp(removed)).isEmpty();
    assertThat(removed.spec().template().metadata().annotations()).isEmpty();
    assertThat(removed.metadata().annotations()).doesNotContainKey(EphemeralMetadata.ANNOTATION);
  }

  private static @Nullable PodTemplateMetadata parse(Map<String, String> annotations) {
    return EphemeralMetadata.existing(rs(annotations, Map.of(), Map.of()));
  }

  @Test
  void existing_TestParseExistingPodMetadata() {
    assertThat(parse(Map.of())).as("no metadata").isNull();
    assertThat(parse(Map.of("foo", "bar"))).as("no ephemeral metadata key").isNull();
    assertThat(parse(Map.of(EphemeralMetadata.ANNOTATION, "foo"))).as("invalid ephemeral metadata").isNull();
    assertThat(parse(Map.of(EphemeralMetadata.ANNOTATION,
        "{\"labels\":{\"foo\":\"bar\"},\"annotations\":{\"bar\":\"baz\"}}"))).as("valid ephemeral metadata")
        .isEqualTo(new PodTemplateMetadata(Map.of("foo", "bar"), Map.of("bar", "baz")));
  }

  @Test
  void withoutInjected_templateComparedWithoutTheMetadata() {
    ReplicaSet rs = rs(Map.of(EphemeralMetadata.ANNOTATION, "{\"labels\":{\"role\":\"canary\"}}"),
        Map.of("role", "canary"), Map.of());
    assertThat(EphemeralMetadata.withoutInjected(rs).metadata().labels()).isEqualTo(Map.of("app", "web"));
  }
}
