package io.fleetkit.api.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.scheduling.NodeSelector;
import io.fleetkit.api.scheduling.NodeSelectorOperator;
import io.fleetkit.api.scheduling.NodeSelectorRequirement;
import io.fleetkit.api.scheduling.NodeSelectorTerm;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Port of kubernetes {@code pkg/apis/core/validation/validation_test.go} (commit 000f26050b9b)
 * {@code TestValidatePersistentVolumes} and {@code TestPVVolumeMode}, with the rules of {@code validation.go} at the
 * same commit ({@code ValidatePersistentVolumeSpec}, {@code validateHostPathVolumeSource}). Upstream asserts only
 * that a case fails or passes; each failing case here also names the field FleetKit reports it on, and the host
 * path, capacity and Recycle cases the rule. The cases of fields only a manifest can spell wrong (an unknown access
 * mode, reclaim policy or volume mode) run through the loader ({@code PersistentVolumeUpstreamYamlTest}); the skipped
 * ones are listed in docs/conformance.md.
 */
final class PersistentVolumeValidationUpstreamTest {

  /** Upstream's {@code testVolume}: {@code 10G} of storage, ReadWriteOnce, a host path {@code /foo} of type Directory. */
  private static PersistentVolumeSpec.Builder spec() {
    return PersistentVolumeSpec.builder().storage("10G").accessMode(PersistentVolumeAccessMode.ReadWriteOnce)
        .source(new PersistentVolumeSource.HostPath("/foo", "Directory"));
  }

  private static VolumeNodeAffinity affinity(String key, String value) {
    return new VolumeNodeAffinity(new NodeSelector(List.of(new NodeSelectorTerm(List.of(
        new NodeSelectorRequirement(key, NodeSelectorOperator.In, List.of(value))), List.of()))));
  }

  /**
   * Upstream's {@code testVolumeWithNodeAffinity}, whose source is a GCE persistent disk, which FleetKit does not
   * model: here the same disk through its CSI driver (the volume's source plays no part in these cases).
   */
  private static PersistentVolume withNodeAffinity(VolumeNodeAffinity affinity) {
    return PersistentVolume.of(ObjectMeta.of("test-affinity-volume"), PersistentVolumeSpec.builder().storage("10G")
        .accessMode(PersistentVolumeAccessMode.ReadWriteOnce)
        .source(PersistentVolumeSource.Csi.of("pd.csi.storage.gke.io", "foo"))
        .storageClassName("test-storage-class").nodeAffinity(affinity).build());
  }

  private static List<Violation> violations(Runnable r) {
    ValidationException e = catchThrowableOfType(ValidationException.class, r::run);
    return e == null ? List.of() : e.violations();
  }

  private static Arguments ok(String name, String pvName, UnaryOperator<PersistentVolumeSpec.Builder> spec) {
    return Arguments.of(name, (Runnable) () -> PersistentVolume.of(ObjectMeta.of(pvName), spec.apply(spec()).build()),
        List.of());
  }

  private static Arguments bad(String name, ObjectMeta meta, UnaryOperator<PersistentVolumeSpec.Builder> spec,
      String... fields) {
    return Arguments.of(name, (Runnable) () -> PersistentVolume.of(meta, spec.apply(spec()).build()),
        List.of(fields));
  }

