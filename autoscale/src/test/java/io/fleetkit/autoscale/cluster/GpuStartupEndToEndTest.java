package io.fleetkit.autoscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.GpuDevice;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.autoscale.cluster.simulator.SimulatedNodes;
import io.fleetkit.scheduler.Scheduler;
import io.fleetkit.scheduler.StoreBinder;
import io.fleetkit.scheduler.StoreScheduler;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * End to end with the real scheduler: a GPU pod is pending, the autoscaler launches a GPU node whose start-up takes
 * 6 minutes, and the pod is bound once the node is Ready — never earlier, and without a second node being requested
 * while the first one starts.
 */
final class GpuStartupEndToEndTest {
  @Test
  void gpuPod_waitsForSixMinuteNode_andIsScheduledWhenItIsReady_neverEarlier() {
    ManualClock clock = ManualClock.atEpoch2026();
    Instant start = clock.instant();
    try (ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build();
        Scheduler scheduler = Scheduler.builder().clock(clock).binder(new StoreBinder(store, clock)).build();
        StoreScheduler feed = scheduler.attach(store)) {
      assertThat(feed.scheduler()).isSameAs(scheduler);
      store.create(CaFixtures.pool("cpu", 8000, 16384, 0, 10, 0.4));
      store.create(NodePool.builder().name("gpu").capacity(CaFixtures.gpuResources(32000, 262144 * CaFixtures.MI, 110, 8))
          .gpu(GpuDevice.of("GPU-0", "A100-SXM4-80GB", 81920))
          .nodeTaint(Taint.of("nvidia.com/gpu", "present", TaintEffect.NoSchedule))
          .minSize(0).maxSize(4).pricePerHour(32.8).startupDelay(Duration.ofMinutes(6)).build());
      Pod train = CaFixtures.gpuPod("train", 8000, 65536, 8).toBuilder()
          .toleration(Toleration.exists("nvidia.com/gpu", TaintEffect.NoSchedule)).build();
      store.create(train);
      ClusterAutoscaler ca = ClusterAutoscaler.builder(store).clock(clock).build();

      Instant boundAt = null;
      Instant readyAt = null;
      int launched = 0;
      // the autoscaler's 10 s loop and the scheduler, for 8 minutes
      for (int tick = 0; tick <= 48; tick++) {
        clock.set(start.plus(Duration.ofSeconds(10L * tick)));
        LoopResult r = ca.runOnce();
        launched += r.launchedNodes().size();
        if (!r.readyNodes().isEmpty()) {
          readyAt = clock.instant();
        }
        scheduler.runUntilIdle();
        Pod now = store.require(Pod.class, "default", "train");
        if (now.isBound() && boundAt == null) {
          boundAt = clock.instant();
          Node n = store.require(Node.class, "", now.spec().nodeName());
          assertThat(n.isReady()).as("bound only to a Ready node: %s at %s", n, clock.instant()).isTrue();
          assertThat(n.metadata().labels()).containsEntry(NodePool.POOL_LABEL, "gpu");
        }
        if (boundAt == null) {
          for (Node n : store.list(Node.class).items()) {
            if (SimulatedNodes.isStarting(n)) {
              assertThat(scheduler.nodeInfo(n.name()).map(i -> i.pods().size()).orElse(0)).isZero();
            }
          }
        }
      }
      assertThat(launched).as("one GPU node requested, not one per loop").isEqualTo(1);
      assertThat(readyAt).isEqualTo(start.plus(Duration.ofMinutes(6)));
      assertThat(boundAt).as("scheduled when the node is Ready, never earlier").isEqualTo(readyAt);
      assertThat(store.list(Node.class).items()).hasSize(1);
    }
  }
}
