package io.fleetkit.storage.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.core.PersistentVolumeAccessMode;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.PersistentVolumeClaimSpec;
import io.fleetkit.api.core.PersistentVolumeSource;
import io.fleetkit.api.core.PersistentVolumeSpec;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.framework.ClusterEvent;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.NodeInfos;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.framework.PreFilterResult;
import io.fleetkit.api.framework.Snapshot;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ported from kubernetes {@code pkg/scheduler/framework/plugins/volumerestrictions/volume_restrictions_test.go}
 * (the stored version with the queueing-hint tables, importing {@code pkg/scheduler/backend/cache}; the plugin as of
 * {@code volume_restrictions.go} at commit 78fc8e44): TestAccessModeConflicts, the cases of the four disk-conflict
 * tables that involve no in-tree disk, Test_isSchedulableAfterPodDeleted's claim cases and
 * Test_isSchedulableAfterPersistentVolumeClaimChange. Upstream's GCE PD, AWS EBS, RBD and iSCSI volumes have no
 * FleetKit counterpart (see docs/conformance.md). FleetKit's own cases follow.
 */
final class VolumeRestrictionsPluginTest {
  private static final String NS = "default";
  private static final ResourceList REQUESTS = ResourceList.builder().put("cpu", "100m").build();
  private static final Status CONFLICT = new Status(Status.Code.UNSCHEDULABLE,
      List.of(VolumeRestrictionsPlugin.REASON_READ_WRITE_ONCE_POD_CONFLICT), VolumeRestrictionsPlugin.NAME);

  private static Pod podIn(String ns, String name, @Nullable String node, String... claims) {
    Pod.Builder b = Pod.builder().namespace(ns).name(name).uid(name).container("c", "img", REQUESTS);
    if (node != null) {
      b.nodeName(node);
    }
    for (String c : claims) {
      b.volume(Volume.persistentVolumeClaim(c, c));
    }
    return b.build();
  }

  private static Pod pod(String name, String... claims) {
    return podIn(NS, name, "node-1", claims);
  }

  private static PersistentVolumeClaim claim(String ns, String name, PersistentVolumeAccessMode mode) {
    return PersistentVolumeClaim.of(ObjectMeta.of(ns, name),
        PersistentVolumeClaimSpec.builder().storage("1Gi").accessMode(mode).build());
  }

  private static PersistentVolumeClaim claim(String name, PersistentVolumeAccessMode mode) {
    return claim(NS, name, mode);
  }

  private static final PersistentVolumeClaim RWOP_1 =
      claim("claim-with-rwop-1", PersistentVolumeAccessMode.ReadWriteOncePod);
  private static final PersistentVolumeClaim RWOP_2 =
      claim("claim-with-rwop-2", PersistentVolumeAccessMode.ReadWriteOncePod);
  private static final PersistentVolumeClaim RWX = claim("claim-with-rwx", PersistentVolumeAccessMode.ReadWriteMany);

  private static final Pod POD_WITH_ONE_PVC = pod("pod-with-one-pvc", "claim-with-rwop-1");
  private static final Pod POD_WITH_TWO_PVCS = pod("pod-with-two-pvcs", "claim-with-rwop-1", "claim-with-rwop-2");
  private static final Pod POD_WITH_ONE_CONFLICT = pod("pod-with-one-conflict", "claim-with-rwop-1");
  private static final Pod POD_WITH_TWO_CONFLICTS =
      pod("pod-with-two-conflicts", "claim-with-rwop-1", "claim-with-rwop-2");
  private static final Pod POD_WITH_RWX = pod("pod-with-rwx", "claim-with-rwx");
  /** A pod with no volume (upstream's {@code &v1.Pod{}}). */
  private static final Pod EMPTY = podIn(NS, "empty", null);

