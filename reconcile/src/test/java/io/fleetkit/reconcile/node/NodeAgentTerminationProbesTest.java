package io.fleetkit.reconcile.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.ContainerStateType;
import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.Lifecycle;
import io.fleetkit.api.core.LifecycleHandler;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.Probe;
import io.fleetkit.api.core.ProbeHandler;
import io.fleetkit.api.core.ProbeType;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.reconcile.probe.ProbeResult;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Probes while the simulated kubelet stops containers, as the kubelet runs them: when a pod terminates,
 * {@code SyncTerminatingPod} stops the liveness and startup workers ({@code StopLivenessAndStartup}) and the
 * readiness workers go on until the containers stopped, so the pod's {@code Ready} condition follows readiness
 * through the {@code preStop} hooks and the grace period; a container killed because its liveness probe failed is
 * probed for readiness until it exits too. What the application answers after the stop signal is its script's
 * ({@link HealthSource#READINESS_FAILS_AFTER_STOP}).
 */
final class NodeAgentTerminationProbesTest {
  private static final String FAILS_AFTER_STOP = HealthSource.READINESS_FAILS_AFTER_STOP;
  /** Probe.of's defaults: period 10 s, failure threshold 3, success threshold 1. */
  private static final Probe READINESS = Probe.of(ProbeHandler.HttpGet.of("/ready", 8080));
  private static final Probe LIVENESS = Probe.of(ProbeHandler.TcpSocket.of(8080));
  /** Probes off the node's 10 s heartbeat grid, so that their ticks show as wake-ups of their own. */
  private static final Probe READINESS_7S = Probe.builder(ProbeHandler.HttpGet.of("/ready", 8080)).periodSeconds(7)
      .build();
  private static final Probe LIVENESS_7S = Probe.builder(ProbeHandler.TcpSocket.of(8080)).periodSeconds(7).build();

  private final ManualClock clock = ManualClock.atEpoch2026();
  private final Instant t0 = clock.now();
  private final ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build();
  private NodeAgent agent;
  private int wakeUps;

  @AfterEach
  void close() {
    if (agent != null) {
      agent.close();
    }
    store.close();
  }

  private void create(long grace, Map<String, String> annotations, Container container) {
    store.create(Node.builder().name("n1").build());
    agent = NodeAgent.builder(store, clock, "n1").build();
    agent.start();
    Pod.Builder b = Pod.builder().namespace("default").name("p").restartPolicy(RestartPolicy.Always).nodeName("n1")
        .terminationGracePeriodSeconds(grace).container(container);
    annotations.forEach(b::annotation);
    store.create(b.build());
    agent.sync();
  }

  private static Container web(@Nullable Probe liveness, @Nullable Probe readiness, @Nullable Probe startup,
      long preStopSleep) {
    Container c = Container.of("web", "shop:1", ResourceList.EMPTY).withProbes(liveness, readiness, startup);
    return preStopSleep > 0 ? c.withLifecycle(Lifecycle.preStop(new LifecycleHandler.Sleep(preStopSleep))) : c;
  }

  private Optional<Pod> pod() {
    return store.get(Pod.class, "default", "p");
  }

  private ContainerStatus container() {
    return pod().orElseThrow().status().containerStatuses().get(0);
  }

  private boolean podReady() {
    PodCondition c = pod().orElseThrow().status().condition(PodCondition.READY);
    return c != null && c.status() == ConditionStatus.True;
  }

  private void runTo(long seconds) {
    Instant target = t0.plusSeconds(seconds);
    agent.sync();
    while (clock.now().isBefore(target)) {
      Instant next = clock.nextDeadline().filter(d -> d.isBefore(target)).orElse(target);
      clock.advanceTo(next);
      wakeUps++;
      agent.sync();
    }
  }

  private void delete() {
    store.delete(Pod.class, "default", "p");
    agent.sync();
  }

  /** The first second in [from, to] at which the pod's Ready condition equals {@code ready}; -1 if none. */
  private long firstSecond(long from, long to, boolean ready) {
    for (long s = from; s <= to; s++) {
      runTo(s);
      if (podReady() == ready) {
        return s;
      }
    }
    return -1;
  }

  // prober_manager_test.go (0411cc704533ed25a1bfc6e21a3195d9c6a2f0f2) TestStopLivenessAndStartup: a pod with a
  // sidecar and a container, each with startup, liveness and readiness probes; termination stops the liveness and
  // startup workers of both, the readiness workers remain; once the containers stopped (RemovePod) none is left
  @Test
  void stopLivenessAndStartup_sidecarAndContainer_readinessRemainsUntilTheyStop() {
    Probe every1s = Probe.builder(ProbeHandler.TcpSocket.of(8080)).periodSeconds(1).failureThreshold(3).build();
    Pod pod = Pod.builder().namespace("default").name("stop-probe-pod").restartPolicy(RestartPolicy.Always)
        .nodeName("n1").terminationGracePeriodSeconds(30).annotation(HealthSource.STOP_AFTER, "5")
        .annotation(HealthSource.STOP_AFTER + ".sidecar", "5")
        .initContainer("regular-init", "busybox", ResourceList.EMPTY)
        .initContainer(Container.sidecar("sidecar", "proxy:1", ResourceList.EMPTY)
            .withProbes(every1s, every1s, every1s))
        .container(Container.of("main", "shop:1", ResourceList.EMPTY).withProbes(every1s, every1s, every1s)).build();
    PodRuntime r = new PodRuntime(pod, t0);
    RestartBackoff backoff = RestartBackoff.kubelet(clock::now);
    Instant now = advanceTo(r, t0, t0.plusSeconds(10), backoff);
    PodRuntime.ContainerRun sidecar = r.inits.get(1);
    PodRuntime.ContainerRun main = r.containers.get(0);
    for (PodRuntime.ContainerRun c : List.of(sidecar, main)) {
      assertThat(c.running()).isTrue();
      for (ProbeType t : ProbeType.values()) {
        assertThat(c.probes.worker(t).stopped()).as(c.spec.name() + " " + t + " before").isFalse();
      }
    }

    r.killForDeletion(now, 30);

    for (PodRuntime.ContainerRun c : List.of(sidecar, main)) {
      assertThat(c.probes.worker(ProbeType.Startup).stopped()).as(c.spec.name() + " startup").isTrue();
      assertThat(c.probes.worker(ProbeType.Liveness).stopped()).as(c.spec.name() + " liveness").isTrue();
      assertThat(c.probes.worker(ProbeType.Readiness).stopped()).as(c.spec.name() + " readiness").isFalse();
    }
    now = advanceTo(r, now, now.plusSeconds(60), backoff);
    assertThat(r.finished()).isTrue();
    for (PodRuntime.ContainerRun c : List.of(sidecar, main)) {
      assertThat(c.running()).isFalse();
      assertThat(c.tickAt()).as(c.spec.name() + ": no worker ticks once it stopped").isNull();
    }
  }

  /** Runs {@code r}'s events from {@code from} to {@code to} as the agent's timers would; returns {@code to}. */
  private static Instant advanceTo(PodRuntime r, Instant from, Instant to, RestartBackoff backoff) {
    Instant now = from;
    r.advance(now, HealthSource.fromAnnotations(), backoff);
    for (Instant next = r.nextEvent(now); next != null && !next.isAfter(to); next = r.nextEvent(now)) {
      now = next;
      r.advance(now, HealthSource.fromAnnotations(), backoff);
    }
    r.advance(to, HealthSource.fromAnnotations(), backoff);
    return to;
  }

  @Test
  void readinessFailingDuringPreStop_podTurnsUnreadyWhileTerminating() {
    // readiness ticks at 0, 10, 20...; the answers fail from 30 on; the preStop sleep runs from 20 to 60
    create(90, Map.of(HealthSource.READINESS_FAILS_AFTER, "30"), web(null, READINESS, null, 40));
    runTo(20);
    assertThat(podReady()).isTrue();
    delete();
    runTo(49);
    assertThat(pod().orElseThrow().metadata().deletionTimestamp()).isNotNull();
    assertThat(podReady()).as("two failures of three").isTrue();
    runTo(50);
    assertThat(podReady()).as("failures at 30, 40 and 50").isFalse();
    assertThat(container().ready()).isFalse();
    assertThat(container().state().type()).as("the preStop hook still runs").isEqualTo(ContainerStateType.Running);
    assertThat(pod().orElseThrow().status().condition(PodCondition.READY).lastTransitionTime())
        .isEqualTo(t0.plusSeconds(50));
    runTo(60);
    assertThat(pod()).as("SIGTERM after the hook ends the default process at once").isEmpty();
  }

  @Test
  void readinessPassingDuringPreStop_podStaysReadyUntilItsContainerExits() {
    create(90, Map.of(), web(null, READINESS, null, 40));
    runTo(20);
    delete();
    runTo(59);
    assertThat(podReady()).as("serving while terminating").isTrue();
    assertThat(container().ready()).isTrue();
    runTo(60);
    assertThat(pod()).isEmpty();
  }

  @Test
  void livenessFailingDuringPreStop_noKill_theContainerGetsSigtermAfterTheHook() {
    // liveness answers fail from 25: failures at 30, 40 and 50 would kill a container that is not terminating
    create(90, Map.of(HealthSource.LIVENESS_FAILS_AFTER, "25", HealthSource.STOP_AFTER, "20"),
        web(LIVENESS, null, null, 40));
    runTo(5);
    delete();
    runTo(64);
    assertThat(container().state().type()).as("running through the hook and its own 20 s shutdown")
        .isEqualTo(ContainerStateType.Running);
    assertThat(container().restartCount()).isZero();
    List<Pod> last = lastStates();
    runTo(65);
    assertThat(pod()).isEmpty();
    ContainerStatus web = last.get(last.size() - 1).status().containerStatuses().get(0);
    assertThat(web.state().exitCode()).isEqualTo(ContainerScript.SIGTERM_EXIT_CODE);
    assertThat(web.state().finishedAt()).as("SIGTERM at 45, exit 20 s later").isEqualTo(t0.plusSeconds(65));
  }

  private List<Pod> lastStates() {
    List<Pod> seen = new java.util.ArrayList<>();
    store.watch(Pod.class, "", e -> seen.add(e.object()));
    return seen;
  }

  @Test
  void startupNotPassedAtDeletion_neverStarts_readinessNotProbed() {
    Probe startup = Probe.builder(ProbeHandler.TcpSocket.of(8080)).periodSeconds(5).failureThreshold(30).build();
    create(90, Map.of(HealthSource.STARTED_AFTER, "20"), web(null, READINESS_7S, startup, 30));
    runTo(7);
    assertThat(container().started()).isFalse();
    delete();
    int before = wakeUps;
    runTo(36);
    assertThat(container().started()).as("the startup worker was stopped before it saw the start").isFalse();
    assertThat(container().ready()).isFalse();
    assertThat(podReady()).isFalse();
    // heartbeats at 10, 20 and 30, then the run to 36; readiness (ticks at 14, 21, 28, 35) waits for no start
    assertThat(wakeUps - before).as("no probe tick while nothing can change").isEqualTo(4);
    runTo(37);
    assertThat(pod()).isEmpty();
  }

  @Test
  void startedAtDeletion_staysStarted_readinessProbedOn() {
    Probe startup = Probe.builder(ProbeHandler.TcpSocket.of(8080)).periodSeconds(5).failureThreshold(30).build();
    create(90, Map.of(HealthSource.STARTED_AFTER, "3", HealthSource.READINESS_FAILS_AFTER, "30"),
        web(null, READINESS, startup, 40));
    runTo(12);
    assertThat(container().started()).isTrue();
    assertThat(podReady()).as("readiness passed at 10").isTrue();
    delete();
    runTo(49);
    assertThat(container().started()).isTrue();
    assertThat(podReady()).isTrue();
    runTo(50);
    assertThat(podReady()).as("failures at 30, 40, 50").isFalse();
  }

  @Test
  void appTurningUnreadyOnSigterm_unreadyAfterTheFailureThreshold_beforeItExits() {
    // preStop sleep 5 to 15, SIGTERM at 15, readiness failures at 20, 30, 40, exit at 75
    create(90, Map.of(FAILS_AFTER_STOP, "0", HealthSource.STOP_AFTER, "60"), web(null, READINESS, null, 10));
    runTo(5);
    delete();
    assertThat(firstSecond(5, 80, false)).isEqualTo(40);
    assertThat(container().state().type()).isEqualTo(ContainerStateType.Running);
    runTo(74);
    assertThat(pod()).isPresent();
    runTo(75);
    assertThat(pod()).isEmpty();
  }

  @Test
  void appTurningUnreadyAfterSigterm_delayCounts() {
    create(90, Map.of(FAILS_AFTER_STOP, "10", HealthSource.STOP_AFTER, "60"), web(null, READINESS, null, 10));
    runTo(5);
    delete();
    assertThat(firstSecond(5, 80, false)).as("SIGTERM at 15, failing from 25: failures at 30, 40, 50").isEqualTo(50);
  }

  @Test
  void appTurningUnreadyOnSigterm_withoutReadinessProbe_exactTiming() {
    create(90, Map.of(FAILS_AFTER_STOP, "3", HealthSource.STOP_AFTER, "30"), web(null, null, null, 10));
    runTo(5);
    delete();
    assertThat(firstSecond(5, 40, false)).as("SIGTERM at 15, unready 3 s later").isEqualTo(18);
    assertThat(container().state().type()).isEqualTo(ContainerStateType.Running);
  }

  @Test
  void shutdownAnnotation_afterAParkedReadinessWorker_probedAgainFromTheStop() {
    // readiness passes for good from 0: its worker is parked long before the deletion at 1000
    create(90, Map.of(FAILS_AFTER_STOP, "0", HealthSource.STOP_AFTER, "60"), web(null, READINESS, null, 0));
    runTo(1000);
    assertThat(podReady()).isTrue();
    delete();
    assertThat(firstSecond(1000, 1100, false)).as("SIGTERM at 1000: failures at 1010, 1020, 1030").isEqualTo(1030);
  }

  @Test
  void livenessKill_readinessProbedUntilTheProcessExits_noSecondKill() {
    // liveness failures at 20, 30, 40 kill the container: SIGTERM at 40, its handler takes 45 s (exit at 85)
    create(90, Map.of(HealthSource.LIVENESS_FAILS_AFTER, "15", HealthSource.STOP_AFTER, "45", FAILS_AFTER_STOP, "0"),
        web(LIVENESS, READINESS, null, 0));
    runTo(39);
    assertThat(podReady()).isTrue();
    // the readiness tick at 40 came with the liveness tick that killed: its answer was still a success
    assertThat(firstSecond(40, 84, false)).as("failures at 50, 60, 70").isEqualTo(70);
    runTo(84);
    assertThat(container().restartCount()).as("killed once: the kill under way is not restarted").isZero();
    assertThat(container().state().type()).isEqualTo(ContainerStateType.Running);
    runTo(85);
    assertThat(container().restartCount()).isEqualTo(1);
  }

  @Test
  void longTermination_constantAnswers_fewWakeUps() {
    create(4000, Map.of(), web(LIVENESS_7S, READINESS_7S, null, 3000));
    runTo(20);
    delete();
    int before = wakeUps;
    runTo(3019);
    assertThat(pod()).isPresent();
    assertThat(podReady()).isTrue();
    // 300 heartbeats (every 10 s) and the run to 3019; the 7 s readiness ticks (428 more) are skipped once settled
    assertThat(wakeUps - before).as("settled workers do not tick through the hook").isLessThanOrEqualTo(301);
    runTo(3020);
    assertThat(pod()).isEmpty();
  }

  @Test
  void badAnnotation_clearErrorNamingPodKeyAndRule() {
    Pod p = Pod.builder().namespace("default").name("p").annotation(FAILS_AFTER_STOP + ".web", "soon")
        .container("web", "shop:1", ResourceList.EMPTY).build();
    assertThatThrownBy(() -> HealthSource.fromAnnotations().script(p, p.spec().containers().get(0), 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("pod default/p: annotation " + FAILS_AFTER_STOP + ".web \"soon\" must be a non-negative integer");
    Pod negative = Pod.builder().namespace("default").name("p").annotation(FAILS_AFTER_STOP, "-1")
        .container("web", "shop:1", ResourceList.EMPTY).build();
    assertThatThrownBy(() -> HealthSource.fromAnnotations().script(negative, negative.spec().containers().get(0), 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("pod default/p: annotation " + FAILS_AFTER_STOP + " \"-1\" must be a non-negative integer");
    assertThatThrownBy(() -> ContainerScript.healthy().withReadinessFailsAfterStop(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("readinessFailsAfterStop");
  }

  @Test
  void annotation_readPerContainer_defaultNull() {
    Pod p = Pod.builder().namespace("default").name("p").annotation(FAILS_AFTER_STOP, "4")
        .annotation(FAILS_AFTER_STOP + ".b", "7").container("a", "shop:1", ResourceList.EMPTY)
        .container("b", "shop:1", ResourceList.EMPTY).build();
    assertThat(HealthSource.fromAnnotations().script(p, p.spec().containers().get(0), 0).readinessFailsAfterStop())
        .isEqualTo(Duration.ofSeconds(4));
    assertThat(HealthSource.fromAnnotations().script(p, p.spec().containers().get(1), 0).readinessFailsAfterStop())
        .isEqualTo(Duration.ofSeconds(7));
    assertThat(ContainerScript.healthy().readinessFailsAfterStop()).isNull();
    ContainerScript s = ContainerScript.healthy().withReadinessFailsAfterStop(Duration.ofSeconds(5));
    Duration signalled = Duration.ofSeconds(100);
    assertThat(s.answerAt(ProbeType.Readiness, Duration.ofSeconds(104), signalled)).isEqualTo(ProbeResult.Success);
    assertThat(s.answerAt(ProbeType.Readiness, Duration.ofSeconds(105), signalled)).isEqualTo(ProbeResult.Failure);
    assertThat(s.answerAt(ProbeType.Liveness, Duration.ofSeconds(105), signalled)).isEqualTo(ProbeResult.Success);
    assertThat(s.nextChange(ProbeType.Readiness, Duration.ofSeconds(50), signalled)).isEqualTo(Duration.ofSeconds(105));
    assertThat(s.nextChange(ProbeType.Readiness, Duration.ofSeconds(50), null)).isNull();
    assertThat(s.nextChange(ProbeType.Readiness, Duration.ofSeconds(105), signalled)).isNull();
    ContainerScript neverReady = ContainerScript.readyAfter(Duration.ofSeconds(500)).withReadinessFailsAfterStop(
        Duration.ZERO);
    assertThat(neverReady.nextChange(ProbeType.Readiness, Duration.ofSeconds(50), signalled))
        .as("not ready when the signal comes, and never after it").isNull();
  }
}
