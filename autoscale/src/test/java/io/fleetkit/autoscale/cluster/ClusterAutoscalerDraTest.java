package io.fleetkit.autoscale.cluster;

import static io.fleetkit.autoscale.cluster.CaFixtures.MI;
import static io.fleetkit.autoscale.cluster.CaFixtures.pool;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.autoscaling.ResourceSliceTemplate;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodResourceClaim;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.dra.Device;
import io.fleetkit.api.resource.dra.DeviceClass;
import io.fleetkit.api.resource.dra.DeviceRequest;
import io.fleetkit.api.resource.dra.ExactDeviceRequest;
import io.fleetkit.api.resource.dra.ResourceClaim;
import io.fleetkit.api.resource.dra.ResourceClaimSpec;
import io.fleetkit.api.resource.dra.ResourceSlice;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Scale-up for pods whose ResourceClaims only the DRA devices of a pool's device templates can satisfy: the template
 * nodes carry the pool's slices, each pod placed in the estimate takes a device, and a node that has not published its
 * slices yet is simulated with its pool's. Scale-down of nodes with DRA devices: a node is judged by its most used
 * device pool ({@link DeviceUtilization}), and its pods move only to free devices, among them those the claims of the
 * pods staying on the node held (its ghost releases them).
 */
final class ClusterAutoscalerDraTest {
  private static final String DRIVER = "gpu.example.com";
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build();

  @AfterEach
  void close() {
    store.close();
  }

  private ClusterAutoscaler ca() {
    return ClusterAutoscaler.builder(store).clock(clock).expander(Expanders.leastWaste())
        .options(AutoscalerOptions.defaults()).seed(42).build();
  }

  /** A 8-CPU pool whose nodes have {@code gpus} DRA GPUs (none: no device template), priced 1.0 or 3.0. */
  private static NodePool gpuPool(String name, int gpus) {
    NodePool.Builder b = NodePool.builder().name(name).capacity(CaFixtures.resources(8000, 16384 * MI, 110))
        .minSize(0).maxSize(10).pricePerHour(3.0);
    if (gpus > 0) {
      Device[] devices = new Device[gpus];
      for (int i = 0; i < gpus; i++) {
        devices[i] = Device.of("gpu-" + i);
      }
      b.resourceSlice(ResourceSliceTemplate.of(DRIVER, "gpus", devices));
    }
    return b.build();
  }

  /** A pending pod with its own claim for one GPU. */
  private void gpuPod(String name) {
    store.create(ResourceClaim.of(ObjectMeta.builder().namespace("default").name(name + "-gpu").build(),
        ResourceClaimSpec.of(new DeviceRequest("gpu", ExactDeviceRequest.count(DRIVER, 1)))));
    store.create(Pod.builder().namespace("default").name(name)
        .container("c", "trainer", ResourceList.ofCpuMemory(500, 512 * MI))
        .resourceClaim(PodResourceClaim.ofClaim("gpu", name + "-gpu")).build());
  }

  @Test
  void podsWithClaims_scaleUpThePoolWithDevices_oneDevicePerPod() {
    store.create(DeviceClass.of(DRIVER));
    store.create(pool("cpu", 8000, 16384, 0, 10, 1.0));
    store.create(gpuPool("gpu", 2));
    for (int i = 0; i < 3; i++) {
      gpuPod("train-" + i);
    }
    ScaleUpPlan plan = ca().planScaleUp();
    assertThat(plan.chosen()).isNotNull();
    assertThat(plan.chosen().poolName()).isEqualTo("gpu");
    // 2 GPUs a node: the third pod needs a second node although CPU would hold all three on one
    assertThat(plan.chosen().nodeCount()).isEqualTo(2);
    assertThat(plan.chosen().pods()).hasSize(3);
    assertThat(plan.skippedPools()).containsEntry("cpu", "no pending pod fits its template");
    // the estimate left the store's claims as they were
    assertThat(store.list(ResourceClaim.class).items()).allSatisfy(c -> assertThat(c.status().allocation()).isNull());
  }

  @Test
  void poolWithoutDeviceTemplates_isNoHelp() {
    store.create(DeviceClass.of(DRIVER));
    store.create(gpuPool("gpu", 0));
    gpuPod("train-0");
    ScaleUpPlan plan = ca().planScaleUp();
    assertThat(plan.chosen()).isNull();
    assertThat(plan.skippedPools()).containsEntry("gpu", "no pending pod fits its template");
  }

