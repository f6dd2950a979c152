package io.fleetkit.storage.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.ClaimReference;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.core.PersistentVolumeAccessMode;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.PersistentVolumeClaimSpec;
import io.fleetkit.api.core.PersistentVolumeClaimTemplate;
import io.fleetkit.api.core.PersistentVolumePhase;
import io.fleetkit.api.core.PersistentVolumeSpec;
import io.fleetkit.api.core.PersistentVolumeStatus;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.framework.NodeInfos;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.framework.PreFilterResult;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.storage.StorageAnnotations;
import io.fleetkit.api.storage.StorageClass;
import io.fleetkit.api.storage.StorageClassSpec;
import io.fleetkit.api.storage.TopologySelectorLabelRequirement;
import io.fleetkit.api.storage.TopologySelectorTerm;
import io.fleetkit.api.storage.VolumeBindingMode;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.storage.PersistentVolumeController;
import io.fleetkit.storage.TopologyLabels;
import io.fleetkit.storage.provision.InMemoryProvisioner;
import io.fleetkit.storage.provision.VolumeProvisioner;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ported from kubernetes/kubernetes pkg/scheduler/framework/plugins/volumebinding/binder_test.go:
 * TestFindPodVolumesWithoutProvisioning (all 22 scenarios, the 3 generic-ephemeral ones with their own pods) and
 * TestFindPodVolumesWithProvisioning (8 scenarios, each run without and with capacity
 * tracking, where an empty zonal provisioner stands for missing CSIStorageCapacity objects). Upstream's
 * {@code shouldFail} (an error from FindPodVolumes) is a PreFilter rejection here, where FleetKit reads the claims.
 */
final class FindPodVolumesTest {
  private static final String NODE_KEY = "nodeKey";
  private static final String WAIT = "wait";
  private static final String IMMEDIATE = "immediate";
  private static final String WAIT_PROVISIONER = "wait-with-provisioner";
  private static final String TOPO_MISMATCH = "topo-mismatch";
  private static final String PROVISIONER = "test-provisioner";

  private ObjectStore store;

  @AfterEach
  void tearDown() {
    if (store != null) {
      store.close();
    }
  }

  /** A claim: {@code boundTo} empty for unbound; {@code fullyBound} adds bind-completed. */
  record C(String name, String size, String cls, String boundTo, boolean fullyBound, String selectedNode) {
    static C unbound(String name, String size, String cls) {
      return new C(name, size, cls, "", false, "");
    }

    static C bound(String name, String cls, String pv) {
      return new C(name, "1G", cls, pv, true, "");
    }
  }

  /** A volume on node {@code node} ({@code nodeKey} affinity), bound to {@code claim} when not empty. */
  record V(String name, String node, String size, String cls, String claim) {}

  static final C UNBOUND = C.unbound("unbound-pvc", "1G", WAIT);
  static final C UNBOUND2 = C.unbound("unbound-pvc2", "5G", WAIT);
  static final C PREBOUND = new C("prebound-pvc", "1G", WAIT, "pv-node1a", false, "");
  static final C BOUND = C.bound("bound-pvc", WAIT, "pv-bound");
  static final C IMMEDIATE_UNBOUND = C.unbound("immediate-unbound-pvc", "1G", IMMEDIATE);
  static final C IMMEDIATE_BOUND = C.bound("immediate-bound-pvc", IMMEDIATE, "pv-bound-immediate");
  static final C PROVISIONED = C.unbound("provisioned-pvc", "1Gi", WAIT_PROVISIONER);
  static final C NO_PROVISIONER = C.unbound("no-provisioner-pvc", "1Gi", WAIT);
  static final C TOPO_MISMATCH_PVC = C.unbound("topo-mismatch-pvc", "1Gi", TOPO_MISMATCH);
  static final C SELECTED_NODE = new C("provisioned-pvc", "1Gi", WAIT_PROVISIONER, "", false, "node1");

  static final V PV_NODE1A = new V("pv-node1a", "node1", "5G", WAIT, "");
  static final V PV_NODE1B = new V("pv-node1b", "node1", "10G", WAIT, "");
  static final V PV_NODE2 = new V("pv-node2", "node2", "1G", WAIT, "");
  static final V PV_NODE1A_BOUND = new V("pv-node1a", "node1", "5G", WAIT, "unbound-pvc");
  static final V PV_BOUND = new V("pv-bound", "node1", "1G", WAIT, "bound-pvc");
  static final V PV_BOUND_IMMEDIATE = new V("pv-bound-immediate", "node1", "1G", IMMEDIATE, "immediate-bound-pvc");
  static final V PV_BOUND_IMMEDIATE_NODE2 = new V("pv-bound-immediate", "node2", "1G", IMMEDIATE,
      "immediate-bound-pvc");

