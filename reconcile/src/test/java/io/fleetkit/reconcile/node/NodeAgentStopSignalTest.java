package io.fleetkit.reconcile.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.ContainerStateType;
import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.Lifecycle;
import io.fleetkit.api.core.LifecycleHandler;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodOS;
import io.fleetkit.api.core.Probe;
import io.fleetkit.api.core.ProbeHandler;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.core.Signal;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.WatchEvent;
import io.fleetkit.api.time.ManualClock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The simulated kubelet stops a container with its {@code lifecycle.stopSignal} instead of SIGTERM (KEP-4960: the
 * kubelet passes the signal to the runtime, whose {@code StopContainer} sends it, then SIGKILL when the grace period
 * runs out) and reports it as {@code containerStatuses[].stopSignal}. A process without a handler of its own that the
 * signal ends reports 128 + its number; one the signal does not end by default (SIGCHLD, SIGSTOP, ...) runs until
 * SIGKILL; SIGKILL itself ends it at once. FleetKit's own cases: upstream tests this end to end (e2e_node).
 */
final class NodeAgentStopSignalTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final Instant t0 = clock.now();
  private final ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build();
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
    agent = NodeAgent.builder(store, clock, "n1").build();
    agent.start();
    store.watch(Pod.class, "", (WatchEvent<Pod> e) -> seen.add(e.object()));
    store.create(pod.build());
    agent.sync();
  }

  private static Pod.Builder pod(@Nullable Signal signal, Map<String, String> annotations) {
    Container c = Container.of("app", "busybox", ResourceList.EMPTY)
        .withLifecycle(signal == null ? null : Lifecycle.stopSignal(signal));
    Pod.Builder b = Pod.builder().namespace("default").name("foo").nodeName("n1").os(PodOS.LINUX)
        .terminationGracePeriodSeconds(30).container(c);
    annotations.forEach(b::annotation);
    return b;
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

  private ContainerStatus current() {
    return store.get(Pod.class, "default", "foo").orElseThrow().status().containerStatuses().get(0);
  }

  /** Deletes the pod at 10 and returns the last status its container had (the pod is gone once it exited). */
  private ContainerStatus deletedAt10() {
    runTo(10);
    store.delete(Pod.class, "default", "foo");
    runTo(60);
    assertThat(store.get(Pod.class, "default", "foo")).isEmpty();
    ContainerStatus last = seen.get(seen.size() - 1).status().containerStatuses().get(0);
    assertThat(last.state().type()).isEqualTo(ContainerStateType.Terminated);
    return last;
  }

  @ParameterizedTest(name = "{0}: exit {1} at {2}")
  @CsvSource({
      "SIGTERM, 143, 10",
      "SIGQUIT, 131, 10",
      "SIGINT, 130, 10",
      "SIGUSR1, 138, 10",
      "SIGRTMIN+1, 163, 10",
      "SIGKILL, 137, 10",
      "SIGCHLD, 137, 40", // ignored by default: SIGKILL when the 30 s run out
      "SIGWINCH, 137, 40",
      "SIGSTOP, 137, 40"})
  void deletion_stopsWithTheSignal(String name, int exitCode, long finishedAt) {
    start(pod(Signal.of(name), Map.of()));
    ContainerStatus last = deletedAt10();
    assertThat(last.state().exitCode()).isEqualTo(exitCode);
    assertThat(last.state().finishedAt()).isEqualTo(t0.plusSeconds(finishedAt));
    assertThat(last.stopSignal()).isEqualTo(name);
  }

  @Test
  void handlerTakingFiveSeconds_exitsWithTheSignalsCode() {
    start(pod(Signal.SIGINT, Map.of(HealthSource.STOP_AFTER, "5")));
    ContainerStatus last = deletedAt10();
    assertThat(last.state().finishedAt()).isEqualTo(t0.plusSeconds(15));
    assertThat(last.state().exitCode()).isEqualTo(130);
  }

  @Test
  void handlerWithItsOwnExitCode_keepsIt() {
    start(pod(Signal.SIGQUIT, Map.of(HealthSource.STOP_AFTER, "2", HealthSource.STOP_EXIT_CODE, "0")));
    ContainerStatus last = deletedAt10();
    assertThat(last.state().exitCode()).isZero();
  }

  @Test
  void handlerOfASignalIgnoredByDefault_stillExits() {
    // a process that handles SIGWINCH (its script answers the stop signal after 3 s) exits then
    start(pod(Signal.SIGWINCH, Map.of(HealthSource.STOP_AFTER, "3")));
    ContainerStatus last = deletedAt10();
    assertThat(last.state().finishedAt()).isEqualTo(t0.plusSeconds(13));
    assertThat(last.state().exitCode()).isEqualTo(128 + 28);
  }

  @Test
  void sigkill_endsEvenAProcessWithAHandler() {
    start(pod(Signal.SIGKILL, Map.of(HealthSource.STOP_AFTER, "20", HealthSource.STOP_EXIT_CODE, "0")));
    ContainerStatus last = deletedAt10();
    assertThat(last.state().finishedAt()).isEqualTo(t0.plusSeconds(10));
    assertThat(last.state().exitCode()).isEqualTo(137);
  }

  @Test
  void preStopHook_thenTheSignal() {
    Container c = Container.of("app", "busybox", ResourceList.EMPTY)
        .withLifecycle(new Lifecycle(null, new LifecycleHandler.Sleep(4), "SIGQUIT"));
    start(Pod.builder().namespace("default").name("foo").nodeName("n1").os(PodOS.LINUX).container(c));
    ContainerStatus last = deletedAt10();
    assertThat(last.state().finishedAt()).isEqualTo(t0.plusSeconds(14));
    assertThat(last.state().exitCode()).isEqualTo(131);
  }

  @Test
  void livenessKill_usesTheSignal() {
    Probe liveness = Probe.builder(ProbeHandler.TcpSocket.of(80)).periodSeconds(1).failureThreshold(1).build();
    Container c = Container.of("app", "busybox", ResourceList.EMPTY).withProbes(liveness, null, null)
        .withLifecycle(Lifecycle.stopSignal(Signal.SIGQUIT));
    start(Pod.builder().namespace("default").name("foo").nodeName("n1").os(PodOS.LINUX)
        .restartPolicy(RestartPolicy.Never).annotation(HealthSource.LIVENESS_FAILS_AFTER, "5").container(c));
    runTo(10);
    assertThat(current().state().type()).isEqualTo(ContainerStateType.Terminated);
    assertThat(current().state().exitCode()).isEqualTo(131);
    assertThat(current().stopSignal()).isEqualTo("SIGQUIT");
  }

  @Test
  void status_reportsSigtermByDefault_andNothingBeforeTheStart() {
    Container sidecar = Container.sidecar("proxy", "envoy", ResourceList.EMPTY)
        .withLifecycle(new Lifecycle(new LifecycleHandler.Sleep(5), null, "SIGUSR2"));
    start(pod(null, Map.of()).initContainer(sidecar));
    runTo(2);
    Pod p = store.get(Pod.class, "default", "foo").orElseThrow();
    assertThat(p.status().containerStatuses().get(0).stopSignal()).as("not started yet").isNull();
    assertThat(p.status().initContainerStatuses().get(0).stopSignal()).as("its postStart hook hides it").isNull();
    runTo(5);
    p = store.get(Pod.class, "default", "foo").orElseThrow();
    assertThat(p.status().initContainerStatuses().get(0).stopSignal()).isEqualTo("SIGUSR2");
    assertThat(p.status().containerStatuses().get(0).stopSignal()).isEqualTo("SIGTERM");
  }

  @Test
  void sidecar_stoppedWithItsSignal_whenTheMainContainerIsDone() {
    Container sidecar = Container.sidecar("proxy", "envoy", ResourceList.EMPTY)
        .withLifecycle(Lifecycle.stopSignal(Signal.SIGQUIT));
    start(pod(null, Map.of(HealthSource.EXIT_AFTER + ".app", "5")).restartPolicy(RestartPolicy.Never)
        .initContainer(sidecar));
    runTo(6);
    ContainerStatus s = store.get(Pod.class, "default", "foo").orElseThrow().status().initContainerStatuses()
        .get(0);
    assertThat(s.state().type()).isEqualTo(ContainerStateType.Terminated);
    assertThat(s.state().exitCode()).isEqualTo(131);
  }
}
