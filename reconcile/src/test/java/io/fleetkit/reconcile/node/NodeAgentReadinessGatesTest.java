package io.fleetkit.reconcile.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Readiness gates through the simulated kubelet: {@code Ready} waits for the gates' conditions, which another
 * controller writes into the pod's status ({@code GeneratePodReadyCondition}); the kubelet's status rewrites keep
 * those conditions (it owns only {@code kubetypes.PodConditionsByKubelet}), and a change of one regenerates
 * {@code Ready}.
 */
final class NodeAgentReadinessGatesTest {
  private static final String GATE = "lb.example.com/registered";
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final Instant t0 = clock.now();
  private final ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build();
  private NodeAgent agent;

  @AfterEach
  void close() {
    if (agent != null) {
      agent.close();
    }
    store.close();
  }

  private Pod current() {
    return store.require(Pod.class, "default", "p");
  }

  private PodCondition condition(String type) {
    return current().status().condition(type);
  }

  private void runTo(long seconds) {
    Instant target = t0.plusSeconds(seconds);
    agent.sync();
    while (clock.now().isBefore(target)) {
      Instant next = clock.nextDeadline().filter(d -> d.isBefore(target)).orElse(target);
      clock.advanceTo(next);
      agent.sync();
    }
  }

  /** What a load balancer controller does: sets the gate's condition in the pod's status. */
  private void setGate(ConditionStatus status) {
    Pod p = current();
    store.updateStatus(p.withStatus(p.status().withCondition(PodCondition.of(GATE, status, "Registered", "",
        clock.now()))));
  }

  @Test
  void ready_waitsForTheGate_followsIt_andTheGateConditionSurvivesTheKubeletsWrites() {
    store.create(Node.builder().name("n1").build());
    agent = NodeAgent.builder(store, clock, "n1").healthSource(HealthSource.fromAnnotations()).build();
    agent.start();
    // ready after 5 s, and the container restarts every 20 s: the kubelet rewrites the status again and again
    store.create(Pod.builder().namespace("default").name("p").nodeName("n1").readinessGate(GATE)
        .annotation(HealthSource.READY_AFTER, "5").annotation(HealthSource.EXIT_AFTER, "20")
        .container("web", "shop:1", ResourceList.EMPTY).build());
    runTo(1);
    assertThat(condition(PodCondition.READY).reason()).isEqualTo(PodConditions.CONTAINERS_NOT_READY);
    runTo(6);
    assertThat(condition(PodCondition.CONTAINERS_READY).status()).isEqualTo(ConditionStatus.True);
    PodCondition ready = condition(PodCondition.READY);
    assertThat(ready.status()).isEqualTo(ConditionStatus.False);
    assertThat(ready.reason()).isEqualTo("ReadinessGatesNotReady");
    assertThat(ready.message()).isEqualTo("corresponding condition of pod readiness gate \"" + GATE
        + "\" does not exist.");

    clock.advanceTo(t0.plusSeconds(8));
    setGate(ConditionStatus.True);
    agent.sync();
    assertThat(condition(PodCondition.READY).status()).isEqualTo(ConditionStatus.True);
    assertThat(condition(PodCondition.READY).lastTransitionTime()).isEqualTo(t0.plusSeconds(8));
    assertThat(current().status().conditions()).extracting(PodCondition::type).containsExactly(GATE,
        PodCondition.POD_READY_TO_START_CONTAINERS, PodCondition.INITIALIZED, PodCondition.READY,
        PodCondition.CONTAINERS_READY, PodCondition.POD_SCHEDULED);

    runTo(21); // the container exited at 20 and was restarted: not ready until 25
    assertThat(current().status().containerStatuses().get(0).restartCount()).isEqualTo(1);
    assertThat(condition(GATE).status()).as("kept through the kubelet's rewrites").isEqualTo(ConditionStatus.True);
    assertThat(condition(GATE).reason()).isEqualTo("Registered");
    assertThat(condition(PodCondition.READY).reason()).isEqualTo(PodConditions.CONTAINERS_NOT_READY);
    runTo(26);
    assertThat(condition(PodCondition.READY).status()).isEqualTo(ConditionStatus.True);

    clock.advanceTo(t0.plusSeconds(30));
    setGate(ConditionStatus.False);
    agent.sync();
    assertThat(condition(PodCondition.READY).status()).isEqualTo(ConditionStatus.False);
    assertThat(condition(PodCondition.READY).message()).isEqualTo("the status of pod readiness gate \"" + GATE
        + "\" is not \"True\", but False");
    assertThat(condition(PodCondition.CONTAINERS_READY).status()).isEqualTo(ConditionStatus.True);
  }
}
