package io.fleetkit.scheduler.plugins.dynamicresources;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodResourceClaim;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.dra.AllocationResult;
import io.fleetkit.api.resource.dra.Device;
import io.fleetkit.api.resource.dra.DeviceClass;
import io.fleetkit.api.resource.dra.DeviceRequest;
import io.fleetkit.api.resource.dra.DeviceRequestAllocationResult;
import io.fleetkit.api.resource.dra.DeviceSelector;
import io.fleetkit.api.resource.dra.ExactDeviceRequest;
import io.fleetkit.api.resource.dra.ResourceClaim;
import io.fleetkit.api.resource.dra.ResourceClaimConsumerReference;
import io.fleetkit.api.resource.dra.ResourceClaimSpec;
import io.fleetkit.api.resource.dra.ResourcePool;
import io.fleetkit.api.resource.dra.ResourceSlice;
import io.fleetkit.api.resource.dra.ResourceSliceSpec;
import io.fleetkit.api.scheduling.NodeSelector;
import io.fleetkit.api.scheduling.NodeSelectorOperator;
import io.fleetkit.api.scheduling.NodeSelectorRequirement;
import io.fleetkit.api.scheduling.NodeSelectorTerm;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.scheduler.PendingPod;
import io.fleetkit.scheduler.ScheduleResult;
import io.fleetkit.scheduler.Scheduler;
import io.fleetkit.scheduler.StoreScheduler;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The default scheduler over an object store with one DeviceClass and one ResourceSlice whose single GPU is reachable
 * from two of three nodes: a pod with a claim lands on one of those two, its claim allocated and reserved for it; a
 * second pod wanting the same exclusive device stays unschedulable, saying why; pods without claims are unaffected.
 * The queueing hints keep a rejected pod parked through claim changes that cannot help it, and a new slice brings it
 * back; PostFilter deallocates a claim allocated out of the pod's reach, so that the next attempt allocates it again.
 */
final class DynamicResourcesEndToEndTest {
  private final ManualClock clock = ManualClock.atEpoch2026();

  private static Node node(String name, boolean gpuRack) {
    Node n = io.fleetkit.scheduler.testing.Fixtures.node(name, 4000, 8192, 110);
    return gpuRack ? n.toBuilder().label("rack", "gpu").build() : n;
  }

  private static final NodeSelector GPU_RACK = new NodeSelector(List.of(new NodeSelectorTerm(
      List.of(new NodeSelectorRequirement("rack", NodeSelectorOperator.In, List.of("gpu"))), List.of())));

  private static ResourceClaim claim(String name) {
    return ResourceClaim.of(ObjectMeta.builder().namespace("default").name(name).build(), ResourceClaimSpec.of(
        new DeviceRequest("gpu", ExactDeviceRequest.count("gpu.example.com", 1))));
  }

  private static Pod pod(String name, String claimName) {
    Pod.Builder b = Pod.builder().namespace("default").name(name)
        .container("c", "trainer", ResourceList.ofCpuMemory(500, 1L << 30));
    if (!claimName.isEmpty()) {
      b.resourceClaim(PodResourceClaim.ofClaim("gpu", claimName));
    }
    return b.build();
  }