  @Test
  void upcomingNodeWithoutSlices_countsWithItsPoolsDevices() {
    store.create(DeviceClass.of(DRIVER));
    store.create(gpuPool("gpu", 2));
    gpuPod("train-0");
    gpuPod("train-1");
    ClusterAutoscaler ca = ca();
    ca.runOnce();
    List<Node> nodes = store.list(Node.class).items();
    assertThat(nodes).hasSize(1);
    assertThat(store.list(ResourceSlice.class).items()).isEmpty(); // nothing published yet
    // both pods fit the upcoming node's two devices: no second launch
    assertThat(ca.planScaleUp().chosen()).isNull();
    gpuPod("train-2");
    ScaleUpPlan more = ca.planScaleUp();
    assertThat(more.chosen()).isNotNull();
    assertThat(more.chosen().nodeCount()).isEqualTo(1);
    assertThat(more.chosen().pods()).extracting(p -> p.metadata().name()).containsExactly("train-2");
  }

  @Test
  void publishedSlices_areUsedInsteadOfTheTemplates() {
    store.create(DeviceClass.of(DRIVER));
    NodePool pool = store.create(gpuPool("gpu", 2));
    Node n = store.create(ClusterAutoscaler.templateNode(pool, "gpu-1"));
    // the node's driver published one device only (one GPU is broken): the second pod needs a new node
    store.create(ResourceSliceTemplate.of(DRIVER, "gpus", Device.of("gpu-0")).sliceFor(n.name()));
    gpuPod("train-0");
    gpuPod("train-1");
    ScaleUpPlan plan = ca().planScaleUp();
    assertThat(plan.chosen()).isNotNull();
    assertThat(plan.chosen().nodeCount()).isEqualTo(1);
    assertThat(plan.chosen().pods()).hasSize(1);
  }

  /**
   * A running ReplicaSet pod on {@code node} whose own claim (controlled by the pod) holds the node's {@code device},
   * as the scheduler and the resource-claim controller leave it.
   */
  private void runningGpuPod(String name, String node, String device) {
    Pod p = store.create(Pod.builder().namespace("default").name(name).ownerReference(CaFixtures.RS).nodeName(node)
        .container("c", "trainer", ResourceList.ofCpuMemory(500, 512 * MI))
        .resourceClaim(PodResourceClaim.ofClaim("gpu", name + "-gpu")).build());
    ResourceClaim c = store.create(ResourceClaim.of(ObjectMeta.builder().namespace("default").name(name + "-gpu")
        .ownerReference(new io.fleetkit.api.meta.OwnerReference("v1", "Pod", name, p.metadata().uid(), true, true))
        .build(), ResourceClaimSpec.of(new DeviceRequest("gpu", ExactDeviceRequest.count(DRIVER, 1)))));
    store.updateStatus(c.withStatus(new io.fleetkit.api.resource.dra.ResourceClaimStatus(
        new io.fleetkit.api.resource.dra.AllocationResult(List.of(
            new io.fleetkit.api.resource.dra.DeviceRequestAllocationResult("gpu", DRIVER, node + "-gpus", device)),
            io.fleetkit.scheduler.dra.StructuredAllocator.localNodeSelector(node)),
        List.of(io.fleetkit.api.resource.dra.ResourceClaimConsumerReference.pod(name, p.metadata().uid())))));
  }

  /** Two Ready nodes of a GPU pool whose drivers published {@code gpus} devices each, one GPU pod on each. */
  private void twoNodesOnePodEach(int gpus) {
    store.create(DeviceClass.of(DRIVER));
    NodePool pool = store.create(gpuPool("gpu", 2));
    for (String n : List.of("gpu-1", "gpu-2")) {
      store.create(ClusterAutoscaler.templateNode(pool, n));
      Device[] devices = new Device[gpus];
      for (int i = 0; i < gpus; i++) {
        devices[i] = Device.of("gpu-" + i);
      }
      store.create(ResourceSliceTemplate.of(DRIVER, "gpus", devices).sliceFor(n));
    }
    runningGpuPod("a", "gpu-1", "gpu-0");
    runningGpuPod("b", "gpu-2", "gpu-0");
  }

  @Test
  void scaleDown_podWithItsOwnClaim_movesToAFreeDevice_nodeUnneeded() {
    twoNodesOnePodEach(2);
    LoopResult r = ca().runOnce();
    // one node's pod takes the other node's free GPU in the simulation; then the other is needed for both pods
    assertThat(r.unneededNodes()).containsExactly("gpu-1");
    assertThat(r.unremovableNodes()).containsEntry("gpu-2", ClusterAutoscaler.NO_PLACE_TO_MOVE_PODS);
    // the simulation's allocations stay in the simulation
    assertThat(store.require(ResourceClaim.class, "default", "a-gpu").status().allocation().devices().get(0).pool())
        .isEqualTo("gpu-1-gpus");
  }

