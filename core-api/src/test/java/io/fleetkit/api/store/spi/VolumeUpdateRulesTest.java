package io.fleetkit.api.store.spi;

import static io.fleetkit.api.core.PersistentVolumeAccessMode.ReadOnlyMany;
import static io.fleetkit.api.core.PersistentVolumeAccessMode.ReadWriteOnce;
import static io.fleetkit.api.core.PersistentVolumeAccessMode.ReadWriteOncePod;
import static io.fleetkit.api.core.PersistentVolumeClaimPhase.Bound;
import static io.fleetkit.api.core.PersistentVolumeClaimPhase.Pending;
import static io.fleetkit.api.core.PersistentVolumeMode.Block;
import static io.fleetkit.api.core.PersistentVolumeMode.Filesystem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.core.PersistentVolumeAccessMode;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.PersistentVolumeClaimPhase;
import io.fleetkit.api.core.PersistentVolumeClaimSpec;
import io.fleetkit.api.core.PersistentVolumeClaimStatus;
import io.fleetkit.api.core.PersistentVolumeMode;
import io.fleetkit.api.core.PersistentVolumeSource;
import io.fleetkit.api.core.PersistentVolumeSpec;
import io.fleetkit.api.core.VolumeNodeAffinity;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.NodeSelector;
import io.fleetkit.api.scheduling.NodeSelectorOperator;
import io.fleetkit.api.scheduling.NodeSelectorRequirement;
import io.fleetkit.api.scheduling.NodeSelectorTerm;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The update rules of PersistentVolumeClaims and PersistentVolumes, ported from kubernetes
 * {@code pkg/apis/core/validation/validation_test.go} at commit 000f26050b9be6fb3d79fae95e06b47fc96128cd:
 *
 * <ul>
 *   <li>{@code TestValidatePersistentVolumeClaimUpdate}, 26 of 50, with the default feature gates of that version
 *       (RecoverVolumeExpansionFailure and VolumeAttributesClass on). Upstream decides "bound" on the new claim's
 *       status, which the API server's strategy copied from the stored claim before validating; FleetKit keeps the
 *       stored status on an update and decides on it, so each case's stored claim carries the phase of upstream's new
 *       claim (and the capacity of its old one, which upstream reads there). An unset {@code volumeMode} is
 *       FleetKit's (and the v1 API's) default, Filesystem. Left out: "invalid-update-volume-mode-nil-to-file" and
 *       "...-file-to-nil" (with the default they change nothing); the nine cases about the beta storage-class
 *       annotation (not read by FleetKit); "invalid-size-update-resize-enabled" and
 *       "invalid-expand-shrink-recover-disabled" (RecoverVolumeExpansionFailure off); the two data-source cases and
 *       the nine volumeAttributesClassName cases (not modelled).</li>
 *   <li>{@code TestValidatePersistentVolumeSourceUpdate} 3 of 28 (the 25 CSI secret-reference cases: secret
 *       references are not modelled; "condition-update-source-type" changes the host path to a CSI source where
 *       upstream uses FlexVolume, which is not modelled), {@code TestValidateVolumeNodeAffinityUpdate} 34 of 34
 *       (upstream's GCE persistent disk source is not modelled: these volumes have none), {@code
 *       TestAlphaPVVolumeModeUpdate} 8 of 10 ("invalid-update-volume-mode-nil-to-file" and "...-file-to-nil": with
 *       the default Filesystem they change nothing). {@code TestValidatePeristentVolumeAttributesClassUpdate}, 12
 *       cases: not modelled.</li>
 * </ul>
 */
final class VolumeUpdateRulesTest {
  private static final List<PersistentVolumeAccessMode> RWO_ROX = List.of(ReadWriteOnce, ReadOnlyMany);
  private static final List<PersistentVolumeAccessMode> RWO = List.of(ReadWriteOnce);
  private static final List<PersistentVolumeAccessMode> ROX = List.of(ReadOnlyMany);
  private static final Map<String, String> DESCRIPTION = Map.of("description", "foo-description");
  private static final Map<String, String> DESCRIPTION_2 = Map.of("description", "updated-or-added-foo-description");

  // ------------------------------------------------------------------------------------------------- claims

