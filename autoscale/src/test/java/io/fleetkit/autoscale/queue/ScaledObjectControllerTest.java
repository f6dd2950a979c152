package io.fleetkit.autoscale.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.autoscaling.CrossVersionObjectReference;
import io.fleetkit.api.autoscaling.MetricTargetType;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

final class ScaledObjectControllerTest {
  private final ManualClock clock = new ManualClock(Instant.parse("2026-06-01T00:00:00Z"));
  private final ObjectStore store = ObjectStore.inMemory();
  private final AtomicLong queue = new AtomicLong();
  private final ScaledObjectController controller = ScaledObjectController.create(store, clock);

  private void deployment(int replicas) {
    store.create(Deployment.builder().namespace("ns").name("worker").replicas(replicas)
        .matchLabels(Map.of("app", "worker"))
        .podSpec(PodSpec.builder().container("app", "worker:1", ResourceList.EMPTY).build()).build());
  }

  private int replicas() {
    return store.require(Deployment.class, "ns", "worker").spec().replicas();
  }

  private ScaledObject.Builder object() {
    return ScaledObject.builder("ns", "worker", CrossVersionObjectReference.deployment("worker"))
        .trigger(ScaleTrigger.queueLength("jobs", 5, 0));
  }

  private void register(ScaledObject so) {
    controller.register(so, Map.of("jobs", () -> (double) queue.get()));
  }

  @Test
  void poll_emptyQueueAtZero_staysAtZero() {
    deployment(0);
    register(object().build());

    ScaleDecision d = controller.poll("ns", "worker");

    assertThat(d.active()).isFalse();
    assertThat(d.reason()).isEqualTo("Held");
    assertThat(replicas()).isZero();
  }

  @Test
  void poll_firstItemAtZero_activatesToOne() {
    deployment(0);
    register(object().build());
    queue.set(1);

    ScaleDecision d = controller.poll("ns", "worker");

    assertThat(d.reason()).isEqualTo("Activated");
    assertThat(replicas()).isEqualTo(1);
    assertThat(controller.lastActiveTime("ns", "worker")).contains(clock.instant());
  }

  @Test
  void poll_activationToMinReplicaCount_whenMinAboveOne() {
    deployment(0);
    register(object().minReplicaCount(0).idleReplicaCount(null).build());
    queue.set(100);
    controller.poll("ns", "worker");
    assertThat(replicas()).isEqualTo(1); // activation first; the HPA math takes over on the next poll
    clock.advance(Duration.ofSeconds(30));
    controller.poll("ns", "worker");
    assertThat(replicas()).isEqualTo(4); // wants ceil(100 / 5) = 20; the HPA's legacy limit max(2 * 1, 4) = 4
  }

  @Test
  void poll_valueBelowActivationThreshold_staysAtZero() {
    deployment(0);
    controller.register(ScaledObject.builder("ns", "worker", CrossVersionObjectReference.deployment("worker"))
        .trigger(ScaleTrigger.queueLength("jobs", 5, 10)).build(), Map.of("jobs", () -> (double) queue.get()));
    queue.set(10);

    ScaleDecision d = controller.poll("ns", "worker");

    assertThat(d.active()).isFalse();
    assertThat(replicas()).isZero();
  }

  @Test
  void poll_backlog_scalesOneToNThroughHpaMath() {
    deployment(1);
    register(object().maxReplicaCount(30).build());
    queue.set(52);

    int[] seen = new int[4];
    for (int i = 0; i < seen.length; i++) {
      controller.poll("ns", "worker");
      seen[i] = replicas();
      clock.advance(Duration.ofSeconds(30));
    }

    // ceil(52 / 5) = 11, reached through the HPA's legacy rate max(2 * current, 4): 1 -> 4 -> 8 -> 11.
    assertThat(seen).containsExactly(4, 8, 11, 11);
  }

  @Test
  void poll_backlogWithinTolerance_holds() {
    deployment(10);
    store.updateStatus(store.require(Deployment.class, "ns", "worker").withStatus(
        new io.fleetkit.api.apps.DeploymentStatus(0, 10, 10, 10, 10, 0, java.util.List.of(), null)));
    register(object().build());
    queue.set(52); // 52 / (5 * 10) = 1.04, within 0.1

    ScaleDecision d = controller.poll("ns", "worker");

    assertThat(d.reason()).isEqualTo("Held");
    assertThat(replicas()).isEqualTo(10);
  }