  @Test
  void scaleDown_everyDeviceAllocated_nodesNotUnderutilized_thoughTheirCpuIsLow() {
    twoNodesOnePodEach(1);
    LoopResult r = ca().runOnce();
    // each pod requests 500m of 8 CPUs, but each node's one device is allocated: 100% used (upstream's
    // HighestDynamicResourceUtilization), above the 0.5 threshold
    assertThat(r.unneededNodes()).isEmpty();
    assertThat(r.unremovableNodes()).containsEntry("gpu-1", ClusterAutoscaler.NOT_UNDERUTILIZED)
        .containsEntry("gpu-2", ClusterAutoscaler.NOT_UNDERUTILIZED);
  }

  @Test
  void scaleDown_mostDevicesAllocated_nodeStays_althoughItsPodsCouldMove() {
    store.create(DeviceClass.of(DRIVER));
    NodePool pool = store.create(gpuPool("gpu", 3));
    for (String n : List.of("gpu-1", "gpu-2")) {
      store.create(ClusterAutoscaler.templateNode(pool, n));
      store.create(ResourceSliceTemplate.of(DRIVER, "gpus", Device.of("gpu-0"), Device.of("gpu-1"),
          Device.of("gpu-2")).sliceFor(n));
    }
    runningGpuPod("a", "gpu-1", "gpu-0");
    runningGpuPod("b", "gpu-1", "gpu-1");
    LoopResult r = ca().runOnce();
    // gpu-1: 2 of 3 devices (0.67) for 1 of 8 CPUs; gpu-2: empty, unneeded
    assertThat(r.unremovableNodes()).containsEntry("gpu-1", ClusterAutoscaler.NOT_UNDERUTILIZED);
    assertThat(r.unneededNodes()).containsExactly("gpu-2");
  }

  @Test
  void scaleDown_halfTheDevicesAllocated_candidate_butNoFreeDeviceElsewhere() {
    store.create(DeviceClass.of(DRIVER));
    NodePool pool = store.create(gpuPool("gpu", 2));
    store.create(ClusterAutoscaler.templateNode(pool, "gpu-1"));
    store.create(ResourceSliceTemplate.of(DRIVER, "gpus", Device.of("gpu-0"), Device.of("gpu-1")).sliceFor("gpu-1"));
    store.create(ClusterAutoscaler.templateNode(pool, "gpu-2"));
    store.create(ResourceSliceTemplate.of(DRIVER, "gpus", Device.of("gpu-0")).sliceFor("gpu-2"));
    runningGpuPod("a", "gpu-1", "gpu-0");
    runningGpuPod("b", "gpu-2", "gpu-0");
    LoopResult r = ca().runOnce();
    // gpu-1 at the threshold (1 of 2 devices) is a candidate, but its pod finds no free device on gpu-2 (full)
    assertThat(r.unneededNodes()).isEmpty();
    assertThat(r.unremovableNodes()).containsEntry("gpu-1", ClusterAutoscaler.NO_PLACE_TO_MOVE_PODS)
        .containsEntry("gpu-2", ClusterAutoscaler.NOT_UNDERUTILIZED);
  }

  @Test
  void scaleDown_incompletePool_utilizationUnknown_unexpectedError() {
    store.create(DeviceClass.of(DRIVER));
    NodePool pool = store.create(gpuPool("gpu", 2));
    store.create(ClusterAutoscaler.templateNode(pool, "gpu-1"));
    ResourceSlice one = ResourceSliceTemplate.of(DRIVER, "gpus", Device.of("gpu-0")).sliceFor("gpu-1");
    // the driver says the pool has two slices; one is published so far
    store.create(new ResourceSlice(one.metadata(), new io.fleetkit.api.resource.dra.ResourceSliceSpec(
        one.spec().driver(), new io.fleetkit.api.resource.dra.ResourcePool(one.spec().pool().name(),
            one.spec().pool().generation(), 2), "gpu-1", null, false, one.spec().devices())));
    LoopResult r = ca().runOnce();
    assertThat(r.unneededNodes()).isEmpty();
    assertThat(r.unremovableNodes()).containsEntry("gpu-1", ClusterAutoscaler.UNEXPECTED_ERROR);
  }

