package io.fleetkit.api.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class PersistentVolumeClaimTest {
  private static final ObjectMeta META = ObjectMeta.of("default", "data-0");

  private static List<Violation> violations(Runnable r) {
    return catchThrowableOfType(ValidationException.class, r::run).violations();
  }

  private static PersistentVolumeClaimSpec.Builder valid() {
    return PersistentVolumeClaimSpec.builder().accessMode(PersistentVolumeAccessMode.ReadWriteOnce).storage("5Gi");
  }

  @Test
  void builder_defaults_filesystemUnsetClassPending() {
    PersistentVolumeClaim pvc = PersistentVolumeClaim.of(META, valid().build());

    assertThat(pvc.spec().storageClassName()).isNull();
    assertThat(pvc.spec().volumeMode()).isEqualTo(PersistentVolumeMode.Filesystem);
    assertThat(pvc.spec().volumeName()).isEmpty();
    assertThat(pvc.status().phase()).isEqualTo(PersistentVolumeClaimPhase.Pending);
    assertThat(pvc.requestedStorage()).isEqualTo(Quantity.parse("5Gi"));
  }

  @Test
  void storageClassName_absentAndEmpty_areDifferentClaims() {
    PersistentVolumeClaimSpec unset = valid().build();
    PersistentVolumeClaimSpec noClass = valid().storageClassName("").build();

    assertThat(PersistentVolumeClaim.of(META, noClass).spec().storageClassName()).isEmpty();
    assertThat(unset).isNotEqualTo(noClass);
    assertThat(unset.withStorageClassName("")).isEqualTo(noClass);
  }

  @Test
  void constructor_zeroStorageNoModes_reportsBothWithObjectAndPath() {
    PersistentVolumeClaimSpec spec = PersistentVolumeClaimSpec.builder().storage("0").build();

    ValidationException e = catchThrowableOfType(ValidationException.class, () -> PersistentVolumeClaim.of(META, spec));

    assertThat(e.violations()).extracting(Violation::toString).containsExactly(
        "PersistentVolumeClaim default/data-0: spec.accessModes Required value: at least 1 access mode is required",
        "PersistentVolumeClaim default/data-0: spec.resources.requests.storage \"0\" must be greater than zero");
  }

  @Test
  void constructor_missingStorage_required() {
    PersistentVolumeClaimSpec spec = valid().resources(new VolumeResourceRequirements(
        ResourceList.builder().put("cpu", "1").build(), ResourceList.EMPTY)).build();

    assertThat(violations(() -> PersistentVolumeClaim.of(META, spec))).singleElement()
        .satisfies(v -> assertThat(v.toString()).isEqualTo(
            "PersistentVolumeClaim default/data-0: spec.resources.requests.storage Required value"));
  }

  @Test
  void constructor_badClassVolumeNameSelectorAndName_allReported() {
    PersistentVolumeClaimSpec spec = valid().storageClassName("Fast SSD").volumeName("PV_1")
        .selector(LabelSelector.of(Map.of("bad key!", "x"))).build();

    assertThat(violations(() -> PersistentVolumeClaim.of(ObjectMeta.of("default", "Data"), spec)))
        .extracting(Violation::field).containsExactly("metadata.name", "spec.selector.matchLabels",
            "spec.storageClassName", "spec.volumeName");
  }

  @Test
  void withStatusOf_takesBoundStatus_keepsSpec() {
    PersistentVolumeClaim pending = PersistentVolumeClaim.of(META, valid().build());
    PersistentVolumeClaim bound = pending.withSpec(pending.spec().withVolumeName("pv-1"))
        .withStatus(PersistentVolumeClaimStatus.bound(List.of(PersistentVolumeAccessMode.ReadWriteOnce),
            ResourceList.builder().put("storage", "10Gi").build()));

    PersistentVolumeClaim merged = pending.withStatusOf(bound);

    assertThat(merged.status().phase()).isEqualTo(PersistentVolumeClaimPhase.Bound);
    assertThat(merged.status().capacity().get("storage")).isEqualTo(Quantity.parse("10Gi"));
    assertThat(merged.spec().volumeName()).isEmpty();
  }
}
