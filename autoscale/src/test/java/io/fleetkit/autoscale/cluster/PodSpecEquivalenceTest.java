package io.fleetkit.autoscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.core.VolumeMount;
import io.fleetkit.api.core.VolumeProjection;
import io.fleetkit.api.core.VolumeSource;
import io.fleetkit.api.resource.ResourceList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Upstream's {@code PodSpecSemanticallyEqual} ({@code cluster-autoscaler/utils/pod}): specs of pods that differ only
 * in the generated names of their projected service account volumes are equal; anything else that differs is not.
 */
final class PodSpecEquivalenceTest {
  private static final VolumeSource.Projected TOKEN = new VolumeSource.Projected(List.of(
      new VolumeProjection.ServiceAccountToken("", 3607L, "token")), 0644);
  private static final String PATH = "/var/run/secrets/kubernetes.io/serviceaccount";

  private static PodSpec spec(String tokenVolume, String cpu) {
    Container c = Container.of("app", "nginx", ResourceList.ofCpuMemory(Long.parseLong(cpu) * 1000, 0)).withVolumeMounts(
        List.of(VolumeMount.of("data", "/data", false), VolumeMount.of(tokenVolume, PATH, true)));
    return PodSpec.builder().container(c).volume(Volume.emptyDir("data")).volume(new Volume(tokenVolume, TOKEN))
        .build();
  }

  @Test
  void specs_differingOnlyInTheTokenVolumesName_areEqual_andGroupAlike() {
    PodSpec a = spec("kube-api-access-abcde", "1");
    PodSpec b = spec("kube-api-access-fghjk", "1");
    assertThat(a).isNotEqualTo(b);
    assertThat(PodSpecEquivalence.equal(a, b)).isTrue();
    assertThat(PodSpecEquivalence.semantic(a)).isEqualTo(PodSpecEquivalence.semantic(b));
    // what is left: the other volume and its mount
    assertThat(PodSpecEquivalence.semantic(a).volumes()).extracting(Volume::name).containsExactly("data");
    assertThat(PodSpecEquivalence.semantic(a).containers().get(0).volumeMounts()).extracting(VolumeMount::name)
        .containsExactly("data");
  }

  @Test
  void specs_differingInAnythingElse_areNot() {
    assertThat(PodSpecEquivalence.equal(spec("kube-api-access-abcde", "1"), spec("kube-api-access-abcde", "2")))
        .isFalse();
    // a spec without projected volumes is its own semantic form (no copy)
    PodSpec plain = PodSpec.builder().container("app", "nginx", ResourceList.EMPTY).build();
    assertThat(PodSpecEquivalence.semantic(plain)).isSameAs(plain);
  }
}