  /** Expected outcome: "prefilter" (rejected), else the Filter reasons and chosen bindings/provisions. */
  record Want(boolean preFilterFails, List<String> reasons, Map<String, String> bindings, List<String> provisions) {
    static Want ok() {
      return new Want(false, List.of(), Map.of(), List.of());
    }

    static Want fails() {
      return new Want(true, List.of(), Map.of(), List.of());
    }

    static Want reasons(String... r) {
      return new Want(false, List.of(r), Map.of(), List.of());
    }

    static Want bindings(Map<String, String> b) {
      return new Want(false, List.of(), b, List.of());
    }

    Want withProvisions(String... p) {
      return new Want(preFilterFails, reasons, bindings, List.of(p));
    }
  }

  static Stream<Arguments> withoutProvisioning() {
    String bind = VolumeBindingPlugin.REASON_BIND_CONFLICT;
    return Stream.of(
        Arguments.of("no-volumes", List.of(), List.of(), Want.ok()),
        Arguments.of("pvc-not-found", List.of(BOUND), List.of(), Want.fails()),
        Arguments.of("bound-pvc", List.of(BOUND), List.of(PV_BOUND), Want.ok()),
        Arguments.of("bound-pvc,pv-not-exists", List.of(BOUND), List.of(),
            Want.reasons(VolumeBindingPlugin.REASON_PV_NOT_EXIST)),
        Arguments.of("prebound-pvc", List.of(PREBOUND), List.of(PV_NODE1A_BOUND), Want.fails()),
        Arguments.of("unbound-pvc,pv-same-node", List.of(UNBOUND), List.of(PV_NODE2, PV_NODE1A, PV_NODE1B),
            Want.bindings(Map.of("unbound-pvc", "pv-node1a"))),
        Arguments.of("unbound-pvc,pv-different-node", List.of(UNBOUND), List.of(PV_NODE2), Want.reasons(bind)),
        Arguments.of("two-unbound-pvcs", List.of(UNBOUND, UNBOUND2), List.of(PV_NODE1A, PV_NODE1B),
            Want.bindings(Map.of("unbound-pvc", "pv-node1a", "unbound-pvc2", "pv-node1b"))),
        Arguments.of("two-unbound-pvcs,order-by-size", List.of(UNBOUND2, UNBOUND), List.of(PV_NODE1A, PV_NODE1B),
            Want.bindings(Map.of("unbound-pvc", "pv-node1a", "unbound-pvc2", "pv-node1b"))),
        Arguments.of("two-unbound-pvcs,partial-match", List.of(UNBOUND, UNBOUND2), List.of(PV_NODE1A),
            Want.reasons(bind)),
        Arguments.of("one-bound,one-unbound", List.of(UNBOUND, BOUND), List.of(PV_BOUND, PV_NODE1A),
            Want.bindings(Map.of("unbound-pvc", "pv-node1a"))),
        Arguments.of("one-bound,one-unbound,no-match", List.of(UNBOUND, BOUND), List.of(PV_BOUND, PV_NODE2),
            Want.reasons(bind)),
        Arguments.of("one-prebound,one-unbound", List.of(UNBOUND, PREBOUND), List.of(PV_NODE1A, PV_NODE1B),
            Want.fails()),
        Arguments.of("immediate-bound-pvc", List.of(IMMEDIATE_BOUND), List.of(PV_BOUND_IMMEDIATE), Want.ok()),
        Arguments.of("immediate-bound-pvc-wrong-node", List.of(IMMEDIATE_BOUND), List.of(PV_BOUND_IMMEDIATE_NODE2),
            Want.reasons(VolumeBindingPlugin.REASON_NODE_CONFLICT)),
        Arguments.of("immediate-unbound-pvc", List.of(IMMEDIATE_UNBOUND), List.of(), Want.fails()),
        Arguments.of("immediate-unbound-pvc,delayed-mode-bound", List.of(IMMEDIATE_UNBOUND, BOUND),
            List.of(PV_BOUND), Want.fails()),
        Arguments.of("immediate-unbound-pvc,delayed-mode-unbound", List.of(IMMEDIATE_UNBOUND, UNBOUND), List.of(),
            Want.fails()));
  }