  @Test
  void claimAllocatedWhereTheDeviceIs_secondPodForTheSameDeviceUnschedulable() {
    try (ObjectStore store = ObjectStore.builder().directDelivery().build();
        Scheduler s = Scheduler.builder().clock(clock).store(store).build()) {
      store.create(node("cpu-1", false));
      store.create(node("gpu-1", true));
      store.create(node("gpu-2", true));
      store.create(DeviceClass.of("gpu.example.com", DeviceSelector.cel("device.driver == \"gpu.example.com\"")));
      store.create(ResourceSlice.of("rack-gpu", ResourceSliceSpec.builder("gpu.example.com", ResourcePool.of("rack"))
          .nodeSelector(GPU_RACK).devices(List.of(Device.of("gpu-0"))).build()));
      store.create(claim("first-gpu"));
      store.create(claim("second-gpu"));
      store.create(pod("plain", ""));
      store.create(pod("first", "first-gpu"));
      try (StoreScheduler feed = s.attach(store)) {
        assertThat(feed).isNotNull();
        List<ScheduleResult> results = s.runUntilIdle();
        assertThat(results).filteredOn(r -> r.podKey().equals("default/plain")).singleElement()
            .satisfies(r -> assertThat(r.isBound()).isTrue());
        ScheduleResult first = results.stream().filter(r -> r.podKey().equals("default/first")).findFirst()
            .orElseThrow();
        assertThat(first.isBound()).as(first.message()).isTrue();
        assertThat(first.nodeName()).isIn("gpu-1", "gpu-2");

        Pod bound = store.require(Pod.class, "default", "first");
        assertThat(bound.spec().nodeName()).isEqualTo(first.nodeName());
        ResourceClaim c = store.require(ResourceClaim.class, "default", "first-gpu");
        AllocationResult a = c.status().allocation();
        assertThat(a).isNotNull();
        assertThat(a.devices()).containsExactly(
            new DeviceRequestAllocationResult("gpu", "gpu.example.com", "rack", "gpu-0"));
        assertThat(a.nodeSelector()).isEqualTo(GPU_RACK);
        assertThat(c.status().reservedFor()).containsExactly(
            ResourceClaimConsumerReference.pod("first", bound.metadata().uid()));

        store.create(pod("second", "second-gpu"));
        List<ScheduleResult> second = s.runUntilIdle();
        assertThat(second).singleElement().satisfies(r -> {
          assertThat(r.podKey()).isEqualTo("default/second");
          assertThat(r.isBound()).isFalse();
          assertThat(r.code()).isEqualTo(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE);
          assertThat(r.message()).startsWith("0/3 nodes are available: 3 "
              + DynamicResourcesPlugin.REASON_CANNOT_ALLOCATE + ".");
        });
        assertThat(store.require(ResourceClaim.class, "default", "second-gpu").status().allocation()).isNull();
        assertThat(store.require(Pod.class, "default", "second").spec().nodeName()).isEmpty();
      }
    }
  }

  @Test
  void podWaitsForItsClaim_scheduledOnceTheClaimIsCreated() {
    try (ObjectStore store = ObjectStore.builder().directDelivery().build();
        Scheduler s = Scheduler.builder().clock(clock).store(store).build()) {
      store.create(node("gpu-1", true));
      store.create(DeviceClass.of("gpu.example.com"));
      store.create(ResourceSlice.of("rack-gpu", ResourceSliceSpec.builder("gpu.example.com", ResourcePool.of("rack"))
          .nodeSelector(GPU_RACK).devices(List.of(Device.of("gpu-0"))).build()));
      store.create(pod("first", "first-gpu"));
      try (StoreScheduler feed = s.attach(store)) {
        assertThat(feed).isNotNull();
        assertThat(s.runUntilIdle()).isEmpty(); // gated by PreEnqueue: the claim does not exist
        store.create(claim("first-gpu")); // the claim's event re-checks the gated pod
        assertThat(s.runUntilIdle()).singleElement().satisfies(r -> assertThat(r.nodeName()).isEqualTo("gpu-1"));
        assertThat(store.require(ResourceClaim.class, "default", "first-gpu").status().reservedFor()).hasSize(1);
      }
    }
  }

  private static PendingPod.Queue queueOf(Scheduler s, String key) {
    return s.pending().stream().filter(p -> p.podKey().equals(key)).findFirst().orElseThrow().queue();
  }

