package io.fleetkit.scheduler.plugins.dynamicresources;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodResourceClaim;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.PermitPlugin;
import io.fleetkit.api.framework.PermitResult;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.dra.AllocationResult;
import io.fleetkit.api.resource.dra.Device;
import io.fleetkit.api.resource.dra.DeviceClass;
import io.fleetkit.api.resource.dra.DeviceRequest;
import io.fleetkit.api.resource.dra.ExactDeviceRequest;
import io.fleetkit.api.resource.dra.ResourceClaim;
import io.fleetkit.api.resource.dra.ResourceClaimSpec;
import io.fleetkit.api.resource.dra.ResourcePool;
import io.fleetkit.api.resource.dra.ResourceSlice;
import io.fleetkit.api.resource.dra.ResourceSliceSpec;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.scheduler.DefaultPlugins;
import io.fleetkit.scheduler.PendingPod;
import io.fleetkit.scheduler.PluginRegistry;
import io.fleetkit.scheduler.ScheduleResult;
import io.fleetkit.scheduler.Scheduler;
import io.fleetkit.scheduler.StoreScheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Two pods, one device: the first pod's allocation is in flight while a Permit plugin holds it, the second pod is
 * turned away ({@value DynamicResourcesPlugin#REASON_CANNOT_ALLOCATE}) and parked. When the first pod's wait ends
 * without a binding (rejected, timed out, or the pod deleted), Unreserve drops the allocation and the second pod is
 * re-queued by the claim's deallocation event and bound after its backoff, not after the 5-minute flush of
 * unschedulable pods.
 */
final class DynamicResourcesInFlightRequeueTest {
  private static final String GATE = "Gate";
  private final ManualClock clock = ManualClock.atEpoch2026();

  /** Holds pod {@code first} for a minute; lets every other pod through. Registers no event. */
  static final class Gate implements PermitPlugin {
    @Override
    public String name() {
      return GATE;
    }

    @Override
    public PermitResult permit(CycleState state, PodInfo pod, String nodeName) {
      return pod.pod().metadata().name().equals("first") ? PermitResult.waitFor(Duration.ofMinutes(1))
          : PermitResult.allow();
    }
  }

  private static ResourceClaim claim(String name) {
    return ResourceClaim.of(ObjectMeta.builder().namespace("default").name(name).build(), ResourceClaimSpec.of(
        new DeviceRequest("gpu", ExactDeviceRequest.count("gpu.example.com", 1))));
  }

  private static Pod pod(String name, String claimName) {
    return Pod.builder().namespace("default").name(name)
        .container("c", "trainer", ResourceList.ofCpuMemory(500, 1L << 30))
        .resourceClaim(PodResourceClaim.ofClaim("gpu", claimName)).build();
  }

  private static PendingPod.Queue queueOf(Scheduler s, String key) {
    return s.pending().stream().filter(p -> p.podKey().equals(key)).findFirst().orElseThrow().queue();
  }

  /** How the first pod's Permit wait ends. */
  enum WaitEnds { REJECTED, TIMED_OUT, POD_DELETED }

  @ParameterizedTest
  @EnumSource(WaitEnds.class)
  void firstPodsAllocationDropped_secondPodItTurnedAway_boundAfterItsBackoff(WaitEnds how) {
    PluginRegistry reg = PluginRegistry.defaults().with(GATE, h -> new Gate());
    try (ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build();
        Scheduler s = Scheduler.builder().clock(clock).store(store).registry(reg)
            .profile(DefaultPlugins.profile().toBuilder().plugin(GATE).build()).build()) {
      store.create(io.fleetkit.scheduler.testing.Fixtures.node("gpu-1", 4000, 8192, 110));
      store.create(DeviceClass.of("gpu.example.com"));
      store.create(ResourceSlice.of("gpu-1-slice", ResourceSliceSpec.builder("gpu.example.com", ResourcePool.of("p"))
          .nodeName("gpu-1").devices(List.of(Device.of("gpu-0"))).build()));
      store.create(claim("first-gpu"));
      store.create(claim("second-gpu"));
      store.create(pod("first", "first-gpu"));
      try (StoreScheduler feed = s.attach(store)) {
        assertThat(feed).isNotNull();
        assertThat(s.scheduleOne()).satisfies(r -> assertThat(r.code()).isEqualTo(Status.Code.WAIT));
        store.create(pod("second", "second-gpu"));
        assertThat(s.scheduleOne()).satisfies(r -> {
          assertThat(r.podKey()).isEqualTo("default/second");
          assertThat(r.message()).contains(DynamicResourcesPlugin.REASON_CANNOT_ALLOCATE); // gpu-0 is in flight
        });
        assertThat(queueOf(s, "default/second")).isEqualTo(PendingPod.Queue.UNSCHEDULABLE);

        List<ScheduleResult> results = new ArrayList<>();
        switch (how) {
          case REJECTED -> s.waitingPods().reject("default/first", GATE, "not now");
          case TIMED_OUT -> {
            clock.advance(Duration.ofMinutes(1).plusSeconds(1));
            results.addAll(s.runUntilIdle()); // its housekeeping rejects the wait that ran out
          }
          case POD_DELETED -> store.delete(Pod.class, "default", "first");
        }
        assertThat(s.waitingPods().keys()).isEmpty();
        assertThat(store.require(ResourceClaim.class, "default", "first-gpu").status().allocation()).isNull();

        clock.advance(Duration.ofSeconds(11)); // the second pod's backoff, far below the 5-minute flush
        results.addAll(s.runUntilIdle());
        ScheduleResult second = results.stream().filter(r -> r.podKey().equals("default/second")).findFirst()
            .orElseThrow(() -> new AssertionError("the second pod was not retried: " + results + ", pending "
                + s.pending()));
        assertThat(second.nodeName()).as(second.message()).isEqualTo("gpu-1");
        AllocationResult a = store.require(ResourceClaim.class, "default", "second-gpu").status().allocation();
        assertThat(a).isNotNull();
        assertThat(a.devices()).singleElement().satisfies(d -> assertThat(d.device()).isEqualTo("gpu-0"));
        assertThat(store.require(Pod.class, "default", "second").spec().nodeName()).isEqualTo("gpu-1");
      }
    }
  }
}
