package io.fleetkit.reconcile.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.reconcile.node.InitContainerActions.Actions;
import io.fleetkit.reconcile.node.InitContainerActions.Init;
import io.fleetkit.reconcile.node.InitContainerActions.Observed;
import io.fleetkit.reconcile.node.InitContainerActions.RuntimeState;
import io.fleetkit.reconcile.node.InitContainerActions.Sandbox;
import io.fleetkit.reconcile.probe.ProbeResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Ports of kubernetes {@code pkg/kubelet/kuberuntime/kuberuntime_manager_test.go} (the stored version whose
 * TestComputePodActionsWithRestartableInitContainers has 24 cases; the index does not show its commit):
 * TestComputePodActionsWithInitContainers and TestComputePodActionsWithRestartableInitContainers, each case's
 * InitContainersToStart, ContainersToKill, ContainersToStart and KillPod. The pod-sandbox cases (CreateSandbox and
 * Attempt asserted too) are those of the stored version whose TestComputePodActionsWithRestartableInitContainers
 * has 23 cases (98,337 characters; the index shows no commit either); their texts are the same in both. Upstream's
 * pod has three init containers and three regular containers; the runtime status lists the init containers only
 * unless a case adds the regular ones, and its one sandbox is ready with attempt 0 unless a case makes it not ready.
 */
final class InitContainerActionsUpstreamTest {
  private static final List<@Nullable Observed> NO_REGULAR = Arrays.asList(null, null, null);

