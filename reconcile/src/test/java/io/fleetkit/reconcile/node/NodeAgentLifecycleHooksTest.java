package io.fleetkit.reconcile.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.ContainerStateType;
import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.Lifecycle;
import io.fleetkit.api.core.LifecycleHandler;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.Probe;
import io.fleetkit.api.core.ProbeHandler;
import io.fleetkit.api.core.ProbeType;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.core.ServiceTargetPort;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.DeleteOptions;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.WatchEvent;
import io.fleetkit.api.time.ManualClock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Lifecycle hooks in the simulated kubelet, as {@code killContainer} and {@code startContainer} in kubernetes
 * {@code pkg/kubelet/kuberuntime/kuberuntime_container.go} run them: {@code preStop} before SIGTERM, its time taken
 * from the grace period (at least 2 s left), at most the grace period waited for, a failure recorded as
 * {@code FailedPreStopHook} and the kill going on; {@code postStart} after the start, a failure recorded as
 * {@code FailedPostStartHook} and the container killed and restarted. Ported from kubernetes
 * {@code pkg/kubelet/kuberuntime/kuberuntime_container_test.go} (the version read has TestLifeCycleHook,
 * TestLifeCycleHookForRestartableInitContainer and TestKillContainerGracePeriod with {@code setTerminationGracePeriod}):
 * upstream observes that the fake runner or HTTP client was called; here a hook's run is observed through the
 * simulated time it takes (the SIGTERM, and so the exit, comes that much later) and through its events.
 */
final class NodeAgentLifecycleHooksTest {
  private static final String HOOK_SECONDS = HealthSource.HOOK_SECONDS;
  private static final String HOOK_FAILS = HealthSource.HOOK_FAILS_AFTER;
  private static final ProbeHandler.Exec PRE_STOP_CMD = new ProbeHandler.Exec(List.of("PreStopCMD"));
  private static final ProbeHandler.HttpGet GRACEFUL_EXIT =
      new ProbeHandler.HttpGet("/GracefulExit", ServiceTargetPort.of(80), "testHost.com", "",
          List.of());
  private static final ProbeHandler.Exec POST_START_CMD = new ProbeHandler.Exec(List.of("PostStartCMD"));

