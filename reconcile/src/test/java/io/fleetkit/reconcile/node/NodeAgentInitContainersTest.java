package io.fleetkit.reconcile.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.ContainerStateType;
import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.Probe;
import io.fleetkit.api.core.ProbeHandler;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The simulated kubelet running init containers and sidecars on the simulated clock. */
final class NodeAgentInitContainersTest {
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

  private void startAgent(HealthSource health) {
    store.create(Node.builder().name("n1").build());
    agent = NodeAgent.builder(store, clock, "n1").healthSource(health).build();
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
    for (ContainerStatus s : current().status().initContainerStatuses()) {
      if (s.name().equals(name)) {
        return s;
      }
    }
    throw new AssertionError("no init container status " + name);
  }

  private ContainerStatus app() {
    return current().status().containerStatuses().get(0);
  }

  private PodCondition condition(String type) {
    return current().status().condition(type);
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
  void initContainers_runOneAtATimeInOrder_thenAppStarts() {
    startAgent(HealthSource.fromAnnotations());
    store.create(pod(RestartPolicy.Always, Map.of(EXIT + ".migrate", "30", EXIT + ".warm", "20"))
        .initContainer("migrate", "db:1", ResourceList.EMPTY).initContainer("warm", "cache:1", ResourceList.EMPTY)
        .container("web", "shop:1", ResourceList.EMPTY).build());
    agent.sync();

    assertThat(current().status().phase()).isEqualTo(PodPhase.Pending);
    assertThat(init("migrate").state().type()).isEqualTo(ContainerStateType.Running);
    assertThat(init("warm").state().reason()).isEqualTo(PodRuntime.POD_INITIALIZING);
    assertThat(app().state().type()).isEqualTo(ContainerStateType.Waiting);
    assertThat(app().state().reason()).isEqualTo(PodRuntime.POD_INITIALIZING);
    PodCondition initialized = condition(PodCondition.INITIALIZED);
    assertThat(initialized.status()).isEqualTo(ConditionStatus.False);
    assertThat(initialized.reason()).isEqualTo(PodRuntime.CONTAINERS_NOT_INITIALIZED);
    assertThat(initialized.message()).isEqualTo("containers with incomplete status: [migrate warm]");
    assertThat(condition(PodCondition.READY).status()).isEqualTo(ConditionStatus.False);

    runTo(30);
    assertThat(init("migrate").state().type()).isEqualTo(ContainerStateType.Terminated);
    assertThat(init("migrate").state().exitCode()).isZero();
    assertThat(init("migrate").state().reason()).isEqualTo("Completed");
    assertThat(init("migrate").ready()).isTrue();
    assertThat(init("warm").state().type()).isEqualTo(ContainerStateType.Running);
    assertThat(init("warm").state().startedAt()).isEqualTo(t0.plusSeconds(30));
    assertThat(condition(PodCondition.INITIALIZED).message())
        .isEqualTo("containers with incomplete status: [warm]");
    assertThat(condition(PodCondition.INITIALIZED).lastTransitionTime()).isEqualTo(t0);

    runTo(49);
    assertThat(app().state().type()).isEqualTo(ContainerStateType.Waiting);
    runTo(50);
    assertThat(current().status().phase()).isEqualTo(PodPhase.Running);
    assertThat(app().state().type()).isEqualTo(ContainerStateType.Running);
    assertThat(app().state().startedAt()).isEqualTo(t0.plusSeconds(50));
    assertThat(condition(PodCondition.INITIALIZED).status()).isEqualTo(ConditionStatus.True);
    assertThat(condition(PodCondition.INITIALIZED).lastTransitionTime()).isEqualTo(t0.plusSeconds(50));
    assertThat(condition(PodCondition.READY).status()).isEqualTo(ConditionStatus.True);
    assertThat(current().status().initContainerStatuses()).allMatch(ContainerStatus::ready);
  }

  @Test
  void initContainers_unscripted_completeAtOnce_evenWithPodWideExitAndJobOwner() {
    startAgent(HealthSource.fromAnnotations());
    store.create(pod(RestartPolicy.Never, Map.of(EXIT, "60"))
        .ownerReference(new OwnerReference("batch/v1", "Job", "j", "uid-j", true, true))
        .initContainer("a", "x:1", ResourceList.EMPTY).initContainer("b", "x:1", ResourceList.EMPTY)
        .container("main", "x:1", ResourceList.EMPTY).build());
    agent.sync();
    assertThat(current().status().phase()).isEqualTo(PodPhase.Running);
    assertThat(init("a").state().finishedAt()).isEqualTo(t0);
    assertThat(init("b").state().finishedAt()).isEqualTo(t0);
    assertThat(app().state().startedAt()).isEqualTo(t0);
    runTo(60);
    assertThat(current().status().phase()).isEqualTo(PodPhase.Succeeded);
    PodCondition initialized = condition(PodCondition.INITIALIZED);
    assertThat(initialized.status()).isEqualTo(ConditionStatus.True);
    assertThat(initialized.reason()).isEqualTo(PodRuntime.POD_COMPLETED);
  }

  @Test
  void customHealthSource_initContainersCompleteAtOnce() {
    startAgent(HealthSource.healthy());
    store.create(pod(RestartPolicy.Always, Map.of()).initContainer("a", "x:1", ResourceList.EMPTY)
        .container("main", "x:1", ResourceList.EMPTY).build());
    agent.sync();
    assertThat(current().status().phase()).isEqualTo(PodPhase.Running);
    assertThat(init("a").state().type()).isEqualTo(ContainerStateType.Terminated);
    assertThat(condition(PodCondition.READY).status()).isEqualTo(ConditionStatus.True);
  }

  @Test
  void failedInitContainer_never_failsPod_appNeverStarts() {
    startAgent(HealthSource.fromAnnotations());
    store.create(pod(RestartPolicy.Never, Map.of(EXIT + ".a", "5", HealthSource.EXIT_CODE + ".a", "3"))
        .initContainer("a", "x:1", ResourceList.EMPTY).initContainer("b", "x:1", ResourceList.EMPTY)
        .container("main", "x:1", ResourceList.EMPTY).build());
    runTo(5);
    assertThat(current().status().phase()).isEqualTo(PodPhase.Failed);
    assertThat(init("a").state().exitCode()).isEqualTo(3);
    assertThat(init("a").state().reason()).isEqualTo("Error");
    assertThat(init("a").ready()).isFalse();
    assertThat(init("b").state().reason()).isEqualTo(PodRuntime.POD_INITIALIZING);
    assertThat(app().state().reason()).isEqualTo(PodRuntime.POD_INITIALIZING);
    assertThat(condition(PodCondition.INITIALIZED).status()).isEqualTo(ConditionStatus.False);
    runTo(600);
    assertThat(init("a").restartCount()).isZero();
    assertThat(clock.nextDeadline().filter(d -> d.isBefore(t0.plusSeconds(610)))).isEmpty();
  }

  @Test
  void failedInitContainer_onFailure_crashLoopBackOff_thenSucceeds() {
    startAgent(HealthSource.fromAnnotations());
    store.create(pod(RestartPolicy.OnFailure, Map.of(HealthSource.CRASHES + ".a", "3"))
        .initContainer("a", "x:1", ResourceList.EMPTY).container("main", "x:1", ResourceList.EMPTY).build());
    List<Instant> restarts = new ArrayList<>();
    int seen = 0;
    for (long s = 0; s <= 40; s++) {
      runTo(s);
      if (init("a").restartCount() > seen) {
        seen = init("a").restartCount();
        restarts.add(clock.now());
      }
      if (s == 5) {
        assertThat(init("a").state().reason()).isEqualTo(PodRuntime.CRASH_LOOP_BACK_OFF);
        assertThat(current().status().phase()).isEqualTo(PodPhase.Pending);
      }
    }
    // crashes at 0 (restart at once), 0 (held 10 s), 10 (held 20 s); the fourth run at 30 s completes
    assertThat(restarts).containsExactly(t0, t0.plusSeconds(10), t0.plusSeconds(30));
    assertThat(init("a").state().type()).isEqualTo(ContainerStateType.Terminated);
    assertThat(init("a").state().exitCode()).isZero();
    assertThat(app().state().startedAt()).isEqualTo(t0.plusSeconds(30));
    assertThat(current().status().phase()).isEqualTo(PodPhase.Running);
  }

  @Test
  void failedInitContainer_always_isRestartedOnlyOnFailure() {
    startAgent(HealthSource.fromAnnotations());
    store.create(pod(RestartPolicy.Always, Map.of(HealthSource.CRASHES + ".a", "1"))
        .initContainer("a", "x:1", ResourceList.EMPTY).container("main", "x:1", ResourceList.EMPTY).build());
    runTo(100);
    assertThat(init("a").restartCount()).isEqualTo(1);
    assertThat(init("a").state().exitCode()).isZero();
    assertThat(app().state().type()).isEqualTo(ContainerStateType.Running);
  }

  @Test
  void sidecar_startsBeforeNextInitContainer_keepsRunning_andCountsForReadiness() {
    startAgent(HealthSource.fromAnnotations());
    store.create(pod(RestartPolicy.Always, Map.of(EXIT + ".migrate", "10",
        HealthSource.READY_AFTER + ".proxy", "25"))
        .sidecar("proxy", "envoy:1", ResourceList.EMPTY).initContainer("migrate", "db:1", ResourceList.EMPTY)
        .container("web", "shop:1", ResourceList.EMPTY).build());
    agent.sync();
    assertThat(init("proxy").state().type()).isEqualTo(ContainerStateType.Running);
    assertThat(init("proxy").started()).isTrue();
    assertThat(init("migrate").state().type()).isEqualTo(ContainerStateType.Running);
    assertThat(init("migrate").state().startedAt()).isEqualTo(t0);
    runTo(10);
    assertThat(app().state().type()).isEqualTo(ContainerStateType.Running);
    assertThat(app().ready()).isTrue();
    assertThat(init("proxy").ready()).isFalse();
    assertThat(condition(PodCondition.CONTAINERS_READY).status()).isEqualTo(ConditionStatus.False);
    runTo(25);
    assertThat(init("proxy").ready()).isTrue();
    assertThat(condition(PodCondition.READY).status()).isEqualTo(ConditionStatus.True);
    assertThat(init("proxy").state().type()).isEqualTo(ContainerStateType.Running);
  }

  @Test
  void sidecar_startupProbe_holdsBackNextInitContainer() {
    startAgent(HealthSource.fromAnnotations());
    Probe startup = Probe.builder(ProbeHandler.TcpSocket.of(15000)).periodSeconds(5).failureThreshold(30).build();
    Container proxy = Container.sidecar("proxy", "envoy:1", ResourceList.EMPTY).withProbes(null, null, startup);
    store.create(pod(RestartPolicy.Always, Map.of(HealthSource.STARTED_AFTER + ".proxy", "12"))
        .initContainer(proxy).initContainer("migrate", "db:1", ResourceList.EMPTY)
        .container("web", "shop:1", ResourceList.EMPTY).build());
    runTo(14);
    assertThat(init("proxy").started()).isFalse();
    assertThat(init("migrate").state().type()).isEqualTo(ContainerStateType.Waiting);
    assertThat(condition(PodCondition.INITIALIZED).message())
        .isEqualTo("containers with incomplete status: [proxy migrate]");
    runTo(15); // startup ticks at 0, 5, 10, 15: passes at 15
    assertThat(init("proxy").started()).isTrue();
    assertThat(init("migrate").state().type()).isEqualTo(ContainerStateType.Terminated);
    assertThat(app().state().startedAt()).isEqualTo(t0.plusSeconds(15));
  }

  @Test
  void sidecar_exitsUnderNever_isRestartedWithBackoff_andAppKeepsRunning() {
    startAgent(HealthSource.fromAnnotations());
    store.create(pod(RestartPolicy.Never, Map.of(HealthSource.CRASHES + ".proxy", "2"))
        .sidecar("proxy", "envoy:1", ResourceList.EMPTY).container("web", "shop:1", ResourceList.EMPTY).build());
    runTo(5);
    // crashes at 0 twice (restart at once, then held 10 s): initialization waits for the sidecar
    assertThat(init("proxy").state().reason()).isEqualTo(PodRuntime.CRASH_LOOP_BACK_OFF);
    assertThat(current().status().phase()).isEqualTo(PodPhase.Pending);
    runTo(10);
    assertThat(init("proxy").restartCount()).isEqualTo(2);
    assertThat(init("proxy").state().type()).isEqualTo(ContainerStateType.Running);
    assertThat(app().state().startedAt()).isEqualTo(t0.plusSeconds(10));
    assertThat(current().status().phase()).isEqualTo(PodPhase.Running);
  }

  @Test
  void sidecar_isStoppedWhenJobPodCompletes_podSucceeds() {
    // the kubelet stops the sidecar with SIGTERM once the main container is done; an unscripted process ends on the
    // signal at once and reports 143, reason Error; terminated sidecars do not count for the phase
    // (kubelet_pods.go getPhase)
    startAgent(HealthSource.fromAnnotations());
    store.create(pod(RestartPolicy.Never, Map.of())
        .ownerReference(new OwnerReference("batch/v1", "Job", "j", "uid-j", true, true))
        .sidecar("proxy", "envoy:1", ResourceList.EMPTY).container("main", "x:1", ResourceList.EMPTY).build());
    runTo(9);
    assertThat(init("proxy").state().type()).isEqualTo(ContainerStateType.Running);
    assertThat(current().status().phase()).isEqualTo(PodPhase.Running);
    runTo(10); // the Job default: main runs 10 s; the sidecar would run forever
    assertThat(current().status().phase()).isEqualTo(PodPhase.Succeeded);
    assertThat(app().state().exitCode()).isZero();
    assertThat(init("proxy").state().type()).isEqualTo(ContainerStateType.Terminated);
    assertThat(init("proxy").state().exitCode()).isEqualTo(ContainerScript.SIGTERM_EXIT_CODE);
    assertThat(init("proxy").state().reason()).isEqualTo("Error");
    assertThat(init("proxy").state().finishedAt()).isEqualTo(t0.plusSeconds(10));
    assertThat(init("proxy").ready()).isFalse();
    assertThat(condition(PodCondition.READY).status()).isEqualTo(ConditionStatus.False);
    assertThat(condition(PodCondition.INITIALIZED).reason()).isEqualTo(PodRuntime.POD_COMPLETED);
    runTo(1000);
    assertThat(init("proxy").restartCount()).isZero();
    assertThat(init("proxy").state().exitCode()).isEqualTo(ContainerScript.SIGTERM_EXIT_CODE);
  }

  @Test
  void sidecar_stopped_whenAppFailsUnderNever_podFailed() {
    startAgent(HealthSource.fromAnnotations());
    store.create(pod(RestartPolicy.Never, Map.of(EXIT + ".main", "20", HealthSource.EXIT_CODE + ".main", "2"))
        .sidecar("proxy", "envoy:1", ResourceList.EMPTY).container("main", "x:1", ResourceList.EMPTY).build());
    runTo(20);
    assertThat(current().status().phase()).isEqualTo(PodPhase.Failed);
    assertThat(app().state().exitCode()).isEqualTo(2);
    assertThat(init("proxy").state().exitCode()).isEqualTo(ContainerScript.SIGTERM_EXIT_CODE);
    assertThat(init("proxy").state().finishedAt()).isEqualTo(t0.plusSeconds(20));
  }

  @Test
  void sidecar_inCrashLoopBackOff_whenPodCompletes_isReportedStatusUnknown() {
    // the status manager's TerminatePod: a container with evidence of a start but no terminated state is reported
    // terminated with 137, reason ContainerStatusUnknown and no finish time
    startAgent(HealthSource.fromAnnotations());
    store.create(pod(RestartPolicy.OnFailure, Map.of(EXIT + ".main", "15", EXIT + ".proxy", "5",
        HealthSource.EXIT_CODE + ".proxy", "1"))
        .sidecar("proxy", "envoy:1", ResourceList.EMPTY).container("main", "x:1", ResourceList.EMPTY).build());
    // proxy exits at 5 (restarted at once) and 10 (held back 10 s); main exits 0 at 15
    runTo(12);
    assertThat(init("proxy").state().reason()).isEqualTo(PodRuntime.CRASH_LOOP_BACK_OFF);
    runTo(15);
    assertThat(current().status().phase()).isEqualTo(PodPhase.Succeeded);
    ContainerStatus proxy = init("proxy");
    assertThat(proxy.state().type()).isEqualTo(ContainerStateType.Terminated);
    assertThat(proxy.state().exitCode()).isEqualTo(ContainerScript.KILLED_EXIT_CODE);
    assertThat(proxy.state().reason()).isEqualTo(PodRuntime.CONTAINER_STATUS_UNKNOWN);
    assertThat(proxy.state().finishedAt()).isNull();
    assertThat(proxy.restartCount()).isEqualTo(1);
    runTo(60);
    assertThat(init("proxy").restartCount()).isEqualTo(1);
  }

  @Test
  void malformedInitContainerAnnotation_namesPodAndKey() {
    startAgent(HealthSource.fromAnnotations());
    Pod p = pod(RestartPolicy.Always, Map.of(EXIT + ".a", "soon")).initContainer("a", "x:1", ResourceList.EMPTY)
        .container("main", "x:1", ResourceList.EMPTY).build();
    assertThatThrownBy(() -> HealthSource.fromAnnotations().initScript(p, p.spec().initContainers().get(0), 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("pod default/p: annotation simulate.fleetkit.io/exit-after-seconds.a \"soon\" must be a "
            + "non-negative integer");
  }

  @Test
  void podWithoutInitContainers_runtimeHoldsNoInitState() {
    Pod p = pod(RestartPolicy.Always, Map.of()).container("main", "x:1", ResourceList.EMPTY).build();
    PodRuntime r = new PodRuntime(p, t0);
    assertThat(r.hasInitContainers()).isFalse();
    assertThat(r.inits).as("the shared empty list: nothing allocated per pod").isSameAs(List.of());
  }

  @Test
  void podWithoutInitContainers_hasNoInitStatuses_andPlainInitializedCondition() {
    startAgent(HealthSource.healthy());
    store.create(pod(RestartPolicy.Always, Map.of()).container("main", "x:1", ResourceList.EMPTY).build());
    agent.sync();
    assertThat(current().status().initContainerStatuses()).isEmpty();
    assertThat(app().state().type()).isEqualTo(ContainerStateType.Running);
    assertThat(condition(PodCondition.INITIALIZED).reason()).isEmpty();
  }
}
