package io.fleetkit.reconcile.probe;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.ContainerStateType;
import io.fleetkit.api.core.Probe;
import io.fleetkit.api.core.ProbeHandler;
import io.fleetkit.api.core.ProbeType;
import io.fleetkit.api.resource.ResourceList;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

final class ContainerProbesTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final Probe DEFAULT = Probe.of(ProbeHandler.TcpSocket.of(8080));

  private static ContainerProbes probes(String name, @Nullable Probe liveness, @Nullable Probe readiness,
      @Nullable Probe startup) {
    return new ContainerProbes(Container.of(name, "img", ResourceList.EMPTY).withProbes(liveness, readiness,
        startup), T0);
  }

  // prober_manager_test.go TestUpdatePodStatus: seven containers, their workers and cached results
  @Test
  void updatePodStatus_readinessPerContainer() {
    String run = "id";
    ContainerStateType running = ContainerStateType.Running;
    ContainerProbes unprobed = probes("unprobed", DEFAULT, null, null);
    ContainerProbes probedReady = probes("probed_ready", null, DEFAULT, null);
    probedReady.worker(ProbeType.Readiness).setResult(run, ProbeResult.Success);
    ContainerProbes probedPending = probes("probed_pending", null, DEFAULT, null);
    ContainerProbes probedUnready = probes("probed_unready", null, DEFAULT, null);
    probedUnready.worker(ProbeType.Readiness).setResult(run, ProbeResult.Failure);
    ContainerProbes notStartedNoReadiness = probes("not_started_no_readiness", null, null, DEFAULT);
    ContainerProbes startedNoReadiness = probes("started_no_readiness", null, null, DEFAULT);
    startedNoReadiness.worker(ProbeType.Startup).setResult(run, ProbeResult.Success);
    ContainerProbes terminated = probes("terminated", null, DEFAULT, null);
    terminated.worker(ProbeType.Readiness).setResult(run, ProbeResult.Success);

    assertThat(unprobed.ready(running, run)).isTrue();
    assertThat(probedReady.ready(running, run)).isTrue();
    assertThat(probedPending.ready(running, run)).isFalse();
    assertThat(probedUnready.ready(running, run)).isFalse();
    assertThat(notStartedNoReadiness.ready(running, run)).isFalse();
    assertThat(startedNoReadiness.ready(running, run)).isTrue();
    assertThat(terminated.ready(ContainerStateType.Terminated, run)).isFalse();
  }

  // prober_manager_test.go TestUpdatePodStatusWithInitContainers, case "init container with Always restartPolicy"
  // (sidecars follow the regular containers' rules)
  @Test
  void updatePodStatus_restartableInitContainers() {
    String run = "id";
    ContainerProbes notStarted = probes("not_started", null, null, DEFAULT);
    ContainerProbes started = probes("started", null, null, DEFAULT);
    started.worker(ProbeType.Startup).setResult(run, ProbeResult.Success);
    ContainerProbes terminated = probes("terminated", null, null, null);
    assertThat(notStarted.started(ContainerStateType.Running, run)).isFalse();
    assertThat(started.started(ContainerStateType.Running, run)).isTrue();
    assertThat(terminated.started(ContainerStateType.Terminated, run)).isFalse();
    assertThat(notStarted.ready(ContainerStateType.Running, run)).isFalse();
    assertThat(started.ready(ContainerStateType.Running, run)).isTrue();
    assertThat(terminated.ready(ContainerStateType.Terminated, run)).isFalse();
  }

  // prober_manager_test.go TestUpdatePodStatusWithInitContainers, case "init containers" (regular init containers:
  // started as for any container, ready once terminated with exit code 0, whatever a probe says)
  @Test
  void updatePodStatus_initContainers() {
    String run = "id";
    ContainerProbes notStarted = probes("not_started", null, null, DEFAULT);
    ContainerProbes started = probes("started", null, null, DEFAULT);
    started.worker(ProbeType.Startup).setResult(run, ProbeResult.Success);
    ContainerProbes terminated = probes("terminated", null, null, null);
    assertThat(notStarted.started(ContainerStateType.Running, run)).isFalse();
    assertThat(started.started(ContainerStateType.Running, run)).isTrue();
    assertThat(terminated.started(ContainerStateType.Terminated, run)).isFalse();
    assertThat(ContainerProbes.initContainerReady(ContainerStateType.Running, null)).isFalse();
    assertThat(ContainerProbes.initContainerReady(ContainerStateType.Waiting, null)).isFalse();
    assertThat(ContainerProbes.initContainerReady(ContainerStateType.Terminated, 0)).isTrue();
    // secondary: a failed init container is not ready
    assertThat(ContainerProbes.initContainerReady(ContainerStateType.Terminated, 1)).isFalse();
  }

  @Test
  void resultOfAnotherInstance_doesNotCount() {
    ContainerProbes p = probes("c", null, DEFAULT, null);
    p.worker(ProbeType.Readiness).setResult("old", ProbeResult.Success);
    assertThat(p.ready(ContainerStateType.Running, "new")).isFalse();
  }

  // prober_manager_test.go TestUpdateReadiness, on the simulated clock: ready after a success, unready after the
  // prober starts failing (failureThreshold 3 at period 10 s)
  @Test
  void tick_readinessFollowsProber() {
    ContainerProbes p = probes("c", null, DEFAULT, null);
    boolean[] healthy = {true};
    ProbeRunner runner = (type, probe, target) -> healthy[0] ? ProbeOutcome.success() : ProbeOutcome.failure();
    ContainerView view = ContainerView.running("id", T0, true);
    assertThat(p.nextTick()).isEqualTo(T0);
    p.tick(T0, view, runner, ProbeTarget.of(""));
    assertThat(p.ready(ContainerStateType.Running, "id")).isTrue();
    assertThat(p.nextTick()).isEqualTo(T0.plusSeconds(10));
    healthy[0] = false;
    List<Boolean> seen = new ArrayList<>();
    for (int i = 1; i <= 3; i++) {
      p.tick(p.nextTick(), view, runner, ProbeTarget.of(""));
      seen.add(p.ready(ContainerStateType.Running, "id"));
    }
    assertThat(seen).containsExactly(true, true, false);
  }

  @Test
  void startupGatesLivenessAndReadiness_thenKillVerdictOnLivenessFailure() {
    Probe startup = Probe.builder(ProbeHandler.TcpSocket.of(1)).periodSeconds(5).failureThreshold(10).build();
    Probe liveness = Probe.builder(ProbeHandler.TcpSocket.of(1)).failureThreshold(1).build();
    ContainerProbes p = probes("c", liveness, DEFAULT, startup);
    List<ProbeType> asked = new ArrayList<>();
    ProbeRunner runner = (type, probe, target) -> {
      asked.add(type);
      return type == ProbeType.Liveness ? ProbeOutcome.failure() : ProbeOutcome.success();
    };
    ContainerView view = ContainerView.running("id", T0, false);
    p.tick(T0, view, runner, ProbeTarget.of(""));
    assertThat(asked).containsExactly(ProbeType.Startup);
    assertThat(p.started(ContainerStateType.Running, "id")).isTrue();
    assertThat(p.killVerdict("id")).isNull();
    p.tick(T0.plusSeconds(10), view, runner, ProbeTarget.of(""));
    assertThat(asked).containsExactly(ProbeType.Startup, ProbeType.Liveness, ProbeType.Readiness);
    assertThat(p.killVerdict("id")).isEqualTo(ProbeType.Liveness);
  }

  @Test
  void skipTo_movesToNextGridPoint() {
    ContainerProbes p = probes("c", null, DEFAULT, null);
    p.skipTo(ProbeType.Readiness, T0.plusSeconds(25));
    assertThat(p.nextTick(ProbeType.Readiness)).isEqualTo(T0.plusSeconds(30));
    p.skipTo(ProbeType.Readiness, T0.plusSeconds(30));
    assertThat(p.nextTick(ProbeType.Readiness)).isEqualTo(T0.plusSeconds(30));
  }

  @Test
  void resumeFrom_movesToTheGridPointAtOrAfter_earlierOrLater() {
    ContainerProbes p = probes("c", null, DEFAULT, null);
    p.skipTo(ProbeType.Readiness, T0.plusSeconds(95));
    assertThat(p.nextTick(ProbeType.Readiness)).isEqualTo(T0.plusSeconds(100));
    p.resumeFrom(ProbeType.Readiness, T0.plusSeconds(41));
    assertThat(p.nextTick(ProbeType.Readiness)).as("back onto the grid").isEqualTo(T0.plusSeconds(50));
    p.resumeFrom(ProbeType.Readiness, T0.plusSeconds(50));
    assertThat(p.nextTick(ProbeType.Readiness)).isEqualTo(T0.plusSeconds(50));
    p.resumeFrom(ProbeType.Readiness, T0.plusSeconds(50).plusNanos(1));
    assertThat(p.nextTick(ProbeType.Readiness)).as("forward, past a stale tick").isEqualTo(T0.plusSeconds(60));
    p.resumeFrom(ProbeType.Readiness, T0.plusSeconds(200));
    assertThat(p.nextTick(ProbeType.Readiness)).isEqualTo(T0.plusSeconds(200));
  }

  // prober_manager_test.go (0411cc704533ed25a1bfc6e21a3195d9c6a2f0f2) TestStopLivenessAndStartup, per container:
  // the liveness and startup workers stop, the readiness worker goes on (until the containers stopped: RemovePod,
  // which in the simulated kubelet is the end of the run, NodeAgentTerminationProbesTest)
  @Test
  void stopLivenessAndStartup_readinessGoesOn() {
    Probe every1s = Probe.builder(new ProbeHandler.Exec(List.of("true"))).periodSeconds(1).failureThreshold(3).build();
    ContainerProbes p = probes("main", every1s, every1s, every1s);
    ProbeRunner ok = (type, probe, target) -> ProbeOutcome.success();
    p.tick(T0, ContainerView.running("id", T0, false), ok, ProbeTarget.of(""));
    assertThat(p.started(ContainerStateType.Running, "id")).isTrue();

    p.stopLivenessAndStartup();

    assertThat(p.worker(ProbeType.Liveness).stopped()).isTrue();
    assertThat(p.worker(ProbeType.Startup).stopped()).isTrue();
    assertThat(p.worker(ProbeType.Readiness).stopped()).isFalse();
    assertThat(p.nextTick(ProbeType.Liveness)).isNull();
    assertThat(p.nextTick(ProbeType.Startup)).isNull();
    assertThat(p.nextTick()).isEqualTo(T0.plusSeconds(1));
    // secondary: the liveness result went with its worker; started stays what the status showed
    assertThat(p.result(ProbeType.Liveness, "id")).isNull();
    assertThat(p.started(ContainerStateType.Running, "id")).isTrue();
    List<ProbeType> asked = new ArrayList<>();
    p.tick(T0.plusSeconds(1), ContainerView.running("id", T0, true), (type, probe, target) -> {
      asked.add(type);
      return ProbeOutcome.failure();
    }, ProbeTarget.of(""));
    assertThat(asked).containsExactly(ProbeType.Readiness);
    assertThat(p.killVerdict("id")).isNull();
  }

  @Test
  void stopLivenessAndStartup_beforeTheStart_neverStarted() {
    Probe startup = Probe.builder(ProbeHandler.TcpSocket.of(1)).periodSeconds(5).failureThreshold(10).build();
    ContainerProbes p = probes("c", null, DEFAULT, startup);
    p.tick(T0, ContainerView.running("id", T0, false), (type, probe, target) -> ProbeOutcome.failure(),
        ProbeTarget.of(""));
    p.stopLivenessAndStartup();
    assertThat(p.started(ContainerStateType.Running, "id")).isFalse();
    assertThat(p.ready(ContainerStateType.Running, "id")).isFalse();
  }
}
