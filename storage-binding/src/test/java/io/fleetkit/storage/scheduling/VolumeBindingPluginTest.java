package io.fleetkit.storage.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.core.PersistentVolumeAccessMode;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.PersistentVolumeClaimPhase;
import io.fleetkit.api.core.PersistentVolumeClaimSpec;
import io.fleetkit.api.core.PersistentVolumeClaimStatus;
import io.fleetkit.api.core.PersistentVolumePhase;
import io.fleetkit.api.core.PersistentVolumeSpec;
import io.fleetkit.api.core.PersistentVolumeStatus;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.VolumeNodeAffinity;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.framework.NodeInfos;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.framework.PreFilterResult;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.scheduling.NodeSelector;
import io.fleetkit.api.scheduling.NodeSelectorOperator;
import io.fleetkit.api.scheduling.NodeSelectorRequirement;
import io.fleetkit.api.scheduling.NodeSelectorTerm;
import io.fleetkit.api.storage.StorageAnnotations;
import io.fleetkit.api.storage.StorageClass;
import io.fleetkit.api.storage.StorageClassSpec;
import io.fleetkit.api.storage.VolumeBindingMode;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.storage.PersistentVolumeController;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes/kubernetes pkg/scheduler/framework/plugins/volumebinding/volume_binding_test.go
 * (TestVolumeBinding: PreFilter and Filter statuses; the capacity-scoring expectations are not ported, FleetKit has
 * no VolumeBinding score). Upstream's classes have no provisioner; here they name
 * {@value StorageAnnotations#NO_PROVISIONER}, which has the same effect.
 */
final class VolumeBindingPluginTest {
  private static final String IMMEDIATE_SC = "immediate-sc";
  private static final String WAIT_SC = "wait-sc";
  private static final String WAIT_HDD_SC = "wait-hdd-sc";
  private static final String HOSTNAME = "kubernetes.io/hostname";

  private ObjectStore store;
  private VolumeBindingPlugin plugin;

  @BeforeEach
  void setUp() {
    store = ObjectStore.inMemory();
    PersistentVolumeController controller = PersistentVolumeController.builder(store).build();
    plugin = (VolumeBindingPlugin) VolumeBindingPlugin.factory(controller).create(null);
    sc(IMMEDIATE_SC, VolumeBindingMode.Immediate);
    sc(WAIT_SC, VolumeBindingMode.WaitForFirstConsumer);
    sc(WAIT_HDD_SC, VolumeBindingMode.WaitForFirstConsumer);
  }

  @AfterEach
  void tearDown() {
    store.close();
  }

  private void sc(String name, VolumeBindingMode mode) {
    store.create(StorageClass.of(ObjectMeta.of(name), StorageClassSpec.builder()
        .provisioner(StorageAnnotations.NO_PROVISIONER).volumeBindingMode(mode).build()));
  }

  private void pvc(String name, String cls, String size, String boundPv, PersistentVolumeClaimPhase phase) {
    ObjectMeta.Builder meta = ObjectMeta.builder().namespace("default").name(name);
    if (!boundPv.isEmpty()) {
      meta.annotation(StorageAnnotations.BIND_COMPLETED, "yes");
    }
    PersistentVolumeClaim c = PersistentVolumeClaim.of(meta.build(),
        PersistentVolumeClaimSpec.builder().storage(size).accessMode(PersistentVolumeAccessMode.ReadWriteOnce)
            .storageClassName(cls).volumeName(boundPv).build());
    c = store.create(c);
    if (phase != PersistentVolumeClaimPhase.Pending) {
      store.updateStatus(c.withStatus(new PersistentVolumeClaimStatus(phase, List.of(), ResourceList.EMPTY,
          List.of())));
    }
  }

  private void pvc(String name, String cls) {
    pvc(name, cls, "1Gi", "", PersistentVolumeClaimPhase.Pending);
  }

  private void pv(String name, String cls, String size, Map<String, String> affinity) {
    PersistentVolumeSpec.Builder b = PersistentVolumeSpec.builder().storage(size)
        .accessMode(PersistentVolumeAccessMode.ReadWriteOnce).storageClassName(cls);
    if (!affinity.isEmpty()) {
      List<NodeSelectorRequirement> reqs = new ArrayList<>();
      affinity.forEach((k, v) -> reqs.add(new NodeSelectorRequirement(k, NodeSelectorOperator.In, List.of(v))));
      b.nodeAffinity(new VolumeNodeAffinity(new NodeSelector(List.of(new NodeSelectorTerm(reqs, List.of())))));
    }
    store.create(new PersistentVolume(ObjectMeta.of(name), b.build(),
        PersistentVolumeStatus.of(PersistentVolumePhase.Available)));
  }

  private static Node node(String name, String... labels) {
    Node.Builder b = Node.builder().name(name).label(HOSTNAME, name);
    for (int i = 0; i < labels.length; i += 2) {
      b.label(labels[i], labels[i + 1]);
    }
    return b.build();
  }

  private static Pod pod(String... claims) {
    return StorageCluster.pod("pod-a", claims);
  }

  /** Runs PreFilter, then (if it succeeded) Filter per node; returns the PreFilter status and the Filter ones. */
  private List<Status> run(Pod pod, Node... nodes) {
    MapCycleState state = new MapCycleState();
    PodInfo info = PodInfos.of(pod);
    PreFilterResult pre = plugin.preFilter(state, info, null);
    List<Status> out = new ArrayList<>();
    out.add(pre.status());
    if (!pre.status().isSuccess()) {
      return out;
    }
    for (Node n : nodes) {
      out.add(plugin.filter(state, info, NodeInfos.of(n, List.of())));
    }
    return out;
  }

  private static Status unresolvable(String... reasons) {
    return new Status(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE, List.of(reasons), null);
  }

  private static void assertStatuses(List<Status> got, Status... want) {
    assertThat(got).hasSize(want.length);
    for (int i = 0; i < want.length; i++) {
      assertThat(got.get(i).code()).as("status %d", i).isEqualTo(want[i].code());
      assertThat(got.get(i).reasons()).as("status %d", i).isEqualTo(want[i].reasons());
    }
  }

  @Test
  void preFilter_podHasNotPvcs_skips() {
    assertStatuses(run(pod(), node("node-a")), Status.skip());
  }

  @Test
  void filter_allBound_passes() {
    pvc("pvc-a", WAIT_SC, "1Gi", "pv-a", PersistentVolumeClaimPhase.Bound);
    pv("pv-a", WAIT_SC, "1Gi", Map.of());
    assertStatuses(run(pod("pvc-a"), node("node-a")), Status.success(), Status.success());
  }

  @Test // "PVC does not exist" and "pvc not found" (upstream's inputs differ only by an empty vs a nil claim list)
  void preFilter_pvcDoesNotExist_unresolvable() {
    assertStatuses(run(pod("pvc-a"), node("node-a")), unresolvable("persistentvolumeclaim \"pvc-a\" not found"));
  }

  @Test
  void preFilter_partOfPvcsDoNotExist_unresolvable() {
    pvc("pvc-a", WAIT_SC, "1Gi", "pv-a", PersistentVolumeClaimPhase.Bound);
    assertStatuses(run(pod("pvc-a", "pvc-b"), node("node-a")),
        unresolvable("persistentvolumeclaim \"pvc-b\" not found"));
  }

  @Test
  void preFilter_immediateClaimsNotBound_unresolvable() {
    pvc("pvc-a", IMMEDIATE_SC);
    assertStatuses(run(pod("pvc-a"), node("node-a")),
        unresolvable("pod has unbound immediate PersistentVolumeClaims"));
  }

  @Test
  void filter_unboundClaimsNoMatches_bindConflict() {
    pvc("pvc-a", WAIT_SC);
    assertStatuses(run(pod("pvc-a"), node("node-a")), Status.success(),
        unresolvable(VolumeBindingPlugin.REASON_BIND_CONFLICT));
  }

  @Test
  void filter_boundAndUnboundUnsatisfied_bothReasons() {
    pvc("pvc-a", WAIT_SC, "1Gi", "pv-a", PersistentVolumeClaimPhase.Bound);
    pvc("pvc-b", WAIT_SC);
    pv("pv-a", WAIT_SC, "1Gi", Map.of("foo", "bar"));
    assertStatuses(run(pod("pvc-a", "pvc-b"), node("node-a", "foo", "barbar")), Status.success(),
        unresolvable(VolumeBindingPlugin.REASON_NODE_CONFLICT, VolumeBindingPlugin.REASON_BIND_CONFLICT));
  }

  @Test
  void filter_pvNotFound_unresolvable() {
    pvc("pvc-a", WAIT_SC, "1Gi", "pv-a", PersistentVolumeClaimPhase.Bound);
    assertStatuses(run(pod("pvc-a"), node("node-a")), Status.success(),
        unresolvable("node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)"));
  }

  @Test
  void preFilter_pvNotFoundClaimLost_unresolvable() {
    pvc("pvc-a", WAIT_SC, "1Gi", "pv-a", PersistentVolumeClaimPhase.Lost);
    assertStatuses(run(pod("pvc-a"), node("node-a")),
        unresolvable("persistentvolumeclaim \"pvc-a\" bound to non-existent persistentvolume \"pv-a\""));
  }

  @Test
  void filter_localVolumesWithCloseCapacity_nodesWithVolumesPass() {
    pvc("pvc-a", WAIT_SC, "50Gi", "", PersistentVolumeClaimPhase.Pending);
    pv("pv-a-0", WAIT_SC, "200Gi", Map.of(HOSTNAME, "node-a"));
    pv("pv-a-1", WAIT_SC, "200Gi", Map.of(HOSTNAME, "node-a"));
    pv("pv-b-0", WAIT_SC, "100Gi", Map.of(HOSTNAME, "node-b"));
    pv("pv-b-1", WAIT_SC, "100Gi", Map.of(HOSTNAME, "node-b"));
    assertStatuses(run(pod("pvc-a"), node("node-a"), node("node-b"), node("node-c")), Status.success(),
        Status.success(), Status.success(), unresolvable(VolumeBindingPlugin.REASON_BIND_CONFLICT));
  }

  @Test
  void filter_localVolumesWithCloseCapacityMultiplePvcs_nodesWithVolumesPass() {
    pvc("pvc-0", WAIT_SC, "50Gi", "", PersistentVolumeClaimPhase.Pending);
    pvc("pvc-1", WAIT_HDD_SC, "100Gi", "", PersistentVolumeClaimPhase.Pending);
    for (String n : List.of("a", "b")) {
      String size = n.equals("a") ? "200Gi" : "100Gi";
      pv("pv-" + n + "-0", WAIT_SC, size, Map.of(HOSTNAME, "node-" + n));
      pv("pv-" + n + "-1", WAIT_SC, size, Map.of(HOSTNAME, "node-" + n));
      pv("pv-" + n + "-2", WAIT_HDD_SC, size, Map.of(HOSTNAME, "node-" + n));
      pv("pv-" + n + "-3", WAIT_HDD_SC, size, Map.of(HOSTNAME, "node-" + n));
    }
    assertStatuses(run(pod("pvc-0", "pvc-1"), node("node-a"), node("node-b"), node("node-c")), Status.success(),
        Status.success(), Status.success(), unresolvable(VolumeBindingPlugin.REASON_BIND_CONFLICT));
  }

  @Test
  void filter_zonalVolumesWithCloseCapacity_zonesWithVolumesPass() {
    pvc("pvc-a", WAIT_SC, "50Gi", "", PersistentVolumeClaimPhase.Pending);
    for (String z : List.of("a", "b")) {
      Map<String, String> aff = new LinkedHashMap<>();
      aff.put("topology.kubernetes.io/region", "region-" + z);
      aff.put("topology.kubernetes.io/zone", "zone-" + z);
      pv("pv-" + z + "-0", WAIT_SC, z.equals("a") ? "200Gi" : "100Gi", aff);
      pv("pv-" + z + "-1", WAIT_SC, z.equals("a") ? "200Gi" : "100Gi", aff);
    }
    List<Node> nodes = new ArrayList<>();
    for (String z : List.of("a", "b", "c")) {
      for (String n : List.of("a", "b")) {
        nodes.add(node("zone-" + z + "-node-" + n, "topology.kubernetes.io/region", "region-" + z,
            "topology.kubernetes.io/zone", "zone-" + z));
      }
    }
    Status bind = unresolvable(VolumeBindingPlugin.REASON_BIND_CONFLICT);
    assertStatuses(run(pod("pvc-a"), nodes.toArray(new Node[0])), Status.success(), Status.success(),
        Status.success(), Status.success(), Status.success(), bind, bind);
  }
}
