package io.fleetkit.reconcile.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.ContainerStateType;
import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How the simulated kubelet stops the sidecars of a pod whose regular containers are done, as kubernetes
 * {@code pkg/kubelet/kuberuntime} does ({@code killContainersWithSyncResult}, {@code killContainer} with
 * {@code terminationOrdering} of {@code kuberuntime_termination_order.go}): SIGTERM with the pod's
 * {@code terminationGracePeriodSeconds}, SIGKILL when it runs out, the sidecars in reverse spec order, each waiting
 * within its own grace period for the next one to terminate, at least 2 s ({@code minimumGracePeriodInSeconds}) for
 * each; the pod stays Running until they are gone. The timings follow {@code test/e2e_node/container_lifecycle_test.go}
 * ("should terminate sidecars in reverse order after all main containers have exited": sidecars that exit 5 s after
 * SIGTERM with code 0; "... simultaneously if prestop doesn't exit": 30 s grace + 2 s minimum before the SIGKILL).
 */
final class NodeAgentSidecarTerminationTest {
  private static final String EXIT = HealthSource.EXIT_AFTER;
  private static final String STOP = HealthSource.STOP_AFTER;
  private static final String STOP_CODE = HealthSource.STOP_EXIT_CODE;
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

  private void start(Pod.Builder pod) {
    store.create(Node.builder().name("n1").build());
    agent = NodeAgent.builder(store, clock, "n1").healthSource(HealthSource.fromAnnotations()).build();
    agent.start();
    store.create(pod.build());
    agent.sync();
  }

  /** A Never pod whose main container exits 0 at 10 s, with sidecars s1, s2, s3. */
  private static Pod.Builder pod(Map<String, String> annotations) {
    Pod.Builder b = Pod.builder().namespace("default").name("p").restartPolicy(RestartPolicy.Never).nodeName("n1")
        .annotation(EXIT + ".main", "10");
    annotations.forEach(b::annotation);
    return b.sidecar("s1", "proxy:1", ResourceList.EMPTY).sidecar("s2", "proxy:1", ResourceList.EMPTY)
        .sidecar("s3", "proxy:1", ResourceList.EMPTY).container("main", "job:1", ResourceList.EMPTY);
  }

  private Pod current() {
    return store.require(Pod.class, "default", "p");
  }