  private final ManualClock clock = ManualClock.atEpoch2026();
  private final Instant t0 = clock.now();
  private final ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build();
  private final List<String> events = new ArrayList<>();
  private final List<Pod> seen = new ArrayList<>();
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
    EventRecorder recorder = (regarding, related, type, reason, action, note) -> events.add(
        clock.now().getEpochSecond() - t0.getEpochSecond() + "s " + type + " " + reason + " "
            + regarding.fieldPath() + " " + note);
    agent = NodeAgent.builder(store, clock, "n1").events(recorder).build();
    agent.start();
    store.watch(Pod.class, "", (WatchEvent<Pod> e) -> seen.add(e.object()));
    store.create(pod.build());
    agent.sync();
  }

  private static Pod.Builder pod(long grace, Map<String, String> annotations, Container main) {
    Pod.Builder b = Pod.builder().namespace("default").name("foo").restartPolicy(RestartPolicy.Always)
        .nodeName("n1").terminationGracePeriodSeconds(grace).container(main);
    annotations.forEach(b::annotation);
    return b;
  }

  private static Container main(@Nullable Lifecycle lifecycle) {
    return Container.of("foo", "busybox", ResourceList.EMPTY).withLifecycle(lifecycle);
  }

  private Optional<Pod> current() {
    return store.get(Pod.class, "default", "foo");
  }

  private Pod last() {
    return seen.get(seen.size() - 1);
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

  /** Deletes the pod at {@code at} and returns the second its last container finished (the pod is gone then). */
  private long deleteAt(long at, @Nullable Long gracePeriod) {
    runTo(at);
    if (gracePeriod == null) {
      store.delete(Pod.class, "default", "foo");
    } else {
      store.delete(Pod.class, "default", "foo", DeleteOptions.gracePeriod(gracePeriod));
    }
    for (long s = at; s < at + 200 && current().isPresent(); s++) {
      runTo(s + 1);
    }
    assertThat(current()).as("removed").isEmpty();
    ContainerStatus c = last().status().containerStatuses().get(0);
    assertThat(c.state().type()).isEqualTo(ContainerStateType.Terminated);
    return c.state().finishedAt().getEpochSecond() - t0.getEpochSecond();
  }

  private int exitCode() {
    return last().status().containerStatuses().get(0).state().exitCode();
  }

  // ---- TestLifeCycleHook (and ...ForRestartableInitContainer): the hook runs, its time comes before SIGTERM

  @Test
  void preStopCmdExec_runsBeforeSigterm() {
    start(pod(30, Map.of(HOOK_SECONDS, "4"), main(Lifecycle.preStop(PRE_STOP_CMD))));
    assertThat(deleteAt(10, null)).as("SIGTERM after the 4 s hook ends the process").isEqualTo(14);
    assertThat(exitCode()).isEqualTo(ContainerScript.SIGTERM_EXIT_CODE);
    assertThat(events).isEmpty();
  }

  @Test
  void preStopHttpGet_runsBeforeSigterm() {
    start(pod(30, Map.of(HOOK_SECONDS, "6"), main(Lifecycle.preStop(GRACEFUL_EXIT))));
    assertThat(deleteAt(10, null)).isEqualTo(16);
  }

  @Test
  void preStopNoTimeToRun_gracePeriodZero_hookSkipped() {
    // upstream kills with a grace period of 0: the HTTP hook is not called. A deletion always gets at least 1 s
    // (calculateEffectiveGracePeriod); a liveness kill of a pod with terminationGracePeriodSeconds 0 gets 0
    Probe liveness = Probe.builder(ProbeHandler.TcpSocket.of(80)).periodSeconds(1).failureThreshold(1).build();
    Container c = main(Lifecycle.preStop(GRACEFUL_EXIT)).withProbes(liveness, null, null);
    start(pod(0, Map.of(HOOK_SECONDS, "6", HealthSource.LIVENESS_FAILS_AFTER, "5"), c));
    runTo(7);
    ContainerStatus s = current().orElseThrow().status().containerStatuses().get(0);
    assertThat(s.restartCount()).as("killed once by the liveness probe").isEqualTo(1);
    Instant restartedAt = s.state().startedAt();
    assertThat(restartedAt).as("no hook: SIGTERM at the kill, restarted at once").isBeforeOrEqualTo(t0.plusSeconds(6));
    // the same pod with a grace period: the 6 s hook runs before the kill's SIGTERM
    NodeAgentLifecycleHooksTest other = new NodeAgentLifecycleHooksTest();
    try {
      other.start(pod(30, Map.of(HOOK_SECONDS, "6", HealthSource.LIVENESS_FAILS_AFTER, "5"), c));
      other.runTo(restartedAt.getEpochSecond() - t0.getEpochSecond() + 7);
      ContainerStatus withHook = other.current().orElseThrow().status().containerStatuses().get(0);
      assertThat(withHook.restartCount()).isEqualTo(1);
      assertThat(withHook.state().startedAt()).isEqualTo(restartedAt.plusSeconds(6));
    } finally {
      other.close();
    }
  }

  @Test
  void postStartCmdExec_runsAfterStart_successKeepsContainer() {
    start(pod(30, Map.of(HOOK_SECONDS, "2"), main(Lifecycle.postStart(POST_START_CMD))));
    runTo(60);
    ContainerStatus s = current().orElseThrow().status().containerStatuses().get(0);
    assertThat(s.state().type()).isEqualTo(ContainerStateType.Running);
    assertThat(s.restartCount()).isZero();
    assertThat(events).isEmpty();
  }

  @Test
  void postStartFails_eventThenContainerKilledAndRestarted() {
    start(pod(30, Map.of(HOOK_SECONDS, "2", HOOK_FAILS, "0"),
        main(new Lifecycle(POST_START_CMD, new LifecycleHandler.Sleep(3)))));
    runTo(4);
    assertThat(events).containsExactly("2s Warning FailedPostStartHook spec.containers{foo} PostStartHook failed");
    ContainerStatus waiting = current().orElseThrow().status().containerStatuses().get(0);
    assertThat(waiting.state().type()).as("startContainer has not returned").isEqualTo(ContainerStateType.Waiting);
    // killContainer runs the preStop sleep (3 s) first, then SIGTERM: the run exits at 5; startContainer returns and
    // the next sync restarts it at once, its status showing the exit while the new run's hook runs
    runTo(5);
    ContainerStatus s = current().orElseThrow().status().containerStatuses().get(0);
    assertThat(s.restartCount()).isZero();
    assertThat(s.state().type()).isEqualTo(ContainerStateType.Terminated);
    assertThat(s.state().exitCode()).isEqualTo(ContainerScript.SIGTERM_EXIT_CODE);
    assertThat(s.state().finishedAt()).isEqualTo(t0.plusSeconds(5));
    // the second run's hook fails at 7, its kill returns at 10: then the restart backs off
    runTo(10);
    assertThat(events).hasSize(2).last().asString().startsWith("7s Warning FailedPostStartHook");
    s = current().orElseThrow().status().containerStatuses().get(0);
    assertThat(s.restartCount()).isEqualTo(1);
    assertThat(s.state().reason()).isEqualTo(PodRuntime.CRASH_LOOP_BACK_OFF);
  }

  @ParameterizedTest(name = "sidecar preStop {0}")
  @ValueSource(strings = {"exec", "httpGet"})
  void restartableInitContainer_preStopRunsWhenPodDeleted(String handler) {
    LifecycleHandler h = handler.equals("exec") ? PRE_STOP_CMD : GRACEFUL_EXIT;
    Container sidecar = Container.sidecar("foo-sidecar", "busybox", ResourceList.EMPTY)
        .withLifecycle(Lifecycle.preStop(h));
    start(pod(30, Map.of(HOOK_SECONDS + ".foo-sidecar", "5"), main(null)).initContainer(sidecar));
    runTo(10);
    assertThat(current().orElseThrow().status().phase()).isEqualTo(PodPhase.Running);
    store.delete(Pod.class, "default", "foo");
    runTo(14);
    assertThat(current()).as("the sidecar's hook still runs").isPresent();
    runTo(15);
    assertThat(current()).isEmpty();
    ContainerStatus s = last().status().initContainerStatuses().get(0);
    assertThat(s.state().finishedAt()).isEqualTo(t0.plusSeconds(15));
  }

  @ParameterizedTest(name = "sidecar stopped with grace {0}s: hook run {1}")
  @CsvSource({"0, false", "30, true"})
  void restartableInitContainer_preStopNoTimeToRun(long grace, boolean hookRuns) {
    // the sidecars are stopped with the pod's grace period once the main container is done; with 0 no hook runs
    // (a tcpSocket hook, which fails at once, shows whether it ran)
    Container sidecar = Container.sidecar("foo-sidecar", "busybox", ResourceList.EMPTY)
        .withLifecycle(Lifecycle.preStop(ProbeHandler.TcpSocket.of(80)));
    start(pod(grace, Map.of(HealthSource.EXIT_AFTER, "5"), main(null)).restartPolicy(RestartPolicy.Never)
        .initContainer(sidecar));
    runTo(10);
    ContainerStatus s = current().orElseThrow().status().initContainerStatuses().get(0);
    assertThat(s.state().type()).isEqualTo(ContainerStateType.Terminated);
    assertThat(s.state().finishedAt()).isEqualTo(t0.plusSeconds(5));
    if (hookRuns) {
      assertThat(events).containsExactly(
          "5s Warning FailedPreStopHook spec.initContainers{foo-sidecar} PreStopHook failed");
    } else {
      assertThat(events).isEmpty();
    }
  }

  @Test
  void restartableInitContainer_postStartFails_killedAndRestarted() {
    Container sidecar = Container.sidecar("foo-sidecar", "busybox", ResourceList.EMPTY)
        .withLifecycle(Lifecycle.postStart(POST_START_CMD));
    start(pod(30, Map.of(HOOK_SECONDS + ".foo-sidecar", "2", HOOK_FAILS + ".foo-sidecar", "0"), main(null))
        .initContainer(sidecar));
    runTo(3);
    assertThat(events).containsExactly(
        "2s Warning FailedPostStartHook spec.initContainers{foo-sidecar} PostStartHook failed");
    // killed at 2 (SIGTERM ends it at once) and restarted at once; the new run's hook runs until 4
    ContainerStatus s = current().orElseThrow().status().initContainerStatuses().get(0);
    assertThat(s.restartCount()).isZero();
    assertThat(s.state().finishedAt()).isEqualTo(t0.plusSeconds(2));
    assertThat(current().orElseThrow().status().containerStatuses().get(0).state().type())
        .as("the regular container waits for the sidecar").isEqualTo(ContainerStateType.Waiting);
    runTo(4);
    s = current().orElseThrow().status().initContainerStatuses().get(0);
    assertThat(s.restartCount()).as("the second run was killed at 4").isEqualTo(1);
    assertThat(s.state().reason()).isEqualTo(PodRuntime.CRASH_LOOP_BACK_OFF);
  }

  // ---- killContainer's arithmetic: the hook's seconds come off the grace period, at least 2 s are left

  /** preStop sleep seconds, grace period, delete-time override, SIGTERM answer ("never" ignores it), exit second. */
  static Stream<Arguments> gracePeriodArithmetic() {
    return Stream.of(
        Arguments.of(10L, 30L, null, "never", 40L, 137), // 10 s hook, 20 s left, then SIGKILL
        Arguments.of(29L, 30L, null, "never", 41L, 137), // 1 s left is raised to minimumGracePeriodInSeconds
        Arguments.of(30L, 30L, null, "never", 42L, 137),
        Arguments.of(20L, 30L, 5L, "0", 15L, 143), // kubectl delete --grace-period=5: the hook gets 5 s
        Arguments.of(20L, 30L, 5L, "never", 17L, 137), // ... then 2 s before SIGKILL
        Arguments.of(0L, 30L, null, "0", 10L, 143),
        Arguments.of(5L, 30L, null, "3", 18L, 143)); // SIGTERM at 15, the process exits 3 s later
  }

  @ParameterizedTest(name = "sleep {0}s grace {1}s override {2} stop {3}: exit at {4}")
  @MethodSource("gracePeriodArithmetic")
  void preStopSleep_takenFromGracePeriod(long sleep, long grace, @Nullable Long override, String stopAfter,
      long exitAt, int code) {
    start(pod(grace, Map.of(HealthSource.STOP_AFTER, stopAfter), main(Lifecycle.preStop(
        new LifecycleHandler.Sleep(sleep)))));
    assertThat(deleteAt(10, override)).isEqualTo(exitAt);
    assertThat(exitCode()).isEqualTo(code);
  }

  @Test
  void preStopLongerThanGracePeriod_waitedForOnlyTheGracePeriod_notReportedFailed() {
    start(pod(30, Map.of(HOOK_SECONDS, "50", HOOK_FAILS, "0", HealthSource.STOP_AFTER, "never"),
        main(Lifecycle.preStop(PRE_STOP_CMD))));
    assertThat(deleteAt(10, null)).as("30 s of hook, then 2 s to SIGKILL").isEqualTo(42);
    assertThat(events).isEmpty();
  }

  @Test
  void preStopFails_eventRecorded_killGoesOn() {
    start(pod(30, Map.of(HOOK_SECONDS, "3", HOOK_FAILS, "0"), main(Lifecycle.preStop(PRE_STOP_CMD))));
    assertThat(deleteAt(10, null)).isEqualTo(13);
    assertThat(events).containsExactly("13s Warning FailedPreStopHook spec.containers{foo} PreStopHook failed");
  }

  @Test
  void preStopTcpSocket_notRunByTheKubelet_failsAtOnce() {
    start(pod(30, Map.of(HOOK_SECONDS, "3"), main(Lifecycle.preStop(ProbeHandler.TcpSocket.of(80)))));
    assertThat(deleteAt(10, null)).isEqualTo(10);
    assertThat(events).containsExactly("10s Warning FailedPreStopHook spec.containers{foo} PreStopHook failed");
  }

  @Test
  void hookFailingOnlyLaterInTheRun_succeedsEarly() {
    // hook answers read as probe answers: passing until second 20 of the run, failing from then on
    start(pod(30, Map.of(HOOK_SECONDS, "1", HOOK_FAILS, "20"), main(Lifecycle.preStop(PRE_STOP_CMD))));
    assertThat(deleteAt(10, null)).isEqualTo(11);
    assertThat(events).isEmpty();
  }

  // ---- TestKillContainerGracePeriod (setTerminationGracePeriod)

  static Stream<Arguments> killContainerGracePeriod() {
    long shortGrace = 10;
    long medium = 30;
    long longGrace = 60;
    return Stream.of(
        Arguments.of("use pod termination grace period", null, null, longGrace, null, longGrace),
        Arguments.of("liveness probe overrides pod termination grace period", shortGrace, null, longGrace,
            ProbeType.Liveness, shortGrace),
        Arguments.of("startup probe overrides pod termination grace period", null, shortGrace, longGrace,
            ProbeType.Startup, shortGrace),
        Arguments.of("startup probe overrides pod termination grace period, probe period > pod period", null,
            longGrace, shortGrace, ProbeType.Startup, longGrace),
        Arguments.of("liveness probe overrides pod termination grace period, probe period > pod period", longGrace,
            null, shortGrace, ProbeType.Liveness, longGrace),
        Arguments.of("non-liveness probe failure, use pod termination grace period", shortGrace, null, longGrace,
            null, longGrace),
        Arguments.of("non-startup probe failure, use pod termination grace period", null, shortGrace, longGrace,
            null, longGrace),
        Arguments.of("all three grace periods set, use pod termination grace period", medium, shortGrace,
            longGrace, null, longGrace),
        Arguments.of("all three grace periods set, use startup termination grace period", medium, shortGrace,
            longGrace, ProbeType.Startup, shortGrace),
        Arguments.of("all three grace periods set, use liveness termination grace period", medium, shortGrace,
            longGrace, ProbeType.Liveness, medium));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("killContainerGracePeriod")
  void killContainerGracePeriod(String name, @Nullable Long livenessGrace, @Nullable Long startupGrace,
      long podGrace, @Nullable ProbeType reason, long expected) {
    Probe liveness = livenessGrace == null ? null
        : Probe.builder(ProbeHandler.TcpSocket.of(80)).terminationGracePeriodSeconds(livenessGrace).build();
    Probe startup = startupGrace == null ? null
        : Probe.builder(ProbeHandler.TcpSocket.of(80)).terminationGracePeriodSeconds(startupGrace).build();
    Container c = Container.of("foo", "busybox", ResourceList.EMPTY).withProbes(liveness, null, startup);
    Pod p = Pod.builder().namespace("default").name("foo").container(c).terminationGracePeriodSeconds(podGrace)
        .build();
    assertThat(PodRuntime.terminationGracePeriod(p, c, reason)).isEqualTo(expected);
  }
}