  static Stream<Arguments> testValidatePersistentVolumes() {
    return Stream.of(
        ok("good-volume", "foo", b -> b),
        ok("good-volume-with-capacity-unit", "foo", b -> b.storage("10Gi")),
        ok("good-volume-without-capacity-unit", "foo", b -> b.storage("10")),
        ok("good-volume-with-storage-class", "foo", b -> b.storageClassName("valid")),
        ok("good-volume-with-retain-policy", "foo",
            b -> b.persistentVolumeReclaimPolicy(PersistentVolumeReclaimPolicy.Retain)),
        ok("good-volume-with-volume-mode", "foo", b -> b.volumeMode(PersistentVolumeMode.Filesystem)),
        ok("with-read-write-once-pod", "foo",
            b -> b.accessModes(List.of(PersistentVolumeAccessMode.ReadWriteOncePod))),
        bad("with-read-write-once-pod-and-others", ObjectMeta.of("foo"), b -> b.accessModes(List.of(
            PersistentVolumeAccessMode.ReadWriteOncePod, PersistentVolumeAccessMode.ReadWriteMany)),
            "spec.accessModes"),
        bad("unexpected-namespace", ObjectMeta.of("unexpected-namespace", "foo"), b -> b, "metadata.namespace"),
        bad("bad-name", ObjectMeta.of("unexpected-namespace", "123*Bad(Name"), b -> b, "metadata.name",
            "metadata.namespace"),
        bad("missing-name", ObjectMeta.of(""), b -> b, "metadata.name"),
        bad("missing-capacity", ObjectMeta.of("foo"), b -> b.capacity(io.fleetkit.api.resource.ResourceList.EMPTY),
            "spec.capacity.storage"),
        bad("bad-volume-zero-capacity", ObjectMeta.of("foo"), b -> b.storage("0"), "spec.capacity.storage"),
        bad("missing-accessmodes", ObjectMeta.of("missing-accessmodes", "goodname"), b -> b.accessModes(List.of()),
            "metadata.namespace", "spec.accessModes"),
        bad("host mount of / with recycle reclaim policy", ObjectMeta.of("bad-recycle-do-not-want"),
            b -> b.source(new PersistentVolumeSource.HostPath("/", "Directory"))
                .persistentVolumeReclaimPolicy(PersistentVolumeReclaimPolicy.Recycle),
            "spec.persistentVolumeReclaimPolicy"),
        bad("host mount of / with recycle reclaim policy 2", ObjectMeta.of("bad-recycle-do-not-want"),
            b -> b.source(new PersistentVolumeSource.HostPath("/a/..", "Directory"))
                .persistentVolumeReclaimPolicy(PersistentVolumeReclaimPolicy.Recycle),
            "spec.persistentVolumeReclaimPolicy", "spec.hostPath.path"),
        bad("invalid-storage-class-name", ObjectMeta.of("invalid-storage-class-name"),
            b -> b.storageClassName("-invalid-"), "spec.storageClassName"),
        bad("bad-hostpath-volume-backsteps", ObjectMeta.of("foo"),
            b -> b.source(new PersistentVolumeSource.HostPath("/foo/..", "Directory"))
                .storageClassName("backstep-hostpath"),
            "spec.hostPath.path"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void testValidatePersistentVolumes(String name, Runnable build, List<String> fields) {
    List<Violation> got = violations(build);

    if (fields.isEmpty()) {
      assertThat(got).as("%s is valid", name).isEmpty();
    } else {
      assertThat(got).as("%s fails", name).isNotEmpty();
      assertThat(got).extracting(Violation::field).as("fields of %s", name).containsAll(fields)
          .allMatch(fields::contains);
    }
  }

  /** TestValidatePersistentVolumes "volume-node-affinity": a volume reachable from nodes labelled foo=bar. */
  @Test
  void testValidatePersistentVolumes_volumeNodeAffinity_isValid() {
    assertThat(violations(() -> withNodeAffinity(affinity("foo", "bar")))).isEmpty();
  }

  /**
   * TestValidatePersistentVolumes "volume-empty-node-affinity": upstream's affinity has no {@code required} selector
   * ({@code must specify required node constraints}); FleetKit's record always has one, so the case is a selector
   * without terms, refused on its terms.
   */
  @Test
  void testValidatePersistentVolumes_volumeEmptyNodeAffinity_isRefused() {
    assertThat(violations(() -> withNodeAffinity(new VolumeNodeAffinity(new NodeSelector(List.of())))))
        .extracting(Violation::field, Violation::rule).containsExactly(org.assertj.core.groups.Tuple.tuple(
            "spec.nodeAffinity.required.nodeSelectorTerms",
            "Required value: must have at least one node selector term"));
  }

  /** TestValidatePersistentVolumes "volume-bad-node-affinity": an expression without a key. */
  @Test
  void testValidatePersistentVolumes_volumeBadNodeAffinity_isRefusedOnTheKey() {
    List<Violation> got = violations(() -> withNodeAffinity(affinity("", "test-label-value")));

    assertThat(got).isNotEmpty().extracting(Violation::field)
        .containsOnly("spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].key");
  }

  /** The rules behind "bad-volume-zero-capacity": zero is not greater than zero; a negative value breaks both. */
  @Test
  void capacity_zeroOrNegative_isRefusedWithKubernetesRules() {
    assertThat(violations(() -> PersistentVolume.of(ObjectMeta.of("foo"), spec().storage("0").build())))
        .extracting(Violation::rule).containsExactly("must be greater than zero");
    assertThat(violations(() -> PersistentVolume.of(ObjectMeta.of("foo"), spec().storage("-1").build())))
        .extracting(Violation::field, Violation::rule, Violation::value).containsExactly(
            org.assertj.core.groups.Tuple.tuple("spec.capacity.storage", "must be a valid resource quantity", "-1"),
            org.assertj.core.groups.Tuple.tuple("spec.capacity.storage", "must be greater than zero", "-1"));
  }

  /**
   * The rules behind the two "host mount of / with recycle reclaim policy" cases: the Recycle policy FleetKit
   * refuses anyway, and upstream's own rule for a host path that cleans to {@code /}; no second rule for another
   * path.
   */
  @Test
  void recycle_onTheHostRoot_isForbiddenTooAsUpstream() {
    List<Violation> root = violations(() -> PersistentVolume.of(ObjectMeta.of("bad-recycle-do-not-want"),
        spec().source(new PersistentVolumeSource.HostPath("/.//./", "Directory"))
            .persistentVolumeReclaimPolicy(PersistentVolumeReclaimPolicy.Recycle).build()));
    List<Violation> other = violations(() -> PersistentVolume.of(ObjectMeta.of("recycle-elsewhere"),
        spec().source(new PersistentVolumeSource.HostPath("/a/b/..", "Directory"))
            .persistentVolumeReclaimPolicy(PersistentVolumeReclaimPolicy.Recycle).build()));

    assertThat(root).extracting(Violation::rule).containsExactly(PersistentVolume.RECYCLE_DEPRECATED,
        "Forbidden: may not be 'recycle' for a hostPath mount of '/'");
    assertThat(other).extracting(Violation::field, Violation::rule).containsExactly(
        org.assertj.core.groups.Tuple.tuple("spec.persistentVolumeReclaimPolicy", PersistentVolume.RECYCLE_DEPRECATED),
        org.assertj.core.groups.Tuple.tuple("spec.hostPath.path", "must not contain '..'"));
  }

  /**
   * A PersistentVolume's host path follows the pod volume's rules ({@code validateHostPathVolumeSource} for both):
   * no case of the table sets an unknown {@code type}; upstream's message lists the supported ones.
   */
  @Test
  void hostPath_unknownType_isRefusedAsForAPodVolume() {
    List<Violation> got = violations(() -> PersistentVolume.of(ObjectMeta.of("foo"),
        spec().source(new PersistentVolumeSource.HostPath("/mnt/data", "Folder")).build()));
    List<Violation> empty = violations(() -> PersistentVolume.of(ObjectMeta.of("foo"),
        spec().source(new PersistentVolumeSource.HostPath("", "Folder")).build()));

    assertThat(got).extracting(Violation::field, Violation::rule, Violation::value).containsExactly(
        org.assertj.core.groups.Tuple.tuple("spec.hostPath.type", "Unsupported value: supported values: \"\", "
            + "\"BlockDevice\", \"CharDevice\", \"Directory\", \"DirectoryOrCreate\", \"File\", \"FileOrCreate\", "
            + "\"Socket\"", "Folder"));
    assertThat(empty).extracting(Violation::field).containsExactly("spec.hostPath.path"); // nothing else without it
    for (String type : List.of("", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File",
        "FileOrCreate", "Socket")) {
      assertThat(violations(() -> PersistentVolume.of(ObjectMeta.of("foo"),
          spec().source(new PersistentVolumeSource.HostPath("/mnt/data", type)).build()))).as(type).isEmpty();
    }
  }

  /** TestPVVolumeMode's success cases (upstream's {@code createTestVolModePV}); "nil" is the default, Filesystem. */
  @Test
  void testPVVolumeMode_blockFilesystemAndUnset_areValid() {
    for (PersistentVolumeMode mode : PersistentVolumeMode.values()) {
      assertThat(violations(() -> PersistentVolume.of(ObjectMeta.of("foo"),
          spec().storageClassName("test-storage-class").volumeMode(mode).build()))).as(mode.name()).isEmpty();
    }
    PersistentVolume unset = PersistentVolume.of(ObjectMeta.of("foo"),
        spec().storageClassName("test-storage-class").build());
    assertThat(unset.spec().volumeMode()).isEqualTo(PersistentVolumeMode.Filesystem);
  }
}