  // binder_test.go TestFindPodVolumesWithoutProvisioning ("no-pvcs" is the emptyDir case below)
  @ParameterizedTest(name = "{0}")
  @MethodSource("withoutProvisioning")
  void findPodVolumes_withoutProvisioning_matchesUpstream(String name, List<C> claims, List<V> volumes, Want want) {
    check(claims, volumes, want, InMemoryProvisioner.unlimited(PROVISIONER), false);
  }

  static Stream<Arguments> withProvisioning() {
    String bind = VolumeBindingPlugin.REASON_BIND_CONFLICT;
    return Stream.of(
        Arguments.of("one-provisioned", List.of(PROVISIONED), List.of(), Want.ok().withProvisions("provisioned-pvc"),
            true),
        Arguments.of("two-unbound-pvcs,one-matched,one-provisioned", List.of(UNBOUND, PROVISIONED),
            List.of(PV_NODE1A),
            Want.bindings(Map.of("unbound-pvc", "pv-node1a")).withProvisions("provisioned-pvc"), true),
        Arguments.of("one-bound,one-provisioned", List.of(BOUND, PROVISIONED), List.of(PV_BOUND),
            Want.ok().withProvisions("provisioned-pvc"), true),
        Arguments.of("one-binding,one-selected-node", List.of(BOUND, SELECTED_NODE), List.of(PV_BOUND),
            Want.ok().withProvisions("provisioned-pvc"), true),
        Arguments.of("immediate-unbound-pvc", List.of(IMMEDIATE_UNBOUND), List.of(), Want.fails(), false),
        Arguments.of("one-immediate-bound,one-provisioned", List.of(IMMEDIATE_BOUND, PROVISIONED),
            List.of(PV_BOUND_IMMEDIATE), Want.ok().withProvisions("provisioned-pvc"), true),
        Arguments.of("invalid-provisioner", List.of(NO_PROVISIONER), List.of(), Want.reasons(bind), false),
        Arguments.of("volume-topology-unsatisfied", List.of(TOPO_MISMATCH_PVC), List.of(), Want.reasons(bind),
            false));
  }

  // binder_test.go TestFindPodVolumesWithProvisioning, "no CSIDriver"
  @ParameterizedTest(name = "{0}")
  @MethodSource("withProvisioning")
  void findPodVolumes_withProvisioning_matchesUpstream(String name, List<C> claims, List<V> volumes, Want want,
      boolean needsCapacity) {
    check(claims, volumes, want, InMemoryProvisioner.unlimited(PROVISIONER), false);
  }

  // binder_test.go TestFindPodVolumesWithProvisioning, "CSIDriver with capacity tracking" (no capacity anywhere)
  @ParameterizedTest(name = "{0}")
  @MethodSource("withProvisioning")
  void findPodVolumes_withProvisioningNoCapacity_notEnoughSpace(String name, List<C> claims, List<V> volumes,
      Want want, boolean needsCapacity) {
    Want w = needsCapacity ? Want.reasons(VolumeBindingPlugin.REASON_NOT_ENOUGH_SPACE) : want;
    check(claims, volumes, w, InMemoryProvisioner.withZones(PROVISIONER, Map.of()), false);
  }

  // binder_test.go TestFindPodVolumesWithoutProvisioning "no-pvcs": a pod with only an emptyDir volume
  @ParameterizedTest(name = "{0}")
  @MethodSource("noPvcs")
  void findPodVolumes_emptyDirOnly_skips(String name) {
    check(List.of(), List.of(), Want.ok(), InMemoryProvisioner.unlimited(PROVISIONER), true);
  }

  static Stream<Arguments> noPvcs() {
    return Stream.of(Arguments.of("no-pvcs"));
  }

