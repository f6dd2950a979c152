package io.fleetkit.autoscale.cluster.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.autoscaling.ResourceSliceTemplate;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodResourceClaim;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.dra.AllocationResult;
import io.fleetkit.api.resource.dra.Device;
import io.fleetkit.api.resource.dra.DeviceClass;
import io.fleetkit.api.resource.dra.DeviceRequest;
import io.fleetkit.api.resource.dra.DeviceRequestAllocationResult;
import io.fleetkit.api.resource.dra.ExactDeviceRequest;
import io.fleetkit.api.resource.dra.ResourceClaim;
import io.fleetkit.api.resource.dra.ResourceClaimConsumerReference;
import io.fleetkit.api.resource.dra.ResourceClaimSpec;
import io.fleetkit.api.resource.dra.ResourceClaimStatus;
import io.fleetkit.api.resource.dra.ResourcePool;
import io.fleetkit.api.resource.dra.ResourceSlice;
import io.fleetkit.api.resource.dra.ResourceSliceSpec;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.scheduler.DefaultPlugins;
import io.fleetkit.scheduler.PluginRegistry;
import io.fleetkit.scheduler.dra.StructuredAllocator;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The DRA state of a simulation (upstream's DRA snapshot): a pod placed gets its claims allocated on its node and the
 * next pod sees the device taken; removing a node releases the claims of its pods (a claim the pod owns is deallocated,
 * a shared claim still used by another pod is not), so a pod with an owned claim can move to another node with a free
 * device and one with a shared claim cannot; a rollback restores the claims.
 */
final class SimulatedClusterDraTest {
  private static final String DRIVER = "gpu.example.com";
  private static final ResourceList CAP = ResourceList.builder().put("cpu", "8").put("memory", "16Gi")
      .put("pods", "110").build();
  private static final ResourceSliceTemplate ONE_GPU = ResourceSliceTemplate.of(DRIVER, "gpus", Device.of("gpu-0"));

  private static Node node(String name) {
    return Node.builder().name(name).capacity(CAP).build();
  }

  private static ResourceClaim claim(String name, String ownerPod) {
    ObjectMeta.Builder m = ObjectMeta.builder().namespace("default").name(name).uid("uid-" + name);
    if (!ownerPod.isEmpty()) {
      m.ownerReference(new OwnerReference("v1", "Pod", ownerPod, "uid-" + ownerPod, true, true));
    }
    return ResourceClaim.of(m.build(), ResourceClaimSpec.of(new DeviceRequest("gpu",
        ExactDeviceRequest.count(DRIVER, 1))));
  }

  /** {@code c} allocated the GPU of {@code node}'s slice and reserved for {@code pods}. */
  private static ResourceClaim allocated(ResourceClaim c, String node, String... pods) {
    List<ResourceClaimConsumerReference> r = new ArrayList<>();
    for (String p : pods) {
      r.add(ResourceClaimConsumerReference.pod(p, "uid-" + p));
    }
    return c.withStatus(new ResourceClaimStatus(new AllocationResult(List.of(new DeviceRequestAllocationResult("gpu",
        DRIVER, node + "-gpus", "gpu-0")), StructuredAllocator.localNodeSelector(node)), r));
  }

  private static Pod pod(String name, String claim, String node) {
    return Pod.builder().namespace("default").name(name).uid("uid-" + name).nodeName(node)
        .container("c", "img", ResourceList.ofCpuMemory(500, 0))
        .resourceClaim(PodResourceClaim.ofClaim("gpu", claim)).build();
  }

  private static SimulatedCluster cluster(List<ResourceClaim> claims, List<ResourceSlice> slices) {
    return SimulatedCluster.create(DefaultPlugins.profile(), PluginRegistry.defaults(),
        Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC),
        Map.of(DeviceClass.class, List.of(DeviceClass.of(DRIVER)), ResourceClaim.class, claims, ResourceSlice.class,
            slices));
  }

  private static PodInfo unbound(Pod p) {
    return PodInfos.of(p.withNodeName(""));
  }

  @Test
  void placement_allocatesOnTheNode_andTheNextPodSeesTheDeviceTaken() {
    SimulatedCluster sim = cluster(List.of(claim("a", "p1"), claim("b", "p2")), List.of());
    sim.addNode(node("gpu-1"), List.of(ONE_GPU.sliceFor("gpu-1")));
    PodInfo p1 = unbound(pod("p1", "a", ""));
    PodInfo p2 = unbound(pod("p2", "b", ""));
    assertThat(sim.findFit(p1, n -> true)).isEqualTo("gpu-1");
    sim.addPod("gpu-1", p1);
    assertThat(sim.claim("default", "a")).isEqualTo(allocated(claim("a", "p1"), "gpu-1", "p1"));
    assertThat(sim.findFit(p2, n -> true)).isNull();
    sim.addNode(node("gpu-2"), List.of(ONE_GPU.sliceFor("gpu-2")));
    assertThat(sim.findFit(p2, n -> true)).isEqualTo("gpu-2");
    // taking p1 off releases its device
    sim.removePod("gpu-1", p1.key());
    assertThat(sim.claim("default", "a").status()).isEqualTo(ResourceClaimStatus.INITIAL);
  }

  @Test
  void removedNode_podWithOwnedClaimMoves_claimReallocated_rollbackRestores() {
    ResourceClaim a = allocated(claim("a", "p1"), "gpu-1", "p1");
    SimulatedCluster sim = cluster(List.of(a), List.of(ONE_GPU.sliceFor("gpu-1"), ONE_GPU.sliceFor("gpu-2")));
    Pod p1 = pod("p1", "a", "gpu-1");
    sim.load(List.of(node("gpu-1"), node("gpu-2")), List.of(p1));
    sim.checkpoint();
    sim.removeNode("gpu-1");
    assertThat(sim.claim("default", "a").status().allocation()).isNull();
    assertThat(sim.placeAll(List.of(unbound(p1)), new int[] {0}, -1)).isTrue();
    assertThat(sim.nodeInfo("gpu-2").pods()).extracting(PodInfo::key).containsExactly("default/p1");
    assertThat(sim.claim("default", "a")).isEqualTo(allocated(claim("a", "p1"), "gpu-2", "p1"));
    sim.rollback();
    assertThat(sim.claim("default", "a")).isEqualTo(a);
    assertThat(sim.nodeInfo("gpu-1").pods()).extracting(PodInfo::key).containsExactly("default/p1");
  }

  @Test
  void removedNode_sharedClaimStillInUse_podCannotMove() {
    ResourceClaim shared = allocated(claim("shared", ""), "gpu-1", "p1", "p2");
    SimulatedCluster sim = cluster(List.of(shared), List.of(ONE_GPU.sliceFor("gpu-1"), ONE_GPU.sliceFor("gpu-2")));
    Pod p1 = pod("p1", "shared", "gpu-1");
    Pod p2 = pod("p2", "shared", "gpu-1");
    sim.load(List.of(node("gpu-1"), node("gpu-2"), node("cpu-1")), List.of(p1));
    // p2 runs on another node here, so that only p1 leaves with gpu-1
    sim.addPod("cpu-1", PodInfos.of(p2.withNodeName("cpu-1")));
    sim.checkpoint();
    sim.removeNode("gpu-1");
    ResourceClaim after = sim.claim("default", "shared");
    assertThat(after.status().allocation()).isEqualTo(shared.status().allocation());
    assertThat(after.status().reservedFor()).containsExactly(ResourceClaimConsumerReference.pod("p2", "uid-p2"));
    // the allocation is local to the removed node: p1 fits nowhere else
    assertThat(sim.placeAll(List.of(unbound(p1)), new int[] {0}, -1)).isFalse();
    sim.rollback();
    assertThat(sim.claim("default", "shared")).isEqualTo(shared);
  }

  @Test
  void addNodeSlices_refusesASliceOfAnotherNode() {
    SimulatedCluster sim = cluster(List.of(), List.of());
    sim.addNode(node("gpu-1"));
    assertThatThrownBy(() -> sim.addNodeSlices("gpu-1", List.of(ONE_GPU.sliceFor("gpu-2"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is not local to node gpu-1");
    assertThatThrownBy(() -> sim.addNodeSlices("nope", List.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no such node");
  }

  /** A drain's move (placeAll excluding the node, which keeps its view until removed), as scale-down runs it. */
  @Test
  void drainMove_releasesTheClaimOnTheDrainedNode_thenTheNodeRemovedKeepsTheNewAllocation() {
    ResourceClaim a = allocated(claim("a", "p1"), "gpu-1", "p1");
    SimulatedCluster sim = cluster(List.of(a), List.of(ONE_GPU.sliceFor("gpu-1"), ONE_GPU.sliceFor("gpu-2")));
    Pod p1 = pod("p1", "a", "gpu-1");
    sim.load(List.of(node("gpu-1"), node("gpu-2")), List.of(p1));
    sim.checkpoint();
    assertThat(sim.placeAll(List.of(unbound(p1)), new int[] {0}, sim.slot("gpu-1"))).isTrue();
    ResourceClaim moved = allocated(claim("a", "p1"), "gpu-2", "p1");
    assertThat(sim.claim("default", "a")).isEqualTo(moved);
    sim.removeNode("gpu-1"); // its view still held p1: the copy on gpu-2 holds the claim now
    assertThat(sim.claim("default", "a")).isEqualTo(moved);
    sim.rollback();
    assertThat(sim.claim("default", "a")).isEqualTo(a);
  }

  @Test
  void drainMove_failing_putsTheClaimBackAsItWas() {
    ResourceClaim a = allocated(claim("a", "p1"), "gpu-1", "p1");
    ResourceClaim b = allocated(claim("b", "p2"), "gpu-2", "p2");
    SimulatedCluster sim = cluster(List.of(a, b), List.of(ONE_GPU.sliceFor("gpu-1"), ONE_GPU.sliceFor("gpu-2")));
    Pod p1 = pod("p1", "a", "gpu-1");
    sim.load(List.of(node("gpu-1"), node("gpu-2")), List.of(p1, pod("p2", "b", "gpu-2")));
    assertThat(sim.placeAll(List.of(unbound(p1)), new int[] {0}, sim.slot("gpu-1"))).isFalse();
    assertThat(sim.claim("default", "a")).isEqualTo(a);
    assertThat(sim.claim("default", "b")).isEqualTo(b);
  }

  /** A network-attached GPU (a slice for all nodes), and a claim of {@code pod} owned by it holding that GPU. */
  private static final ResourceSlice NETWORK = ResourceSlice.of("net-gpus",
      ResourceSliceSpec.builder(DRIVER, new ResourcePool("net", 1, 1)).allNodes().device(Device.of("gpu-0")).build());

  private static ResourceClaim onNetwork(ResourceClaim c, String pod) {
    return c.withStatus(new ResourceClaimStatus(new AllocationResult(List.of(new DeviceRequestAllocationResult("gpu",
        DRIVER, "net", "gpu-0")), null), List.of(ResourceClaimConsumerReference.pod(pod, "uid-" + pod))));
  }

  private static final Taint GHOST = new Taint("ToBeDeletedByClusterAutoscaler", "1767225600",
      TaintEffect.NoSchedule, null);

  /**
   * Upstream's {@code replaceWithTaintedGhostNode} removes the drained node from the DRA snapshot, and with it the
   * claims owned by the pods that stay there ({@code RemovePodOwnedClaims}): a DaemonSet pod's own claim on a
   * network-attached GPU gives that GPU up for the moving pod, which finds no other. The node and its claims are as
   * before afterwards, and a move without the ghost (the node merely excluded) finds the GPU taken.
   */
  @Test
  void placeElsewhere_ghostReleasesTheClaimsOwnedByThePodsThatStay() {
    ResourceClaim a = allocated(claim("a", "p1"), "n1", "p1");
    ResourceClaim ds = onNetwork(claim("ds-gpu", "ds"), "ds");
    SimulatedCluster sim = cluster(List.of(a, ds), List.of(ONE_GPU.sliceFor("n1"), NETWORK));
    Pod p1 = pod("p1", "a", "n1");
    Pod dsPod = pod("ds", "ds-gpu", "n1");
    sim.load(List.of(node("n1"), node("n2")), List.of(p1, dsPod));
    sim.checkpoint();
    int n1 = sim.slot("n1");
    assertThat(sim.placeAll(List.of(unbound(p1)), new int[] {0}, n1)).isFalse();
    assertThat(sim.claim("default", "ds-gpu")).isEqualTo(ds);

    assertThat(sim.placeElsewhere(List.of(unbound(p1)), new int[] {0}, n1, null, GHOST)).isTrue();
    assertThat(sim.nodeInfo("n2").pods()).extracting(PodInfo::key).containsExactly("default/p1");
    assertThat(sim.claim("default", "a").status().allocation().devices()).singleElement()
        .satisfies(r -> assertThat(r.pool()).isEqualTo("net"));
    // the node as it was: the DaemonSet pod still there with its claim
    assertThat(sim.nodeInfo("n1").pods()).extracting(PodInfo::key).containsExactly("default/p1", "default/ds");
    assertThat(sim.claim("default", "ds-gpu")).isEqualTo(ds);
    sim.rollback();
    assertThat(sim.claim("default", "a")).isEqualTo(a);
  }

  /** A move that fails puts back the claims the ghost released, those of the pods that stay included. */
  @Test
  void placeElsewhere_failing_putsTheStayingPodsClaimsBack() {
    ResourceClaim a = allocated(claim("a", "p1"), "n1", "p1");
    ResourceClaim ds = onNetwork(claim("ds-gpu", "ds"), "ds");
    // p1 also needs 9 CPUs: no node but its own has them
    Pod p1 = Pod.builder().namespace("default").name("p1").uid("uid-p1").nodeName("n1")
        .container("c", "img", ResourceList.ofCpuMemory(9000, 0))
        .resourceClaim(PodResourceClaim.ofClaim("gpu", "a")).build();
    SimulatedCluster sim = cluster(List.of(a, ds), List.of(ONE_GPU.sliceFor("n1"), NETWORK));
    sim.load(List.of(Node.builder().name("n1").capacity(ResourceList.builder().put("cpu", "16").put("memory", "16Gi")
        .put("pods", "110").build()).build(), node("n2")), List.of(p1, pod("ds", "ds-gpu", "n1")));
    assertThat(sim.placeElsewhere(List.of(unbound(p1)), new int[] {0}, sim.slot("n1"), null, GHOST)).isFalse();
    assertThat(sim.claim("default", "a")).isEqualTo(a);
    assertThat(sim.claim("default", "ds-gpu")).isEqualTo(ds);
  }

  /**
   * The node of a successful drain removed as upstream's {@code RemoveNodeInfo} removes it
   * (cluster-autoscaler-release-1.37, commit a16f0ae8, {@code simulator/clustersnapshot/predicate/
   * predicate_snapshot.go}, {@code RemovePodOwnedClaims} of each of its pods, {@code simulator/dynamicresources/
   * snapshot/snapshot.go}): of the pods that stay, {@code ds}'s shared claim keeps its allocation without consumers and
   * {@code dso}'s own claim is gone; the moved {@code p1}'s claim stays allocated where it went. A rollback puts all
   * back. {@link SimulatedCluster#removeNodeAt} instead deallocates the shared claim, as for a pod taken off its node.
   */
  @Test
  void removeDrainedNodeAt_sharedClaimOfAStayingPodKeepsItsAllocation_ownedClaimIsGone() {
    ResourceClaim a = allocated(claim("a", "p1"), "n1", "p1");
    ResourceClaim shared = onNetwork(claim("shared", ""), "ds");
    ResourceClaimStatus local1 = new ResourceClaimStatus(new AllocationResult(List.of(
        new DeviceRequestAllocationResult("gpu", DRIVER, "n1-more", "gpu-1")), StructuredAllocator.localNodeSelector(
        "n1")), List.of(ResourceClaimConsumerReference.pod("dso", "uid-dso")));
    ResourceClaim own = claim("dso-gpu", "dso").withStatus(local1);
    ResourceSlice more = ResourceSliceTemplate.of(DRIVER, "more", Device.of("gpu-1")).sliceFor("n1");
    SimulatedCluster sim = cluster(List.of(a, shared, own), List.of(ONE_GPU.sliceFor("n1"), more,
        ONE_GPU.sliceFor("n2"), NETWORK));
    Pod p1 = pod("p1", "a", "n1");
    sim.load(List.of(node("n1"), node("n2")), List.of(p1, pod("ds", "shared", "n1"), pod("dso", "dso-gpu", "n1")));
    sim.checkpoint();
    int n1 = sim.slot("n1");
    assertThat(sim.placeElsewhere(List.of(unbound(p1)), new int[] {0}, n1, null, GHOST)).isTrue();
    ResourceClaim moved = allocated(claim("a", "p1"), "n2", "p1");
    assertThat(sim.claim("default", "a")).isEqualTo(moved);

    sim.removeDrainedNodeAt(n1);
    assertThat(sim.hasNode("n1")).isFalse();
    assertThat(sim.claim("default", "shared")).isEqualTo(shared.withStatus(shared.status().withReservedFor(
        List.of())));
    assertThat(sim.claim("default", "dso-gpu")).isNull();
    assertThat(sim.claim("default", "a")).isEqualTo(moved);
    sim.rollback();
    assertThat(sim.claim("default", "shared")).isEqualTo(shared);
    assertThat(sim.claim("default", "dso-gpu")).isEqualTo(own);
    assertThat(sim.claim("default", "a")).isEqualTo(a);

    assertThat(sim.placeElsewhere(List.of(unbound(p1)), new int[] {0}, n1, null, GHOST)).isTrue();
    sim.removeNodeAt(n1);
    assertThat(sim.claim("default", "shared").status()).isEqualTo(ResourceClaimStatus.INITIAL);
  }

  /**
   * A pending pod another simulation placed on n1 (scale-up's filter) is loaded on n1 without its node name:
   * {@link SimulatedCluster#holdClaims} gives it its claim there as a placement would (allocated on n1's GPU, the pod
   * its consumer), and makes it the pod on n1 for the claim: a drain moves it with its claim to n2, and n1 removed
   * with the pod staying there (a DaemonSet pod, say) takes the claim it owns with it. Claims allocated already (by
   * that other simulation) are kept as they are.
   */
  @Test
  void holdClaims_pendingPodLoadedOnANode_holdsItsClaimThere() {
    Pod p1 = pod("p1", "a", "");
    ResourceClaim onN1 = allocated(claim("a", "p1"), "n1", "p1");
    for (ResourceClaim given : List.of(claim("a", "p1"), onN1)) {
      SimulatedCluster sim = cluster(List.of(given), List.of(ONE_GPU.sliceFor("n1"), ONE_GPU.sliceFor("n2")));
      sim.load(List.of(node("n1"), node("n2")), n -> n.equals("n1") ? List.of(PodInfos.of(p1)) : List.of(), null);
      sim.holdClaims("n1", p1);
      assertThat(sim.claim("default", "a")).isEqualTo(onN1);
      sim.checkpoint();
      assertThat(sim.placeElsewhere(List.of(unbound(p1)), new int[] {0}, sim.slot("n1"), null, GHOST)).isTrue();
      assertThat(sim.claim("default", "a")).isEqualTo(allocated(claim("a", "p1"), "n2", "p1"));
      sim.rollback();
      assertThat(sim.claim("default", "a")).isEqualTo(onN1);
      sim.removeDrainedNodeAt(sim.slot("n1"));
      assertThat(sim.claim("default", "a")).as("owned by p1, which stayed on n1").isNull();
    }
    SimulatedCluster sim = cluster(List.of(), List.of());
    assertThatThrownBy(() -> sim.holdClaims("nope", p1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no such node");
  }
}
