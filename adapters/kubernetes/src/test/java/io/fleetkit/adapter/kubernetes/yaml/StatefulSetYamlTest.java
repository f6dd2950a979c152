package io.fleetkit.adapter.kubernetes.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.apps.PersistentVolumeClaimRetentionPolicyType;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.apps.StatefulSetOrdinals;
import io.fleetkit.api.apps.StatefulSetPersistentVolumeClaimRetentionPolicy;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A StatefulSet's {@code persistentVolumeClaimRetentionPolicy} and {@code ordinals} through the loader: apps/v1's
 * defaults ({@code pkg/apis/apps/v1/defaults.go} {@code SetDefaults_StatefulSet}: an absent policy, or an empty
 * {@code whenDeleted}/{@code whenScaled}, is Retain; absent ordinals start at 0), the values read and written back,
 * and unknown values refused with the field named. The last test is kubernetes
 * {@code pkg/apis/apps/validation/validation_test.go} at commit afd5df58bd7dcb7b8c3f00e2065936bd0c508b77,
 * TestValidateStatefulSet "invalid PersistentVolumeClaimRetentionPolicy": both fields refused.
 */
final class StatefulSetYamlTest {
  private static final String HEAD = """
      apiVersion: apps/v1
      kind: StatefulSet
      metadata: {name: abc}
      spec:
        selector: {matchLabels: {a: b}}
        template:
          metadata: {labels: {a: b}}
          spec: {containers: [{name: abc, image: image}]}
      """;

  private static StatefulSet parse(String specLines) {
    return KubernetesYaml.parse(HEAD + specLines, "sts.yaml").ofType(StatefulSet.class).get(0);
  }

  @Test
  void parse_noPolicyNoOrdinals_retainAndZero() {
    StatefulSet s = parse("");
    assertThat(s.spec().persistentVolumeClaimRetentionPolicy())
        .isEqualTo(StatefulSetPersistentVolumeClaimRetentionPolicy.RETAIN);
    assertThat(s.spec().ordinals()).isEqualTo(StatefulSetOrdinals.DEFAULT);
    assertThat(KubernetesYaml.dump(List.of(s))).doesNotContain("persistentVolumeClaimRetentionPolicy")
        .doesNotContain("ordinals");
  }

  @Test
  void parse_emptyPolicyAndOrdinals_defaultedToRetainAndZero() {
    // upstream's "empty PersistentVolumeClaimRetentionPolicy" case fails validation of the internal type; a v1
    // manifest is defaulted first, so it reads as Retain/Retain
    StatefulSet s = parse("""
          persistentVolumeClaimRetentionPolicy: {}
          ordinals: {}
        """);
    assertThat(s.spec().persistentVolumeClaimRetentionPolicy())
        .isEqualTo(StatefulSetPersistentVolumeClaimRetentionPolicy.RETAIN);
    assertThat(s.spec().ordinals().start()).isZero();
  }

  @Test
  void parse_oneFieldSet_otherDefaultsToRetain() {
    StatefulSet s = parse("""
          persistentVolumeClaimRetentionPolicy: {whenScaled: Delete}
        """);
    assertThat(s.spec().persistentVolumeClaimRetentionPolicy().whenScaled())
        .isEqualTo(PersistentVolumeClaimRetentionPolicyType.Delete);
    assertThat(s.spec().persistentVolumeClaimRetentionPolicy().whenDeleted())
        .isEqualTo(PersistentVolumeClaimRetentionPolicyType.Retain);
  }

  @Test
  void dumpThenParse_deleteBothStartFive_sameObject() {
    StatefulSet s = parse("""
          replicas: 2
          persistentVolumeClaimRetentionPolicy: {whenDeleted: Delete, whenScaled: Delete}
          ordinals: {start: 5}
        """);
    assertThat(s.spec().persistentVolumeClaimRetentionPolicy()).isEqualTo(
        StatefulSetPersistentVolumeClaimRetentionPolicy.of(PersistentVolumeClaimRetentionPolicyType.Delete,
            PersistentVolumeClaimRetentionPolicyType.Delete));
    assertThat(s.spec().ordinals().start()).isEqualTo(5);
    String yaml = KubernetesYaml.dump(List.of(s));
    assertThat(yaml).contains("whenDeleted: \"Delete\"").contains("whenScaled: \"Delete\"").contains("start: 5");
    assertThat(KubernetesYaml.parse(yaml, "dumped").objects()).containsExactly(s);
  }

  @Test
  void parse_negativeStart_refusedNamingField() {
    ManifestException e = catchThrowableOfType(ManifestException.class, () -> parse("""
          ordinals: {start: -2}
        """));
    assertThat(e.problems()).extracting(p -> p.violation().toString()).containsExactly(
        "StatefulSet default/abc: spec.ordinals.start \"-2\" must be greater than or equal to 0");
  }

  @Test
  void parse_invalidPolicyValues_bothFieldsRefused() {
    ManifestException e = catchThrowableOfType(ManifestException.class, () -> parse("""
          persistentVolumeClaimRetentionPolicy:
            whenDeleted: invalid-retention-policy
            whenScaled: invalid-retention-policy
        """));
    assertThat(e.problems()).extracting(p -> p.violation().toString()).containsExactly(
        "StatefulSet default/abc: spec.persistentVolumeClaimRetentionPolicy.whenDeleted \"invalid-retention-policy\""
            + " must be one of Retain, Delete",
        "StatefulSet default/abc: spec.persistentVolumeClaimRetentionPolicy.whenScaled \"invalid-retention-policy\""
            + " must be one of Retain, Delete");
  }
}