  // makeBasePodAndStatusWithInitContainers: init1..init3, all exited 0
  private static List<Init> inits() {
    List<Init> l = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      l.add(Init.regular(Observed.exited(0)));
    }
    return l;
  }

  // makeBasePodAndStatusWithRestartableInitContainers: restartable-init-1 (no probes), -2 and -3 (liveness and
  // startup probes), all running; the test sets liveness and startup Success for -2 and -3
  private static List<Init> sidecars() {
    List<Init> l = new ArrayList<>();
    l.add(new Init(true, false, false, Observed.running(), null, null, false));
    for (int i = 0; i < 2; i++) {
      l.add(new Init(true, true, true, Observed.running(), ProbeResult.Success, ProbeResult.Success, false));
    }
    return l;
  }

  private static Init with(Init c, @Nullable Observed o) {
    return new Init(c.restartable(), c.startupProbe(), c.livenessProbe(), o, c.startup(), c.liveness(), c.changed());
  }

  private static void expect(Actions a, List<Integer> initToStart, List<Integer> initToKill,
      List<Integer> containersToStart, boolean killPod) {
    assertThat(a.initToStart()).as("InitContainersToStart").containsExactlyElementsOf(initToStart);
    assertThat(a.initToKill()).as("ContainersToKill").containsExactlyElementsOf(initToKill);
    assertThat(a.containersToStart()).as("ContainersToStart").containsExactlyElementsOf(containersToStart);
    assertThat(a.killPod()).as("KillPod").isEqualTo(killPod);
  }

  private static Actions compute(RestartPolicy p, List<Init> inits) {
    return InitContainerActions.compute(p, inits, NO_REGULAR);
  }

  /** The base sandbox made {@code SANDBOX_NOTREADY} (attempt 0). */
  private static Actions computeSandboxNotReady(RestartPolicy p, List<Init> inits) {
    return InitContainerActions.compute(p, new Sandbox(false, 0), inits, NO_REGULAR);
  }

  private static void expectSandbox(Actions a, boolean createSandbox, int attempt) {
    assertThat(a.createSandbox()).as("CreateSandbox").isEqualTo(createSandbox);
    assertThat(a.attempt()).as("Attempt").isEqualTo(attempt);
  }

  // --- TestComputePodActionsWithInitContainers ---

  @Test
  void init_initializationCompleted_startAllContainers() {
    Actions a = compute(RestartPolicy.Always, inits());
    expect(a, List.of(), List.of(), List.of(0, 1, 2), false);
    assertThat(a.initialized()).isTrue();
  }

  @Test
  void init_noInitContainersStarted_startTheFirst() {
    Actions a = compute(RestartPolicy.Always, Arrays.asList(Init.regular(null), Init.regular(null),
        Init.regular(null)));
    expect(a, List.of(0), List.of(), List.of(), false);
    assertThat(a.initialized()).isFalse();
  }

  @Test
  void init_initializationInProgress_doNothing() {
    List<Init> l = inits();
    l.set(2, Init.regular(Observed.running()));
    expect(compute(RestartPolicy.Always, l), List.of(), List.of(), List.of(), false);
  }

  @Test
  void init_failed_restartLastInitContainer_always() {
    List<Init> l = inits();
    l.set(2, Init.regular(Observed.exited(137)));
    expect(compute(RestartPolicy.Always, l), List.of(2), List.of(), List.of(), false);
  }

  @Test
  void init_failed_restartLastInitContainer_onFailure() {
    List<Init> l = inits();
    l.set(2, Init.regular(Observed.exited(137)));
    expect(compute(RestartPolicy.OnFailure, l), List.of(2), List.of(), List.of(), false);
  }

  @Test
  void init_failed_killPod_never() {
    List<Init> l = inits();
    l.set(2, Init.regular(Observed.exited(137)));
    expect(compute(RestartPolicy.Never, l), List.of(), List.of(), List.of(), true);
  }

  @Test
  void init_stateUnknown_killAndRecreateLast_always() {
    List<Init> l = inits();
    l.set(2, Init.regular(new Observed(RuntimeState.Unknown, 0)));
    expect(compute(RestartPolicy.Always, l), List.of(2), List.of(2), List.of(), false);
  }

  @Test
  void init_stateUnknown_killAndRecreateLast_onFailure() {
    List<Init> l = inits();
    l.set(2, Init.regular(new Observed(RuntimeState.Unknown, 0)));
    expect(compute(RestartPolicy.OnFailure, l), List.of(2), List.of(2), List.of(), false);
  }

  @Test
  void init_stateUnknown_killPod_never() {
    List<Init> l = inits();
    l.set(2, Init.regular(new Observed(RuntimeState.Unknown, 0)));
    expect(compute(RestartPolicy.Never, l), List.of(), List.of(), List.of(), true);
  }

  @Test
  void init_someStatusesMissing_lastRunning_dontRestartPrecedingOnes() {
    List<Init> l = Arrays.asList(Init.regular(null), Init.regular(null), Init.regular(Observed.running()));
    expect(compute(RestartPolicy.Always, l), List.of(), List.of(), List.of(), false);
  }

  @Test
  void init_createdState_restartIt() {
    List<Init> l = inits();
    l.set(2, Init.regular(new Observed(RuntimeState.Created, 0)));
    expect(compute(RestartPolicy.Always, l), List.of(2), List.of(), List.of(), false);
  }

  @Test
  void init_sandboxDead_killPodAndRestartFirstInitContainer() {
    // "Kill pod and restart the first init container if the pod sandbox is dead"
    Actions a = computeSandboxNotReady(RestartPolicy.Always, inits());
    expect(a, List.of(0), List.of(), List.of(), true);
    expectSandbox(a, true, 1);
  }

  @Test
  void init_sandboxNotReady_initFailed_never_killPodOnly() {
    // "Pod sandbox not ready, init container failed, but RestartPolicy == Never; kill pod only" (upstream leaves the
    // init containers' statuses as they are: the pod has run containers, so it gets no new sandbox)
    Actions a = computeSandboxNotReady(RestartPolicy.Never, inits());
    expect(a, List.of(), List.of(), List.of(), true);
    expectSandbox(a, false, 1);
  }

  @Test
  void init_sandboxNotReady_never_noVisibleInitContainers_createSandbox() {
    // "Pod sandbox not ready, and RestartPolicy == Never, but no visible init containers;  create a new pod sandbox"
    Actions a = computeSandboxNotReady(RestartPolicy.Never, Arrays.asList(Init.regular(null), Init.regular(null),
        Init.regular(null)));
    expect(a, List.of(0), List.of(), List.of(), true);
    expectSandbox(a, true, 1);
  }

  @Test
  void init_sandboxNotReady_initFailed_onFailure_createSandbox() {
    // "Pod sandbox not ready, init container failed, and RestartPolicy == OnFailure; create a new pod sandbox"
    List<Init> l = inits();
    l.set(2, Init.regular(Observed.exited(137)));
    Actions a = computeSandboxNotReady(RestartPolicy.OnFailure, l);
    expect(a, List.of(0), List.of(), List.of(), true);
    expectSandbox(a, true, 1);
  }

  // --- TestComputePodActionsWithRestartableInitContainers ---

  @Test
  void sidecar_initializationCompleted_startAllContainers() {
    Actions a = compute(RestartPolicy.Always, sidecars());
    expect(a, List.of(), List.of(), List.of(0, 1, 2), false);
    assertThat(a.initialized()).isTrue();
  }

  @Test
  void sidecar_noneStarted_startTheFirst() {
    List<Init> l = sidecars();
    l.replaceAll(c -> with(c, null));
    expect(compute(RestartPolicy.Always, l), List.of(0), List.of(), List.of(), false);
  }

  @Test
  void sidecar_stuckInCreatedState_restartIt() {
    List<Init> l = sidecars();
    l.set(2, with(l.get(2), new Observed(RuntimeState.Created, 0)));
    expect(compute(RestartPolicy.Always, l), List.of(2), List.of(), List.of(), false);
  }

  @Test
  void sidecar_started_startTheNext() {
    List<Init> l = sidecars();
    l.set(1, with(l.get(1), null));
    l.set(2, with(l.get(2), null));
    expect(compute(RestartPolicy.Always, l), List.of(1), List.of(), List.of(), false);
  }

  @Test
  void sidecar_livenessNotRun_startTheNext() {
    List<Init> l = sidecars();
    Init c = l.get(1);
    l.set(1, new Init(true, true, true, c.observed(), ProbeResult.Success, null, false));
    l.set(2, with(l.get(2), null));
    expect(compute(RestartPolicy.Always, l), List.of(2), List.of(), List.of(), false);
  }

  @Test
  void sidecar_livenessInProgress_startTheNext() {
    List<Init> l = sidecars();
    Init c = l.get(1);
    l.set(1, new Init(true, true, true, c.observed(), ProbeResult.Success, ProbeResult.Unknown, false));
    l.set(2, with(l.get(2), null));
    expect(compute(RestartPolicy.Always, l), List.of(2), List.of(), List.of(), false);
  }

  @Test
  void sidecar_livenessCompleted_startTheNext() {
    List<Init> l = sidecars();
    l.set(2, with(l.get(2), null));
    expect(compute(RestartPolicy.Always, l), List.of(2), List.of(), List.of(), false);
  }

  @Test
  void sidecar_livenessFailed_killAndRecreate() {
    List<Init> l = sidecars();
    Init c = l.get(2);
    l.set(2, new Init(true, true, true, c.observed(), ProbeResult.Success, ProbeResult.Failure, false));
    expect(compute(RestartPolicy.Always, l), List.of(2), List.of(2), List.of(0, 1, 2), false);
  }

  @Test
  void sidecar_startupNotRun_doNothing() {
    List<Init> l = sidecars();
    Init c = l.get(1);
    l.set(1, new Init(true, true, true, c.observed(), null, ProbeResult.Success, false));
    l.set(2, with(l.get(2), null));
    expect(compute(RestartPolicy.Always, l), List.of(), List.of(), List.of(), false);
  }

  @Test
  void sidecar_startupInProgress_doNothing() {
    List<Init> l = sidecars();
    Init c = l.get(1);
    l.set(1, new Init(true, true, true, c.observed(), ProbeResult.Unknown, ProbeResult.Success, false));
    l.set(2, with(l.get(2), null));
    expect(compute(RestartPolicy.Always, l), List.of(), List.of(), List.of(), false);
  }

  @Test
  void sidecar_startupCompleted_startTheNext() {
    List<Init> l = sidecars();
    l.set(2, with(l.get(2), null));
    expect(compute(RestartPolicy.Always, l), List.of(2), List.of(), List.of(), false);
  }

  @Test
  void sidecar_startupFailed_killAndRecreate() {
    List<Init> l = sidecars();
    Init c = l.get(2);
    l.set(2, new Init(true, true, true, c.observed(), ProbeResult.Failure, ProbeResult.Success, false));
    expect(compute(RestartPolicy.Always, l), List.of(2), List.of(2), List.of(), false);
  }

  @Test
  void sidecar_definitionChanged_killAndRecreate() {
    List<Init> l = sidecars();
    Init c = l.get(2);
    l.set(2, new Init(true, true, true, c.observed(), c.startup(), c.liveness(), true));
    expect(compute(RestartPolicy.Always, l), List.of(2), List.of(2), List.of(0, 1, 2), false);
  }

  @Test
  void sidecar_restartTerminatedSidecarAndNextInitContainer() {
    List<Init> l = sidecars();
    l.set(0, with(l.get(0), Observed.exited(0)));
    l.set(2, with(l.get(2), Observed.exited(0)));
    expect(compute(RestartPolicy.Always, l), List.of(0, 2), List.of(), List.of(), false);
  }

  @Test
  void sidecar_restartTerminatedSidecarAndRegularContainers() {
    List<Init> l = sidecars();
    l.set(0, with(l.get(0), Observed.exited(0)));
    expect(compute(RestartPolicy.Always, l), List.of(0), List.of(), List.of(0, 1, 2), false);
  }

  @Test
  void sidecar_failed_restartEvenIfNever() {
    List<Init> l = sidecars();
    l.set(2, with(l.get(2), Observed.exited(137)));
    expect(compute(RestartPolicy.Never, l), List.of(2), List.of(), List.of(), false);
  }

  @Test
  void sidecar_stateUnknown_killAndRecreateEvenIfNever() {
    List<Init> l = sidecars();
    l.set(2, with(l.get(2), new Observed(RuntimeState.Unknown, 0)));
    expect(compute(RestartPolicy.Never, l), List.of(2), List.of(2), List.of(), false);
  }

  @Test
  void sidecar_restartIfRegularContainersRunning_evenIfNever() {
    List<Init> l = sidecars();
    l.set(2, with(l.get(2), Observed.exited(137)));
    Actions a = InitContainerActions.compute(RestartPolicy.Never, l,
        List.of(Observed.running(), Observed.running(), Observed.running()));
    expect(a, List.of(2), List.of(), List.of(), false);
  }

  @Test
  void sidecar_allMainContainersSucceeded_killPod_never() {
    Actions a = InitContainerActions.compute(RestartPolicy.Never, sidecars(),
        List.of(Observed.exited(0), Observed.exited(0), Observed.exited(0)));
    expect(a, List.of(), List.of(), List.of(), true);
  }

  @Test
  void sidecar_someStatusesMissing_lastRunning_restartSidecarsAndRegularContainers() {
    List<Init> l = sidecars();
    l.set(0, with(l.get(0), null));
    l.set(1, with(l.get(1), null));
    expect(compute(RestartPolicy.Always, l), List.of(0, 1), List.of(), List.of(0, 1, 2), false);
  }

  @Test
  void sidecar_sandboxNotReady_failed_never_killPodOnly() {
    // "Pod sandbox not ready, restartable init container failed, but RestartPolicy == Never; kill pod only"
    List<Init> l = sidecars();
    l.set(2, with(l.get(2), Observed.exited(137)));
    Actions a = computeSandboxNotReady(RestartPolicy.Never, l);
    expect(a, List.of(), List.of(), List.of(), true);
    expectSandbox(a, false, 1);
  }

  @Test
  void sidecar_sandboxNotReady_never_noVisibleSidecars_createSandbox() {
    // "Pod sandbox not ready, and RestartPolicy == Never, but no visible restartable init containers;  create a new
    // pod sandbox"
    List<Init> l = sidecars();
    l.replaceAll(c -> with(c, null));
    Actions a = computeSandboxNotReady(RestartPolicy.Never, l);
    expect(a, List.of(0), List.of(), List.of(), true);
    expectSandbox(a, true, 1);
  }

  @Test
  void sidecar_sandboxNotReady_failed_onFailure_createSandbox() {
    // "Pod sandbox not ready, restartable init container failed, and RestartPolicy == OnFailure; create a new pod
    // sandbox"
    List<Init> l = sidecars();
    l.set(2, with(l.get(2), Observed.exited(137)));
    Actions a = computeSandboxNotReady(RestartPolicy.OnFailure, l);
    expect(a, List.of(0), List.of(), List.of(), true);
    expectSandbox(a, true, 1);
  }

  @Test
  void sidecar_sandboxNotReady_failed_always_createSandbox() {
    // "Pod sandbox not ready, restartable init container failed, and RestartPolicy == Always; create a new pod
    // sandbox"
    List<Init> l = sidecars();
    l.set(2, with(l.get(2), Observed.exited(137)));
    Actions a = computeSandboxNotReady(RestartPolicy.Always, l);
    expect(a, List.of(0), List.of(), List.of(), true);
    expectSandbox(a, true, 1);
  }

  // --- FleetKit's own: the sandbox branches upstream's tables leave out ---

  @Test
  void noSandbox_firstStart_createsAttemptZero_andStartsFirstInitContainer() {
    Actions a = InitContainerActions.compute(RestartPolicy.Never, null, Arrays.asList(Init.regular(null),
        Init.regular(null)), NO_REGULAR);
    expect(a, List.of(0), List.of(), List.of(), true);
    expectSandbox(a, true, 0);
  }

  @Test
  void sandboxNotReady_onFailure_regularContainersAllSucceeded_killOnly() {
    // containersToStart empty and a regular container was created: initialized, nothing to run
    Actions a = InitContainerActions.compute(RestartPolicy.OnFailure, new Sandbox(false, 3), inits(),
        List.of(Observed.exited(0), Observed.exited(0), Observed.exited(0)));
    expect(a, List.of(), List.of(), List.of(), true);
    expectSandbox(a, false, 4);
  }

  @Test
  void readySandbox_laterAttempt_isCarried() {
    Actions a = InitContainerActions.compute(RestartPolicy.Always, new Sandbox(true, 2), inits(), NO_REGULAR);
    expect(a, List.of(), List.of(), List.of(0, 1, 2), false);
    expectSandbox(a, false, 2);
  }

  @Test
  void sandbox_negativeAttempt_isRefused() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> new Sandbox(true, -1))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("sandbox: attempt -1 must not be negative");
  }
}
