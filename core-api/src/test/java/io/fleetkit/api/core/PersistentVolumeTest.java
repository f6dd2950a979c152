package io.fleetkit.api.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.NodeSelector;
import io.fleetkit.api.scheduling.NodeSelectorOperator;
import io.fleetkit.api.scheduling.NodeSelectorRequirement;
import io.fleetkit.api.scheduling.NodeSelectorTerm;
import java.util.List;
import org.junit.jupiter.api.Test;

final class PersistentVolumeTest {
  private static List<Violation> violations(Runnable r) {
    return catchThrowableOfType(ValidationException.class, r::run).violations();
  }

  private static PersistentVolumeSpec.Builder valid() {
    return PersistentVolumeSpec.builder().storage("10Gi").accessMode(PersistentVolumeAccessMode.ReadWriteOnce)
        .source(PersistentVolumeSource.Csi.of("ebs.csi.aws.com", "vol-1"));
  }

  private static VolumeNodeAffinity onNode(String node) {
    return new VolumeNodeAffinity(new NodeSelector(List.of(new NodeSelectorTerm(List.of(
        new NodeSelectorRequirement("kubernetes.io/hostname", NodeSelectorOperator.In, List.of(node))), List.of()))));
  }

  @Test
  void builder_defaults_retainFilesystemPending() {
    PersistentVolume pv = PersistentVolume.of(ObjectMeta.of("pv-1"), valid().build());

    assertThat(pv.spec().persistentVolumeReclaimPolicy()).isEqualTo(PersistentVolumeReclaimPolicy.Retain);
    assertThat(pv.spec().volumeMode()).isEqualTo(PersistentVolumeMode.Filesystem);
    assertThat(pv.spec().storageClassName()).isEmpty();
    assertThat(pv.status().phase()).isEqualTo(PersistentVolumePhase.Pending);
    assertThat(pv.storage()).isEqualTo(Quantity.parse("10Gi"));
    assertThat(pv.namespaced()).isFalse();
  }

  @Test
  void constructor_noCapacityNoModesRecycle_reportsAllThree() {
    PersistentVolumeSpec spec = PersistentVolumeSpec.builder()
        .persistentVolumeReclaimPolicy(PersistentVolumeReclaimPolicy.Recycle).build();

    ValidationException e = catchThrowableOfType(ValidationException.class, () -> PersistentVolume.of(ObjectMeta.of("pv-1"), spec));

    assertThat(e.violations()).extracting(Violation::field).containsExactly(
        "spec.capacity.storage", "spec.accessModes", "spec.persistentVolumeReclaimPolicy");
    assertThat(e.getMessage()).startsWith("3 violations:")
        .contains("PersistentVolume pv-1: spec.accessModes Required value: must specify at least 1 access mode")
        .contains("spec.persistentVolumeReclaimPolicy \"Recycle\" Recycle is deprecated");
    assertThat(e.violations().get(2).rule()).contains("Retain").contains("Delete").contains("dynamic provisioning");
  }

  @Test
  void constructor_capacityWithOtherResource_rejected() {
    ResourceList capacity = ResourceList.builder().put("storage", "1Gi").put("cpu", "1").build();

    assertThat(violations(() -> PersistentVolume.of(ObjectMeta.of("pv-1"), valid().capacity(capacity).build())))
        .extracting(Violation::field, Violation::rule)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("spec.capacity.cpu", "supported values: \"storage\""));
  }

  @Test
  void constructor_readWriteOncePodWithOthers_rejected() {
    PersistentVolumeSpec spec = valid().accessMode(PersistentVolumeAccessMode.ReadWriteOncePod).build();

    assertThat(violations(() -> PersistentVolume.of(ObjectMeta.of("pv-1"), spec))).singleElement()
        .satisfies(v -> assertThat(v.rule()).isEqualTo("may not use ReadWriteOncePod with other access modes"));
  }

  @Test
  void constructor_localWithoutNodeAffinity_rejected_withAffinity_accepted() {
    PersistentVolumeSpec local = valid().source(PersistentVolumeSource.Local.of("/mnt/disks/ssd1")).build();

    assertThat(violations(() -> PersistentVolume.of(ObjectMeta.of("local-1"), local)))
        .extracting(Violation::field).containsExactly("spec.nodeAffinity");
    assertThat(PersistentVolume.of(ObjectMeta.of("local-1"), local.toBuilder().nodeAffinity(onNode("n1")).build())
        .spec().nodeAffinity()).isEqualTo(onNode("n1"));
  }

  @Test
  void constructor_namespacedMetadataAndBadClaimRefAndClass_rejected() {
    PersistentVolumeSpec spec = valid().claimRef(ClaimReference.of("", "")).storageClassName("Fast_SSD")
        .source(PersistentVolumeSource.Csi.of("", "")).build();

    assertThat(violations(() -> PersistentVolume.of(ObjectMeta.of("default", "pv-1"), spec)))
        .extracting(Violation::field).containsExactly("metadata.namespace", "spec.storageClassName",
            "spec.claimRef.name", "spec.claimRef.namespace", "spec.csi.driver", "spec.csi.volumeHandle");
  }

  @Test
  void claimRef_refersTo_matchesUidOnlyWhenSet() {
    ObjectMeta claim = ObjectMeta.of("default", "data-0").toBuilder().uid("u-1").build();

    assertThat(ClaimReference.of("default", "data-0").refersTo(claim)).isTrue();
    assertThat(new ClaimReference("default", "data-0", "u-1").refersTo(claim)).isTrue();
    assertThat(new ClaimReference("default", "data-0", "u-2").refersTo(claim)).isFalse();
    assertThat(ClaimReference.of("other", "data-0").refersTo(claim)).isFalse();
  }

  @Test
  void withStatusOf_keepsSpecAndMetadata() {
    PersistentVolume mine = PersistentVolume.of(ObjectMeta.of("pv-1"), valid().build());
    PersistentVolume theirs = PersistentVolume.of(ObjectMeta.of("pv-1").withResourceVersion("9"),
            valid().storage("20Gi").build())
        .withStatus(PersistentVolumeStatus.of(PersistentVolumePhase.Bound));

    PersistentVolume merged = mine.withStatusOf(theirs);

    assertThat(merged.status().phase()).isEqualTo(PersistentVolumePhase.Bound);
    assertThat(merged.storage()).isEqualTo(Quantity.parse("10Gi"));
    assertThat(merged.metadata().resourceVersion()).isEmpty();
  }

  @Test
  void accessMode_shortNames_asKubectlPrints() {
    assertThat(List.of(PersistentVolumeAccessMode.values())).extracting(PersistentVolumeAccessMode::shortName)
        .containsExactly("RWO", "ROX", "RWX", "RWOP");
  }
}
