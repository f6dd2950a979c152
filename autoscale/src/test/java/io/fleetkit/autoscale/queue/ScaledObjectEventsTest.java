package io.fleetkit.autoscale.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.autoscaling.CrossVersionObjectReference;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The events of KEDA's scale executor (kedacore/keda {@code pkg/scaling/executor/scale_scaledobjects.go}) as the
 * controller records them; {@code TestEventWitTriggerInfo} of its {@code scale_scaledobjects_test.go} is ported
 * below (upstream's test leaves the ScaledObject's {@code status.scaleTargetKind} empty, so its note reads
 * {@code Scaled  namespace/name}; here the kind is the target's, {@code apps/v1.Deployment}).
 */
final class ScaledObjectEventsTest {
  private final ManualClock clock = new ManualClock(Instant.parse("2026-06-01T00:00:00Z"));
  private final ObjectStore store = ObjectStore.inMemory();
  private final AtomicLong queue = new AtomicLong();
  private final List<String> events = new ArrayList<>();
  private final EventRecorder recorder = (regarding, related, type, reason, action, note) -> events.add(type + " "
      + reason + " " + action + " " + regarding.kind() + "/" + regarding.namespace() + "/" + regarding.name() + ": "
      + note);
  private final ScaledObjectController controller = ScaledObjectController.create(store, clock, recorder);

  private void deployment(String ns, String name, int replicas) {
    store.create(Deployment.builder().namespace(ns).name(name).replicas(replicas).matchLabels(Map.of("app", name))
        .podSpec(PodSpec.builder().container("app", "worker:1", ResourceList.EMPTY).build()).build());
  }

  @Test
  void upstreamTestEventWitTriggerInfo_idleBelowMinActivated_namesTheActiveTrigger() {
    deployment("namespace", "name", 2);
    controller.register(ScaledObject.builder("namespace", "name", CrossVersionObjectReference.deployment("name"))
        .trigger(ScaleTrigger.queueLength("testTrigger", 5, 0)).idleReplicaCount(0).minReplicaCount(5)
        .maxReplicaCount(10).build(), Map.of("testTrigger", () -> (double) queue.get()));
    queue.set(1);

    ScaleDecision d = controller.poll("namespace", "name");

    assertThat(d.replicas()).isEqualTo(5);
    assertThat(events).containsExactly("Normal KEDAScaleTargetActivated Activated ScaledObject/namespace/name: "
        + "Scaled apps/v1.Deployment namespace/name from 2 to 5, triggered by testTrigger");
  }

  @Test
  void activationThenCooldown_activatedThenDeactivated_scalingBetweenRecordsNothing() {
    deployment("ns", "worker", 0);
    controller.register(ScaledObject.builder("ns", "worker", CrossVersionObjectReference.deployment("worker"))
        .trigger(ScaleTrigger.queueLength("jobs", 5, 0)).trigger(ScaleTrigger.queueLength("other", 5, 100))
        .cooldownPeriod(Duration.ofSeconds(60)).build(),
        Map.of("jobs", () -> (double) queue.get(), "other", () -> 1.0));
    queue.set(1);
    controller.poll("ns", "worker"); // 0 -> 1: only "jobs" is above its activation threshold
    queue.set(40);
    clock.advance(Duration.ofSeconds(30));
    controller.poll("ns", "worker"); // 1 -> more: the HPA's part, no event
    queue.set(0);
    clock.advance(Duration.ofSeconds(30));
    controller.poll("ns", "worker"); // inactive, cooling down
    clock.advance(Duration.ofSeconds(61));
    ScaleDecision last = controller.poll("ns", "worker");

    assertThat(last.reason()).isEqualTo("ScaledToIdle");
    assertThat(events).containsExactly(
        "Normal KEDAScaleTargetActivated Activated ScaledObject/ns/worker: Scaled apps/v1.Deployment ns/worker from 0 "
            + "to 1, triggered by jobs",
        "Normal KEDAScaleTargetDeactivated Deactivated ScaledObject/ns/worker: Deactivated apps/v1.Deployment "
            + "ns/worker from " + last.previousReplicas() + " to 0");
  }
}
