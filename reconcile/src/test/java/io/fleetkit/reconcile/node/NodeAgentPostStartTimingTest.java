package io.fleetkit.reconcile.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.ContainerStateType;
import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.Lifecycle;
import io.fleetkit.api.core.LifecycleHandler;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.Probe;
import io.fleetkit.api.core.ProbeHandler;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The kubelet's sync waits for a {@code postStart} hook, as {@code startContainer} of kubernetes
 * {@code pkg/kubelet/kuberuntime/kuberuntime_container.go} runs it synchronously after the runtime started the
 * container and {@code SyncPod} ({@code kuberuntime_manager.go}) starts a pod's containers one after the other: a hook
 * of N seconds holds the pod's Running and Ready, and the next container's start, N seconds; the status the sync
 * generated before it started the container stays (the container waiting, not started, not ready); nothing else the
 * sync would do (a restart, a kill after a failed probe) happens before the hook returns. FleetKit's own cases: the
 * upstream unit tests use fake runners that return at once.
 */
final class NodeAgentPostStartTimingTest {
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
    agent = NodeAgent.builder(store, clock, "n1").build();
    agent.start();
    store.create(pod.build());
    agent.sync();
  }

  private static Pod.Builder pod(Map<String, String> annotations, Container... containers) {
    Pod.Builder b = Pod.builder().namespace("default").name("foo").restartPolicy(RestartPolicy.Always)
        .nodeName("n1").terminationGracePeriodSeconds(30);
    for (Container c : containers) {
      b.container(c);
    }
    annotations.forEach(b::annotation);
    return b;
  }

  private static Container container(String name, LifecycleHandler postStart) {
    return Container.of(name, "busybox", ResourceList.EMPTY).withLifecycle(Lifecycle.postStart(postStart));
  }

  private static Container plain(String name) {
    return Container.of(name, "busybox", ResourceList.EMPTY);
  }

  private Pod current() {
    return store.get(Pod.class, "default", "foo").orElseThrow();
  }

  private ContainerStatus status(int i) {
    return current().status().containerStatuses().get(i);
  }

  private boolean ready() {
    PodCondition c = current().status().condition(PodCondition.READY);
    return c != null && c.status() == ConditionStatus.True;
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

  @ParameterizedTest(name = "{0} hook of 5 s")
  @ValueSource(strings = {"sleep", "exec", "httpGet"})
  void postStartOfFiveSeconds_holdsRunningAndReadyFiveSeconds(String kind) {
    LifecycleHandler h = switch (kind) {
      case "sleep" -> new LifecycleHandler.Sleep(5);
      case "exec" -> new ProbeHandler.Exec(List.of("warm-up"));
      default -> new ProbeHandler.HttpGet("/warm", io.fleetkit.api.core.ServiceTargetPort.of(80), "", "",
          List.of());
    };
    start(pod(Map.of(HealthSource.HOOK_SECONDS, "5"), container("web", h)));
    runTo(4);
    assertThat(current().status().phase()).isEqualTo(PodPhase.Pending);
    ContainerStatus s = status(0);
    assertThat(s.state().type()).isEqualTo(ContainerStateType.Waiting);
    assertThat(s.state().reason()).isEqualTo(PodRuntime.CONTAINER_CREATING);
    assertThat(s.started()).isFalse();
    assertThat(s.ready()).isFalse();
    assertThat(ready()).isFalse();
    runTo(5);
    assertThat(current().status().phase()).isEqualTo(PodPhase.Running);
    s = status(0);
    assertThat(s.state().type()).isEqualTo(ContainerStateType.Running);
    assertThat(s.state().startedAt()).as("the runtime started it before the hook").isEqualTo(t0);
    assertThat(s.ready()).isTrue();
    assertThat(ready()).isTrue();
    PodCondition readyCondition = current().status().condition(PodCondition.READY);
    assertThat(readyCondition.lastTransitionTime()).isEqualTo(t0.plusSeconds(5));
  }

  @Test
  void zeroSecondHook_holdsNothing() {
    start(pod(Map.of(), container("web", new LifecycleHandler.Sleep(0)), plain("side")));
    assertThat(current().status().phase()).isEqualTo(PodPhase.Running);
    assertThat(status(1).state().startedAt()).isEqualTo(t0);
  }

  @Test
  void nextContainer_startsWhenTheHookReturns() {
    start(pod(Map.of(), container("first", new LifecycleHandler.Sleep(5)), container("second",
        new LifecycleHandler.Sleep(3)), plain("third")));
    runTo(4);
    assertThat(status(1).state().type()).isEqualTo(ContainerStateType.Waiting);
    assertThat(status(2).state().type()).isEqualTo(ContainerStateType.Waiting);
    runTo(7);
    // one SyncPod starts all three, waiting for each hook: its status, generated at 0, stays until it returns
    assertThat(status(0).state().type()).isEqualTo(ContainerStateType.Waiting);
    assertThat(status(1).state().type()).as("second's own hook runs until 8").isEqualTo(ContainerStateType.Waiting);
    assertThat(current().status().phase()).isEqualTo(PodPhase.Pending);
    runTo(8);
    assertThat(status(0).state().startedAt()).isEqualTo(t0);
    assertThat(status(1).state().startedAt()).isEqualTo(t0.plusSeconds(5));
    assertThat(status(2).state().startedAt()).isEqualTo(t0.plusSeconds(8));
  }

  @Test
  void containerStartedEarlierInTheSameSync_notShownWhileTheHookRuns() {
    start(pod(Map.of(), plain("first"), container("second", new LifecycleHandler.Sleep(5))));
    runTo(3);
    assertThat(status(0).state().type()).as("the status was generated before the sync started it")
        .isEqualTo(ContainerStateType.Waiting);
    assertThat(current().status().phase()).isEqualTo(PodPhase.Pending);
    runTo(5);
    assertThat(status(0).state().startedAt()).isEqualTo(t0);
    assertThat(status(1).state().startedAt()).isEqualTo(t0);
  }

  @Test
  void sidecarHook_holdsTheRegularContainers() {
    Container sidecar = Container.sidecar("proxy", "envoy", ResourceList.EMPTY)
        .withLifecycle(Lifecycle.postStart(new LifecycleHandler.Sleep(4)));
    start(pod(Map.of(), plain("web")).initContainer(sidecar));
    runTo(3);
    assertThat(current().status().initContainerStatuses().get(0).state().reason())
        .isEqualTo(PodRuntime.POD_INITIALIZING);
    assertThat(status(0).state().type()).isEqualTo(ContainerStateType.Waiting);
    runTo(4);
    assertThat(current().status().initContainerStatuses().get(0).state().startedAt()).isEqualTo(t0);
    assertThat(status(0).state().startedAt()).isEqualTo(t0.plusSeconds(4));
  }

  @Test
  void readinessProbe_firstRunsWhenTheHookReturned() {
    Probe readiness = Probe.builder(ProbeHandler.TcpSocket.of(80)).periodSeconds(10).build();
    Container c = container("web", new LifecycleHandler.Sleep(5)).withProbes(null, readiness, null);
    start(pod(Map.of(), c));
    runTo(5);
    assertThat(status(0).state().type()).isEqualTo(ContainerStateType.Running);
    assertThat(status(0).ready()).as("no probe ran yet: the worker ticks every 10 s from 0").isFalse();
    runTo(10);
    assertThat(status(0).ready()).isTrue();
  }

  @Test
  void livenessKillOfAnotherContainer_waitsForTheHook() {
    // "web" runs from 0; at 10 "job" restarts (exit after 10 s) and its hook runs 20 s; web's liveness fails at 15
    start(pod(Map.of(HealthSource.LIVENESS_FAILS_AFTER + ".web", "15", HealthSource.EXIT_AFTER + ".job", "10"),
        plain("web"), container("job", new LifecycleHandler.Sleep(20))));
    // job's first hook runs 0..20 (web started in that sync: shown from 20); job exits at 10, restarts at 20
    runTo(25);
    ContainerStatus web = status(0);
    assertThat(web.state().type()).as("web's kill at 15 waited for the hook until 20").isEqualTo(
        ContainerStateType.Terminated);
    assertThat(web.state().exitCode()).isEqualTo(ContainerScript.KILLED_EXIT_CODE);
    assertThat(web.state().finishedAt()).isEqualTo(t0.plusSeconds(20));
    assertThat(web.restartCount()).as("restarted at 20 by the sync that now waits for job's second hook").isZero();
    // the same again: web's second kill (due at 35) waits for job's second hook, which returns at 40
    runTo(40);
    web = status(0);
    assertThat(web.restartCount()).isEqualTo(1);
    assertThat(web.state().reason()).as("killed at 40, its restart backing off").isEqualTo(
        PodRuntime.CRASH_LOOP_BACK_OFF);
    assertThat(status(1).restartCount()).as("job exited at 30 and was restarted at 40").isEqualTo(1);
  }

  @Test
  void deletionDuringTheHook_abandonsIt() {
    start(pod(Map.of(), container("web", new LifecycleHandler.Sleep(25))));
    runTo(5);
    store.delete(Pod.class, "default", "foo");
    runTo(6);
    assertThat(store.get(Pod.class, "default", "foo")).as("SIGTERM at 5 ended the process at once").isEmpty();
  }

  @Test
  void processExitingDuringTheHook_restartedWhenTheHookReturns() {
    start(pod(Map.of(HealthSource.EXIT_AFTER, "3", HealthSource.EXIT_CODE, "1"),
        container("web", new LifecycleHandler.Sleep(8))));
    runTo(7);
    assertThat(status(0).restartCount()).isZero();
    runTo(8);
    ContainerStatus s = status(0);
    assertThat(s.state().type()).as("restarted at 8, its own hook hides it again").isEqualTo(ContainerStateType.Terminated);
    assertThat(s.state().exitCode()).isEqualTo(1);
    assertThat(s.state().finishedAt()).isEqualTo(t0.plusSeconds(3));
  }

  @Test
  void kubeletRestartDuringTheHook_showsTheContainerAtOnce() {
    start(pod(Map.of(), container("web", new LifecycleHandler.Sleep(20)), plain("side")));
    runTo(5);
    agent.restartKubelet();
    runTo(6);
    assertThat(status(0).state().startedAt()).as("the new kubelet does not run the hook again").isEqualTo(t0);
    assertThat(status(1).state().startedAt()).as("the new kubelet starts what the old sync had not")
        .isEqualTo(t0.plusSeconds(5));
  }
}