  static Stream<Arguments> genericEphemeral() {
    // upstream's makeGenericEphemeralPVC: test-pod-<volume>, 1G, bound to pv-bound (bind-completed), immediate class,
    // controlled by the pod when owned; pvBoundGeneric: pv-bound on node1 bound to it. The PreFilter messages are the
    // plugin's (volume_binding.go podHasPVCs), where FleetKit reads the claims.
    return Stream.of(
        Arguments.of("generic-ephemeral,no-pvc", "no-such-pvc", false, false,
            "waiting for ephemeral volume controller to create the persistentvolumeclaim \"test-pod-no-such-pvc\""),
        Arguments.of("generic-ephemeral,with-pvc", "test-volume", true, true, null),
        Arguments.of("generic-ephemeral,wrong-pvc", "test-volume", true, false,
            "PVC testns/test-pod-test-volume was not created for pod testns/test-pod (pod is not owner)"));
  }

  // binder_test.go TestFindPodVolumesWithoutProvisioning, the generic-ephemeral scenarios
  @ParameterizedTest(name = "{0}")
  @MethodSource("genericEphemeral")
  void findPodVolumes_genericEphemeral_matchesUpstream(String name, String volume, boolean claimExists,
      boolean owned, String rejection) {
    store = ObjectStore.inMemory();
    PersistentVolumeController controller = PersistentVolumeController.builder(store)
        .provisioner(InMemoryProvisioner.unlimited(PROVISIONER)).build();
    sc(WAIT, StorageAnnotations.NO_PROVISIONER, VolumeBindingMode.WaitForFirstConsumer, null);
    sc(IMMEDIATE, StorageAnnotations.NO_PROVISIONER, VolumeBindingMode.Immediate, null);
    Pod pod = Pod.builder().namespace("testns").name("test-pod").uid("test-pod")
        .container("c", "img", io.fleetkit.api.resource.ResourceList.EMPTY)
        .volume(Volume.ephemeral(volume, PersistentVolumeClaimTemplate.of(PersistentVolumeClaimSpec.builder()
            .storage("1G").accessMode(PersistentVolumeAccessMode.ReadWriteOnce).storageClassName(IMMEDIATE)
            .build())))
        .build();
    String claimName = "test-pod-test-volume";
    if (claimExists) {
      ObjectMeta.Builder m = ObjectMeta.builder().namespace("testns").name(claimName).uid("pvc-uid")
          .annotation(StorageAnnotations.BIND_COMPLETED, "yes");
      if (owned) {
        m.ownerReference(new OwnerReference("v1", "Pod", "test-pod", "test-pod", true, false));
      }
      store.create(PersistentVolumeClaim.of(m.build(), PersistentVolumeClaimSpec.builder().storage("1G")
          .accessMode(PersistentVolumeAccessMode.ReadWriteOnce).storageClassName(IMMEDIATE).volumeName("pv-bound")
          .build()));
      createVolume(new V("pv-bound", "node1", "1G", WAIT, claimName));
    }
    VolumeBindingPlugin plugin = (VolumeBindingPlugin) VolumeBindingPlugin.factory(controller).create(null);
    MapCycleState state = new MapCycleState();
    PodInfo info = PodInfos.of(pod);
    PreFilterResult pre = plugin.preFilter(state, info, null);
    if (rejection != null) {
      assertThat(pre.status().code()).isEqualTo(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE);
      assertThat(pre.status().reasons()).containsExactly(rejection);
      return;
    }
    assertThat(pre.status().isSuccess()).as("PreFilter: %s", pre.status()).isTrue();
    Node node1 = Node.builder().name("node1").label(NODE_KEY, "node1").build();
    assertThat(plugin.filter(state, info, NodeInfos.of(node1, List.of())).isSuccess()).isTrue();
    VolumeBindingState st = state.read(VolumeBindingPlugin.KEY);
    assertThat(st.byNode.get("node1")).as("all bound: nothing to bind or provision").isNull();
    assertThat(st.bound).extracting(b -> b.claim().metadata().name()).containsExactly(claimName);
  }