  /** A claim {@code ns/foo}; {@code phase} and {@code capacity} (empty for none) make its status. */
  private static PersistentVolumeClaim claim(List<PersistentVolumeAccessMode> modes, String storage,
      @Nullable String className, PersistentVolumeMode mode, String volumeName, Map<String, String> annotations,
      PersistentVolumeClaimPhase phase, String capacity) {
    PersistentVolumeClaimSpec spec = PersistentVolumeClaimSpec.builder().accessModes(modes).storage(storage)
        .storageClassName(className).volumeMode(mode).volumeName(volumeName).build();
    ResourceList cap = capacity.isEmpty() ? ResourceList.EMPTY
        : ResourceList.builder().put("storage", capacity).build();
    return new PersistentVolumeClaim(ObjectMeta.of("ns", "foo").toBuilder().annotations(annotations).build(), spec,
        new PersistentVolumeClaimStatus(phase, List.of(), cap, List.of()));
  }

  private static PersistentVolumeClaim simple(List<PersistentVolumeAccessMode> modes, String storage,
      String volumeName, PersistentVolumeClaimPhase phase) {
    return claim(modes, storage, null, Filesystem, volumeName, Map.of(), phase, "");
  }

  private static PersistentVolumeClaim withMode(PersistentVolumeMode mode, PersistentVolumeClaimPhase phase) {
    return claim(RWO, "10G", null, mode, "volume", Map.of(), phase, "");
  }

  private static PersistentVolumeClaim withClass(@Nullable String className) {
    return claim(ROX, "10G", className, Filesystem, "", Map.of(), Pending, "");
  }

  private static PersistentVolumeClaim shrink(String storage, PersistentVolumeClaimPhase phase) {
    return claim(RWO_ROX, storage, null, Filesystem, "", Map.of(), phase, "10G");
  }

  @Test
  void claim_upstreamCases() {
    // valid-update-volumeName-only (stored: validClaim, with the new claim's unset phase)
    ok(simple(RWO_ROX, "10G", "", Pending), simple(RWO_ROX, "10G", "volume", Pending));
    // valid-no-op-update
    ok(simple(RWO_ROX, "10G", "volume", Pending), simple(RWO_ROX, "10G", "volume", Pending));
    // invalid-update-change-resources-on-bound-claim (neither claim has a status: not bound)
    refused(simple(RWO_ROX, "10G", "volume", Pending), simple(RWO_ROX, "20G", "volume", Pending), "spec");
    // invalid-update-change-access-modes-on-bound-claim
    refused(simple(RWO_ROX, "10G", "volume", Pending), simple(RWO, "10G", "volume", Pending), "spec");
    // valid-update-volume-mode-block-to-block, valid-update-volume-mode-file-to-file
    ok(withMode(Block, Pending), withMode(Block, Pending));
    ok(withMode(Filesystem, Pending), withMode(Filesystem, Pending));
    // invalid-update-volume-mode-to-block, invalid-update-volume-mode-to-file
    refused(withMode(Filesystem, Pending), withMode(Block, Pending), "volumeMode");
    refused(withMode(Block, Pending), withMode(Filesystem, Pending), "volumeMode");
    // invalid-update-volume-mode-nil-to-block, invalid-update-volume-mode-block-to-nil (unset is Filesystem)
    refused(withMode(Filesystem, Pending), withMode(Block, Pending), "volumeMode");
    refused(withMode(Block, Pending), withMode(Filesystem, Pending), "volumeMode");
    // invalid-update-volume-mode-empty-to-mode: validClaim (RWO+ROX, no volume name, Bound) to the Block claim
    refused(simple(RWO_ROX, "10G", "", Pending), withMode(Block, Pending), "volumeMode");
    // invalid-update-volume-mode-mode-to-empty (stored: the Block claim with the new validClaim's Bound phase)
    refused(withMode(Block, Bound), simple(RWO_ROX, "10G", "", Bound), "volumeMode");
    // valid-update-mutable-annotation
    ok(claim(ROX, "10G", null, Filesystem, "", DESCRIPTION, Pending, ""),
        claim(ROX, "10G", null, Filesystem, "volume", DESCRIPTION_2, Pending, ""));
    // valid-update-add-annotation
    ok(simple(RWO_ROX, "10G", "", Pending), claim(RWO_ROX, "10G", null, Filesystem, "volume", DESCRIPTION_2,
        Pending, ""));
    // valid-size-update-resize-disabled, valid-size-update-resize-enabled (the same pair)
    ok(simple(RWO_ROX, "10G", "", Bound), simple(RWO_ROX, "15G", "", Bound));
    ok(simple(RWO_ROX, "10G", "", Bound), simple(RWO_ROX, "15G", "", Bound));
    // unbound-size-update-resize-enabled (stored: validClaim with the new claim's Pending phase)
    refused(simple(RWO_ROX, "10G", "", Pending), simple(RWO_ROX, "12G", "", Pending), "spec");
    // valid-upgrade-nil-storage-class-spec-to-spec
    ok(withClass(null), withClass("fast"));
    // invalid-upgrade-not-nil-storage-class-spec-to-spec, invalid-upgrade-to-nil-storage-class-spec-to-spec
    refused(withClass("fast"), withClass("fast2"), "spec");
    refused(withClass("fast"), withClass(null), "spec");
    // invalid-upgrade-storage-class-in-spec
    refused(withClass("fast"), withClass("fast2"), "spec");
    // valid-update-rwop-used-and-rwop-feature-disabled
    ok(claim(List.of(ReadWriteOncePod), "10G", null, Filesystem, "volume", Map.of(), Pending, ""),
        claim(List.of(ReadWriteOncePod), "10G", null, Filesystem, "volume", DESCRIPTION_2, Pending, ""));
    // valid-expand-shrink-resize-enabled: 15G to 13G, above status.capacity 10G
    ok(shrink("15G", Bound), shrink("13G", Bound));
    // invalid-expand-shrink-resize-enabled (3G), invalid-expand-shrink-to-status-resize-enabled (10G)
    refused(shrink("15G", Bound), shrink("3G", Bound), "spec.resources.requests.storage");
    refused(shrink("15G", Bound), shrink("10G", Bound), "spec.resources.requests.storage");
    // unbound-size-shrink-resize-enabled (stored phase: the new claim's Pending)
    refused(shrink("15G", Pending), shrink("12G", Pending), "spec");
  }

