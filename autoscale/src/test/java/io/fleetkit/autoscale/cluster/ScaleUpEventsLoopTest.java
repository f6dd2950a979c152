package io.fleetkit.autoscale.cluster;

import static io.fleetkit.autoscale.cluster.CaFixtures.pod;
import static io.fleetkit.autoscale.cluster.CaFixtures.pool;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The scale-up events of a whole loop ({@link ClusterAutoscaler.Builder#events}): which pods get
 * {@code TriggeredScaleUp} or {@code NotTriggerScaleUp}, and the reasons the latter aggregates from the pools'
 * template checks and skips (upstream's {@code GetRemainingPods} and {@code ReasonsMessage}).
 */
final class ScaleUpEventsLoopTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build();
  private final List<String> events = new ArrayList<>();
  /** The pod events; those on the status ConfigMap are {@code ClusterAutoscalerStatusEventsTest}'s. */
  private final EventRecorder recorder = (regarding, related, type, reason, action, note) -> {
    if (!regarding.kind().equals("ConfigMap")) {
      events.add(type + " " + reason + " " + regarding.kind() + "/" + regarding.name() + ": " + note);
    }
  };

  @AfterEach
  void close() {
    store.close();
  }

  private ClusterAutoscaler ca(AutoscalerOptions options) {
    return ClusterAutoscaler.builder(store).clock(clock).seed(42).options(options).events(recorder).build();
  }

  @Test
  void scaleUp_triggeringPodsGetTriggeredScaleUp_withTheScaleUps() {
    store.create(pool("small", 2000, 4096, 0, 10));
    store.create(pod("p0", 1000, 1024));
    store.create(pod("p1", 1000, 1024));

    ca(AutoscalerOptions.defaults()).runOnce();

    assertThat(events).containsExactlyInAnyOrder(
        "Normal TriggeredScaleUp Pod/p0: pod triggered scale-up: [{small 0->1 (max: 10)}]",
        "Normal TriggeredScaleUp Pod/p1: pod triggered scale-up: [{small 0->1 (max: 10)}]");
  }

  @Test
  void noOption_podTooBigForEveryTemplate_notTriggeredWithTheFilterReasonPerPool() {
    store.create(pool("small", 2000, 4096, 0, 10));
    store.create(pool("medium", 4000, 8192, 0, 10));
    store.create(pod("huge", 16000, 1024));

    ca(AutoscalerOptions.defaults()).runOnce();

    assertThat(events).containsExactly("Normal NotTriggerScaleUp Pod/huge: pod didn't trigger scale-up: "
        + "2 Insufficient cpu");
  }

  @Test
  void noOption_onePoolAtItsMaximum_skipReasonCountedWithTheRejections() {
    store.create(pool("full", 8000, 8192, 0, 0));
    store.create(pool("small", 2000, 4096, 0, 10));
    store.create(pod("big", 4000, 1024));

    ca(AutoscalerOptions.defaults()).runOnce();

    assertThat(events).containsExactly("Normal NotTriggerScaleUp Pod/big: pod didn't trigger scale-up: "
        + "1 Insufficient cpu, 1 max node group size reached");
  }

  @Test
  void maxNodesTotalReached_everyPendingPodNotTriggered() {
    io.fleetkit.api.autoscaling.NodePool small = store.create(pool("small", 2000, 4096, 0, 10));
    store.create(CaFixtures.poolNode(small, "small-1")); // ready: the cluster's maximum of one node
    store.create(pod("p1", 1500, 1024));
    store.create(pod("p2", 1500, 1024));
    store.create(pod("p0", 1000, 1024)); // fits the node there is: not unschedulable, no event

    ca(AutoscalerOptions.defaults().withMaxNodesTotal(1)).runOnce();

    assertThat(events).containsExactlyInAnyOrder(
        "Normal NotTriggerScaleUp Pod/p1: pod didn't trigger scale-up: max total nodes in cluster reached",
        "Normal NotTriggerScaleUp Pod/p2: pod didn't trigger scale-up: max total nodes in cluster reached");
  }

  @Test
  void withoutARecorder_theLoopExplainsNothing() {
    store.create(pool("small", 2000, 4096, 0, 10));
    store.create(pod("huge", 16000, 1024));
    ClusterAutoscaler ca = ClusterAutoscaler.builder(store).clock(clock).seed(42).build();

    ca.runOnce();

    assertThat(events).isEmpty();
  }
}
