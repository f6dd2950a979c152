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
 * {@code Scaled  namespace/name}; here the kind is the target's, {@code apps/v1.Deployment}). Its unit tests see the
 * executor's events only, as {@link #executorEvents()} does. The reconciler's events ({@code KEDAScalersStarted},
 * {@code ScaledObjectReady}, {@code ScaledObjectCheckFailed}) follow {@code tests/internals/events/events_test.go}'s
 * three ScaledObject cases, ported below.
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
    assertThat(executorEvents()).containsExactly("Normal KEDAScaleTargetActivated Activated ScaledObject/namespace/name: "
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
    assertThat(executorEvents()).containsExactly(
        "Normal KEDAScaleTargetActivated Activated ScaledObject/ns/worker: Scaled apps/v1.Deployment ns/worker from 0 "
            + "to 1, triggered by jobs",
        "Normal KEDAScaleTargetDeactivated Deactivated ScaledObject/ns/worker: Deactivated apps/v1.Deployment "
            + "ns/worker from " + last.previousReplicas() + " to 0");
  }

  /** The events of KEDA's scale executor ({@code KEDAScaleTarget...}), the ones its unit tests see. */
  private List<String> executorEvents() {
    return events.stream().filter(e -> e.contains(" KEDAScaleTarget")).toList();
  }

  private ScaledObject scaledObject(String name, CrossVersionObjectReference target) {
    return ScaledObject.builder("events-test-ns", name, target)
        .trigger(ScaleTrigger.queueLength("kubernetes-workload", 1, 0)).build();
  }

  /** events_test.go testNormalEvent: the scalers are built and started, then the object is ready. */
  @Test
  void upstreamEventsTest_normalEvent_scalersStartedThenReady() {
    deployment("events-test-ns", "events-test-deployment", 0);
    controller.register(scaledObject("events-test-so", CrossVersionObjectReference.deployment(
        "events-test-deployment")), Map.of("kubernetes-workload", () -> 0.0));

    controller.poll("events-test-ns", "events-test-so");

    assertThat(events).containsExactly(
        "Normal KEDAScalersStarted Start ScaledObject/events-test-ns/events-test-so: Scaler kubernetes-workload is built",
        "Normal KEDAScalersStarted Start ScaledObject/events-test-ns/events-test-so: Started scalers watch",
        "Normal ScaledObjectReady Ready ScaledObject/events-test-ns/events-test-so: ScaledObject is ready for scaling");
  }

  /** events_test.go testTargetNotFoundErr: the target does not exist. */
  @Test
  void upstreamEventsTest_targetNotFound_twoCheckFailedWarnings() {
    controller.register(scaledObject("events-test-so-target-error", CrossVersionObjectReference.deployment(
        "no-exist")), Map.of("kubernetes-workload", () -> 1.0));

    ScaleDecision d = controller.poll("events-test-ns", "events-test-so-target-error");

    assertThat(d.reason()).isEqualTo(ScaledObjectController.CHECK_FAILED);
    assertThat(d.error()).startsWith("ScaledObject doesn't have correct scaleTargetRef specification: Target "
        + "resource doesn't exist: ").contains("no-exist");
    assertThat(d.values()).isEmpty();
    assertThat(events).containsExactly(
        "Warning ScaledObjectCheckFailed Check ScaledObject/events-test-ns/events-test-so-target-error: Target resource "
            + "doesn't exist",
        "Warning ScaledObjectCheckFailed Check ScaledObject/events-test-ns/events-test-so-target-error: ScaledObject "
            + "doesn't have correct scaleTargetRef specification");
  }

  /** events_test.go testTargetNotSupportEventErr: a DaemonSet has no scale subresource. */
  @Test
  void upstreamEventsTest_targetWithoutScaleSubresource_twoCheckFailedWarnings() {
    controller.register(scaledObject("events-test-so-target-no-subresource", CrossVersionObjectReference.of(
        "apps/v1", "DaemonSet", "events-test-daemonset")), Map.of("kubernetes-workload", () -> 1.0));

    ScaleDecision d = controller.poll("events-test-ns", "events-test-so-target-no-subresource");

    assertThat(d.reason()).isEqualTo(ScaledObjectController.CHECK_FAILED);
    assertThat(events).containsExactly(
        "Warning ScaledObjectCheckFailed Check ScaledObject/events-test-ns/events-test-so-target-no-subresource: Target "
            + "resource doesn't expose /scale subresource",
        "Warning ScaledObjectCheckFailed Check ScaledObject/events-test-ns/events-test-so-target-no-subresource: "
            + "ScaledObject doesn't have correct scaleTargetRef specification");
  }

  /**
   * A missing target fails its own object's check only: the others are polled and scaled, the warnings are recorded
   * once while the target stays missing, and once it exists the object becomes ready and is scaled.
   */
  @Test
  void missingTarget_othersStillScale_warnsOnceThenReadyWhenTheTargetAppears() {
    deployment("ns", "worker", 0);
    controller.register(ScaledObject.builder("ns", "broken", CrossVersionObjectReference.deployment("later"))
        .trigger(ScaleTrigger.queueLength("jobs", 5, 0)).build(), Map.of("jobs", () -> (double) queue.get()));
    controller.register(ScaledObject.builder("ns", "worker", CrossVersionObjectReference.deployment("worker"))
        .trigger(ScaleTrigger.queueLength("jobs", 5, 0)).build(), Map.of("jobs", () -> (double) queue.get()));
    queue.set(3);

    List<ScaleDecision> first = controller.pollDue();
    clock.advance(ScaledObject.DEFAULT_POLLING_INTERVAL);
    List<ScaleDecision> second = controller.pollDue();

    assertThat(first).extracting(ScaleDecision::reason).containsExactly("ScaledObjectCheckFailed", "Activated");
    assertThat(second).extracting(ScaleDecision::reason).first().isEqualTo("ScaledObjectCheckFailed");
    assertThat(store.require(Deployment.class, "ns", "worker").spec().replicas()).isEqualTo(1);
    assertThat(events.stream().filter(e -> e.contains("ScaledObjectCheckFailed"))).hasSize(2);

    events.clear();
    deployment("ns", "later", 0);
    clock.advance(ScaledObject.DEFAULT_POLLING_INTERVAL);
    ScaleDecision ready = controller.poll("ns", "broken");

    assertThat(ready.reason()).isEqualTo("Activated");
    assertThat(store.require(Deployment.class, "ns", "later").spec().replicas()).isEqualTo(1);
    assertThat(events).extracting(e -> e.substring(0, e.indexOf(':'))).containsExactly(
        "Normal KEDAScalersStarted Start ScaledObject/ns/broken", "Normal KEDAScalersStarted Start ScaledObject/ns/broken",
        "Normal ScaledObjectReady Ready ScaledObject/ns/broken",
        "Normal KEDAScaleTargetActivated Activated ScaledObject/ns/broken");
  }
}
