package io.fleetkit.reconcile.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The pod conditions the simulated kubelet writes: upstream's order (the conditions it does not own first, then
 * {@code PodReadyToStartContainers}, {@code Initialized}, {@code Ready}, {@code ContainersReady},
 * {@code PodScheduled}), the generated reasons and messages, and the sandbox condition over a pod's life.
 */
final class NodeAgentConditionsTest {
  private static final String SANDBOX = PodConditions.POD_READY_TO_START_CONTAINERS;
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

  private void startAgent() {
    store.create(Node.builder().name("n1").build());
    agent = NodeAgent.builder(store, clock, "n1").healthSource(HealthSource.fromAnnotations()).build();
    agent.start();
    agent.sync();
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

  @Test
  void conditions_inUpstreamOrder_afterTheOnesTheKubeletDoesNotOwn() {
    startAgent();
    Pod p = Pod.builder().namespace("default").name("p").nodeName("n1").container("web", "shop:1",
        ResourceList.EMPTY).build();
    p = p.withStatus(p.status().withCondition(PodCondition.of(PodCondition.POD_SCHEDULED, ConditionStatus.True, "",
        "", t0)).withCondition(PodCondition.of("example.com/Gate", ConditionStatus.False, "Waiting", "", t0)));
    store.create(p);
    agent.sync();
    assertThat(current().status().conditions()).extracting(PodCondition::type).containsExactly("example.com/Gate",
        SANDBOX, PodCondition.INITIALIZED, PodCondition.READY, PodCondition.CONTAINERS_READY,
        PodCondition.POD_SCHEDULED);
    assertThat(condition(SANDBOX).status()).isEqualTo(ConditionStatus.True);
    assertThat(condition(SANDBOX).lastTransitionTime()).isEqualTo(t0);
    assertThat(condition(PodCondition.POD_SCHEDULED).lastTransitionTime()).as("kept while True").isEqualTo(t0);
    assertThat(condition("example.com/Gate").reason()).isEqualTo("Waiting");
  }

  @Test
  void unreadyContainer_readyConditionsSayWhich_thenTurnTrue() {
    startAgent();
    store.create(Pod.builder().namespace("default").name("p").nodeName("n1")
        .annotation(HealthSource.READY_AFTER, "20").container("web", "shop:1", ResourceList.EMPTY).build());
    runTo(10);
    for (String type : new String[] {PodCondition.READY, PodCondition.CONTAINERS_READY}) {
      assertThat(condition(type).status()).isEqualTo(ConditionStatus.False);
      assertThat(condition(type).reason()).isEqualTo(PodConditions.CONTAINERS_NOT_READY);
      assertThat(condition(type).message()).isEqualTo("containers with unready status: [web]");
    }
    runTo(20);
    assertThat(condition(PodCondition.READY).status()).isEqualTo(ConditionStatus.True);
    assertThat(condition(PodCondition.READY).reason()).isEmpty();
    assertThat(condition(PodCondition.READY).message()).isEmpty();
    assertThat(condition(PodCondition.READY).lastTransitionTime()).isEqualTo(t0.plusSeconds(20));
    assertThat(condition(PodCondition.INITIALIZED).lastTransitionTime()).isEqualTo(t0);
  }

  @Test
  void finishedPod_sandboxTornDown_readyConditionsSayPodCompleted() {
    startAgent();
    store.create(Pod.builder().namespace("default").name("p").nodeName("n1").restartPolicy(RestartPolicy.Never)
        .ownerReference(new OwnerReference("batch/v1", "Job", "j", "uid-j", true, true))
        .container("main", "x:1", ResourceList.EMPTY).build());
    runTo(9);
    assertThat(condition(SANDBOX).status()).isEqualTo(ConditionStatus.True);
    runTo(10);
    assertThat(current().status().phase()).isEqualTo(PodPhase.Succeeded);
    assertThat(condition(SANDBOX).status()).isEqualTo(ConditionStatus.False);
    assertThat(condition(SANDBOX).lastTransitionTime()).isEqualTo(t0.plusSeconds(10));
    assertThat(condition(PodCondition.READY).reason()).isEqualTo(PodConditions.POD_COMPLETED);
    assertThat(condition(PodCondition.CONTAINERS_READY).reason()).isEqualTo(PodConditions.POD_COMPLETED);
  }

  @Test
  void failedPod_readyConditionsSayPodFailed() {
    startAgent();
    store.create(Pod.builder().namespace("default").name("p").nodeName("n1").restartPolicy(RestartPolicy.Never)
        .annotation(HealthSource.EXIT_AFTER, "5").annotation(HealthSource.EXIT_CODE, "3")
        .container("main", "x:1", ResourceList.EMPTY).build());
    runTo(5);
    assertThat(current().status().phase()).isEqualTo(PodPhase.Failed);
    assertThat(condition(PodCondition.READY).reason()).isEqualTo(PodConditions.POD_FAILED);
    assertThat(condition(SANDBOX).status()).isEqualTo(ConditionStatus.False);
  }

  @Test
  void reboot_newSandbox_readyToStartContainersTransitionsAtTheRevive() {
    startAgent();
    store.create(Pod.builder().namespace("default").name("p").nodeName("n1").container("web", "shop:1",
        ResourceList.EMPTY).build());
    runTo(10);
    assertThat(condition(SANDBOX).lastTransitionTime()).isEqualTo(t0);
    agent.kill();
    runTo(40);
    assertThat(condition(SANDBOX).status()).as("frozen with the node").isEqualTo(ConditionStatus.True);
    agent.revive();
    runTo(40);
    assertThat(condition(SANDBOX).status()).isEqualTo(ConditionStatus.True);
    assertThat(condition(SANDBOX).lastTransitionTime()).isEqualTo(t0.plusSeconds(40));
    runTo(100);
    assertThat(condition(SANDBOX).lastTransitionTime()).isEqualTo(t0.plusSeconds(40));
  }

  @Test
  void kubeletRestart_sandboxKept_conditionUnchanged() {
    startAgent();
    store.create(Pod.builder().namespace("default").name("p").nodeName("n1").container("web", "shop:1",
        ResourceList.EMPTY).build());
    runTo(10);
    PodCondition before = condition(SANDBOX);
    agent.restartKubelet();
    runTo(60);
    assertThat(condition(SANDBOX)).isEqualTo(before);
  }

  @Test
  void initContainers_initializedMessageFollowsProgress() {
    startAgent();
    store.create(Pod.builder().namespace("default").name("p").nodeName("n1")
        .annotation(HealthSource.EXIT_AFTER + ".a", "5").initContainer("a", "x:1", ResourceList.EMPTY)
        .container("web", "shop:1", ResourceList.EMPTY).build());
    agent.sync();
    assertThat(condition(PodCondition.INITIALIZED).message()).isEqualTo("containers with incomplete status: [a]");
    assertThat(condition(PodCondition.READY).message())
        .isEqualTo("containers with unready status: [web]");
    runTo(5);
    assertThat(condition(PodCondition.INITIALIZED).status()).isEqualTo(ConditionStatus.True);
    assertThat(condition(PodCondition.INITIALIZED).message()).isEmpty();
    assertThat(condition(PodCondition.READY).status()).isEqualTo(ConditionStatus.True);
    assertThat(current().status().conditions()).extracting(PodCondition::type).startsWith(SANDBOX);
  }
}
