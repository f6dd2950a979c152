package io.fleetkit.reconcile.probe;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.ContainerStateType;
import io.fleetkit.api.core.Probe;
import io.fleetkit.api.core.ProbeHandler;
import io.fleetkit.api.core.ProbeType;
import io.fleetkit.api.resource.ResourceList;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Ports of kubernetes {@code pkg/kubelet/prober/prober_manager_test.go} (0411cc704533ed25a1bfc6e21a3195d9c6a2f0f2):
 * TestCanInheritProbeState (6 cases), TestUpdatePodStatusOnKubeletRestart (the 4 cases with the
 * ChangeContainerStatusOnKubeletRestart gate off, FleetKit's only behaviour) and
 * TestUpdatePodStatusOnKubeletRestartWithMultipleContainers, through {@link ContainerProbes} (the workers and their
 * cached results) and {@link KubeletRestart} (the rule of {@code UpdatePodStatus}).
 */
final class KubeletRestartTest {
  private static final String NAME = "test-container";
  private static final String OLD_ID = "test://old_container_id";
  private static final String NEW_ID = "test://new_container_id";
  private static final Instant KUBELET_START = Instant.parse("2026-01-01T00:10:00Z");
  /** upstream's startedBeforeKubeletRestart: a minute before the grace period. */
  private static final Instant STARTED = KUBELET_START.minus(KubeletRestart.GRACE_PERIOD).minusSeconds(60);

  // --- TestCanInheritProbeState ---

  @Test
  void canInherit_noStatusFromApiServer_true() {
    assertThat(KubeletRestart.canInheritProbeState(Map.of(), NAME, NEW_ID)).isTrue();
  }

  @Test
  void canInherit_apiServerKnowsSameContainer_true() {
    assertThat(KubeletRestart.canInheritProbeState(Map.of(NAME, OLD_ID), NAME, OLD_ID)).isTrue();
  }

  @Test
  void canInherit_containerReplaced_false() {
    assertThat(KubeletRestart.canInheritProbeState(Map.of(NAME, OLD_ID), NAME, NEW_ID)).isFalse();
  }

  @Test
  void canInherit_containerNotInApiServerStatus_true() {
    assertThat(KubeletRestart.canInheritProbeState(Map.of("other-container", OLD_ID), NAME, NEW_ID)).isTrue();
  }

  @Test
  void canInherit_apiServerStatusHasNoContainerId_true() {
    assertThat(KubeletRestart.canInheritProbeState(Map.of(NAME, ""), NAME, NEW_ID)).isTrue();
  }

  @Test
  void canInherit_runtimeHasNoContainerId_true() {
    assertThat(KubeletRestart.canInheritProbeState(Map.of(NAME, OLD_ID), NAME, "")).isTrue();
  }

  // --- TestUpdatePodStatusOnKubeletRestart (gate off) ---

  /**
   * UpdatePodStatus for a running container with a readiness probe whose status the API server has with
   * {@code apiId} and a True Ready condition; {@code firstSync}: no readiness worker registered yet.
   */
  private static boolean readyAfterRestart(String apiId, boolean firstSync, boolean podReady) {
    Probe probe = Probe.of(ProbeHandler.TcpSocket.of(8080));
    ContainerProbes probes = new ContainerProbes(Container.of(NAME, "img", ResourceList.EMPTY)
        .withProbes(null, probe, null), KUBELET_START);
    boolean workerExists = !firstSync && probes.worker(ProbeType.Readiness) != null;
    boolean hasResult = probes.hasResult(ProbeType.Readiness, NEW_ID);
    boolean ready = workerExists ? probes.ready(ContainerStateType.Running, NEW_ID) : true; // no worker: ready
    return KubeletRestart.ready(ready, hasResult, KubeletRestart.survived(STARTED, KUBELET_START),
        KubeletRestart.canInheritProbeState(Map.of(NAME, apiId), NAME, NEW_ID), true, podReady);
  }

  @Test
  void restart_containerSurvived_ready() {
    assertThat(readyAfterRestart(NEW_ID, false, true)).isTrue();
  }

  @Test
  void restart_containerReplacedWhileApiServerUnreachable_notReady() {
    assertThat(readyAfterRestart(OLD_ID, false, true)).isFalse();
  }

  @Test
  void restart_containerSurvived_firstSync_ready() {
    assertThat(readyAfterRestart(NEW_ID, true, true)).isTrue();
  }

  @Test
  void restart_containerReplaced_firstSync_notReady() {
    assertThat(readyAfterRestart(OLD_ID, true, true)).isFalse();
  }

  // --- TestUpdatePodStatusOnKubeletRestartWithMultipleContainers ---

  @Test
  void restart_multipleContainers_survivorKeepsReadiness_replacedDoesNot_thenBothDropWhenPodNotReady() {
    String survivedId = "test://survived_container_id";
    String replacedOld = "test://replaced_container_old_id";
    String replacedNew = "test://replaced_container_new_id";
    Map<String, String> api = Map.of("survived_container", survivedId, "replaced_container", replacedOld);
    boolean survived = KubeletRestart.survived(STARTED, KUBELET_START);
    // neither readiness worker has a result yet
    boolean first = KubeletRestart.ready(false, false, survived,
        KubeletRestart.canInheritProbeState(api, "survived_container", survivedId), true, true);
    boolean second = KubeletRestart.ready(false, false, survived,
        KubeletRestart.canInheritProbeState(api, "replaced_container", replacedNew), true, true);
    assertThat(first).as("the survivor keeps its readiness").isTrue();
    assertThat(second).as("the replacement inherits nothing").isFalse();
    // the pod's Ready condition flips to False: on the next sync the survivor is not ready either
    boolean firstAgain = KubeletRestart.ready(false, false, survived,
        KubeletRestart.canInheritProbeState(api, "survived_container", survivedId), true, false);
    boolean secondAgain = KubeletRestart.ready(false, false, survived,
        KubeletRestart.canInheritProbeState(api, "replaced_container", replacedNew), true, false);
    assertThat(firstAgain).isFalse();
    assertThat(secondAgain).isFalse();
  }

  @Test
  void restart_containerStartedWithinGracePeriod_inheritsNothing() {
    Instant recent = KUBELET_START.minusSeconds(5);
    assertThat(KubeletRestart.survived(recent, KUBELET_START)).isFalse();
    assertThat(KubeletRestart.ready(false, false, false, true, true, true)).isFalse();
  }

  @Test
  void restart_resultAfterRestart_wins() {
    assertThat(KubeletRestart.ready(false, true, true, true, true, true)).isFalse();
    assertThat(KubeletRestart.ready(true, true, true, true, true, false)).isTrue();
  }
}