  @Test
  void scaleDownStatus_reportsTheMostUsedDevicePool() {
    twoNodesOnePodEach(2);
    ScaleDownActuator a = ScaleDownActuator.overStore(store, AutoscalerOptions.defaults(),
        new ScaleDownEvictor.Timing(60, java.time.Duration.ZERO, java.time.Duration.ZERO,
            ScaleDownEvictor.POD_EVICTION_HEADROOM));
    ScaleDownStatus st = a.startDeletion(List.of(), List.of(store.require(Node.class, "", "gpu-1")), clock.instant());
    assertThat(st.scaledDownNodes()).hasSize(1);
    NodeUtilization u = st.scaledDownNodes().get(0).utilization();
    assertThat(u.value()).isEqualTo(0.5);
    assertThat(u.resourceName()).isEqualTo(DRIVER + "/gpu-1-gpus");
    assertThat(u.cpu()).isLessThan(0.1);
  }

  /**
   * Upstream's ghost (kubernetes/autoscaler cluster-autoscaler-release-1.37, {@code simulator/cluster.go}
   * {@code replaceWithTaintedGhostNode}: the node is removed from the DRA snapshot, {@code RemovePodOwnedClaims} for
   * the pods that stay): a DaemonSet pod's own claim holds the only network-attached GPU; while gpu-1's removal is
   * simulated that claim is gone, so the ReplicaSet pod, whose GPU is local to gpu-1, takes the network GPU on cpu-1.
   */
  @Test
  void scaleDown_ghostReleasesTheDaemonSetPodsOwnClaim_podTakesItsNetworkGpu() {
    store.create(DeviceClass.of(DRIVER));
    NodePool gpu = store.create(gpuPool("gpu", 4));
    NodePool cpu = store.create(pool("cpu", 8000, 16384, 0, 10, 1.0));
    store.create(ClusterAutoscaler.templateNode(gpu, "gpu-1"));
    store.create(ResourceSliceTemplate.of(DRIVER, "gpus", Device.of("gpu-0"), Device.of("gpu-1"), Device.of("gpu-2"),
        Device.of("gpu-3")).sliceFor("gpu-1"));
    store.create(ClusterAutoscaler.templateNode(cpu, "cpu-1"));
    store.create(CaFixtures.pod("keep", 5000, 512).toBuilder().nodeName("cpu-1").build()); // cpu-1 is needed
    store.create(ResourceSlice.of("net-gpus", io.fleetkit.api.resource.dra.ResourceSliceSpec.builder(DRIVER,
        new io.fleetkit.api.resource.dra.ResourcePool("net", 1, 1)).allNodes().device(Device.of("net-0")).build()));
    runningGpuPod("a", "gpu-1", "gpu-0"); // 1 of gpu-1's 4 GPUs: 25 %
    Pod ds = store.create(Pod.builder().namespace("default").name("ds").nodeName("gpu-1")
        .ownerReference(new io.fleetkit.api.meta.OwnerReference("apps/v1", "DaemonSet", "agent", "ds-uid", true,
            true))
        .container("c", "agent", ResourceList.ofCpuMemory(100, 64 * MI))
        .resourceClaim(PodResourceClaim.ofClaim("gpu", "ds-gpu")).build());
    ResourceClaim c = store.create(ResourceClaim.of(ObjectMeta.builder().namespace("default").name("ds-gpu")
        .ownerReference(new io.fleetkit.api.meta.OwnerReference("v1", "Pod", "ds", ds.metadata().uid(), true, true))
        .build(), ResourceClaimSpec.of(new DeviceRequest("gpu", ExactDeviceRequest.count(DRIVER, 1)))));
    ResourceClaim held = store.updateStatus(c.withStatus(new io.fleetkit.api.resource.dra.ResourceClaimStatus(
        new io.fleetkit.api.resource.dra.AllocationResult(List.of(
            new io.fleetkit.api.resource.dra.DeviceRequestAllocationResult("gpu", DRIVER, "net", "net-0")), null),
        List.of(io.fleetkit.api.resource.dra.ResourceClaimConsumerReference.pod("ds", ds.metadata().uid())))));
    LoopResult r = ca().runOnce();
    assertThat(r.unneededNodes()).containsExactly("gpu-1");
    assertThat(store.require(ResourceClaim.class, "default", "ds-gpu")).isEqualTo(held);
  }

