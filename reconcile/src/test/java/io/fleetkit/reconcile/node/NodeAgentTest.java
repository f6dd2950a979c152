package io.fleetkit.reconcile.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeCondition;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodResourceClaimStatus;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

final class NodeAgentTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final Instant t0 = clock.now();
  private final ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build();
  private NodeAgent agent;

  private void startAgent(HealthSource health) {
    store.create(Node.builder().name("n1").build());
    agent = NodeAgent.builder(store, clock, "n1").healthSource(health).build();
    agent.start();
    agent.sync();
  }

  @AfterEach
  void close() {
    if (agent != null) {
      agent.close();
    }
    store.close();
  }

  private Pod create(RestartPolicy policy) {
    return store.create(Pod.builder().namespace("default").name("p").container("c", "img", ResourceList.EMPTY)
        .restartPolicy(policy).nodeName("n1").build());
  }

  private Pod pod() {
    return store.require(Pod.class, "default", "p");
  }

  private ContainerStatus container() {
    return pod().status().containerStatuses().get(0);
  }

  /** Steps the clock event by event up to {@code t0 + seconds}, syncing after each step. */
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
  void sync_keepsTheResourceClaimStatusesAnotherControllerWrote() {
    startAgent(HealthSource.healthy());
    Pod p = create(RestartPolicy.Always);
    List<PodResourceClaimStatus> claims = List.of(new PodResourceClaimStatus("gpu", "p-gpu-x7k2b"));
    store.updateStatus(p.withStatus(p.status().withResourceClaimStatuses(claims)));
    agent.sync();

    assertThat(pod().status().phase()).isEqualTo(PodPhase.Running);
    assertThat(pod().status().resourceClaimStatuses()).as("the resource-claim controller's field").isEqualTo(claims);
  }

  @Test
  void sync_healthyPod_runningAndReady() {
    startAgent(HealthSource.healthy());
    create(RestartPolicy.Always);
    agent.sync();

    assertThat(pod().status().phase()).isEqualTo(PodPhase.Running);
    assertThat(pod().status().condition(PodCondition.READY).status()).isEqualTo(ConditionStatus.True);
    assertThat(pod().status().condition(PodCondition.CONTAINERS_READY).status()).isEqualTo(ConditionStatus.True);
    assertThat(container().ready()).isTrue();
    assertThat(pod().status().startTime()).isEqualTo(t0);
  }

  @Test
  void sync_readinessDelay_readyOnlyAfterIt() {
    startAgent((p, c, n) -> ContainerScript.readyAfter(Duration.ofSeconds(15)));
    create(RestartPolicy.Always);
    runTo(14);
    assertThat(pod().status().condition(PodCondition.READY).status()).isEqualTo(ConditionStatus.False);
    runTo(15);
    assertThat(pod().status().condition(PodCondition.READY).status()).isEqualTo(ConditionStatus.True);
    assertThat(pod().status().condition(PodCondition.READY).lastTransitionTime()).isEqualTo(t0.plusSeconds(15));
  }

  @Test
  void crashLoop_alwaysRestart_backoffDoublesFrom10To300() {
    startAgent((p, c, n) -> ContainerScript.crashes());
    create(RestartPolicy.Always);
    List<Long> restartTimes = new ArrayList<>();
    int last = -1;
    for (long s = 0; s <= 1300; s++) {
      runTo(s);
      int rc = container().restartCount();
      if (rc != last) {
        restartTimes.add(s);
        last = rc;
      }
    }
    // first start at 0 crashes, restarted at once (restart 1), then held back 10, 20, 40, 80, 160, 300, 300 s
    assertThat(restartTimes).containsExactly(0L, 10L, 30L, 70L, 150L, 310L, 610L, 910L, 1210L);
    assertThat(container().restartCount()).isEqualTo(9);
    assertThat(container().state().reason()).isEqualTo(PodRuntime.CRASH_LOOP_BACK_OFF);
    assertThat(pod().status().phase()).isEqualTo(PodPhase.Running);
    assertThat(pod().status().condition(PodCondition.READY).status()).isEqualTo(ConditionStatus.False);
  }

  @Test
  void crashLoop_afterTenMinutesRunning_backoffResetsTo10() {
    // crashes at once for the first 6 runs, then runs 11 minutes and crashes again
    startAgent((p, c, n) -> n < 6 ? ContainerScript.crashes()
        : ContainerScript.exitsAfter(Duration.ofMinutes(11), 1));
    create(RestartPolicy.Always);
    runTo(310); // restart 6 at 310 s runs 11 minutes
    assertThat(container().restartCount()).isEqualTo(6);
    runTo(310 + 660); // exits at 970 s: last backoff update 310 s is > 600 s ago: restart at once
    assertThat(container().restartCount()).isEqualTo(7);
    assertThat(container().state().type()).isEqualTo(io.fleetkit.api.core.ContainerStateType.Running);
  }

  @Test
  void exit_onFailureSuccess_podSucceeded() {
    startAgent((p, c, n) -> ContainerScript.exitsAfter(Duration.ofSeconds(30), 0));
    create(RestartPolicy.OnFailure);
    runTo(29);
    assertThat(pod().status().phase()).isEqualTo(PodPhase.Running);
    runTo(30);
    assertThat(pod().status().phase()).isEqualTo(PodPhase.Succeeded);
    assertThat(container().state().exitCode()).isZero();
    assertThat(container().state().reason()).isEqualTo("Completed");
    assertThat(pod().status().condition(PodCondition.READY).status()).isEqualTo(ConditionStatus.False);
  }

  @Test
  void exit_onFailureError_restartedUntilSuccess() {
    startAgent((p, c, n) -> ContainerScript.exitsAfter(Duration.ofSeconds(5), n < 2 ? 1 : 0));
    create(RestartPolicy.OnFailure);
    runTo(100);
    assertThat(pod().status().phase()).isEqualTo(PodPhase.Succeeded);
    assertThat(container().restartCount()).isEqualTo(2);
  }

  @Test
  void exit_neverError_podFailed() {
    startAgent((p, c, n) -> ContainerScript.exitsAfter(Duration.ofSeconds(5), 2));
    create(RestartPolicy.Never);
    runTo(100);
    assertThat(pod().status().phase()).isEqualTo(PodPhase.Failed);
    assertThat(container().restartCount()).isZero();
    assertThat(container().state().exitCode()).isEqualTo(2);
  }

  @Test
  void liveness_failure_killedWith137AndRestarted() {
    startAgent((p, c, n) -> ContainerScript.healthy().withLivenessFailureAfter(Duration.ofSeconds(20)));
    create(RestartPolicy.Always);
    runTo(20);
    assertThat(container().restartCount()).isEqualTo(1);
    assertThat(container().state().type()).isEqualTo(io.fleetkit.api.core.ContainerStateType.Running);
  }

  @Test
  void liveness_failureWithNever_failedWith137() {
    startAgent((p, c, n) -> ContainerScript.healthy().withLivenessFailureAfter(Duration.ofSeconds(20)));
    create(RestartPolicy.Never);
    runTo(20);
    assertThat(pod().status().phase()).isEqualTo(PodPhase.Failed);
    assertThat(container().state().exitCode()).isEqualTo(ContainerScript.KILLED_EXIT_CODE);
  }

  @Test
  void heartbeat_every10s_untilKilled() {
    startAgent(HealthSource.healthy());
    NodeCondition c = store.require(Node.class, "", "n1").status().condition(NodeCondition.READY);
    assertThat(c.status()).isEqualTo(ConditionStatus.True);
    assertThat(c.lastHeartbeatTime()).isEqualTo(t0);
    runTo(25);
    assertThat(store.require(Node.class, "", "n1").status().condition(NodeCondition.READY).lastHeartbeatTime())
        .isEqualTo(t0.plusSeconds(20));
    agent.kill();
    runTo(60);
    assertThat(store.require(Node.class, "", "n1").status().condition(NodeCondition.READY).lastHeartbeatTime())
        .isEqualTo(t0.plusSeconds(20));
    agent.revive();
    runTo(61);
    assertThat(store.require(Node.class, "", "n1").status().condition(NodeCondition.READY).lastHeartbeatTime())
        .isEqualTo(t0.plusSeconds(60));
  }

  @Test
  void kill_crashingPod_statusFrozen() {
    startAgent((p, c, n) -> ContainerScript.crashes());
    create(RestartPolicy.Always);
    runTo(5);
    int before = container().restartCount();
    agent.kill();
    runTo(500);
    assertThat(container().restartCount()).isEqualTo(before);
  }

  @Test
  void annotations_jobPodWithoutAnnotations_runs10sThenSucceeds() {
    startAgent(HealthSource.fromAnnotations());
    store.create(Pod.builder().namespace("default").name("p").container("c", "img", ResourceList.EMPTY)
        .restartPolicy(RestartPolicy.Never).nodeName("n1")
        .ownerReference(new io.fleetkit.api.meta.OwnerReference("batch/v1", "Job", "j", "uid-j", true, true))
        .build());
    runTo(9);
    assertThat(pod().status().phase()).isEqualTo(PodPhase.Running);
    runTo(10);
    assertThat(pod().status().phase()).isEqualTo(PodPhase.Succeeded);
  }

  @Test
  void annotations_exitAndCode_podFails() {
    startAgent(HealthSource.fromAnnotations());
    store.create(Pod.builder().namespace("default").name("p").container("c", "img", ResourceList.EMPTY)
        .restartPolicy(RestartPolicy.Never).nodeName("n1").annotation(HealthSource.EXIT_AFTER, "3")
        .annotation(HealthSource.EXIT_CODE, "4").build());
    runTo(3);
    assertThat(pod().status().phase()).isEqualTo(PodPhase.Failed);
    assertThat(container().state().exitCode()).isEqualTo(4);
  }
}
