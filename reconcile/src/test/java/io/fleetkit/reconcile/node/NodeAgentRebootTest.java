package io.fleetkit.reconcile.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.ContainerStateType;
import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A node reboot ({@link NodeAgent#kill} then {@link NodeAgent#revive}) and a kubelet restart, as upstream decides
 * them: after a reboot the sandbox is gone, so the pod starts over from its first init container
 * ({@code computePodActions} with a missing sandbox), and a container that ran before starts with its last restart
 * count plus one ({@code calcRestartCountByLogDir}); a {@code restartPolicy: Never} pod that had a container
 * running fails instead; after a kubelet restart the sandbox and the containers are kept, so nothing runs again.
 */
final class NodeAgentRebootTest {
  private static final String EXIT = HealthSource.EXIT_AFTER;
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

  private static Pod.Builder pod(RestartPolicy policy, Map<String, String> annotations) {
    Pod.Builder b = Pod.builder().namespace("default").name("p").restartPolicy(policy).nodeName("n1");
    annotations.forEach(b::annotation);
    return b;
  }

  private Pod current() {
    return store.require(Pod.class, "default", "p");
  }

  private ContainerStatus init(String name) {
    return current().status().initContainerStatuses().stream().filter(s -> s.name().equals(name)).findFirst()
        .orElseThrow();
  }

  private ContainerStatus app() {
    return current().status().containerStatuses().get(0);
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
  void reboot_initializedPod_rerunsInitContainersFromTheFirst_restartCountsCarryOnPlusOne() {
    startAgent();
    store.create(pod(RestartPolicy.Always, Map.of(EXIT + ".migrate", "5", EXIT + ".warm", "5"))
        .initContainer("migrate", "db:1", ResourceList.EMPTY).initContainer("warm", "db:1", ResourceList.EMPTY)
        .container("web", "shop:1", ResourceList.EMPTY).build());
    runTo(20);
    assertThat(app().state().type()).isEqualTo(ContainerStateType.Running);
    assertThat(app().restartCount()).isZero();
    agent.kill();
    runTo(30);
    agent.revive();
    runTo(30);
    // a new sandbox: the first init container again, its run counted from its log directory (0.log: count 1)
    assertThat(init("migrate").state().type()).isEqualTo(ContainerStateType.Running);
    assertThat(init("migrate").state().startedAt()).isEqualTo(t0.plusSeconds(30));
    assertThat(init("migrate").restartCount()).isEqualTo(1);
    // not started yet since the reboot: the count the status showed
    assertThat(init("warm").restartCount()).isZero();
    assertThat(init("warm").state().type()).isEqualTo(ContainerStateType.Waiting);
    assertThat(app().restartCount()).isZero();
    assertThat(app().state().type()).isEqualTo(ContainerStateType.Waiting);
    assertThat(app().state().reason()).isEqualTo(PodRuntime.POD_INITIALIZING);
    assertThat(current().status().phase()).isEqualTo(PodPhase.Pending);
    runTo(40);
    assertThat(init("warm").restartCount()).isEqualTo(1);
    assertThat(init("warm").state().exitCode()).isZero();
    assertThat(app().state().type()).isEqualTo(ContainerStateType.Running);
    assertThat(app().state().startedAt()).isEqualTo(t0.plusSeconds(40));
    assertThat(app().restartCount()).isEqualTo(1);
    assertThat(current().status().phase()).isEqualTo(PodPhase.Running);
  }

  @Test
  void reboot_onFailurePod_succeededContainerIsNotStartedAgain() {
    // computePodActions with a new sandbox: under OnFailure a container that succeeded is not started again
    // (containerSucceeded), so its terminated state stays, as the API server's status rules require
    startAgent();
    store.create(pod(RestartPolicy.OnFailure, Map.of(EXIT + ".a", "5"))
        .container("a", "job:1", ResourceList.EMPTY).container("b", "job:1", ResourceList.EMPTY).build());
    runTo(10);
    ContainerStatus a = current().status().containerStatuses().get(0);
    assertThat(a.state().type()).isEqualTo(ContainerStateType.Terminated);
    assertThat(a.state().exitCode()).isZero();
    agent.kill();
    agent.revive();
    runTo(20);
    ContainerStatus after = current().status().containerStatuses().get(0);
    assertThat(after.state().type()).isEqualTo(ContainerStateType.Terminated);
    assertThat(after.state().exitCode()).isZero();
    assertThat(after.restartCount()).isZero();
    ContainerStatus b = current().status().containerStatuses().get(1);
    assertThat(b.state().type()).isEqualTo(ContainerStateType.Running);
    assertThat(b.restartCount()).isEqualTo(1);
  }

  @Test
  void reboot_onFailurePod_initContainersThatSucceededStayDone() {
    startAgent();
    store.create(pod(RestartPolicy.OnFailure, Map.of(EXIT + ".migrate", "5"))
        .initContainer("migrate", "db:1", ResourceList.EMPTY).container("b", "job:1", ResourceList.EMPTY).build());
    runTo(10);
    assertThat(init("migrate").state().type()).isEqualTo(ContainerStateType.Terminated);
    agent.kill();
    agent.revive();
    runTo(20);
    assertThat(init("migrate").state().type()).isEqualTo(ContainerStateType.Terminated);
    assertThat(init("migrate").state().exitCode()).isZero();
    assertThat(app().state().type()).isEqualTo(ContainerStateType.Running);
  }

  @Test
  void reboot_containerThatNeverStarted_keepsCountZero() {
    startAgent();
    store.create(pod(RestartPolicy.Always, Map.of(EXIT + ".migrate", "100"))
        .initContainer("migrate", "db:1", ResourceList.EMPTY).container("web", "shop:1", ResourceList.EMPTY)
        .build());
    runTo(10);
    agent.kill();
    agent.revive();
    runTo(10);
    assertThat(init("migrate").restartCount()).isEqualTo(1);
    assertThat(app().restartCount()).isZero();
    runTo(110);
    assertThat(app().state().type()).isEqualTo(ContainerStateType.Running);
    assertThat(app().restartCount()).isZero();
  }

  @Test
  void reboot_crashLoopingContainer_countsOn_andItsBackoffIsForgotten() {
    startAgent();
    store.create(pod(RestartPolicy.Always, Map.of(HealthSource.CRASHES, "3"))
        .container("web", "shop:1", ResourceList.EMPTY).build());
    // runs 0-2 crash at 0 (restart at once), 0 (held 10 s), 10 (held 20 s): in CrashLoopBackOff until 30
    runTo(15);
    assertThat(app().restartCount()).isEqualTo(2);
    assertThat(app().state().reason()).isEqualTo(PodRuntime.CRASH_LOOP_BACK_OFF);
    agent.kill();
    agent.revive();
    runTo(15);
    // a new run at once (the kubelet's backoff was in memory), numbered after the last log: 3, which runs
    assertThat(app().restartCount()).isEqualTo(3);
    assertThat(app().state().type()).isEqualTo(ContainerStateType.Running);
    assertThat(app().state().startedAt()).isEqualTo(t0.plusSeconds(15));
  }

  @Test
  void reboot_podReplacedByOneOfTheSameName_startsFromZero() {
    startAgent();
    store.create(pod(RestartPolicy.Always, Map.of(HealthSource.CRASHES, "1"))
        .container("web", "shop:1", ResourceList.EMPTY).build());
    runTo(5);
    assertThat(app().restartCount()).isEqualTo(1);
    agent.kill();
    // a force deletion: without a kubelet a graceful one would leave the pod Terminating
    store.delete(Pod.class, "default", "p", io.fleetkit.api.store.DeleteOptions.gracePeriod(0));
    store.create(pod(RestartPolicy.Always, Map.of()).container("web", "shop:1", ResourceList.EMPTY).build());
    agent.revive();
    runTo(6);
    assertThat(app().restartCount()).isZero();
    assertThat(app().state().type()).isEqualTo(ContainerStateType.Running);
  }

  /** A lost run as the status manager's TerminatePod reports it: 137, ContainerStatusUnknown, no finish time. */
  private static void assertLost(ContainerStatus s, int restartCount) {
    assertThat(s.state().type()).isEqualTo(ContainerStateType.Terminated);
    assertThat(s.state().exitCode()).isEqualTo(ContainerScript.KILLED_EXIT_CODE);
    assertThat(s.state().reason()).isEqualTo(PodRuntime.CONTAINER_STATUS_UNKNOWN);
    assertThat(s.state().finishedAt()).isNull();
    assertThat(s.restartCount()).isEqualTo(restartCount);
    assertThat(s.ready()).isFalse();
  }

  @Test
  void reboot_neverPod_containerRunningAtTheReboot_podFails_nothingRunsAgain() {
    // kubernetes pkg/kubelet/kubelet_pods.go convertToAPIContainerStatuses: a container whose previous status was
    // running and which the runtime no longer lists gets a last termination state (137, ContainerStatusUnknown) and
    // one more restart; getPhase counts it stopped without success, so a Never pod is Failed, and kubelet.go SyncPod
    // returns for a terminal phase before computePodActions: no new sandbox, no new start; TerminatePod then reports
    // the container terminated (137, ContainerStatusUnknown)
    startAgent();
    store.create(pod(RestartPolicy.Never, Map.of()).container("web", "shop:1", ResourceList.EMPTY).build());
    runTo(10);
    assertThat(app().state().type()).isEqualTo(ContainerStateType.Running);
    agent.kill();
    runTo(20);
    agent.revive();
    runTo(20);
    assertThat(current().status().phase()).isEqualTo(PodPhase.Failed);
    assertLost(app(), 1);
    assertThat(current().status().condition(PodConditions.POD_READY_TO_START_CONTAINERS).status())
        .as("no sandbox is created").isEqualTo(io.fleetkit.api.meta.ConditionStatus.False);
    assertThat(current().status().condition(io.fleetkit.api.core.PodCondition.READY).reason())
        .isEqualTo(PodConditions.POD_FAILED);
    runTo(200);
    assertLost(app(), 1);
    assertThat(agent.podCount()).isEqualTo(1);
  }

  @Test
  void reboot_neverPod_oneContainerSucceeded_theOtherRunning_failsKeepingTheSuccess() {
    startAgent();
    store.create(pod(RestartPolicy.Never, Map.of(EXIT + ".a", "5"))
        .container("a", "job:1", ResourceList.EMPTY).container("b", "job:1", ResourceList.EMPTY).build());
    runTo(10);
    agent.kill();
    agent.revive();
    runTo(11);
    assertThat(current().status().phase()).isEqualTo(PodPhase.Failed);
    ContainerStatus a = current().status().containerStatuses().get(0);
    assertThat(a.state().exitCode()).isZero();
    assertThat(a.state().reason()).isEqualTo("Completed");
    assertThat(a.state().finishedAt()).isEqualTo(t0.plusSeconds(5));
    assertThat(a.restartCount()).isZero();
    assertLost(current().status().containerStatuses().get(1), 1);
  }

  @Test
  void reboot_neverPod_initContainerRunningAtTheReboot_podFails_appNeverStarts() {
    // getPhase: a regular init container with a non-zero last termination is a failed initialization, which fails
    // a Never pod whatever else holds
    startAgent();
    store.create(pod(RestartPolicy.Never, Map.of(EXIT + ".migrate", "100"))
        .initContainer("migrate", "db:1", ResourceList.EMPTY).container("web", "shop:1", ResourceList.EMPTY)
        .build());
    runTo(10);
    agent.kill();
    agent.revive();
    runTo(200);
    assertThat(current().status().phase()).isEqualTo(PodPhase.Failed);
    assertLost(init("migrate"), 1);
    assertThat(app().state().type()).isEqualTo(ContainerStateType.Waiting);
    assertThat(app().state().reason()).isEqualTo(PodRuntime.POD_INITIALIZING);
    assertThat(app().restartCount()).isZero();
  }

  @Test
  void reboot_neverPodWithSidecar_bothRunning_podFails_sidecarReportedLostToo() {
    startAgent();
    store.create(pod(RestartPolicy.Never, Map.of())
        .sidecar("proxy", "envoy:1", ResourceList.EMPTY).container("web", "shop:1", ResourceList.EMPTY).build());
    runTo(10);
    assertThat(init("proxy").state().type()).isEqualTo(ContainerStateType.Running);
    agent.kill();
    agent.revive();
    runTo(100);
    assertThat(current().status().phase()).isEqualTo(PodPhase.Failed);
    assertLost(app(), 1);
    assertLost(init("proxy"), 1);
  }

  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.EnumSource(names = {"OnFailure", "Always"})
  void reboot_onFailureAndAlwaysPods_containerRunningAtTheReboot_runsAgain(RestartPolicy policy) {
    // the contrast: getPhase gives Running (restarting) and computePodActions starts the container in a new sandbox
    startAgent();
    store.create(pod(policy, Map.of()).container("web", "shop:1", ResourceList.EMPTY).build());
    runTo(10);
    agent.kill();
    agent.revive();
    runTo(11);
    assertThat(current().status().phase()).isEqualTo(PodPhase.Running);
    assertThat(app().state().type()).isEqualTo(ContainerStateType.Running);
    assertThat(app().state().startedAt()).isEqualTo(t0.plusSeconds(10));
    assertThat(app().restartCount()).isEqualTo(1);
  }

  @Test
  void kubeletRestart_initializedPod_keepsInitStatuses_andRunsNothingAgain() {
    startAgent();
    store.create(pod(RestartPolicy.Always, Map.of(EXIT + ".migrate", "5"))
        .initContainer("migrate", "db:1", ResourceList.EMPTY).sidecar("proxy", "envoy:1", ResourceList.EMPTY)
        .container("web", "shop:1", ResourceList.EMPTY).build());
    runTo(20);
    ContainerStatus migrate = init("migrate");
    ContainerStatus proxy = init("proxy");
    ContainerStatus web = app();
    agent.restartKubelet();
    runTo(60);
    assertThat(init("migrate")).isEqualTo(migrate);
    assertThat(init("proxy").restartCount()).isEqualTo(proxy.restartCount()).isZero();
    assertThat(init("proxy").state()).isEqualTo(proxy.state());
    assertThat(app().restartCount()).isEqualTo(web.restartCount()).isZero();
    assertThat(app().state()).isEqualTo(web.state());
  }
}
