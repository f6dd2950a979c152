package io.fleetkit.reconcile.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.ContainerStateType;
import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.Probe;
import io.fleetkit.api.core.ProbeHandler;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The simulated kubelet running declared probes on the simulated clock, answered from the annotation model. */
final class NodeAgentProbeTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final Instant t0 = clock.now();
  private final ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build();
  private NodeAgent agent;
  private int wakeUps;

  private static final Probe READINESS = Probe.of(ProbeHandler.HttpGet.of("/ready", 8080));
  private static final Probe LIVENESS = Probe.of(ProbeHandler.TcpSocket.of(8080));

  @AfterEach
  void close() {
    if (agent != null) {
      agent.close();
    }
    store.close();
  }

  private void create(RestartPolicy policy, Map<String, String> annotations, Container... containers) {
    store.create(Node.builder().name("n1").build());
    agent = NodeAgent.builder(store, clock, "n1").build();
    agent.start();
    Pod.Builder b = Pod.builder().namespace("default").name("p").restartPolicy(policy).nodeName("n1");
    for (Container c : containers) {
      b.container(c);
    }
    annotations.forEach(b::annotation);
    store.create(b.build());
    agent.sync();
  }

  private static Container web(@Nullable Probe liveness, @Nullable Probe readiness, @Nullable Probe startup) {
    return Container.of("web", "shop:1", ResourceList.EMPTY).withProbes(liveness, readiness, startup);
  }

  private Pod pod() {
    return store.require(Pod.class, "default", "p");
  }

  private ContainerStatus container() {
    return pod().status().containerStatuses().get(0);
  }

  private boolean podReady() {
    PodCondition c = pod().status().condition(PodCondition.READY);
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

  /** The first second in [from, to] at which {@code podReady()} equals {@code ready}; -1 if none. */
  private long firstSecond(long from, long to, boolean ready) {
    for (long s = from; s <= to; s++) {
      runTo(s);
      if (podReady() == ready) {
        return s;
      }
    }
    return -1;
  }

  @Test
  void readinessProbe_readyAtFirstPassingTick() {
    create(RestartPolicy.Always, Map.of(HealthSource.READY_AFTER, "15"), web(null, READINESS, null));
    assertThat(firstSecond(0, 60, true)).isEqualTo(20); // ticks at 0, 10, 20 (period 10)
    assertThat(pod().status().condition(PodCondition.READY).lastTransitionTime()).isEqualTo(t0.plusSeconds(20));
  }

  @Test
  void readinessProbe_failsAfter_unreadyAfterFailureThreshold() {
    create(RestartPolicy.Always, Map.of(HealthSource.READINESS_FAILS_AFTER, "60"), web(null, READINESS, null));
    runTo(1);
    assertThat(podReady()).isTrue();
    assertThat(firstSecond(1, 200, false)).isEqualTo(80); // failures at 60, 70, 80; threshold 3
    runTo(600);
    assertThat(podReady()).isFalse();
    assertThat(container().restartCount()).isZero(); // readiness never restarts
  }

  @Test
  void readinessShorthand_withoutProbe_exactTiming() {
    create(RestartPolicy.Always, Map.of(HealthSource.READINESS_FAILS_AFTER, "60"), web(null, null, null));
    assertThat(firstSecond(0, 200, false)).isEqualTo(60);
  }

  @Test
  void startupProbe_gatesReadiness() {
    Probe startup = Probe.builder(ProbeHandler.TcpSocket.of(8080)).periodSeconds(5).failureThreshold(30).build();
    create(RestartPolicy.Always, Map.of(HealthSource.STARTED_AFTER, "12"), web(null, READINESS, startup));
    runTo(14);
    assertThat(container().started()).isFalse();
    runTo(15); // startup ticks at 0, 5, 10, 15
    assertThat(container().started()).isTrue();
    assertThat(podReady()).isFalse(); // readiness skipped its ticks at 0 and 10
    assertThat(firstSecond(15, 60, true)).isEqualTo(20);
  }

  @Test
  void startupProbe_neverPasses_killedAndCrashLoops() {
    Probe startup = Probe.builder(ProbeHandler.TcpSocket.of(8080)).periodSeconds(10).failureThreshold(3).build();
    create(RestartPolicy.Always, Map.of(HealthSource.STARTED_AFTER, "never"), web(LIVENESS, READINESS, startup));
    runTo(19);
    assertThat(container().restartCount()).isZero();
    runTo(20); // failures at 0, 10, 20
    assertThat(container().restartCount()).isEqualTo(1);
    boolean sawBackOff = false;
    for (long s = 21; s <= 400; s++) {
      runTo(s);
      sawBackOff |= container().state().type() == ContainerStateType.Waiting
          && PodRuntime.CRASH_LOOP_BACK_OFF.equals(container().state().reason());
      assertThat(podReady()).isFalse();
    }
    assertThat(sawBackOff).isTrue();
    assertThat(container().restartCount()).isBetween(3, 10);
  }

  @Test
  void livenessProbe_failureThreshold_killsAndRestarts() {
    create(RestartPolicy.Always, Map.of(HealthSource.LIVENESS_FAILS_AFTER, "30"), web(LIVENESS, null, null));
    runTo(49);
    assertThat(container().restartCount()).isZero();
    runTo(50); // failures at 30, 40, 50
    assertThat(container().restartCount()).isEqualTo(1);
    assertThat(container().state().type()).isEqualTo(ContainerStateType.Running);
    assertThat(container().state().startedAt()).isEqualTo(t0.plusSeconds(50));
  }

  @Test
  void livenessProbe_neverRestartPolicy_podFailed_killedWithSigterm() {
    // the kubelet kills with the grace period: SIGTERM, which ends the default process at once (143)
    create(RestartPolicy.Never, Map.of(HealthSource.LIVENESS_FAILS_AFTER, "30"), web(LIVENESS, null, null));
    runTo(50);
    assertThat(pod().status().phase()).isEqualTo(io.fleetkit.api.core.PodPhase.Failed);
    assertThat(container().state().exitCode()).isEqualTo(ContainerScript.SIGTERM_EXIT_CODE);
    assertThat(container().state().finishedAt()).isEqualTo(t0.plusSeconds(50));
  }

  @Test
  void livenessProbe_processIgnoringSigterm_killedAfterTheProbesGracePeriod_thenRestarted() {
    Probe liveness = Probe.builder(ProbeHandler.TcpSocket.of(8080)).terminationGracePeriodSeconds(5L).build();
    create(RestartPolicy.Always, Map.of(HealthSource.LIVENESS_FAILS_AFTER, "30", HealthSource.STOP_AFTER, "never"),
        web(liveness, null, null));
    runTo(54); // failures at 30, 40, 50: SIGTERM at 50, ignored
    assertThat(container().restartCount()).isZero();
    assertThat(container().state().type()).isEqualTo(ContainerStateType.Running);
    runTo(55); // SIGKILL 5 s later (the probe's terminationGracePeriodSeconds), restarted at once
    assertThat(container().restartCount()).isEqualTo(1);
    assertThat(container().state().startedAt()).isEqualTo(t0.plusSeconds(55));
  }

  @Test
  void livenessProbe_processIgnoringSigterm_withoutProbeGracePeriod_killedAfterThePods() {
    create(RestartPolicy.Never, Map.of(HealthSource.LIVENESS_FAILS_AFTER, "30", HealthSource.STOP_AFTER, "never"),
        web(LIVENESS, null, null));
    runTo(79);
    assertThat(container().state().type()).isEqualTo(ContainerStateType.Running);
    runTo(80); // SIGTERM at 50, SIGKILL at the pod's 30 s
    assertThat(container().state().exitCode()).isEqualTo(ContainerScript.KILLED_EXIT_CODE);
    assertThat(container().state().finishedAt()).isEqualTo(t0.plusSeconds(80));
  }

  @Test
  void perContainerAnnotation_winsOverPodWide() {
    create(RestartPolicy.Always, Map.of(HealthSource.READY_AFTER, "5", HealthSource.READY_AFTER + ".slow", "30"),
        web(null, null, null), Container.of("slow", "shop:1", ResourceList.EMPTY));
    runTo(10);
    List<Boolean> ready = new ArrayList<>();
    for (ContainerStatus c : pod().status().containerStatuses()) {
      ready.add(c.ready());
    }
    assertThat(ready).containsExactly(true, false);
    assertThat(firstSecond(10, 60, true)).isEqualTo(30);
  }

  @Test
  void unhealthyImage_neverReady_livenessRestarts() {
    create(RestartPolicy.Always, Map.of(HealthSource.UNHEALTHY_IMAGES, "shop:0, shop:1"),
        web(LIVENESS, READINESS, null));
    runTo(300);
    assertThat(podReady()).isFalse();
    assertThat(container().restartCount()).isPositive();
  }

  @Test
  void healthyProbedPod_settledTicksAreSkipped() {
    Probe every7s = Probe.builder(ProbeHandler.TcpSocket.of(8080)).periodSeconds(7).build();
    create(RestartPolicy.Always, Map.of(), web(every7s, every7s, null));
    runTo(24 * 3600);
    assertThat(podReady()).isTrue();
    // heartbeats every 10 s make 8640 wake-ups a day; 7 s probe ticks (another 12342) are skipped once settled
    assertThat(wakeUps).isLessThan(8640 + 20);
  }

  @Test
  void badAnnotation_namesPodKeyAndRule() {
    store.create(Node.builder().name("n1").build());
    agent = NodeAgent.builder(store, clock, "n1").build();
    Pod p = Pod.builder().namespace("default").name("p").nodeName("n1").container(web(null, null, null))
        .annotation(HealthSource.STARTED_AFTER + ".web", "soon").build();
    assertThatThrownBy(() -> HealthSource.fromAnnotations().script(p, p.spec().containers().get(0), 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("default/p")
        .hasMessageContaining("simulate.fleetkit.io/started-after-seconds.web")
        .hasMessageContaining("\"soon\"")
        .hasMessageContaining("never");
  }
}