  private void check(List<C> claims, List<V> volumes, Want want, VolumeProvisioner provisioner, boolean emptyDir) {
    store = ObjectStore.inMemory();
    PersistentVolumeController controller = PersistentVolumeController.builder(store).provisioner(provisioner)
        .build();
    sc(WAIT, StorageAnnotations.NO_PROVISIONER, VolumeBindingMode.WaitForFirstConsumer, null);
    sc(IMMEDIATE, StorageAnnotations.NO_PROVISIONER, VolumeBindingMode.Immediate, null);
    sc(WAIT_PROVISIONER, PROVISIONER, VolumeBindingMode.WaitForFirstConsumer, null);
    sc(TOPO_MISMATCH, PROVISIONER, VolumeBindingMode.WaitForFirstConsumer, "zone-x");
    Pod.Builder pod = Pod.builder().namespace("testns").name("test-pod").uid("test-pod")
        .container("c", "img", io.fleetkit.api.resource.ResourceList.EMPTY);
    if (emptyDir) {
      pod.volume(Volume.emptyDir("scratch"));
    }
    for (C c : claims) {
      pod.volume(Volume.persistentVolumeClaim(c.name(), c.name()));
    }
    // "pvc-not-found": the pod names a claim the store lacks
    boolean claimMissing = volumes.isEmpty() && claims.equals(List.of(BOUND)) && want.preFilterFails();
    for (C c : claims) {
      if (!claimMissing) {
        createClaim(c);
      }
    }
    for (V v : volumes) {
      createVolume(v);
    }
    VolumeBindingPlugin plugin = (VolumeBindingPlugin) VolumeBindingPlugin.factory(controller).create(null);
    MapCycleState state = new MapCycleState();
    PodInfo info = PodInfos.of(pod.build());
    PreFilterResult pre = plugin.preFilter(state, info, null);
    if (want.preFilterFails()) {
      assertThat(pre.status().isRejected()).as("PreFilter rejects: %s", pre.status()).isTrue();
      return;
    }
    assertThat(pre.status().isSuccess() || pre.status().isSkip()).as("PreFilter: %s", pre.status()).isTrue();
    Node node1 = Node.builder().name("node1").label(NODE_KEY, "node1").build();
    Status filter = pre.status().isSkip() ? Status.success()
        : plugin.filter(state, info, NodeInfos.of(node1, List.of()));
    assertThat(filter.reasons()).isEqualTo(want.reasons());
    if (!want.reasons().isEmpty()) {
      return;
    }
    VolumeBindingState st = state.read(VolumeBindingPlugin.KEY);
    VolumeBindingState.PodVolumes chosen = st == null ? null : st.byNode.get("node1");
    Map<String, String> gotBindings = new java.util.TreeMap<>();
    List<String> gotProvisions = new ArrayList<>();
    if (chosen != null) {
      chosen.bindings().forEach(b -> gotBindings.put(b.claim().metadata().name(), b.pv().metadata().name()));
      chosen.provisions().forEach(p -> gotProvisions.add(p.claim().metadata().name()));
    }
    assertThat(gotBindings).isEqualTo(new java.util.TreeMap<>(want.bindings()));
    assertThat(gotProvisions).isEqualTo(want.provisions());
  }

  private void sc(String name, String provisioner, VolumeBindingMode mode, String zone) {
    StorageClassSpec.Builder b = StorageClassSpec.builder().provisioner(provisioner).volumeBindingMode(mode);
    if (zone != null) {
      b.allowedTopology(TopologySelectorTerm.of(TopologySelectorLabelRequirement.of(TopologyLabels.ZONE, zone)));
    }
    store.create(StorageClass.of(ObjectMeta.of(name), b.build()));
  }

  private void createClaim(C c) {
    ObjectMeta.Builder m = ObjectMeta.builder().namespace("testns").name(c.name()).uid(c.name());
    if (c.fullyBound()) {
      m.annotation(StorageAnnotations.BIND_COMPLETED, "yes");
    }
    if (!c.selectedNode().isEmpty()) {
      m.annotation(StorageAnnotations.SELECTED_NODE, c.selectedNode());
    }
    store.create(PersistentVolumeClaim.of(m.build(), PersistentVolumeClaimSpec.builder().storage(c.size())
        .accessMode(PersistentVolumeAccessMode.ReadWriteOnce).storageClassName(c.cls()).volumeName(c.boundTo())
        .build()));
  }

  private void createVolume(V v) {
    PersistentVolumeSpec.Builder b = PersistentVolumeSpec.builder().storage(v.size())
        .accessMode(PersistentVolumeAccessMode.ReadWriteOnce).storageClassName(v.cls())
        .nodeAffinity(TopologyLabels.affinity(NODE_KEY, v.node()));
    PersistentVolumePhase phase = PersistentVolumePhase.Available;
    if (!v.claim().isEmpty()) {
      b.claimRef(new ClaimReference("testns", v.claim(), v.claim()));
      phase = PersistentVolumePhase.Bound;
    }
    store.create(new PersistentVolume(ObjectMeta.of(v.name()), b.build(), PersistentVolumeStatus.of(phase)));
  }
}