  @Test
  void claim_refusal_namesObjectFieldAndChangedParts() {
    assertThatThrownBy(() -> UpdateChecks.update(simple(RWO_ROX, "10G", "volume", Pending),
        simple(RWO, "10G", "volume", Pending), false))
        .hasMessageContaining("PersistentVolumeClaim ns/foo: spec Forbidden: spec is immutable after creation")
        .hasMessageContaining("changed: spec.accessModes");
  }

  // ------------------------------------------------------------------------------------------------ volumes

  private static final String ZONE_BETA = "failure-domain.beta.kubernetes.io/zone";
  private static final String ZONE_GA = "topology.kubernetes.io/zone";
  private static final String REGION_BETA = "failure-domain.beta.kubernetes.io/region";
  private static final String REGION_GA = "topology.kubernetes.io/region";
  private static final String OS_BETA = "beta.kubernetes.io/os";
  private static final String OS_GA = "kubernetes.io/os";
  private static final String ARCH_BETA = "beta.kubernetes.io/arch";
  private static final String ARCH_GA = "kubernetes.io/arch";
  private static final String TYPE_BETA = "beta.kubernetes.io/instance-type";
  private static final String TYPE_GA = "node.kubernetes.io/instance-type";

  private static PersistentVolume volume(PersistentVolumeSpec.Builder spec) {
    return PersistentVolume.of(ObjectMeta.of("foo"), spec.build());
  }

  /** Upstream's {@code validVolume}: 1G, RWO, host path {@code /foo} of type Directory, class {@code valid}. */
  private static PersistentVolumeSpec.Builder hostPath(String path) {
    return PersistentVolumeSpec.builder().storage("1G").accessMode(ReadWriteOnce).storageClassName("valid")
        .source(new PersistentVolumeSource.HostPath(path, "Directory"));
  }

  @Test
  void volumeSource_upstreamCases() {
    ok(volume(hostPath("/foo")), volume(hostPath("/foo"))); // condition-no-update
    // condition-update-source-type (upstream: to FlexVolume, not modelled)
    refused(volume(hostPath("/foo")), volume(hostPath("/foo").source(PersistentVolumeSource.Csi.of(
        "blue.kubernetes.io", "vol-1"))), "spec.persistentvolumesource");
    refused(volume(hostPath("/foo")), volume(hostPath("/updated")), "spec.persistentvolumesource"); // ...deep
  }

