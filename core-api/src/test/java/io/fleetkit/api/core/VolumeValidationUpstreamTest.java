package io.fleetkit.api.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.jspecify.annotations.Nullable;

/**
 * Port of kubernetes {@code pkg/apis/core/validation/validation_test.go} (commit 000f26050b9b)
 * {@code TestValidateVolumes}: the cases of the sources FleetKit models (volume names, hostPath, secret, configMap,
 * downwardAPI, the duplicate-name and HugePages-medium checks at the end), each run through a pod as the API server
 * runs {@code ValidateVolumes} for one. Upstream checks each error's type, that its field ends with the expected
 * path and that its detail contains the expected text, and how many errors there are; here the field is compared
 * whole ({@code spec.volumes[0].} and upstream's path after {@code field[0].}), the error type as FleetKit's rule
 * words it ({@code Required value}, {@code Forbidden: }, {@code Unsupported value: }, {@code Duplicate value}; an
 * invalid value's rule is the detail) and the count exactly. The table's cases for sources FleetKit does not model,
 * and its two "more than one source" cases, which FleetKit's one-source records cannot express (the YAML loader's
 * test runs the first through a manifest), are listed in docs/conformance.md.
 */
final class VolumeValidationUpstreamTest {

  /** Upstream's {@code dnsLabelErrMsg} at this commit. */
  private static final String DNS_LABEL = "a lowercase RFC 1123 label must consist of";

  private enum Type { REQUIRED, INVALID, FORBIDDEN, NOT_SUPPORTED, DUPLICATE }

  /** One expected error: its type, upstream's field below {@code field[0]} and a part of its detail. */
  private record Err(Type type, String field, String detail) {}

  private static Err err(Type type, String field) {
    return new Err(type, field, "");
  }

  private static Err err(Type type, String field, String detail) {
    return new Err(type, field, detail);
  }

  private static Pod pod(List<Volume> volumes) {
    Pod.Builder b = Pod.builder().namespace("default").name("web").container("app", "nginx", ResourceList.EMPTY);
    volumes.forEach(b::volume);
    return b.build();
  }