  /** The cluster of a case: the node's pods (one node, node-1, when there are any) and the stored claims. */
  private record Fixture(VolumeRestrictionsPlugin plugin, Snapshot snapshot, NodeInfo node) {
    static Fixture of(List<Pod> existingPods, List<PersistentVolumeClaim> claims) {
      ObjectStore store = ObjectStore.inMemory();
      claims.forEach(store::create);
      List<PodInfo> infos = new ArrayList<>();
      existingPods.forEach(p -> infos.add(PodInfos.of(p)));
      NodeInfo node = NodeInfos.of(Node.builder().name("node-1").build(), infos);
      List<NodeInfo> nodes = existingPods.isEmpty() ? List.of() : List.of(node);
      return new Fixture(new VolumeRestrictionsPlugin(store), new ListSnapshot(nodes), node);
    }
  }

  static Stream<Arguments> accessModeConflicts() {
    return Stream.of(
        // TestAccessModeConflicts
        Arguments.of("nothing", EMPTY, List.of(), List.of(), Status.skip(), null),
        Arguments.of("failed to get PVC", POD_WITH_ONE_PVC, List.of(), List.of(),
            new Status(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
                List.of("persistentvolumeclaim \"claim-with-rwop-1\" not found"), VolumeRestrictionsPlugin.NAME),
            null),
        Arguments.of("no access mode conflict", POD_WITH_ONE_PVC, List.of(POD_WITH_RWX), List.of(RWOP_1, RWX),
            Status.skip(), null),
        Arguments.of("access mode conflict, unschedulable", POD_WITH_ONE_CONFLICT,
            List.of(POD_WITH_ONE_PVC, POD_WITH_RWX), List.of(RWOP_1, RWX), Status.success(), CONFLICT),
        Arguments.of("two conflicts, unschedulable", POD_WITH_TWO_CONFLICTS,
            List.of(POD_WITH_TWO_PVCS, POD_WITH_RWX), List.of(RWOP_1, RWOP_2, RWX), Status.success(), CONFLICT),
        // TestGCEDiskConflicts "nothing" (and the same case of TestAWS/RBD/ISCSIDiskConflicts): an empty pod on an
        // empty node is skipped
        Arguments.of("disk conflicts: nothing", EMPTY, List.of(), List.of(), Status.skip(), null),
        // TestGCEDiskConflicts "pod with a volume that doesn't have restrictions" (upstream's empty VolumeSource is
        // an emptyDir here, named as a valid volume name: no source FleetKit models is checked for disk conflicts)
        Arguments.of("pod with a volume that doesn't have restrictions",
            Pod.builder().namespace(NS).name("no-restriction").uid("nr").container("c", "img", REQUESTS)
                .volume(Volume.emptyDir("no-restriction")).build(),
            List.of(), List.of(), Status.skip(), null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("accessModeConflicts")
  void preFilterAndFilter_upstreamCases(String name, Pod pod, List<Pod> existingPods,
      List<PersistentVolumeClaim> claims, Status preFilterWant, @Nullable Status filterWant) {
    Fixture f = Fixture.of(existingPods, claims);
    CycleState state = new MapCycleState();

    PreFilterResult r = f.plugin().preFilter(state, PodInfos.of(pod), f.snapshot());

    assertThat(r.status()).isEqualTo(preFilterWant);
    assertThat(r.nodeNames()).isNull();
    // if PreFilter does not succeed, Filter does not run (as upstream's loop)
    if (preFilterWant.isSuccess()) {
      assertThat(f.plugin().filter(state, PodInfos.of(pod), f.node())).isEqualTo(filterWant);
    }
  }

  @Test
  void removePod_theOnlyUserOfTheClaim_filterPasses() {
    Fixture f = Fixture.of(List.of(POD_WITH_ONE_PVC, POD_WITH_RWX), List.of(RWOP_1, RWX));
    PodInfo pod = PodInfos.of(POD_WITH_ONE_CONFLICT);
    CycleState state = new MapCycleState();
    assertThat(f.plugin().preFilter(state, pod, f.snapshot()).status().isSuccess()).isTrue();
    CycleState dryRun = state.copy();

    assertThat(f.plugin().removePod(dryRun, pod, PodInfos.of(POD_WITH_ONE_PVC), f.node())).isEqualTo(Status.success());

    assertThat(f.plugin().filter(dryRun, pod, f.node())).isEqualTo(Status.success());
    // the original cycle state is untouched by the dry run
    assertThat(f.plugin().filter(state, pod, f.node())).isEqualTo(CONFLICT);
    // adding it back restores the conflict; an unrelated pod changes nothing
    f.plugin().addPod(dryRun, pod, PodInfos.of(POD_WITH_ONE_PVC), f.node());
    assertThat(f.plugin().filter(dryRun, pod, f.node())).isEqualTo(CONFLICT);
    f.plugin().removePod(dryRun, pod, PodInfos.of(POD_WITH_RWX), f.node());
    assertThat(f.plugin().filter(dryRun, pod, f.node())).isEqualTo(CONFLICT);
  }

  @Test
  void removePod_oneOfTwoConflictingUsers_stillConflicts() {
    Pod otherUser = pod("other-user", "claim-with-rwop-2");
    Fixture f = Fixture.of(List.of(POD_WITH_ONE_PVC, otherUser), List.of(RWOP_1, RWOP_2));
    PodInfo pod = PodInfos.of(POD_WITH_TWO_CONFLICTS);
    CycleState state = new MapCycleState();
    f.plugin().preFilter(state, pod, f.snapshot());

    f.plugin().removePod(state, pod, PodInfos.of(POD_WITH_ONE_PVC), f.node());
    assertThat(f.plugin().filter(state, pod, f.node())).isEqualTo(CONFLICT);
    f.plugin().removePod(state, pod, PodInfos.of(otherUser), f.node());
    assertThat(f.plugin().filter(state, pod, f.node())).isEqualTo(Status.success());
  }

  @Test
  void preFilter_sameClaimNameInAnotherNamespace_noConflict() {
    Pod elsewhere = podIn("other", "elsewhere", "node-1", "claim-with-rwop-1");
    Fixture f = Fixture.of(List.of(elsewhere), List.of(RWOP_1,
        claim("other", "claim-with-rwop-1", PersistentVolumeAccessMode.ReadWriteOncePod)));

    PreFilterResult r = f.plugin().preFilter(new MapCycleState(), PodInfos.of(POD_WITH_ONE_CONFLICT), f.snapshot());

    assertThat(r.status()).isEqualTo(Status.skip());
  }

  @Test
  void filter_withoutPreFilterState_isAnError() {
    Fixture f = Fixture.of(List.of(), List.of());

    Status s = f.plugin().filter(new MapCycleState(), PodInfos.of(POD_WITH_ONE_PVC), f.node());

    assertThat(s.code()).isEqualTo(Status.Code.ERROR);
    assertThat(s.message()).contains("PreFilterVolumeRestrictions");
  }

  // Test_isSchedulableAfterPodDeleted: "queue-has-same-claim" and "skip-no-same-claim" (upstream's pods have no
  // namespace; both are in "default" here). The eight in-tree disk cases are not ported.
  @Test
  void isSchedulableAfterPodDeleted_upstreamClaimCases() {
    VolumeRestrictionsPlugin p = Fixture.of(List.of(), List.of()).plugin();

    assertThat(p.isSchedulableAfter(pod("pod1", "claim-rwop"), ClusterEvent.ASSIGNED_POD_DELETE,
        pod("pod2", "claim-rwop"), null)).as("queue-has-same-claim").isTrue();
    assertThat(p.isSchedulableAfter(pod("pod1", "claim-1-rwop"), ClusterEvent.ASSIGNED_POD_DELETE,
        pod("pod2", "claim-2-rwop"), null)).as("skip-no-same-claim").isFalse();
  }

  @Test
  void isSchedulableAfterPodDeleted_otherNamespaceOrNoVolumes_skips() {
    VolumeRestrictionsPlugin p = Fixture.of(List.of(), List.of()).plugin();
    Pod waiting = pod("pod1", "claim-rwop");

    assertThat(p.isSchedulableAfter(waiting, ClusterEvent.ASSIGNED_POD_DELETE,
        podIn("other", "pod2", "node-1", "claim-rwop"), null)).isFalse();
    assertThat(p.isSchedulableAfter(waiting, ClusterEvent.ASSIGNED_POD_DELETE, pod("pod2"), null)).isFalse();
  }

  static Stream<Arguments> claimAdded() {
    Pod podWithOnePvc = podIn(NS, "pod-with-one-pvc", "node-1", "claim-with-rwx-1");
    Pod podWithTwoPvcs = podIn(NS, "pod-with-two-pvcs", "node-1", "claim-with-rwx-1", "claim-with-rwx-2");
    Pod podWithNotEqualNamespace = podIn("kube-system", "pod-with-one-pvc", "claim-with-rwx-2", "claim-with-rwx-1");
    PersistentVolumeClaim pvc1 = claim("claim-with-rwx-1", PersistentVolumeAccessMode.ReadWriteMany);
    PersistentVolumeClaim pvc2 = claim("claim-with-rwx-2", PersistentVolumeAccessMode.ReadWriteMany);
    return Stream.of(
        Arguments.of("queue-new-object-pvc-belong-pod", podWithTwoPvcs, pvc1, true),
        Arguments.of("skip-new-object-unused", podWithOnePvc, pvc2, false),
        Arguments.of("skip-nil-old-object", podWithOnePvc, pvc2, false),
        Arguments.of("skip-new-object-not-belong-pod", podWithOnePvc, pvc2, false),
        Arguments.of("skip-new-object-namespace-not-equal-pod", podWithNotEqualNamespace, pvc1, false));
  }

  /** Test_isSchedulableAfterPersistentVolumeClaimChange: the claim is added (no old object). */
  @ParameterizedTest(name = "{0}")
  @MethodSource("claimAdded")
  void isSchedulableAfterPersistentVolumeClaimAdded_upstreamCases(String name, Pod pod, PersistentVolumeClaim added,
      boolean want) {
    VolumeRestrictionsPlugin p = Fixture.of(List.of(), List.of(added)).plugin();

    assertThat(p.isSchedulableAfter(pod, ClusterEvent.STORAGE, null, added)).isEqualTo(want);
  }

  @Test
  void isSchedulableAfter_storageChangesUpstreamDoesNotRegister_skip() {
    VolumeRestrictionsPlugin p = Fixture.of(List.of(), List.of()).plugin();
    Pod pod = pod("web", "claim-with-rwop-1");
    PersistentVolume pv = PersistentVolume.of(ObjectMeta.of("pv-1"), PersistentVolumeSpec.builder().storage("1Gi")
        .accessMode(PersistentVolumeAccessMode.ReadWriteOncePod)
        .source(PersistentVolumeSource.Csi.of("csi.fleetkit.io", "pv-1")).build());

    assertThat(p.isSchedulableAfter(pod, ClusterEvent.STORAGE, RWOP_1, RWOP_1)).as("claim update").isFalse();
    assertThat(p.isSchedulableAfter(pod, ClusterEvent.STORAGE, RWOP_1, null)).as("claim deletion").isFalse();
    assertThat(p.isSchedulableAfter(pod, ClusterEvent.STORAGE, null, pv)).as("volume added").isFalse();
    // a node added re-queues without a hint (upstream's Node/Add has none), as does an event without its objects
    assertThat(p.isSchedulableAfter(pod, ClusterEvent.NODE_ADD, null, Node.builder().name("n").build())).isTrue();
    assertThat(p.isSchedulableAfter(pod, ClusterEvent.STORAGE, null, null)).isTrue();
  }

  @Test
  void eventsToRegister_podDeleteNodeAddAndStorage() {
    assertThat(Fixture.of(List.of(), List.of()).plugin().eventsToRegister()).containsExactlyInAnyOrder(
        ClusterEvent.ASSIGNED_POD_DELETE, ClusterEvent.NODE_ADD, ClusterEvent.STORAGE);
  }

  /** A snapshot of fixed nodes. */
  private record ListSnapshot(List<NodeInfo> nodes) implements Snapshot {
    @Override
    public List<NodeInfo> nodesWithAffinityPods() {
      return List.of();
    }

    @Override
    public List<NodeInfo> nodesWithRequiredAntiAffinityPods() {
      return List.of();
    }

    @Override
    public @Nullable NodeInfo get(String nodeName) {
      return nodes.stream().filter(n -> n.name().equals(nodeName)).findFirst().orElse(null);
    }

    @Override
    public int size() {
      return nodes.size();
    }
  }
}
