package io.fleetkit.api.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.Violations;
import io.fleetkit.api.internal.PodSpecChecks;
import io.fleetkit.api.resource.ResourceList;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Generic ephemeral volumes in the pod model: the rules of upstream's {@code validateVolumeSource} for
 * {@code ephemeral} (kubernetes {@code pkg/apis/core/validation/validation.go}: the template validated by
 * {@code ValidatePersistentVolumeClaimTemplate}, the generated claim name {@code <pod>-<volume>} a valid claim
 * name, reported on the volume's name).
 */
final class EphemeralVolumeTest {
  private static final PersistentVolumeClaimSpec SPEC = PersistentVolumeClaimSpec.builder().storage("1Gi")
      .accessMode(PersistentVolumeAccessMode.ReadWriteOnce).storageClassName("fast").build();

  private static Pod pod(String name, Volume volume) {
    return Pod.builder().namespace("default").name(name).container("app", "nginx", ResourceList.EMPTY)
        .volume(volume).build();
  }

  private static ValidationException refused(String name, Volume volume) {
    return catchThrowableOfType(ValidationException.class, () -> pod(name, volume));
  }

  @Test
  void ephemeral_validTemplate_isAccepted() {
    PersistentVolumeClaimTemplate t = new PersistentVolumeClaimTemplate(Map.of("app", "web"),
        Map.of("example.com/note", "scratch"), SPEC);
    Pod p = pod("web-0", Volume.ephemeral("scratch", t));
    Volume v = p.spec().volumes().get(0);
    assertThat(v.ephemeral()).isNotNull();
    assertThat(v.ephemeral().volumeClaimTemplate()).isEqualTo(t);
    assertThat(v.claim()).isNull();
    assertThat(VolumeSource.Ephemeral.claimName("web-0", "scratch")).isEqualTo("web-0-scratch");
  }

  @Test
  void ephemeral_templateWithoutStorageOrAccessMode_refusedAsAClaimSpec() {
    PersistentVolumeClaimTemplate t = PersistentVolumeClaimTemplate.of(PersistentVolumeClaimSpec.builder().build());
    ValidationException e = refused("web-0", Volume.ephemeral("scratch", t));
    assertThat(e.violations()).extracting(Violation::field, Violation::rule).containsExactly(
        org.assertj.core.groups.Tuple.tuple("spec.volumes[0].ephemeral.volumeClaimTemplate.spec.accessModes",
            "Required value: at least 1 access mode is required"),
        org.assertj.core.groups.Tuple.tuple(
            "spec.volumes[0].ephemeral.volumeClaimTemplate.spec.resources.requests.storage", "Required value"));
    assertThat(e.violations()).allSatisfy(v -> assertThat(v.object()).isEqualTo("Pod default/web-0"));
  }

  @Test
  void ephemeral_zeroStorageAndBadClassName_refused() {
    PersistentVolumeClaimTemplate t = PersistentVolumeClaimTemplate.of(PersistentVolumeClaimSpec.builder()
        .storage("0").accessMode(PersistentVolumeAccessMode.ReadWriteOnce).storageClassName("Fast_SSD").build());
    ValidationException e = refused("web-0", Volume.ephemeral("scratch", t));
    assertThat(e.violations()).extracting(Violation::field).containsExactly(
        "spec.volumes[0].ephemeral.volumeClaimTemplate.spec.resources.requests.storage",
        "spec.volumes[0].ephemeral.volumeClaimTemplate.spec.storageClassName");
    assertThat(e.violations().get(0).rule()).isEqualTo("must be greater than zero");
  }

  @Test
  void ephemeral_badLabelAndAnnotationKeys_refusedOnTheTemplateMetadata() {
    PersistentVolumeClaimTemplate t = new PersistentVolumeClaimTemplate(Map.of("bad key", "v"),
        Map.of("-bad/annotation", "v"), SPEC);
    ValidationException e = refused("web-0", Volume.ephemeral("scratch", t));
    assertThat(e.violations()).extracting(Violation::field).contains(
        "spec.volumes[0].ephemeral.volumeClaimTemplate.metadata.labels",
        "spec.volumes[0].ephemeral.volumeClaimTemplate.metadata.annotations");
    assertThat(e.violations()).filteredOn(v -> v.field().endsWith("annotations"))
        .extracting(Violation::value).containsOnly("-bad/annotation");
  }

  @Test
  void ephemeral_annotationKeyInUpperCase_accepted() {
    // ValidateAnnotations checks the key in lower case
    pod("web-0", Volume.ephemeral("scratch", new PersistentVolumeClaimTemplate(Map.of(),
        Map.of("Example.COM/Note", "v"), SPEC)));
  }

  @Test
  void ephemeral_generatedClaimNameTooLong_refusedOnTheVolumeName() {
    String podName = "p".repeat(200);
    String volume = "v".repeat(60);
    ValidationException e = refused(podName, Volume.ephemeral(volume, PersistentVolumeClaimTemplate.of(SPEC)));
    assertThat(e.violations()).hasSize(1);
    Violation v = e.violations().get(0);
    assertThat(v.field()).isEqualTo("spec.volumes[0].name");
    assertThat(v.value()).isEqualTo(volume);
    assertThat(v.rule()).isEqualTo("PVC name \"" + podName + "-" + volume + "\": must be no more than 253 characters");
  }

  @Test
  void ephemeral_claimNameNotCheckedForOtherSources() {
    // a PVC volume's name is not a claim name: only the 63-character volume name rule applies
    pod("p".repeat(200), Volume.persistentVolumeClaim("v".repeat(60), "data"));
  }

  @Test
  void ephemeral_inAPodTemplate_specCheckedWithoutAClaimName() {
    PodSpec spec = PodSpec.builder().container(Container.of("app", "nginx", ResourceList.EMPTY))
        .volume(Volume.ephemeral("scratch", PersistentVolumeClaimTemplate.of(PersistentVolumeClaimSpec.builder()
            .accessMode(PersistentVolumeAccessMode.ReadWriteOnce).build())))
        .build();
    Violations v = new Violations("Deployment", "default", "web");
    PodSpecChecks.check(spec, "spec.template.spec", v);
    assertThat(v.violations()).extracting(Violation::field).containsExactly(
        "spec.template.spec.volumes[0].ephemeral.volumeClaimTemplate.spec.resources.requests.storage");
  }
}