  @Test
  void podRejectedForLackOfDevices_parkedThroughIrrelevantClaimChanges_requeuedByANewSlice() {
    try (ObjectStore store = ObjectStore.builder().directDelivery().build();
        Scheduler s = Scheduler.builder().clock(clock).store(store).build()) {
      store.create(node("gpu-1", true));
      store.create(DeviceClass.of("gpu.example.com"));
      store.create(claim("first-gpu"));
      store.create(pod("first", "first-gpu"));
      try (StoreScheduler feed = s.attach(store)) {
        assertThat(feed).isNotNull();
        assertThat(s.runUntilIdle()).singleElement().satisfies(r -> assertThat(r.message())
            .contains(DynamicResourcesPlugin.REASON_CANNOT_ALLOCATE));
        assertThat(queueOf(s, "default/first")).isEqualTo(PendingPod.Queue.UNSCHEDULABLE);

        store.create(claim("someone-elses")); // a claim the pod does not use: QueueSkip
        ResourceClaim mine = store.require(ResourceClaim.class, "default", "first-gpu");
        store.update(mine.withMetadata(mine.metadata().toBuilder().finalizer("example.com/keep").build()));
        assertThat(s.runUntilIdle()).isEmpty(); // its claim changed, but not its status: QueueSkip
        assertThat(queueOf(s, "default/first")).isEqualTo(PendingPod.Queue.UNSCHEDULABLE);

        store.create(ResourceSlice.of("rack-gpu", ResourceSliceSpec.builder("gpu.example.com",
            ResourcePool.of("rack")).nodeSelector(GPU_RACK).devices(List.of(Device.of("gpu-0"))).build()));
        assertThat(queueOf(s, "default/first")).isNotEqualTo(PendingPod.Queue.UNSCHEDULABLE);
        clock.advance(Duration.ofSeconds(10)); // past the backoff
        assertThat(s.runUntilIdle()).singleElement().satisfies(r -> assertThat(r.nodeName()).isEqualTo("gpu-1"));
      }
    }
  }

  @Test
  void claimAllocatedOutOfReach_postFilterDeallocates_nextAttemptAllocatesWhereThePodFits() {
    NodeSelector gone = new NodeSelector(List.of(new NodeSelectorTerm(
        List.of(new NodeSelectorRequirement("rack", NodeSelectorOperator.In, List.of("gone"))), List.of())));
    try (ObjectStore store = ObjectStore.builder().directDelivery().build();
        Scheduler s = Scheduler.builder().clock(clock).store(store).build()) {
      store.create(node("gpu-1", true));
      store.create(DeviceClass.of("gpu.example.com"));
      store.create(ResourceSlice.of("rack-gpu", ResourceSliceSpec.builder("gpu.example.com", ResourcePool.of("rack"))
          .nodeSelector(GPU_RACK).devices(List.of(Device.of("gpu-0"))).build()));
      ResourceClaim created = store.create(claim("first-gpu"));
      store.updateStatus(created.withStatus(created.status().withAllocation(new AllocationResult(List.of(), gone))));
      store.create(pod("first", "first-gpu"));
      try (StoreScheduler feed = s.attach(store)) {
        assertThat(feed).isNotNull();
        assertThat(s.runUntilIdle()).singleElement().satisfies(r -> {
          assertThat(r.isBound()).isFalse();
          assertThat(r.message()).isEqualTo("0/1 nodes are available: 1 " + DynamicResourcesPlugin.REASON_NOT_AVAILABLE
              + ". " + DynamicResourcesPlugin.DEALLOCATED + ", preemption: 0/1 nodes are available: "
              + "1 Preemption is not helpful for scheduling.");
        });
        assertThat(store.require(ResourceClaim.class, "default", "first-gpu").status().allocation()).isNull();
        // the deallocation is a claim update the hint re-queues for
        assertThat(queueOf(s, "default/first")).isNotEqualTo(PendingPod.Queue.UNSCHEDULABLE);
        clock.advance(Duration.ofSeconds(10));
        assertThat(s.runUntilIdle()).singleElement().satisfies(r -> assertThat(r.nodeName()).isEqualTo("gpu-1"));
        AllocationResult a = store.require(ResourceClaim.class, "default", "first-gpu").status().allocation();
        assertThat(a).isNotNull();
        assertThat(a.nodeSelector()).isEqualTo(GPU_RACK);
      }
    }
  }
}