  /** Upstream's {@code testVolumeWithNodeAffinity}: 10G, RWO, class {@code test-storage-class}. */
  private static PersistentVolume affine(@Nullable VolumeNodeAffinity affinity) {
    return volume(PersistentVolumeSpec.builder().storage("10G").accessMode(ReadWriteOnce)
        .storageClassName("test-storage-class").nodeAffinity(affinity));
  }

  private static VolumeNodeAffinity simple(String key, String value) {
    return terms(List.of(List.of(key, value)));
  }

  /** Terms of {@code key In [value]} requirements: each inner list alternates keys and values. */
  private static VolumeNodeAffinity terms(List<List<String>> terms) {
    List<NodeSelectorTerm> out = new ArrayList<>();
    for (List<String> pairs : terms) {
      List<NodeSelectorRequirement> reqs = new ArrayList<>();
      for (int i = 0; i < pairs.size(); i += 2) {
        reqs.add(new NodeSelectorRequirement(pairs.get(i), NodeSelectorOperator.In, List.of(pairs.get(i + 1))));
      }
      out.add(new NodeSelectorTerm(reqs, List.of()));
    }
    return new VolumeNodeAffinity(new NodeSelector(out));
  }

  @Test
  void volumeNodeAffinity_upstreamCases() {
    ok(affine(null), affine(null)); // nil-nothing-changed
    ok(affine(simple("foo", "bar")), affine(simple("foo", "bar"))); // affinity-nothing-changed
    refused(affine(simple("foo", "bar")), affine(simple("foo", "bar2")), "spec.nodeAffinity"); // affinity-changed
    refused(affine(simple("foo", "bar")), affine(simple("foo2", "bar")), "spec.nodeAffinity"); // ...non-beta-label
    String[][] betaGa = {{ZONE_BETA, ZONE_GA}, {REGION_BETA, REGION_GA}, {OS_BETA, OS_GA}, {ARCH_BETA, ARCH_GA},
        {TYPE_BETA, TYPE_GA}};
    for (String[] pair : betaGa) { // affinity-{zone,region,os,arch,instanceType}-...
      ok(affine(simple(pair[0], "bar")), affine(simple(pair[0], "bar"))); // beta-(label-)unchanged
      ok(affine(simple(pair[0], "bar")), affine(simple(pair[1], "bar"))); // beta-label-to-GA
      refused(affine(simple(pair[0], "bar")), affine(simple("foo", "bar")), "spec.nodeAffinity"); // ...-to-non-GA
      refused(affine(simple(pair[1], "bar")), affine(simple(pair[0], "bar")), "spec.nodeAffinity"); // GA-changed
    }
    // affinity-same-terms-expressions-length-beta-to-GA-partially-changed
    ok(affine(terms(List.of(List.of("foo", "bar"), List.of(ZONE_BETA, "bar", REGION_BETA, "bar"),
            List.of(OS_BETA, "bar", ARCH_BETA, "bar", TYPE_BETA, "bar")))),
        affine(terms(List.of(List.of("foo", "bar"), List.of(ZONE_GA, "bar", REGION_BETA, "bar"),
            List.of(OS_BETA, "bar", ARCH_GA, "bar", TYPE_GA, "bar")))));
    // affinity-same-terms-expressions-length-beta-to-non-GA-partially-changed
    refused(affine(terms(List.of(List.of("foo", "bar"), List.of(ZONE_BETA, "bar", REGION_BETA, "bar")))),
        affine(terms(List.of(List.of("foo", "bar"), List.of(ZONE_BETA, "bar", "foo", "bar")))),
        "spec.nodeAffinity");
    // affinity-same-terms-expressions-length-GA-partially-changed
    refused(affine(terms(List.of(List.of("foo", "bar"), List.of(ZONE_GA, "bar", ZONE_BETA, "bar", OS_GA, "bar")))),
        affine(terms(List.of(List.of("foo", "bar"), List.of(ZONE_BETA, "bar", ZONE_BETA, "bar", OS_GA, "bar")))),
        "spec.nodeAffinity");
    // affinity-same-terms-expressions-length-beta-fully-changed
    ok(affine(terms(List.of(List.of("foo", "bar"), List.of(ZONE_BETA, "bar", REGION_BETA, "bar"),
            List.of(OS_BETA, "bar", ARCH_BETA, "bar", TYPE_BETA, "bar")))),
        affine(terms(List.of(List.of("foo", "bar"), List.of(ZONE_GA, "bar", REGION_GA, "bar"),
            List.of(OS_GA, "bar", ARCH_GA, "bar", TYPE_GA, "bar")))));
    // affinity-same-terms-expressions-length-beta-GA-mixed-fully-changed
    refused(affine(terms(List.of(List.of("foo", "bar"), List.of(ZONE_BETA, "bar", ZONE_GA, "bar")))),
        affine(terms(List.of(List.of("foo", "bar"), List.of(ZONE_GA, "bar", ZONE_BETA, "bar2")))),
        "spec.nodeAffinity");
    // affinity-same-terms-length-different-expressions-length-beta-changed
    refused(affine(terms(List.of(List.of(ZONE_BETA, "bar")))),
        affine(terms(List.of(List.of(ZONE_GA, "bar", REGION_BETA, "bar")))), "spec.nodeAffinity");
    // affinity-different-terms-expressions-length-beta-changed
    refused(affine(terms(List.of(List.of(ZONE_BETA, "bar")))),
        affine(terms(List.of(List.of(ZONE_GA, "bar"), List.of(ARCH_GA, "bar")))), "spec.nodeAffinity");
    ok(affine(null), affine(simple("foo", "bar"))); // nil-to-obj
    refused(affine(simple("foo", "bar")), affine(null), "spec.nodeAffinity"); // obj-to-nil
    ok(affine(simple(TYPE_BETA, "-1")), affine(simple(TYPE_GA, "-1"))); // old affinity already has invalid ...
  }

