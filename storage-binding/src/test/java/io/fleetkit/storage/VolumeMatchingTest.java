package io.fleetkit.storage;

import static io.fleetkit.storage.Fixtures.ROX;
import static io.fleetkit.storage.Fixtures.RWO;
import static io.fleetkit.storage.Fixtures.RWX;
import static io.fleetkit.storage.Fixtures.makePvc;
import static io.fleetkit.storage.Fixtures.pv;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.ClaimReference;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.core.PersistentVolumeAccessMode;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.PersistentVolumeMode;
import io.fleetkit.api.core.PersistentVolumePhase;
import io.fleetkit.api.labels.LabelSelector;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ported from kubernetes/kubernetes pkg/controller/volume/persistentvolume/index_test.go (case data only; the
 * volume's upstream UID is kept as {@code metadata.uid}). Claim references with only a UID become references to a
 * claim {@code other/other} with that UID, since FleetKit requires a name and namespace.
 */
final class VolumeMatchingTest {
  private static final String CLASS_SILVER = "silver";
  private static final String CLASS_GOLD = "gold";
  private static final String CLASS_LARGE = "large";
  private static final String CLASS_WAIT = "wait";

  private static ClaimReference otherClaim(String uid) {
    return new ClaimReference("other", "other", uid);
  }

  /** index_test.go createTestVolumes. */
  static List<PersistentVolume> createTestVolumes() {
    List<PersistentVolumeAccessMode> rwoRox = List.of(RWO, ROX);
    List<PersistentVolumeAccessMode> all3 = List.of(RWO, ROX, RWX);
    Map<String, String> shouldExist = Map.of("should-exist", "true");
    PersistentVolumePhase avail = PersistentVolumePhase.Available;
    return List.of(
        pv("gce-pd-10", "gce003", "10G", rwoRox, b -> b),
        pv("gce-pd-20", "gce004", "20G", rwoRox, Map.of(), PersistentVolumePhase.Bound,
            b -> b.claimRef(otherClaim("def456"))),
        pv("nfs-5", "nfs002", "5G", all3, b -> b),
        pv("gce-pd-1", "gce001", "1G", rwoRox, Map.of(), PersistentVolumePhase.Bound,
            b -> b.claimRef(otherClaim("abc123"))),
        pv("nfs-10", "nfs003", "10G", all3, b -> b),
        pv("gce-pd-5", "gce002", "5G", rwoRox, b -> b),
        pv("nfs-1", "nfs001", "1G", all3, b -> b),
        pv("gce-pd-2", "gce0022", "20000G", List.of(RWO), shouldExist, avail, b -> b),
        pv("gce-pd-silver1", "gce0023", "10000G", List.of(RWO), shouldExist, avail,
            b -> b.storageClassName(CLASS_SILVER)),
        pv("gce-pd-silver2", "gce0024", "100G", List.of(RWO), b -> b.storageClassName(CLASS_SILVER)),
        pv("gce-pd-gold", "gce0025", "50G", List.of(RWO), b -> b.storageClassName(CLASS_GOLD)),
        pv("local-pd-very-large", "local001", "200E", all3, b -> b.storageClassName(CLASS_LARGE)),
        pv("local-pd-extremely-large", "local002", "800E", all3, b -> b.storageClassName(CLASS_LARGE)),
        pv("affinity-pv", "affinity001", "100G", rwoRox,
            b -> b.storageClassName(CLASS_WAIT).nodeAffinity(Fixtures.affinity("key1", "value1"))),
        pv("affinity-pv2", "affinity002", "150G", rwoRox,
            b -> b.storageClassName(CLASS_WAIT).nodeAffinity(Fixtures.affinity("key1", "value1"))),
        pv("affinity-prebound", "affinity003", "100G", rwoRox, b -> b.storageClassName(CLASS_WAIT)
            .claimRef(ClaimReference.of("myns", "claim02")).nodeAffinity(Fixtures.affinity("key1", "value1"))),
        pv("affinity-pv3", "affinity003", "200G", rwoRox,
            b -> b.storageClassName(CLASS_WAIT).nodeAffinity(Fixtures.affinity("key1", "value3"))),
        pv("affinity-pv4-pending", "affinity004-pending", "200G", rwoRox, Map.of(), PersistentVolumePhase.Pending,
            b -> b.storageClassName(CLASS_WAIT).nodeAffinity(Fixtures.affinity("key1", "value4"))),
        pv("affinity-pv4-failed", "affinity004-failed", "200G", rwoRox, Map.of(), PersistentVolumePhase.Failed,
            b -> b.storageClassName(CLASS_WAIT).nodeAffinity(Fixtures.affinity("key1", "value4"))),
        pv("affinity-pv4-released", "affinity004-released", "200G", rwoRox, Map.of(),
            PersistentVolumePhase.Released,
            b -> b.storageClassName(CLASS_WAIT).nodeAffinity(Fixtures.affinity("key1", "value4"))),
        // upstream: no phase at all; FleetKit's initial phase is Pending
        pv("affinity-pv4-empty", "affinity004-empty", "200G", rwoRox, Map.of(), PersistentVolumePhase.Pending,
            b -> b.storageClassName(CLASS_WAIT).nodeAffinity(Fixtures.affinity("key1", "value4"))));
  }

  private static String uidOf(Optional<PersistentVolume> v) {
    return v.map(p -> p.metadata().uid()).orElse("");
  }

  static Stream<Arguments> matchVolumeScenarios() {
    LabelSelector shouldNotExist = LabelSelector.of(Map.of("should-not-exist", "true"));
    LabelSelector shouldExist = LabelSelector.of(Map.of("should-exist", "true"));
    return Stream.of(
        Arguments.of("successful-match-gce-10", "gce-pd-10", makePvc("8G", b -> b)),
        Arguments.of("successful-match-nfs-5", "nfs-5", makePvc("5G", b -> b.accessModes(List.of(ROX, RWO, RWX)))),
        Arguments.of("successful-skip-1g-bound-volume", "gce-pd-5", makePvc("1G", b -> b)),
        Arguments.of("successful-no-match", "", makePvc("999G", b -> b)),
        Arguments.of("successful-no-match-due-to-label", "", makePvc("999G", b -> b.selector(shouldNotExist))),
        Arguments.of("successful-no-match-due-to-size-constraint-with-label-selector", "",
            makePvc("20000G", b -> b.selector(shouldExist).accessModes(List.of(ROX, RWO)))),
        Arguments.of("successful-match-due-with-constraint-and-label-selector", "gce-pd-2",
            makePvc("20000G", b -> b.selector(shouldExist).accessModes(List.of(RWO)))),
        Arguments.of("successful-match-with-class", "gce-pd-silver1",
            makePvc("1G", b -> b.selector(shouldExist).accessModes(List.of(RWO)).storageClassName(CLASS_SILVER))),
        Arguments.of("successful-match-with-class-and-labels", "gce-pd-silver2",
            makePvc("1G", b -> b.accessModes(List.of(RWO)).storageClassName(CLASS_SILVER))),
        Arguments.of("successful-match-very-large", "local-pd-very-large",
            makePvc("1E", b -> b.accessModes(List.of(RWO)).storageClassName(CLASS_LARGE))),
        Arguments.of("successful-match-exact-extremely-large", "local-pd-extremely-large",
            makePvc("800E", b -> b.accessModes(List.of(RWO)).storageClassName(CLASS_LARGE))),
        Arguments.of("successful-no-match-way-too-large", "",
            makePvc("950E", b -> b.accessModes(List.of(RWO)).storageClassName(CLASS_LARGE))));
  }

  // index_test.go TestMatchVolume
  @ParameterizedTest(name = "{0}")
  @MethodSource("matchVolumeScenarios")
  void findBestMatchForClaim_testMatchVolume_matchesUpstream(String name, String expected,
      PersistentVolumeClaim claim) {
    assertThat(uidOf(VolumeMatching.findBestMatchForClaim(claim, createTestVolumes(), false))).isEqualTo(expected);
  }

  // index_test.go TestMatchingWithBoundVolumes
  @Test
  void findBestMatchForClaim_similarVolumeBound_picksTheFreeOne() {
    PersistentVolume pv1 = pv("gce-pd-1", "gce001", "1G", List.of(RWO, ROX), Map.of(), PersistentVolumePhase.Bound,
        b -> b.claimRef(otherClaim("abc123")));
    PersistentVolume pv2 = pv("gce-pd-2", "gce002", "1G", List.of(RWO, ROX), b -> b);
    Optional<PersistentVolume> v = VolumeMatching.findBestMatchForClaim(makePvc("1G", b -> b), List.of(pv1, pv2),
        false);
    assertThat(v.map(p -> p.metadata().name())).contains("gce002");
  }

  // index_test.go TestListByAccessModes
  @Test
  void groupByAccessModes_testVolumes_groupsByExactModeSet() {
    var groups = VolumeMatching.groupByAccessModes(createTestVolumes());
    List<PersistentVolume> rwoRox = new ArrayList<>(groups.get(Set.of(RWO, ROX)));
    rwoRox.sort(Comparator.comparing(PersistentVolume::storage));
    assertThat(rwoRox.subList(0, 3)).extracting(p -> p.metadata().uid())
        .containsExactly("gce-pd-1", "gce-pd-5", "gce-pd-10");
    List<PersistentVolume> all3 = new ArrayList<>(groups.get(Set.of(RWO, ROX, RWX)));
    all3.sort(Comparator.comparing(PersistentVolume::storage));
    assertThat(all3).extracting(p -> p.metadata().uid())
        .containsExactly("nfs-1", "nfs-5", "nfs-10", "local-pd-very-large", "local-pd-extremely-large");
  }

  // index_test.go TestAllPossibleAccessModes
  @Test
  void allPossibleMatchingAccessModes_rwoAndRwx_supersetsFewestFirst() {
    var groups = VolumeMatching.groupByAccessModes(createTestVolumes());
    List<Set<PersistentVolumeAccessMode>> rwo = VolumeMatching.allPossibleMatchingAccessModes(groups.keySet(),
        List.of(RWO));
    assertThat(rwo).hasSize(3).allSatisfy(m -> assertThat(m).contains(RWO));
    assertThat(rwo.get(0)).containsExactly(RWO);
    List<Set<PersistentVolumeAccessMode>> rwx = VolumeMatching.allPossibleMatchingAccessModes(groups.keySet(),
        List.of(RWX));
    assertThat(rwx).hasSize(1);
    assertThat(rwx.get(0)).contains(RWX);
  }

  // index_test.go TestFindingVolumeWithDifferentAccessModes (7 sequential checks)
  @Test
  void findBestMatchForClaim_differentAccessModes_prefersFewestModes() {
    PersistentVolume gce = pv("001", "gce", "10G", List.of(RWO, ROX), b -> b);
    PersistentVolume ebs = pv("002", "ebs", "10G", List.of(RWO), b -> b);
    PersistentVolume nfs = pv("003", "nfs", "10G", List.of(RWO, ROX, RWX), b -> b);
    PersistentVolumeClaim claim = makePvc("1G", b -> b.accessModes(List.of(RWO)));
    assertThat(best(claim, gce, ebs, nfs)).isEqualTo("ebs");
    assertThat(best(modes(claim, RWO, ROX), gce, ebs, nfs)).isEqualTo("gce");
    assertThat(best(modes(claim, RWX, RWO, ROX), gce, ebs, nfs)).isEqualTo("nfs");
    assertThat(best(modes(claim, RWX), gce, ebs, nfs)).isEqualTo("nfs");
    PersistentVolume ebsBound = Fixtures.withClaimRef(ebs, otherClaim(""));
    assertThat(best(modes(claim, RWO), gce, ebsBound, nfs)).isEqualTo("gce");
    PersistentVolume gceBound = Fixtures.withClaimRef(gce, otherClaim(""));
    assertThat(best(modes(claim, RWO), gceBound, ebsBound, nfs)).isEqualTo("nfs");
    assertThat(best(modes(claim, ROX), gce, ebsBound, nfs)).isEqualTo("gce");
  }

  private static PersistentVolumeClaim modes(PersistentVolumeClaim c, PersistentVolumeAccessMode... m) {
    return c.withSpec(c.spec().toBuilder().accessModes(List.of(m)).build());
  }

  private static String best(PersistentVolumeClaim claim, PersistentVolume... volumes) {
    return VolumeMatching.findBestMatchForClaim(claim, List.of(volumes), false).map(p -> p.metadata().name())
        .orElse("");
  }

  static Stream<Arguments> volumeModeScenarios() {
    PersistentVolumeMode block = PersistentVolumeMode.Block;
    PersistentVolumeMode fs = PersistentVolumeMode.Filesystem;
    // "nil" modes default to Filesystem on both sides.
    return Stream.of(
        Arguments.of("feature enabled - pvc block and pv filesystem", true, block, fs),
        Arguments.of("feature enabled - pvc filesystem and pv block", true, fs, block),
        Arguments.of("feature enabled - pvc block and pv block", false, block, block),
        Arguments.of("feature enabled - pvc filesystem and pv filesystem", false, fs, fs),
        Arguments.of("feature enabled - pvc filesystem and pv nil", false, fs, fs),
        Arguments.of("feature enabled - pvc nil and pv filesystem", false, fs, fs),
        Arguments.of("feature enabled - pvc nil and pv nil", false, fs, fs),
        Arguments.of("feature enabled - pvc nil and pv block", true, fs, block),
        Arguments.of("feature enabled - pvc block and pv nil", true, block, fs));
  }

  // index_test.go TestVolumeModeCheck (the feature-enabled scenarios; the gate no longer exists)
  @ParameterizedTest(name = "{0}")
  @MethodSource("volumeModeScenarios")
  void volumeModeMismatch_testVolumeModeCheck_matchesUpstream(String name, boolean mismatch,
      PersistentVolumeMode claimMode, PersistentVolumeMode volumeMode) {
    PersistentVolumeClaim claim = makePvc("8G", b -> b.volumeMode(claimMode).accessModes(List.of(RWO)));
    PersistentVolume vol = pv("local-1", "block", "10G", List.of(RWO), Fixtures.mode(volumeMode));
    assertThat(VolumeMatching.volumeModeMismatch(claim, vol)).isEqualTo(mismatch);
    // index_test.go TestFilteringVolumeModes: the same pairs through findBestMatchForClaim
    assertThat(VolumeMatching.findBestMatchForClaim(claim, List.of(vol), false)).isEqualTo(
        mismatch ? Optional.empty() : Optional.of(vol));
  }

  // index_test.go TestStorageObjectInUseProtectionFiltering (feature enabled)
  @Test
  void findBestMatchForClaim_volumeBeingDeleted_isSkipped() {
    PersistentVolume pv = pv("pv1", "pv1", "1G", List.of(RWO), b -> b);
    PersistentVolume deleting = pv.withMetadata(pv.metadata().toBuilder().deletionTimestamp(Instant.EPOCH).build());
    PersistentVolumeClaim pvc = Fixtures.pvc("myns", "pvc1", "1G", b -> b.accessModes(List.of(RWO)));
    assertThat(VolumeMatching.findBestMatchForClaim(pvc, List.of(pv), false)).contains(pv);
    assertThat(VolumeMatching.findBestMatchForClaim(pvc, List.of(deleting), false)).isEmpty();
  }

  // index_test.go TestFindingPreboundVolumes (5 sequential checks)
  @Test
  void findBestMatchForClaim_preboundVolumes_winWhenTheyFit() {
    PersistentVolumeClaim claim = Fixtures.pvc("myns", "claim01", "1Gi", b -> b.accessModes(List.of(RWO)));
    ClaimReference ref = ClaimReference.to(claim);
    PersistentVolume pv1 = pv("pv1", "pv1", "1Gi", List.of(RWO), b -> b);
    PersistentVolume pv5 = pv("pv5", "pv5", "5Gi", List.of(RWO), b -> b);
    PersistentVolume pv8 = pv("pv8", "pv8", "8Gi", List.of(RWO), b -> b);
    PersistentVolume badSize = pv("pvBadSize", "pvbadsize", "1Mi", List.of(RWO), b -> b);
    PersistentVolume badMode = pv("pvBadMode", "pvbadmode", "1Gi", List.of(ROX), b -> b);
    assertThat(best(claim, pv1, pv5, pv8, badSize, badMode)).isEqualTo("pv1");
    PersistentVolume pv1Foo = Fixtures.withClaimRef(pv1, ClaimReference.of("bar", "foo"));
    assertThat(best(claim, pv1Foo, pv5, pv8, badSize, badMode)).isEqualTo("pv5");
    PersistentVolume pv8Pre = Fixtures.withClaimRef(pv8, ref);
    assertThat(best(claim, pv1, pv5, pv8Pre, badSize, badMode)).isEqualTo("pv8");
    PersistentVolume badSizePre = Fixtures.withClaimRef(badSize, ref);
    assertThat(best(claim, pv1, pv5, pv8, badSizePre, badMode)).isEqualTo("pv1");
    PersistentVolume badModePre = Fixtures.withClaimRef(badMode, ref);
    assertThat(best(claim, pv1, pv5, pv8, badSize, badModePre)).isEqualTo("pv1");
  }

  // index_test.go TestBestMatchDelayed
  @Test
  void findBestMatchForClaim_delayBinding_leavesUnboundVolumesToTheScheduler() {
    assertThat(VolumeMatching.findBestMatchForClaim(makePvc("8G", b -> b), createTestVolumes(), true)).isEmpty();
  }

  static Stream<Arguments> withNodeScenarios() {
    Node node1 = Fixtures.node("node1", Map.of("key1", "value1"));
    Node node2 = Fixtures.node("node2", Map.of("key1", "value2"));
    Node node3 = Fixtures.node("node3", Map.of("key1", "value3"));
    Node node4 = Fixtures.node("node4", Map.of("key1", "value4"));
    PersistentVolumeClaim wait = makePvc("100G", b -> b.accessModes(List.of(RWO)).storageClassName(CLASS_WAIT));
    return Stream.of(
        Arguments.of("success-match", "affinity-pv", wait, node1, Set.of()),
        Arguments.of("success-prebound", "affinity-prebound", Fixtures.withName(wait, "claim02"), node1, Set.of()),
        Arguments.of("success-exclusion", "affinity-pv2", wait, node1, Set.of("affinity001")),
        Arguments.of("fail-exclusion", "", wait, node1, Set.of("affinity001", "affinity002")),
        Arguments.of("fail-accessmode", "", makePvc("100G",
            b -> b.accessModes(List.of(RWX)).storageClassName(CLASS_WAIT)), node1, Set.of()),
        Arguments.of("fail-nodeaffinity", "", wait, node2, Set.of()),
        Arguments.of("fail-prebound-node-affinity", "", Fixtures.withName(wait, "claim02"), node3, Set.of()),
        Arguments.of("fail-nonavaiable", "", Fixtures.withName(wait, "claim04"), node4, Set.of()),
        Arguments.of("success-bad-and-good-node-affinity", "affinity-pv3", Fixtures.withName(wait, "claim03"),
            node3, Set.of()));
  }

  // index_test.go TestFindMatchVolumeWithNode
  @ParameterizedTest(name = "{0}")
  @MethodSource("withNodeScenarios")
  void findMatchingVolume_withNode_matchesUpstream(String name, String expected, PersistentVolumeClaim claim,
      Node node, Set<String> excluded) {
    assertThat(uidOf(VolumeMatching.findMatchingVolume(claim, createTestVolumes(), node, excluded, true)))
        .isEqualTo(expected);
  }

  // index_test.go TestCheckAccessModes
  @Test
  void checkAccessModes_testCheckAccessModes_matchesUpstream() {
    PersistentVolume volume = pv("v", "v", "1G", List.of(RWO, RWX), b -> b);
    assertThat(VolumeMatching.checkAccessModes(makePvc("100G", b -> b.accessModes(List.of(RWX))), volume)).isTrue();
    assertThat(VolumeMatching.checkAccessModes(makePvc("100G", b -> b.accessModes(List.of(RWX, RWO))), volume))
        .isTrue();
    assertThat(VolumeMatching.checkAccessModes(makePvc("100G", b -> b.accessModes(List.of(ROX))), volume))
        .isFalse();
    assertThat(VolumeMatching.checkAccessModes(makePvc("100G", b -> b.accessModes(List.of(RWX, ROX))), volume))
        .isFalse();
  }
}
