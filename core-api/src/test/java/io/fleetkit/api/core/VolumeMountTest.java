package io.fleetkit.api.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.resource.ResourceList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Containers' volume mounts: the rules of upstream's {@code ValidateVolumeMounts}
 * ({@code pkg/apis/core/validation/validation.go}) with its messages and fields, and
 * {@link Pod#withVolumeMountedInAll}, which ServiceAccount admission adds its token volume with.
 */
final class VolumeMountTest {
  private static final String PATH = "/var/run/secrets/kubernetes.io/serviceaccount";

  private static Pod pod(List<VolumeMount> mounts, Volume... volumes) {
    return Pod.of(io.fleetkit.api.meta.ObjectMeta.of("default", "web"), PodSpec.builder().initContainer(
        Container.of("init", "busybox", ResourceList.EMPTY)).container(Container.of("app", "nginx", ResourceList.EMPTY)
        .withVolumeMounts(mounts)).volumes(List.of(volumes)).build());
  }

  private static List<String> refused(List<VolumeMount> mounts, Volume... volumes) {
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> pod(mounts, volumes));
    assertThat(e).as("refused: %s", mounts).isNotNull();
    return e.violations().stream().map(v -> v.field() + " " + v.rule() + (v.value() == null ? "" : " " + v.value()))
        .toList();
  }

  @Test
  void mounts_ofThePodsVolumes_areAccepted() {
    Pod p = pod(List.of(VolumeMount.of("data", "/data", false), new VolumeMount("data", true, "/logs", "logs/app")),
        Volume.emptyDir("data"));
    assertThat(p.spec().containers().get(0).mountsAt("/logs")).isTrue();
    assertThat(p.spec().containers().get(0).mountsAt("/other")).isFalse();
  }

  @Test
  void mounts_breakingUpstreamsRules_areRefusedWithItsFields() {
    assertThat(refused(List.of(VolumeMount.of("missing", "/data", false)), Volume.emptyDir("data")))
        .containsExactly("spec.containers[0].volumeMounts[0].name Not found missing");
    assertThat(refused(List.of(VolumeMount.of("", "", false)), Volume.emptyDir("data"))).containsExactly(
        "spec.containers[0].volumeMounts[0].name Required value",
        "spec.containers[0].volumeMounts[0].name Not found ",
        "spec.containers[0].volumeMounts[0].mountPath Required value");
    assertThat(refused(List.of(VolumeMount.of("data", "/d", false), VolumeMount.of("data", "/d", true)),
        Volume.emptyDir("data"))).containsExactly("spec.containers[0].volumeMounts[1].mountPath must be unique /d");
    // upstream reports a sub-path on the list's field, without the mount's index
    assertThat(refused(List.of(new VolumeMount("data", false, "/d", "/abs")), Volume.emptyDir("data")))
        .containsExactly("spec.containers[0].volumeMounts.subPath must be a relative path /abs");
    assertThat(refused(List.of(new VolumeMount("data", false, "/d", "a/../b")), Volume.emptyDir("data")))
        .containsExactly("spec.containers[0].volumeMounts.subPath must not contain '..' a/../b");
  }

  @Test
  void withVolumeMountedInAll_addsTheMountWhereThePathIsFree_andTheVolumeOnlyWhenNeeded() {
    Volume token = new Volume("kube-api-access-abcde", new VolumeSource.Projected(List.of(
        new VolumeProjection.ServiceAccountToken("", 3607L, "token")), 0644));
    VolumeMount mount = VolumeMount.of(token.name(), PATH, true);
    Pod p = pod(List.of());
    Pod mounted = p.withVolumeMountedInAll(token, mount);
    assertThat(mounted.spec().volumes()).containsExactly(token);
    assertThat(mounted.spec().initContainers().get(0).volumeMounts()).containsExactly(mount);
    assertThat(mounted.spec().containers().get(0).volumeMounts()).containsExactly(mount);
    // the same pod built in full is equal: the checks skipped were not needed
    assertThat(mounted).isEqualTo(new Pod(mounted.metadata(), mounted.spec(), mounted.status()));
    // every container mounts the path already: the pod itself, without the volume
    assertThat(mounted.withVolumeMountedInAll(new Volume("other", VolumeSource.EmptyDir.DEFAULT),
        VolumeMount.of("other", PATH, true))).isSameAs(mounted);
  }

  @Test
  void withVolumeMountedInAll_anInvalidAddition_isRefusedByTheFullValidation() {
    Pod p = pod(List.of(), Volume.emptyDir("data"));
    // a volume name taken, a mount naming no volume, an invalid source: each refused as a pod built so would be
    assertThatThrownBy(() -> p.withVolumeMountedInAll(Volume.emptyDir("data"), VolumeMount.of("data", PATH, true)))
        .isInstanceOf(ValidationException.class).hasMessageContaining("spec.volumes[1].name");
    assertThatThrownBy(() -> p.withVolumeMountedInAll(null, VolumeMount.of("nope", PATH, true)))
        .isInstanceOf(ValidationException.class).hasMessageContaining("spec.initContainers[0].volumeMounts[0].name");
    VolumeSource.Projected bad = new VolumeSource.Projected(List.of(
        new VolumeProjection.ServiceAccountToken("", 60L, "token")), 0644);
    assertThatThrownBy(() -> p.withVolumeMountedInAll(new Volume("t", bad), VolumeMount.of("t", PATH, true)))
        .isInstanceOf(ValidationException.class).hasMessageContaining("expirationSeconds");
    // a valid projected source checked once is not taken for another, invalid one
    VolumeSource.Projected good = new VolumeSource.Projected(List.of(
        new VolumeProjection.ServiceAccountToken("", 3607L, "token")), 0644);
    p.withVolumeMountedInAll(new Volume("g", good), VolumeMount.of("g", PATH, true));
    assertThatThrownBy(() -> pod(List.of(), new Volume("t", bad))).isInstanceOf(ValidationException.class);
  }
}
