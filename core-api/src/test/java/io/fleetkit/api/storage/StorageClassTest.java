package io.fleetkit.api.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.core.PersistentVolumeReclaimPolicy;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class StorageClassTest {
  private static List<Violation> violations(Runnable r) {
    return catchThrowableOfType(ValidationException.class, r::run).violations();
  }

  @Test
  void of_defaults_deleteImmediateNoExpansion() {
    StorageClass sc = StorageClass.of(ObjectMeta.of("standard"), StorageClassSpec.of("ebs.csi.aws.com"));

    assertThat(sc.reclaimPolicy()).isEqualTo(PersistentVolumeReclaimPolicy.Delete);
    assertThat(sc.volumeBindingMode()).isEqualTo(VolumeBindingMode.Immediate);
    assertThat(sc.spec().allowVolumeExpansion()).isFalse();
    assertThat(sc.status()).isNull();
    assertThat(sc.apiVersion()).isEqualTo("storage.k8s.io/v1");
    assertThat(sc.namespaced()).isFalse();
  }

  @Test
  void constructor_recycleMissingProvisionerEmptyTerm_reportsEveryViolation() {
    StorageClassSpec spec = StorageClassSpec.builder()
        .reclaimPolicy(PersistentVolumeReclaimPolicy.Recycle)
        .allowedTopology(TopologySelectorTerm.of())
        .allowedTopology(TopologySelectorTerm.of(
            TopologySelectorLabelRequirement.of("topology.kubernetes.io/zone", "a", "a"),
            TopologySelectorLabelRequirement.of("bad key!")))
        .build();

    List<Violation> v = violations(() -> StorageClass.of(ObjectMeta.of("fast"), spec));

    assertThat(v).extracting(Violation::field).containsExactly(
        "provisioner",
        "reclaimPolicy",
        "allowedTopologies[0].matchLabelExpressions",
        "allowedTopologies[1].matchLabelExpressions[0].values[1]",
        "allowedTopologies[1].matchLabelExpressions[1].key",
        "allowedTopologies[1].matchLabelExpressions[1].values");
    assertThat(v.get(1).rule()).contains("deprecated").contains("Retain").contains("Delete");
    assertThat(v).allMatch(x -> x.object().equals("StorageClass fast"));
  }

  @Test
  void constructor_noProvisionerConstant_isAQualifiedName() {
    StorageClass sc = StorageClass.of(ObjectMeta.of("local"), StorageClassSpec.builder()
        .provisioner(StorageAnnotations.NO_PROVISIONER)
        .volumeBindingMode(VolumeBindingMode.WaitForFirstConsumer).build());

    assertThat(sc.provisioner()).isEqualTo("kubernetes.io/no-provisioner");
  }

  @Test
  void isDefault_eitherAnnotationSpelling() {
    ObjectMeta ga = ObjectMeta.of("a").toBuilder().annotation(StorageAnnotations.IS_DEFAULT_CLASS, "true").build();
    ObjectMeta beta =
        ObjectMeta.of("b").toBuilder().annotation(StorageAnnotations.BETA_IS_DEFAULT_CLASS, "true").build();
    ObjectMeta no = ObjectMeta.of("c").toBuilder().annotation(StorageAnnotations.IS_DEFAULT_CLASS, "false").build();

    assertThat(StorageClass.of(ga, StorageClassSpec.of("x.io/p")).isDefault()).isTrue();
    assertThat(StorageClass.of(beta, StorageClassSpec.of("x.io/p")).isDefault()).isTrue();
    assertThat(StorageClass.of(no, StorageClassSpec.of("x.io/p")).isDefault()).isFalse();
  }

  @Test
  void allowsTopology_termsOredRequirementsAnded() {
    StorageClass sc = StorageClass.of(ObjectMeta.of("zonal"), StorageClassSpec.builder().provisioner("x.io/p")
        .allowedTopology(TopologySelectorTerm.of(
            TopologySelectorLabelRequirement.of("topology.kubernetes.io/zone", "a", "b"),
            TopologySelectorLabelRequirement.of("disk", "ssd")))
        .allowedTopology(TopologySelectorTerm.of(TopologySelectorLabelRequirement.of("rack", "r1")))
        .build());

    assertThat(sc.allowsTopology(Map.of("topology.kubernetes.io/zone", "b", "disk", "ssd"))).isTrue();
    assertThat(sc.allowsTopology(Map.of("topology.kubernetes.io/zone", "b"))).isFalse();
    assertThat(sc.allowsTopology(Map.of("rack", "r1"))).isTrue();
    assertThat(sc.allowsTopology(Map.of("topology.kubernetes.io/zone", "c", "disk", "ssd"))).isFalse();
    assertThat(StorageClass.of(ObjectMeta.of("any"), StorageClassSpec.of("x.io/p")).allowsTopology(Map.of()))
        .isTrue();
  }

  @Test
  void withStatusOf_isIdentity_withSpecReplacesFields() {
    StorageClass sc = StorageClass.of(ObjectMeta.of("standard"), StorageClassSpec.of("x.io/p"));
    StorageClass other = sc.withSpec(sc.spec().toBuilder().allowVolumeExpansion(true).build());

    assertThat(sc.withStatusOf(other)).isSameAs(sc);
    assertThat(other.spec().allowVolumeExpansion()).isTrue();
    assertThat(other.spec().provisioner()).isEqualTo("x.io/p");
  }
}