  private ContainerStatus init(String name) {
    return current().status().initContainerStatuses().stream().filter(s -> s.name().equals(name)).findFirst()
        .orElseThrow();
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

  private void assertExited(String name, long atSeconds, int code, String reason) {
    ContainerStatus s = init(name);
    assertThat(s.state().type()).as(name).isEqualTo(ContainerStateType.Terminated);
    assertThat(s.state().finishedAt()).as(name).isEqualTo(t0.plusSeconds(atSeconds));
    assertThat(s.state().exitCode()).as(name).isEqualTo(code);
    assertThat(s.state().reason()).as(name).isEqualTo(reason);
    assertThat(s.restartCount()).as(name + " is not restarted").isZero();
  }

  @Test
  void sidecarsExitingFiveSecondsAfterSigterm_stopInReverseOrder_podRunningUntilTheLastExits() {
    start(pod(Map.of(STOP + ".s1", "5", STOP + ".s2", "5", STOP + ".s3", "5", STOP_CODE + ".s1", "0",
        STOP_CODE + ".s2", "0", STOP_CODE + ".s3", "0")));
    runTo(12);
    assertThat(current().status().containerStatuses().get(0).state().exitCode()).isZero();
    assertThat(current().status().phase()).as("the sidecars still run").isEqualTo(PodPhase.Running);
    assertThat(init("s1").state().type()).isEqualTo(ContainerStateType.Running);
    runTo(15);
    assertExited("s3", 15, 0, "Completed"); // SIGTERM at 10 (its turn at once), exits 5 s later
    assertThat(init("s2").state().type()).isEqualTo(ContainerStateType.Running);
    runTo(20);
    assertExited("s2", 20, 0, "Completed"); // waited for s3 until 15
    assertThat(current().status().phase()).isEqualTo(PodPhase.Running);
    runTo(25);
    assertExited("s1", 25, 0, "Completed"); // waited for s2 until 20
    assertThat(current().status().phase()).isEqualTo(PodPhase.Succeeded);
    assertThat(current().status().condition(PodConditions.POD_READY_TO_START_CONTAINERS).status())
        .isEqualTo(ConditionStatus.False);
    runTo(100);
    assertExited("s1", 25, 0, "Completed");
  }

  @Test
  void sidecarsIgnoringSigterm_lastKilledAfterTheGracePeriod_othersAfterTheirWaitPlusTwoSeconds() {
    // s3 is killed 30 s after its SIGTERM; s2 and s1 wait for their turn until their own 30 s run out, then get the
    // 2 s minimum: both SIGTERMed at 40 and killed at 42, as the e2e test's "30 seconds + 2 second minimum grace"
    start(pod(Map.of(STOP + ".s1", "never", STOP + ".s2", "never", STOP + ".s3", "never")));
    runTo(39);
    assertThat(current().status().phase()).isEqualTo(PodPhase.Running);
    assertThat(init("s3").state().type()).isEqualTo(ContainerStateType.Running);
    runTo(40);
    assertExited("s3", 40, ContainerScript.KILLED_EXIT_CODE, "Error");
    assertThat(init("s2").state().type()).isEqualTo(ContainerStateType.Running);
    runTo(42);
    assertExited("s2", 42, ContainerScript.KILLED_EXIT_CODE, "Error");
    assertExited("s1", 42, ContainerScript.KILLED_EXIT_CODE, "Error");
    assertThat(current().status().phase()).isEqualTo(PodPhase.Succeeded);
  }

  @Test
  void shortGracePeriod_slowSidecarKilled_zeroGracePeriod_twoSecondsForEachAtOnce() {
    // grace 3: s3 exits 5 s after SIGTERM, too late: killed at 13; s2 then waited 3 s, all its grace, so gets 2 s
    start(pod(Map.of(STOP + ".s3", "5")).terminationGracePeriodSeconds(3));
    runTo(13);
    assertExited("s3", 13, ContainerScript.KILLED_EXIT_CODE, "Error");
    // s2 and s1 end on the signal at once (the default), both at 13: s1's turn came with s2's exit
    assertExited("s2", 13, ContainerScript.SIGTERM_EXIT_CODE, "Error");
    assertExited("s1", 13, ContainerScript.SIGTERM_EXIT_CODE, "Error");
    assertThat(current().status().phase()).isEqualTo(PodPhase.Succeeded);
  }

  @Test
  void zeroGracePeriod_noWaitForTurn_eachGetsTheTwoSecondMinimum() {
    start(pod(Map.of(STOP + ".s1", "never", STOP + ".s2", "never", STOP + ".s3", "never"))
        .terminationGracePeriodSeconds(0));
    runTo(11);
    assertThat(current().status().phase()).isEqualTo(PodPhase.Running);
    runTo(12);
    assertExited("s1", 12, ContainerScript.KILLED_EXIT_CODE, "Error");
    assertExited("s2", 12, ContainerScript.KILLED_EXIT_CODE, "Error");
    assertExited("s3", 12, ContainerScript.KILLED_EXIT_CODE, "Error");
    assertThat(current().status().phase()).isEqualTo(PodPhase.Succeeded);
  }

  @Test
  void sidecarExitingByItselfWhileWaitingForItsTurn_isNotRestarted() {
    // s1 exits by itself with 3 at 12 while it waits for its turn (s2 stops from 10 to 15): no restart
    start(pod(Map.of(EXIT + ".s1", "12", HealthSource.EXIT_CODE + ".s1", "3", STOP + ".s2", "5",
        STOP_CODE + ".s2", "0")));
    runTo(12);
    assertExited("s1", 12, 3, "Error");
    runTo(15);
    assertExited("s2", 15, 0, "Completed");
    assertExited("s3", 10, ContainerScript.SIGTERM_EXIT_CODE, "Error");
    assertThat(current().status().phase()).isEqualTo(PodPhase.Succeeded);
    runTo(60);
    assertThat(init("s1").restartCount()).isZero();
  }

  @Test
  void stoppingSidecar_keepsItsReadiness_podConditionsSayTheMainContainerIsDone() {
    start(pod(Map.of(STOP + ".s3", "5")));
    runTo(12);
    assertThat(init("s3").ready()).isTrue();
    assertThat(current().status().condition(PodCondition.CONTAINERS_READY).status()).isEqualTo(ConditionStatus.False);
    assertThat(current().status().condition(PodCondition.READY).message()).contains("[main]");
  }

  @Test
  void rebootWhileSidecarsStop_podEndsSucceeded_notPending() {
    // getPhase after the reboot: the main container's success is kept, the sidecars' lost runs do not count
    start(pod(Map.of(STOP + ".s1", "never", STOP + ".s2", "never", STOP + ".s3", "never")));
    runTo(20);
    assertThat(current().status().phase()).isEqualTo(PodPhase.Running);
    agent.kill();
    agent.revive();
    runTo(21);
    assertThat(current().status().phase()).isEqualTo(PodPhase.Succeeded);
    assertThat(current().status().containerStatuses().get(0).state().exitCode()).isZero();
    for (String s : new String[] {"s1", "s2", "s3"}) {
      ContainerStatus lost = init(s);
      assertThat(lost.state().exitCode()).as(s).isEqualTo(ContainerScript.KILLED_EXIT_CODE);
      assertThat(lost.state().reason()).as(s).isEqualTo(PodRuntime.CONTAINER_STATUS_UNKNOWN);
      assertThat(lost.restartCount()).as(s + ": its vanished run counted").isEqualTo(1);
    }
    runTo(100);
    assertThat(current().status().phase()).isEqualTo(PodPhase.Succeeded);
    assertThat(init("s1").restartCount()).isEqualTo(1);
  }

  @Test
  void scriptAndAnnotations_stopBehaviour_defaultsAndBadValues() {
    assertThat(ContainerScript.healthy().stopAfter()).isEqualTo(Duration.ZERO);
    assertThat(ContainerScript.healthy().stopExitCode()).isEqualTo(ContainerScript.SIGTERM_EXIT_CODE);
    ContainerScript ignores = ContainerScript.healthy().withStop(null, 0);
    assertThat(ignores.stopAfter()).isNull();
    assertThat(ignores.withLivenessFailureAfter(Duration.ofSeconds(3)).stopAfter()).isNull();
    assertThatThrownBy(() -> ContainerScript.healthy().withStop(Duration.ofSeconds(-1), 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("stopAfter");
    Pod p = Pod.builder().namespace("default").name("p").annotation(STOP + ".s1", "soon")
        .sidecar("s1", "proxy:1", ResourceList.EMPTY).container("main", "job:1", ResourceList.EMPTY).build();
    assertThatThrownBy(() -> HealthSource.fromAnnotations().initScript(p, p.spec().initContainers().get(0), 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("annotation " + STOP + ".s1 \"soon\" must be a non-negative integer or \"never\"");
  }
}