  @Test
  void poll_queueDrained_scalesToZeroOnlyAfterCooldown() {
    deployment(1);
    register(object().build());
    queue.set(3);
    controller.poll("ns", "worker");
    assertThat(replicas()).isEqualTo(1);

    queue.set(0);
    clock.advance(Duration.ofSeconds(30));
    ScaleDecision d = controller.poll("ns", "worker");
    assertThat(d.reason()).isEqualTo("CooldownPending");
    assertThat(replicas()).isEqualTo(1);

    clock.advance(Duration.ofSeconds(270)); // exactly 300 s after the last activity: not yet
    controller.poll("ns", "worker");
    assertThat(replicas()).isEqualTo(1);

    clock.advance(Duration.ofSeconds(1));
    d = controller.poll("ns", "worker");
    assertThat(d.reason()).isEqualTo("ScaledToIdle");
    assertThat(replicas()).isZero();
  }

  @Test
  void poll_idleReplicaCount_restsThereAndActivatesToMin() {
    deployment(0);
    register(object().minReplicaCount(2).idleReplicaCount(0).cooldownPeriod(Duration.ofSeconds(60)).build());
    queue.set(1);
    controller.poll("ns", "worker");
    assertThat(replicas()).isEqualTo(2);

    queue.set(0);
    clock.advance(Duration.ofSeconds(61));
    controller.poll("ns", "worker");
    assertThat(replicas()).isZero();
  }

  @Test
  void poll_scalerFails_keepsReplicasAndReportsError() {
    deployment(3);
    controller.register(object().build(), Map.of("jobs", () -> {
      throw new IllegalStateException("broker down");
    }));

    ScaleDecision d = controller.poll("ns", "worker");

    assertThat(d.reason()).isEqualTo("ScalerError");
    assertThat(d.error()).contains("broker down");
    assertThat(replicas()).isEqualTo(3);
  }

  @Test
  void pollDue_respectsPollingInterval() {
    deployment(0);
    register(object().pollingInterval(Duration.ofSeconds(30)).build());
    assertThat(controller.pollDue()).hasSize(1);
    clock.advance(Duration.ofSeconds(29));
    assertThat(controller.pollDue()).isEmpty();
    clock.advance(Duration.ofSeconds(1));
    assertThat(controller.pollDue()).hasSize(1);
  }

  @Test
  void poll_valueTrigger_totalAgainstTargetScaledByReadyPods() {
    deployment(2);
    for (int i = 0; i < 2; i++) {
      store.create(io.fleetkit.api.core.Pod.builder().metadata(io.fleetkit.api.meta.ObjectMeta.builder()
          .namespace("ns").name("worker-" + i).label("app", "worker").build())
          .container("app", "worker:1", ResourceList.EMPTY)
          .status(io.fleetkit.api.core.PodStatus.of(io.fleetkit.api.core.PodPhase.Running).withCondition(
              io.fleetkit.api.core.PodCondition.of(io.fleetkit.api.core.PodCondition.READY,
                  io.fleetkit.api.meta.ConditionStatus.True, "", "", clock.instant()))).build());
    }
    controller.register(ScaledObject.builder("ns", "worker", CrossVersionObjectReference.deployment("worker"))
        .trigger(new ScaleTrigger("jobs", MetricTargetType.Value, 100, 0)).build(),
        Map.of("jobs", () -> (double) queue.get()));
    queue.set(300);

    controller.poll("ns", "worker");
    assertThat(replicas()).isEqualTo(4); // ratio 3 over 2 ready pods wants 6; the legacy limit is max(2 * 2, 4)

    clock.advance(Duration.ofSeconds(30));
    controller.poll("ns", "worker");
    assertThat(replicas()).isEqualTo(6); // still 2 ready pods in the store: ceil(3 * 2)
  }

  @Test
  void scaleTrigger_utilizationTarget_rejected() {
    assertThatThrownBy(() -> new ScaleTrigger("jobs", MetricTargetType.Utilization, 1, 0))
        .hasMessageContaining("targetType must be AverageValue or Value");
  }

  @Test
  void scaledObject_invalidBounds_rejectedWithField() {
    assertThatThrownBy(() -> object().minReplicaCount(5).maxReplicaCount(3).build())
        .hasMessageContaining("spec.maxReplicaCount 3");
    assertThatThrownBy(() -> ScaledObject.builder("ns", "w", CrossVersionObjectReference.deployment("w")).build())
        .hasMessageContaining("spec.triggers must not be empty");
  }

  @Test
  void register_triggerWithoutScaler_rejected() {
    assertThatThrownBy(() -> controller.register(object().build(), Map.of()))
        .hasMessageContaining("trigger \"jobs\" has no scaler");
  }
}