  @Test
  void volumeNodeAffinity_refusal_namesRule() {
    assertThatThrownBy(() -> UpdateChecks.update(affine(simple("foo", "bar")), affine(simple("foo", "bar2")),
        false))
        .hasMessageContaining("PersistentVolume foo: spec.nodeAffinity field is immutable, except for updating from"
            + " beta label to GA");
  }

  /** Upstream's {@code createTestVolModePV}: a host-path volume with {@code volumeMode}. */
  private static PersistentVolume withMode(PersistentVolumeMode mode) {
    return volume(hostPath("/foo").volumeMode(mode));
  }

  @Test
  void volumeMode_upstreamCases() {
    ok(withMode(Block), withMode(Block)); // valid-update-volume-mode-block-to-block
    ok(withMode(Filesystem), withMode(Filesystem)); // valid-update-volume-mode-file-to-file
    refused(withMode(Filesystem), withMode(Block), "spec.volumeMode"); // invalid-update-volume-mode-to-block
    refused(withMode(Block), withMode(Filesystem), "spec.volumeMode"); // invalid-update-volume-mode-to-file
    refused(withMode(Filesystem), withMode(Block), "spec.volumeMode"); // ...-nil-to-block (unset: Filesystem)
    refused(withMode(Block), withMode(Filesystem), "spec.volumeMode"); // ...-block-to-nil
    ok(withMode(Filesystem), withMode(Filesystem)); // invalid-update-volume-mode-nil-to-nil (valid upstream too)
    refused(volume(hostPath("/foo")), withMode(Block), "spec.volumeMode"); // invalid-update-volume-mode-empty-to-mode
  }

  @Test
  void volume_mutableParts_mayChange() {
    PersistentVolume old = volume(hostPath("/foo"));
    ok(old, volume(hostPath("/foo").storage("2G").accessModes(RWO_ROX).storageClassName("other")
        .mountOptions(List.of("ro"))));
  }

  // ------------------------------------------------------------------------------------------------ helpers

  private static void ok(ApiObject<?> old, ApiObject<?> updated) {
    assertThatCode(() -> UpdateChecks.update(old, updated, false)).doesNotThrowAnyException();
  }

  private static void refused(ApiObject<?> old, ApiObject<?> updated, String field) {
    assertThatThrownBy(() -> UpdateChecks.update(old, updated, false))
        .isInstanceOf(ValidationException.class)
        .satisfies(e -> assertThat(((ValidationException) e).violations()).extracting(Violation::field)
            .contains(field));
  }
}
