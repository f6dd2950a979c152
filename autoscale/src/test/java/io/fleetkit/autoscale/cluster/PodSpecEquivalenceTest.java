package io.fleetkit.autoscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.EnvFromSource;
import io.fleetkit.api.core.EnvVar;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.core.VolumeMount;
import io.fleetkit.api.core.VolumeProjection;
import io.fleetkit.api.core.VolumeSource;
import io.fleetkit.api.resource.ResourceList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Upstream's {@code PodSpecSemanticallyEqual} and {@code sanitizePodSpec} (kubernetes/autoscaler
 * {@code cluster-autoscaler/utils/utils.go}); the two tables of {@code cluster-autoscaler/utils/utils_test.go} at
 * commit ee65c0ca6b4ef635e952dec0edab0ca23fe4e586, TestPodSpecSemanticallyEqual (5 cases) and TestSanitizePodSpec
 * (4 cases), then FleetKit's own cases. Upstream's {@code BuildServiceTokenProjectedVolumeSource("path")} is
 * {@link #PROJECTED_SA}. Adapted: upstream's FlexVolume sources (driver {@code testDriver}) are not modelled, so those
 * volumes are {@link #FLEX_STAND_IN}, a host path, another non-projected source; what the cases check is that a
 * non-projected volume and its mounts stay. Upstream's mounts name only the volume; here they need a mount path too.
 */
final class PodSpecEquivalenceTest {
  /** Upstream's {@code BuildServiceTokenProjectedVolumeSource("path")}. */
  private static final VolumeSource.Projected PROJECTED_SA = new VolumeSource.Projected(
      List.of(new VolumeProjection.ServiceAccountToken("", null, "path")), null);
  /** Stands in for upstream's {@code FlexVolumeSource{Driver: "testDriver"}}. */
  private static final VolumeSource FLEX_STAND_IN = new VolumeSource.HostPath("/testDriver");
  private static final VolumeSource EMPTY_DIR = VolumeSource.EmptyDir.DEFAULT;

  private static Volume volume(String name, VolumeSource source) {
    return new Volume(name, source);
  }

  private static VolumeMount mount(String volume) {
    return VolumeMount.of(volume, "/mnt/" + volume, false);
  }

  private static Container container(String name, String image) {
    return Container.of(name, image, ResourceList.EMPTY);
  }

  private static Container container(String name, String image, VolumeMount... mounts) {
    return container(name, image).withVolumeMounts(List.of(mounts));
  }

  private static Container withEnv(String envName, String envValue) {
    return container("", "").withEnv(List.of(new EnvVar(envName, envValue)));
  }

  private static PodSpec.Builder spec() {
    return PodSpec.builder();
  }

  static Stream<Arguments> semanticallyEqualCases() {
    return Stream.of(
        Arguments.of("two pods with projected volume sources",
            spec().volume(volume("projected1", PROJECTED_SA)).build(),
            spec().volume(volume("projected2", PROJECTED_SA)).build(),
            true),
        Arguments.of("two pods with different ENV",
            spec().container(withEnv("foo", "bar")).initContainer(withEnv("foo", "bar")).build(),
            spec().container(withEnv("baz", "foo")).initContainer(withEnv("baz", "bar")).build(),
            true),
        Arguments.of("two pods with different volumes",
            spec().volume(volume("vol1", EMPTY_DIR)).build(),
            spec().volume(volume("vol2", EMPTY_DIR)).build(),
            false),
        Arguments.of("two pod different containers",
            spec().container(container("foobar", "foo/bar")).build(),
            spec().container(container("foobaz", "foo/baz")).build(),
            false),
        Arguments.of("two pods with different hostnames",
            spec().hostname("foo").build(),
            spec().hostname("bar").build(),
            true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("semanticallyEqualCases")
  void equal_upstreamTestPodSpecSemanticallyEqual(String name, PodSpec p1, PodSpec p2, boolean result) {
    assertThat(PodSpecEquivalence.equal(p1, p2)).isEqualTo(result);
    assertThat(PodSpecEquivalence.equal(p2, p1)).isEqualTo(result);
    // the grouping key of the estimator agrees with the comparison
    assertThat(PodSpecEquivalence.semantic(p1).equals(PodSpecEquivalence.semantic(p2))).isEqualTo(result);
  }

  static Stream<Arguments> sanitizeCases() {
    Map<String, String> selector = Map.of("foo", "bar");
    return Stream.of(
        Arguments.of("pod spec with only projected volumes",
            spec().nodeSelector(selector)
                .volume(volume("projected1", PROJECTED_SA)).volume(volume("projected2", PROJECTED_SA))
                .container(container("foobar", "foo/bar", mount("projected1")))
                .initContainer(container("foobaz", "foo/baz", mount("projected2")))
                .build(),
            spec().nodeSelector(selector)
                .container(container("foobar", "foo/bar"))
                .initContainer(container("foobaz", "foo/baz"))
                .build()),
        Arguments.of("pod spec with only non-projected volumes",
            spec().nodeSelector(selector)
                .volume(volume("volume-nz94a", FLEX_STAND_IN)).volume(volume("volume-nz94b", FLEX_STAND_IN))
                .container(container("foobar", "foo/bar", mount("volume-nz94a")))
                .container(container("foo/baz", "foo/baz", mount("volume-nz94b")))
                .build(),
            spec().nodeSelector(selector)
                .volume(volume("volume-nz94a", FLEX_STAND_IN)).volume(volume("volume-nz94b", FLEX_STAND_IN))
                .container(container("foobar", "foo/bar", mount("volume-nz94a")))
                .container(container("foo/baz", "foo/baz", mount("volume-nz94b")))
                .build()),
        Arguments.of("pod spec with a mix of volume types",
            spec().nodeSelector(selector)
                .volume(volume("volume-nz94b", FLEX_STAND_IN))
                .volume(volume("kube-api-access-nz94a", PROJECTED_SA))
                .volume(volume("projected2", PROJECTED_SA))
                .volume(volume("empty-dir", EMPTY_DIR))
                .container(container("foobar", "foo/bar", mount("kube-api-access-nz94a")))
                .container(container("foo/baz", "foo/baz", mount("volume-nz94b"), mount("kube-api-access-nz94a"),
                    mount("empty-dir"), mount("projected2")))
                .container(container("foo/qux", "foo/qux"))
                .build(),
            spec().nodeSelector(selector)
                .volume(volume("volume-nz94b", FLEX_STAND_IN))
                .volume(volume("empty-dir", EMPTY_DIR))
                .container(container("foobar", "foo/bar"))
                .container(container("foo/baz", "foo/baz", mount("volume-nz94b"), mount("empty-dir")))
                .container(container("foo/qux", "foo/qux"))
                .build()),
        Arguments.of("pod spec with env",
            spec().nodeSelector(selector)
                .container(container("foobar", "foo/bar").withEnv(List.of(new EnvVar("foo", "bar"))))
                .initContainer(container("foobaz", "foo/baz").withEnv(List.of(new EnvVar("foo2", "bar2"))))
                .build(),
            spec().nodeSelector(selector)
                .container(container("foobar", "foo/bar"))
                .initContainer(container("foobaz", "foo/baz"))
                .build()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("sanitizeCases")
  void semantic_upstreamTestSanitizePodSpec(String name, PodSpec input, PodSpec output) {
    // upstream compares the whole sanitized spec
    assertThat(PodSpecEquivalence.semantic(input)).isEqualTo(output);
  }

  // FleetKit's own cases

  private static final VolumeSource.Projected TOKEN = new VolumeSource.Projected(List.of(
      new VolumeProjection.ServiceAccountToken("", 3607L, "token")), 0644);
  private static final String PATH = "/var/run/secrets/kubernetes.io/serviceaccount";

  private static PodSpec tokenSpec(String tokenVolume, String cpu) {
    Container c = Container.of("app", "nginx", ResourceList.ofCpuMemory(Long.parseLong(cpu) * 1000, 0)).withVolumeMounts(
        List.of(VolumeMount.of("data", "/data", false), VolumeMount.of(tokenVolume, PATH, true)));
    return PodSpec.builder().container(c).volume(Volume.emptyDir("data")).volume(new Volume(tokenVolume, TOKEN))
        .build();
  }

  @Test
  void specs_differingOnlyInTheTokenVolumesName_areEqual_andGroupAlike() {
    PodSpec a = tokenSpec("kube-api-access-abcde", "1");
    PodSpec b = tokenSpec("kube-api-access-fghjk", "1");
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
    assertThat(PodSpecEquivalence.equal(tokenSpec("kube-api-access-abcde", "1"),
        tokenSpec("kube-api-access-abcde", "2"))).isFalse();
    // a spec with nothing to drop is its own semantic form (no copy)
    PodSpec plain = PodSpec.builder().container("app", "nginx", ResourceList.EMPTY).build();
    assertThat(PodSpecEquivalence.semantic(plain)).isSameAs(plain);
  }

  @Test
  void specs_differingInEnvFromOrSubdomain_areNot_asUpstreamDropsOnlyEnvAndHostname() {
    PodSpec base = spec().container(container("app", "nginx")).hostname("web-0").subdomain("web").build();
    PodSpec envFrom = spec().container(container("app", "nginx")
        .withEnvFrom(List.of(EnvFromSource.configMap("settings", false)))).hostname("web-0").subdomain("web")
        .build();
    PodSpec otherSubdomain = spec().container(container("app", "nginx")).hostname("web-0").subdomain("db").build();
    assertThat(PodSpecEquivalence.equal(base, envFrom)).isFalse();
    assertThat(PodSpecEquivalence.equal(base, otherSubdomain)).isFalse();
    // what is dropped is only the hostname: the subdomain stays
    assertThat(PodSpecEquivalence.semantic(base).hostname()).isEmpty();
    assertThat(PodSpecEquivalence.semantic(base).subdomain()).isEqualTo("web");
  }

  @Test
  void semantic_keepsEverythingElseOfAContainer() {
    Container c = container("app", "nginx").withEnv(List.of(new EnvVar("A", "1")))
        .withEnvFrom(List.of(EnvFromSource.configMap("settings", false)));
    PodSpec s = PodSpecEquivalence.semantic(spec().container(c).build());
    assertThat(s.containers()).containsExactly(c.withEnv(List.of()));
  }
}