  /**
   * A node found removable leaves the simulation as upstream's {@code RemoveNodeInfo} removes it
   * (cluster-autoscaler-release-1.37, {@code RemovePodOwnedClaims} for each of its pods): the DaemonSet pod staying on
   * gpu-1 leaves the consumers of its shared claim, which keeps the only network-attached GPU allocated; so gpu-2's
   * pod, whose GPU is local to gpu-2, finds no GPU on cpu-1 and gpu-2 is not removable after gpu-1.
   */
  @Test
  void scaleDown_removedNodesStayingPodKeepsItsSharedClaimAllocated_noGpuForTheNextNodesPod() {
    store.create(DeviceClass.of(DRIVER));
    NodePool gpu = store.create(gpuPool("gpu", 4));
    NodePool cpu = store.create(pool("cpu", 8000, 16384, 0, 10, 1.0));
    for (String n : List.of("gpu-1", "gpu-2")) {
      store.create(ClusterAutoscaler.templateNode(gpu, n));
      store.create(ResourceSliceTemplate.of(DRIVER, "gpus", Device.of("gpu-0"), Device.of("gpu-1"),
          Device.of("gpu-2"), Device.of("gpu-3")).sliceFor(n));
    }
    store.create(ClusterAutoscaler.templateNode(cpu, "cpu-1"));
    store.create(CaFixtures.pod("keep", 5000, 512).toBuilder().nodeName("cpu-1").build()); // cpu-1 is needed
    store.create(ResourceSlice.of("net-gpus", io.fleetkit.api.resource.dra.ResourceSliceSpec.builder(DRIVER,
        new io.fleetkit.api.resource.dra.ResourcePool("net", 1, 1)).allNodes().device(Device.of("net-0")).build()));
    Pod ds = store.create(Pod.builder().namespace("default").name("ds").nodeName("gpu-1")
        .ownerReference(new io.fleetkit.api.meta.OwnerReference("apps/v1", "DaemonSet", "agent", "ds-uid", true,
            true))
        .container("c", "agent", ResourceList.ofCpuMemory(100, 64 * MI))
        .resourceClaim(PodResourceClaim.ofClaim("gpu", "shared-gpu")).build());
    ResourceClaim c = store.create(ResourceClaim.of(ObjectMeta.builder().namespace("default").name("shared-gpu")
        .build(), ResourceClaimSpec.of(new DeviceRequest("gpu", ExactDeviceRequest.count(DRIVER, 1)))));
    store.updateStatus(c.withStatus(new io.fleetkit.api.resource.dra.ResourceClaimStatus(
        new io.fleetkit.api.resource.dra.AllocationResult(List.of(
            new io.fleetkit.api.resource.dra.DeviceRequestAllocationResult("gpu", DRIVER, "net", "net-0")), null),
        List.of(io.fleetkit.api.resource.dra.ResourceClaimConsumerReference.pod("ds", ds.metadata().uid())))));
    runningGpuPod("b", "gpu-2", "gpu-0");
    LoopResult r = ca().runOnce();
    assertThat(r.unneededNodes()).containsExactly("gpu-1");
    assertThat(r.unremovableNodes()).containsEntry("gpu-2", ClusterAutoscaler.NO_PLACE_TO_MOVE_PODS);
  }

  /**
   * The claims of the pending pods scale-up's filter placed are allocated in scale-down's simulation, as upstream's
   * filter ({@code TrySchedulePods}, kubernetes/autoscaler cluster-autoscaler-release-1.37) allocates them in the
   * loop's DRA snapshot that scale-down forks: p1 and p2 take two more of gpu-1's 4 GPUs, 3 of 4 used (0.75), above
   * the 0.5 threshold; with the store's unallocated claims gpu-1 would count 1 of 4 and be a candidate.
   */
  @Test
  void scaleDown_claimsOfPendingPodsTheFilterPlaced_countInTheNodesDeviceUtilization() {
    store.create(DeviceClass.of(DRIVER));
    NodePool pool = store.create(gpuPool("gpu", 4));
    store.create(ClusterAutoscaler.templateNode(pool, "gpu-1"));
    store.create(ResourceSliceTemplate.of(DRIVER, "gpus", Device.of("gpu-0"), Device.of("gpu-1"), Device.of("gpu-2"),
        Device.of("gpu-3")).sliceFor("gpu-1"));
    runningGpuPod("a", "gpu-1", "gpu-0");
    gpuPod("p1");
    gpuPod("p2");
    ClusterAutoscaler ca = ca();
    LoopResult r = ca.runOnce();
    assertThat(r.scaleUp().unschedulablePods()).isEmpty();
    assertThat(r.unremovableNodes()).containsEntry("gpu-1", ClusterAutoscaler.NOT_UNDERUTILIZED);
    // the store's claims stay as they were
    assertThat(store.require(ResourceClaim.class, "default", "p1-gpu").status().allocation()).isNull();
    clock.advance(java.time.Duration.ofSeconds(10));
    assertThat(ca.runOnce().unremovableNodes()).as("the next loop, the pods on their hints")
        .containsEntry("gpu-1", ClusterAutoscaler.NOT_UNDERUTILIZED);
  }
}