  private static List<Violation> violations(List<Volume> volumes) {
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> pod(volumes));
    return e == null ? List.of() : e.violations();
  }

  private static boolean hasType(String rule, Type type) {
    return switch (type) {
      case REQUIRED -> rule.startsWith("Required value");
      case FORBIDDEN -> rule.startsWith("Forbidden: ");
      case NOT_SUPPORTED -> rule.startsWith("Unsupported value: ");
      case DUPLICATE -> rule.equals("Duplicate value");
      case INVALID -> !rule.startsWith("Required value") && !rule.startsWith("Forbidden: ")
          && !rule.startsWith("Unsupported value: ") && !rule.equals("Duplicate value");
    };
  }

  private static Volume vol(String name, VolumeSource source) {
    return new Volume(name, source);
  }

  private static VolumeSource secret(String name, List<KeyToPath> items, @Nullable Integer defaultMode) {
    return new VolumeSource.Secret(name, items, defaultMode, false);
  }

  private static VolumeSource configMap(String name, List<KeyToPath> items, @Nullable Integer defaultMode) {
    return new VolumeSource.ConfigMap(name, items, defaultMode, false);
  }

  private static DownwardAPIVolumeFile field(String path, String fieldPath, @Nullable Integer mode) {
    return new DownwardAPIVolumeFile(path, new DownwardAPIVolumeFile.FieldRef("v1", fieldPath), null, mode);
  }

  private static DownwardAPIVolumeFile resource(String path, String resource) {
    return new DownwardAPIVolumeFile(path, null, new DownwardAPIVolumeFile.ResourceFieldRef("test-container",
        resource, null), null);
  }

  private static VolumeSource downward(List<DownwardAPIVolumeFile> items, @Nullable Integer defaultMode) {
    return new VolumeSource.DownwardAPI(items, defaultMode);
  }

  private static Arguments c(String name, Volume vol, Err... errs) {
    return Arguments.of(name, vol, List.of(errs));
  }

  static Stream<Arguments> testValidateVolumes() {
    VolumeSource empty = VolumeSource.EmptyDir.DEFAULT;
    List<DownwardAPIVolumeFile> validFiles = List.of(
        field("labels", "metadata.labels", null),
        field("labels with subscript", "metadata.labels['key']", null),
        field("labels with complex subscript", "metadata.labels['test.example.com/key']", null),
        field("annotations", "metadata.annotations", null),
        field("annotations with subscript", "metadata.annotations['key']", null),
        field("annotations with complex subscript", "metadata.annotations['TEST.EXAMPLE.COM/key']", null),
        field("namespace", "metadata.namespace", null),
        field("name", "metadata.name", null),
        field("path/with/subdirs", "metadata.labels", null),
        field("path/./withdot", "metadata.labels", null),
        field("path/with/embedded..dotdot", "metadata.labels", null),
        field("path/with/leading/..dotdot", "metadata.labels", null),
        resource("cpu_limit", "limits.cpu"),
        resource("cpu_request", "requests.cpu"),
        resource("memory_limit", "limits.memory"),
        resource("memory_request", "requests.memory"));
    return Stream.of(
        // EmptyDir and basic volume names
        c("valid alpha name", vol("empty", empty)),
        c("valid num name", vol("123", empty)),
        c("valid alphanum name", vol("empty-123", empty)),
        c("valid numalpha name", vol("123-empty", empty)),
        c("zero-length name", vol("", empty), err(Type.REQUIRED, "name")),
        c("name > 63 characters", vol("a".repeat(64), empty), err(Type.INVALID, "name", "must be no more than")),
        c("name has dots", vol("a.b.c", empty), err(Type.INVALID, "name", "must not contain dots")),
        c("name not a DNS label", vol("Not a DNS label!", empty), err(Type.INVALID, "name", DNS_LABEL)),
        // HostPath
        c("default HostPath", vol("hostpath", new VolumeSource.HostPath("/mnt/path", "Directory"))),
        c("valid HostPath", vol("hostpath", new VolumeSource.HostPath("/mnt/path", "Socket"))),
        c("invalid HostPath", vol("hostpath", new VolumeSource.HostPath("/mnt/path", "invalid")),
            err(Type.NOT_SUPPORTED, "hostPath.type")),
        c("invalid HostPath backsteps", vol("hostpath", new VolumeSource.HostPath("/mnt/path/..", "Directory")),
            err(Type.INVALID, "hostPath.path", "must not contain '..'")),
        // Secret
        c("valid Secret", vol("secret", new VolumeSource.Secret("my-secret"))),
        c("valid Secret with defaultMode", vol("secret", secret("my-secret", List.of(), 0644))),
        c("valid Secret with projection and mode", vol("secret",
            secret("my-secret", List.of(new KeyToPath("key", "filename", 0644)), null))),
        c("valid Secret with subdir projection", vol("secret",
            secret("my-secret", List.of(new KeyToPath("key", "dir/filename", null)), null))),
        c("secret with missing path", vol("secret", secret("s", List.of(new KeyToPath("key", "", null)), null)),
            err(Type.REQUIRED, "secret.items[0].path")),
        c("secret with leading ..", vol("secret", secret("s", List.of(new KeyToPath("key", "../foo", null)), null)),
            err(Type.INVALID, "secret.items[0].path")),
        c("secret with .. inside", vol("secret",
            secret("s", List.of(new KeyToPath("key", "foo/../bar", null)), null)),
            err(Type.INVALID, "secret.items[0].path")),
        c("secret with invalid positive defaultMode", vol("secret", secret("s", List.of(), 01000)),
            err(Type.INVALID, "secret.defaultMode")),
        c("secret with invalid negative defaultMode", vol("secret", secret("s", List.of(), -1)),
            err(Type.INVALID, "secret.defaultMode")),
        // ConfigMap
        c("valid ConfigMap", vol("cfgmap", new VolumeSource.ConfigMap("my-cfgmap"))),
        c("valid ConfigMap with defaultMode", vol("cfgmap", configMap("my-cfgmap", List.of(), 0644))),
        c("valid ConfigMap with projection and mode", vol("cfgmap",
            configMap("my-cfgmap", List.of(new KeyToPath("key", "filename", 0644)), null))),
        c("valid ConfigMap with subdir projection", vol("cfgmap",
            configMap("my-cfgmap", List.of(new KeyToPath("key", "dir/filename", null)), null))),
        c("configmap with missing path", vol("cfgmap",
            configMap("c", List.of(new KeyToPath("key", "", null)), null)),
            err(Type.REQUIRED, "configMap.items[0].path")),
        c("configmap with leading ..", vol("cfgmap",
            configMap("c", List.of(new KeyToPath("key", "../foo", null)), null)),
            err(Type.INVALID, "configMap.items[0].path")),
        c("configmap with .. inside", vol("cfgmap",
            configMap("c", List.of(new KeyToPath("key", "foo/../bar", null)), null)),
            err(Type.INVALID, "configMap.items[0].path")),
        c("configmap with invalid positive defaultMode", vol("cfgmap", configMap("c", List.of(), 01000)),
            err(Type.INVALID, "configMap.defaultMode")),
        c("configmap with invalid negative defaultMode", vol("cfgmap", configMap("c", List.of(), -1)),
            err(Type.INVALID, "configMap.defaultMode")),
        // DownwardAPI (upstream names a file's errors on the volume: downwardAPI.path, not downwardAPI.items[0].path)
        c("valid DownwardAPI", vol("downwardapi", downward(validFiles, null))),
        c("hugepages-downwardAPI-enabled", vol("downwardapi", downward(List.of(
            resource("hugepages_request", "requests.hugepages-2Mi"),
            resource("hugepages_limit", "limits.hugepages-2Mi")), null))),
        c("downapi valid defaultMode", vol("downapi", downward(List.of(), 0644))),
        c("downapi valid item mode", vol("downapi", downward(List.of(field("path", "metadata.labels", 0644)), null))),
        c("downapi invalid positive item mode", vol("downapi",
            downward(List.of(field("path", "metadata.labels", 01000)), null)),
            err(Type.INVALID, "downwardAPI.mode")),
        c("downapi invalid negative item mode", vol("downapi",
            downward(List.of(field("path", "metadata.labels", -1)), null)),
            err(Type.INVALID, "downwardAPI.mode")),
        c("downapi empty metatada path", vol("downapi", downward(List.of(field("", "metadata.labels", null)), null)),
            err(Type.REQUIRED, "downwardAPI.path")),
        c("downapi absolute path", vol("downapi",
            downward(List.of(field("/absolutepath", "metadata.labels", null)), null)),
            err(Type.INVALID, "downwardAPI.path")),
        c("downapi dot dot path", vol("downapi",
            downward(List.of(field("../../passwd", "metadata.labels", null)), null)),
            err(Type.INVALID, "downwardAPI.path", "must not contain '..'")),
        c("downapi dot dot file name", vol("downapi",
            downward(List.of(field("..badFileName", "metadata.labels", null)), null)),
            err(Type.INVALID, "downwardAPI.path", "must not start with '..'")),
        c("downapi dot dot first level dirent", vol("downapi",
            downward(List.of(field("..badDirName/goodFileName", "metadata.labels", null)), null)),
            err(Type.INVALID, "downwardAPI.path", "must not start with '..'")),
        c("downapi fieldRef and ResourceFieldRef together", vol("downapi", downward(List.of(
            new DownwardAPIVolumeFile("test", new DownwardAPIVolumeFile.FieldRef("v1", "metadata.labels"),
                new DownwardAPIVolumeFile.ResourceFieldRef("test-container", "requests.memory", null), null)),
            null)),
            err(Type.INVALID, "downwardAPI", "fieldRef and resourceFieldRef can not be specified simultaneously")),
        c("downapi invalid positive defaultMode", vol("downapi", downward(List.of(), 01000)),
            err(Type.INVALID, "downwardAPI.defaultMode")),
        c("downapi invalid negative defaultMode", vol("downapi", downward(List.of(), -1)),
            err(Type.INVALID, "downwardAPI.defaultMode")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void testValidateVolumes(String name, Volume vol, List<Err> expected) {
    List<Violation> got = violations(List.of(vol));

    assertThat(got).as("errors of %s", name).hasSameSizeAs(expected);
    for (int i = 0; i < expected.size(); i++) {
      Err e = expected.get(i);
      Violation v = got.get(i);
      assertThat(v.object()).isEqualTo("Pod default/web");
      assertThat(v.field()).as("field of error %d", i).isEqualTo("spec.volumes[0]." + e.field());
      assertThat(hasType(v.rule(), e.type())).as("%s is a %s error", v.rule(), e.type()).isTrue();
      assertThat(v.rule()).as("detail of error %d", i).contains(e.detail());
    }
    if (expected.isEmpty()) { // upstream also checks the names it returns: the volume is the pod's only one
      assertThat(pod(List.of(vol)).spec().volumes()).extracting(Volume::name).containsExactly(vol.name());
    }
  }

  /** TestValidateVolumes' dupsCase: two volumes named {@code abc}, one Duplicate error. */
  @Test
  void testValidateVolumes_dupsCase_oneDuplicateError() {
    List<Violation> got = violations(List.of(Volume.emptyDir("abc"), Volume.emptyDir("abc")));

    assertThat(got).hasSize(1);
    assertThat(got.get(0).field()).isEqualTo("spec.volumes[1].name");
    assertThat(hasType(got.get(0).rule(), Type.DUPLICATE)).isTrue();
    assertThat(got.get(0).value()).isEqualTo("abc");
  }

  /** TestValidateVolumes' hugePagesCase: an emptyDir on the HugePages medium is valid. */
  @Test
  void testValidateVolumes_hugePagesMedium_isAccepted() {
    VolumeSource.EmptyDir huge = new VolumeSource.EmptyDir("HugePages", null);

    assertThat(violations(List.of(new Volume("working", huge)))).isEmpty();
  }

  /**
   * Upstream's {@code validateVolumeSource} forbids a negative emptyDir {@code sizeLimit} (no case of the table):
   * {@code Forbidden}, with its detail.
   */
  @Test
  void emptyDir_negativeSizeLimit_isForbidden() {
    List<Violation> got = violations(List.of(new Volume("scratch", new VolumeSource.EmptyDir("",
        Quantity.parse("-1Gi")))));

    assertThat(got).extracting(Violation::field, Violation::rule).containsExactly(
        org.assertj.core.groups.Tuple.tuple("spec.volumes[0].emptyDir.sizeLimit",
            "Forbidden: SizeLimit field must be a valid resource quantity"));
  }

  /**
   * Upstream's {@code ValidateVolumes} refuses a persistentVolumeClaim volume naming the claim made for one of the
   * pod's generic ephemeral volumes ({@code <pod>-<volume>}); no case of the table covers it.
   */
  @Test
  void claimVolume_namingAnEphemeralVolumesClaim_isRefused() {
    PersistentVolumeClaimTemplate template = PersistentVolumeClaimTemplate.of(PersistentVolumeClaimSpec.builder()
        .accessMode(PersistentVolumeAccessMode.ReadWriteOnce).storage("1Gi").build());
    List<Volume> volumes = List.of(Volume.ephemeral("scratch", template),
        Volume.persistentVolumeClaim("data", "web-scratch"), Volume.persistentVolumeClaim("other", "web-data"));

    assertThat(violations(volumes)).extracting(Violation::field, Violation::rule, Violation::value).containsExactly(
        org.assertj.core.groups.Tuple.tuple("spec.volumes[1].persistentVolumeClaim.claimName",
            "must not reference a PVC that gets created for an ephemeral volume", "web-scratch"));
  }

  /** Every rule of the table at once: the errors come in the volumes' order, each under its own index. */
  @Test
  void severalBadVolumes_areReportedTogetherUnderTheirIndexes() {
    List<Volume> volumes = new ArrayList<>();
    volumes.add(vol("s", secret("s", List.of(), 01000)));
    volumes.add(vol("h", new VolumeSource.HostPath("/a/../b")));
    volumes.add(vol("d", downward(List.of(field("", "metadata.name", null)), null)));

    assertThat(violations(volumes)).extracting(Violation::field).containsExactly("spec.volumes[0].secret.defaultMode",
        "spec.volumes[1].hostPath.path", "spec.volumes[2].downwardAPI.path");
  }
}
