package io.fleetkit.reconcile.probe;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.ContainerStateType;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.Probe;
import io.fleetkit.api.core.ProbeHandler;
import io.fleetkit.api.core.ProbeType;
import io.fleetkit.api.core.RestartPolicy;
import java.time.Instant;
import java.util.List;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Cases ported from kubernetes {@code pkg/kubelet/prober/worker_test.go}. The Go tests use a fake exec prober
 * answering Success unless told otherwise; here the attempt supplier plays that role. The test pod's restart policy
 * is Never, as in the Go fixture {@code getTestPod}.
 */
final class ProbeWorkerTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
  private static final String ID = "test://cont_ID";
  private static final Supplier<ProbeOutcome> SUCCESS = ProbeOutcome::success;
  private static final Supplier<ProbeOutcome> FAILURE = ProbeOutcome::failure;

  private static Probe probe(int initialDelay, int success, int failure) {
    return new Probe(new ProbeHandler.Exec(List.of("true")), initialDelay, 1, 1, success, failure, null);
  }

  private static ProbeWorker worker(ProbeType type, Probe p) {
    return new ProbeWorker(type, p);
  }

  /** getTestRunningStatusWithStarted: running since now, started as given. */
  private static ContainerView running(boolean started) {
    return new ContainerView(PodPhase.Running, false, RestartPolicy.Never, ID, ContainerStateType.Running, NOW,
        started);
  }

  private record DoProbeCase(String name, @Nullable ContainerView view, boolean continueLiveness,
      boolean continueReadiness, boolean continueStartup, @Nullable ProbeResult expected, int initialDelay) {}

  // worker_test.go TestDoProbe: 8 rows x 3 probe types (the rows as at 632f162d719dd3df43a826b1d2a0fd2c0b5cbb72; the
  // termination row is "Pod deletion": liveness and startup record Success and exit, readiness goes on)
  @Test
  void doProbe_table_matchesKubelet() {
    for (ProbeType type : ProbeType.values()) {
      boolean started = type != ProbeType.Startup;
      ContainerView run = running(started);
      ContainerView pending = new ContainerView(PodPhase.Running, false, RestartPolicy.Never, ID,
          ContainerStateType.Waiting, null, started);
      ContainerView terminated = new ContainerView(PodPhase.Running, false, RestartPolicy.Never, ID,
          ContainerStateType.Terminated, null, started);
      ContainerView other = run.withContainerId("");
      ContainerView failed = new ContainerView(PodPhase.Failed, false, RestartPolicy.Never, ID,
          ContainerStateType.Running, NOW, started);
      ContainerView deleting = new ContainerView(PodPhase.Running, true, RestartPolicy.Never, ID,
          ContainerStateType.Running, NOW, started);
      List<DoProbeCase> cases = List.of(
          new DoProbeCase("no status", null, true, true, true, null, 0),
          new DoProbeCase("pod failed", failed, false, false, false, null, 0),
          new DoProbeCase("pod deletion", deleting, false, true, false, ProbeResult.Success, 0),
          new DoProbeCase("no container status", other, true, true, true, null, 0),
          new DoProbeCase("container waiting", pending, true, true, true, ProbeResult.Failure, 0),
          new DoProbeCase("container terminated", terminated, false, false, false, ProbeResult.Failure, 0),
          new DoProbeCase("probe successful", run, true, true, true, ProbeResult.Success, 0),
          new DoProbeCase("initial delay passed", run, true, true, true, ProbeResult.Success, -100));
      for (DoProbeCase c : cases) {
        ProbeWorker w = worker(type, probe(c.initialDelay(), 1, 3));
        boolean keepGoing = w.doProbe(c.view(), NOW, SUCCESS);
        boolean expectContinue = switch (type) {
          case Liveness -> c.continueLiveness();
          case Readiness -> c.continueReadiness();
          case Startup -> c.continueStartup();
        };
        assertThat(keepGoing).as(type + " " + c.name() + ": continue").isEqualTo(expectContinue);
        assertThat(w.result()).as(type + " " + c.name() + ": result").isEqualTo(c.expected());
      }
    }
  }

  // worker_test.go TestInitialDelay
  @Test
  void initialDelay_keepsInitialValueThenProbes() {
    for (ProbeType type : ProbeType.values()) {
      ProbeWorker w = worker(type, probe(10, 1, 3));
      ContainerView view = running(type != ProbeType.Startup);
      assertThat(w.doProbe(view, NOW, SUCCESS)).isTrue();
      ProbeResult initial = switch (type) {
        case Liveness -> ProbeResult.Success;
        case Readiness -> ProbeResult.Failure;
        case Startup -> ProbeResult.Unknown;
      };
      assertThat(w.result()).as(type + " during initial delay").isEqualTo(initial);
      assertThat(w.doProbe(view, NOW.plusSeconds(100), SUCCESS)).isTrue();
      assertThat(w.result()).as(type + " after initial delay").isEqualTo(ProbeResult.Success);
    }
  }

  // worker_test.go TestFailureThreshold
  @Test
  void failureThreshold_needsThreeFailuresInARow() {
    ProbeWorker w = worker(ProbeType.Readiness, probe(0, 1, 3));
    ContainerView view = running(true);
    for (int i = 0; i < 2; i++) {
      for (int j = 0; j < 3; j++) {
        assertThat(w.doProbe(view, NOW, SUCCESS)).isTrue();
        assertThat(w.result()).as("%d success (%d)", j + 1, i).isEqualTo(ProbeResult.Success);
      }
      for (int j = 0; j < 2; j++) {
        assertThat(w.doProbe(view, NOW, FAILURE)).isTrue();
        assertThat(w.result()).as("%d failing (%d)", j + 1, i).isEqualTo(ProbeResult.Success);
      }
      for (int j = 0; j < 3; j++) {
        assertThat(w.doProbe(view, NOW, FAILURE)).isTrue();
        assertThat(w.result()).as("%d failure (%d)", j + 3, i).isEqualTo(ProbeResult.Failure);
      }
    }
  }

  // worker_test.go TestSuccessThreshold
  @Test
  void successThreshold_needsThreeSuccessesInARow() {
    ProbeWorker w = worker(ProbeType.Readiness, probe(0, 3, 1));
    ContainerView view = running(true);
    w.setResult(ID, ProbeResult.Failure);
    for (int i = 0; i < 2; i++) {
      for (int j = 0; j < 2; j++) {
        assertThat(w.doProbe(view, NOW, SUCCESS)).isTrue();
        assertThat(w.result()).as("%d success (%d)", j + 1, i).isEqualTo(ProbeResult.Failure);
      }
      for (int j = 0; j < 3; j++) {
        assertThat(w.doProbe(view, NOW, SUCCESS)).isTrue();
        assertThat(w.result()).as("%d success (%d)", j + 3, i).isEqualTo(ProbeResult.Success);
      }
      assertThat(w.doProbe(view, NOW, FAILURE)).isTrue();
      assertThat(w.result()).as("1 failure (%d)", i).isEqualTo(ProbeResult.Failure);
    }
  }

  // worker_test.go TestStartupProbeSuccessThreshold (the Go fixture's "not running" status still has a running
  // container that has not started)
  @Test
  void startupSuccessThreshold_holdsAfterVerdict() {
    ProbeWorker w = worker(ProbeType.Startup, probe(0, 1, 3));
    ContainerView view = running(false);
    assertThat(w.onHold()).isFalse();
    assertThat(w.doProbe(view, NOW, SUCCESS)).isTrue();
    assertThat(w.result()).isEqualTo(ProbeResult.Success);
    assertThat(w.onHold()).isTrue();
    assertThat(w.resultRun()).isZero();
  }

  // worker_test.go TestStartupProbeFailureThreshold
  @Test
  void startupFailureThreshold_unknownUntilThirdFailureThenHolds() {
    ProbeWorker w = worker(ProbeType.Startup, probe(0, 1, 3));
    ContainerView view = running(false);
    for (int i = 0; i < 3; i++) {
      assertThat(w.onHold()).as("not on hold before failure %d", i + 1).isFalse();
      assertThat(w.doProbe(view, NOW, FAILURE)).isTrue();
      if (i < 2) {
        assertThat(w.result()).isEqualTo(ProbeResult.Unknown);
        assertThat(w.resultRun()).isEqualTo(i + 1);
      } else {
        assertThat(w.result()).isEqualTo(ProbeResult.Failure);
        assertThat(w.resultRun()).isZero();
      }
    }
    assertThat(w.onHold()).isTrue();
    assertThat(w.resultRun()).isZero();
  }

  // worker_test.go TestOnHoldOnLivenessOrStartupCheckFailure
  @Test
  void onHold_afterLivenessOrStartupFailure_liftedByNewContainer() {
    for (ProbeType type : List.of(ProbeType.Liveness, ProbeType.Startup)) {
      ProbeWorker w = worker(type, probe(0, 1, 1));
      ContainerView view = running(type != ProbeType.Startup);
      assertThat(w.doProbe(view, NOW, FAILURE)).isTrue();
      assertThat(w.result()).isEqualTo(ProbeResult.Failure);
      assertThat(w.onHold()).isTrue();
      assertThat(w.doProbe(view, NOW, SUCCESS)).isTrue();
      assertThat(w.result()).as(type + " while on hold").isEqualTo(ProbeResult.Failure);
      assertThat(w.onHold()).isTrue();
      assertThat(w.doProbe(view.withContainerId("test://newCont_ID"), NOW, SUCCESS)).isTrue();
      assertThat(w.result()).as(type + " hold lifted").isEqualTo(ProbeResult.Success);
      assertThat(w.onHold()).as(type + " on hold after success").isEqualTo(type == ProbeType.Startup);
    }
  }

  // worker_test.go TestResultRunOnLivenessCheckFailure
  @Test
  void resultRun_liveness_resetsAtFailureVerdict() {
    ProbeWorker w = worker(ProbeType.Liveness, probe(0, 1, 3));
    ContainerView view = running(true);
    w.doProbe(view, NOW, SUCCESS);
    assertThat(w.result()).isEqualTo(ProbeResult.Success);
    assertThat(w.resultRun()).isEqualTo(1);
    w.doProbe(view, NOW, FAILURE);
    assertThat(w.result()).isEqualTo(ProbeResult.Success);
    assertThat(w.resultRun()).isEqualTo(1);
    w.doProbe(view, NOW, FAILURE);
    assertThat(w.result()).isEqualTo(ProbeResult.Success);
    assertThat(w.resultRun()).isEqualTo(2);
    w.doProbe(view, NOW, FAILURE);
    assertThat(w.result()).isEqualTo(ProbeResult.Failure);
    assertThat(w.resultRun()).isZero();
  }

  // worker_test.go TestResultRunOnStartupCheckFailure
  @Test
  void resultRun_startup_resetsAtFailureVerdict() {
    ProbeWorker w = worker(ProbeType.Startup, probe(0, 1, 3));
    ContainerView view = running(false);
    w.doProbe(view, NOW, FAILURE);
    assertThat(w.result()).isEqualTo(ProbeResult.Unknown);
    assertThat(w.resultRun()).isEqualTo(1);
    w.doProbe(view, NOW, FAILURE);
    assertThat(w.result()).isEqualTo(ProbeResult.Unknown);
    assertThat(w.resultRun()).isEqualTo(2);
    w.doProbe(view, NOW, FAILURE);
    assertThat(w.result()).isEqualTo(ProbeResult.Failure);
    assertThat(w.resultRun()).isZero();
  }

  // worker_test.go TestLivenessProbeDisabledByStarted
  @Test
  void liveness_disabledUntilStarted() {
    ProbeWorker w = worker(ProbeType.Liveness, probe(0, 1, 1));
    assertThat(w.doProbe(running(false), NOW, FAILURE)).isTrue();
    assertThat(w.result()).isEqualTo(ProbeResult.Success);
    assertThat(w.doProbe(running(true), NOW, FAILURE)).isTrue();
    assertThat(w.result()).isEqualTo(ProbeResult.Failure);
  }

  // worker_test.go TestStartupProbeDisabledByStarted
  @Test
  void startup_disabledOnceStarted() {
    ProbeWorker w = worker(ProbeType.Startup, probe(0, 1, 2));
    assertThat(w.doProbe(running(false), NOW, FAILURE)).isTrue();
    assertThat(w.result()).isEqualTo(ProbeResult.Unknown);
    assertThat(w.doProbe(running(false), NOW, SUCCESS)).isTrue();
    assertThat(w.result()).isEqualTo(ProbeResult.Success);
    assertThat(w.doProbe(running(true), NOW, FAILURE)).isTrue();
    assertThat(w.result()).isEqualTo(ProbeResult.Success);
  }

  @Test
  void proberError_isDiscarded() {
    ProbeWorker w = worker(ProbeType.Readiness, probe(0, 1, 1));
    w.doProbe(running(true), NOW, SUCCESS);
    w.doProbe(running(true), NOW, () -> ProbeOutcome.error("exec not supported"));
    assertThat(w.result()).isEqualTo(ProbeResult.Success);
    assertThat(w.resultRun()).isEqualTo(1);
  }

  @Test
  void warning_countsAsSuccess_unknownAsFailure() {
    ProbeWorker w = worker(ProbeType.Readiness, probe(0, 1, 1));
    w.doProbe(running(true), NOW, () -> ProbeOutcome.warning("redirect"));
    assertThat(w.result()).isEqualTo(ProbeResult.Success);
    w.doProbe(running(true), NOW, () -> new ProbeOutcome(ProbeOutcome.Kind.Unknown, ""));
    assertThat(w.result()).isEqualTo(ProbeResult.Failure);
  }

  @Test
  void initialDelay_truncatesToWholeSeconds() {
    ProbeWorker w = worker(ProbeType.Readiness, probe(2, 1, 1));
    w.doProbe(running(true), NOW.plusMillis(1999), SUCCESS);
    assertThat(w.result()).isEqualTo(ProbeResult.Failure);
    w.doProbe(running(true), NOW.plusMillis(2000), SUCCESS);
    assertThat(w.result()).isEqualTo(ProbeResult.Success);
  }
}
