package io.fleetkit.reconcile.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.ContainerState;
import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.reconcile.node.InitContainerActions.Sandbox;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Ports of kubernetes {@code pkg/kubelet/status/generate_test.go} (the stored version with
 * TestGenerateContainersReadyCondition, TestGeneratePodReadyCondition, TestGeneratePodInitializedCondition and a
 * 4-case TestGeneratePodReadyToStartContainersCondition, 18,743 characters; the index shows no commit), against
 * {@link PodConditions}: all 39 cases, the 7 readiness-gate cases of TestGeneratePodReadyCondition included. Each case asserts what upstream compares: the whole condition (type, status, reason,
 * message) for the readiness ones, type, status and reason for Initialized, type and status for
 * PodReadyToStartContainers. Upstream's status without state is {@code Waiting} here (a FleetKit status always has
 * one); its {@code Started} pointer is the {@code started} flag. Cases are numbered in upstream's order.
 */
final class PodConditionsUpstreamTest {
  private static final ResourceList R = ResourceList.EMPTY;

  private static Container c(String name) {
    return Container.of(name, "img", R);
  }

  private static Container restartable(String name) {
    return Container.sidecar(name, "img", R);
  }

  private static PodSpec spec(List<Container> inits, List<Container> containers) {
    PodSpec.Builder b = PodSpec.builder();
    inits.forEach(b::initContainer);
    containers.forEach(b::container);
    return b.build();
  }

  private static PodSpec spec(Container... containers) {
    return spec(List.of(), List.of(containers));
  }

  // getReadyStatus / getNotReadyStatus / getStartedStatus / getNotStartedStatus
  private static ContainerStatus ready(String name) {
    return new ContainerStatus(name, true, 0, ContainerState.WAITING, false);
  }

  private static ContainerStatus notReady(String name) {
    return new ContainerStatus(name, false, 0, ContainerState.WAITING, false);
  }

  private static ContainerStatus started(String name) {
    return new ContainerStatus(name, false, 0, ContainerState.WAITING, true);
  }

  private static ContainerStatus notStarted(String name) {
    return new ContainerStatus(name, false, 0, ContainerState.WAITING, false);
  }

  private static void expect(PodCondition actual, String type, ConditionStatus status, String reason,
      String message) {
    assertThat(actual.type()).isEqualTo(type);
    assertThat(actual.status()).isEqualTo(status);
    assertThat(actual.reason()).isEqualTo(reason);
    assertThat(actual.message()).isEqualTo(message);
    assertThat(actual.lastTransitionTime()).as("set by the status manager").isNull();
  }

  // --- TestGenerateContainersReadyCondition (11 cases) ---

  private static void containersReady(PodSpec spec, @Nullable List<ContainerStatus> statuses, PodPhase phase,
      ConditionStatus status, String reason, String message) {
    expect(PodConditions.containersReady(spec, statuses, phase), PodCondition.CONTAINERS_READY, status, reason,
        message);
  }

  @Test
  void containersReady_cases() {
    String cr = PodConditions.CONTAINERS_NOT_READY;
    ConditionStatus f = ConditionStatus.False;
    ConditionStatus t = ConditionStatus.True;
    // 1: no statuses known
    containersReady(spec(), null, PodPhase.Running, f, PodConditions.UNKNOWN_CONTAINER_STATUSES, "");
    // 2: nothing to be ready
    containersReady(spec(), List.of(), PodPhase.Running, t, "", "");
    // 3
    containersReady(spec(c("1234")), List.of(), PodPhase.Running, f, cr, "containers with unknown status: [1234]");
    // 4
    containersReady(spec(c("1234"), c("5678")), List.of(ready("1234"), ready("5678")), PodPhase.Running, t, "", "");
    // 5
    containersReady(spec(c("1234"), c("5678")), List.of(ready("1234")), PodPhase.Running, f, cr,
        "containers with unknown status: [5678]");
    // 6
    containersReady(spec(c("1234"), c("5678")), List.of(ready("1234"), notReady("5678")), PodPhase.Running, f, cr,
        "containers with unready status: [5678]");
    // 7: a finished pod
    containersReady(spec(c("1234")), List.of(notReady("1234")), PodPhase.Succeeded, f, PodConditions.POD_COMPLETED,
        "");
    // 8: a sidecar without status
    containersReady(spec(List.of(restartable("restartable-init-1")), List.of(c("regular-1"))),
        List.of(ready("regular-1")), PodPhase.Running, f, cr, "containers with unknown status: [restartable-init-1]");
    // 9
    containersReady(spec(List.of(restartable("restartable-init-1"), restartable("restartable-init-2")),
        List.of(c("regular-1"))), List.of(ready("restartable-init-1"), ready("restartable-init-2"),
        ready("regular-1")), PodPhase.Running, t, "", "");
    // 10
    containersReady(spec(List.of(restartable("restartable-init-1"), restartable("restartable-init-2")),
        List.of(c("regular-1"))), List.of(ready("restartable-init-1"), ready("regular-1")), PodPhase.Running, f, cr,
        "containers with unknown status: [restartable-init-2]");
    // 11
    containersReady(spec(List.of(restartable("restartable-init-1"), restartable("restartable-init-2")),
        List.of(c("regular-1"))), List.of(ready("restartable-init-1"), notReady("restartable-init-2"),
        ready("regular-1")), PodPhase.Running, f, cr, "containers with unready status: [restartable-init-2]");
  }

  // --- TestGeneratePodReadyCondition: the 7 cases without readiness gates ---

  private static void podReady(PodSpec spec, @Nullable List<ContainerStatus> statuses, PodPhase phase,
      ConditionStatus status, String reason, String message) {
    podReady(spec, List.of(), statuses, phase, status, reason, message);
  }

  private static void podReady(PodSpec spec, List<PodCondition> conditions, @Nullable List<ContainerStatus> statuses,
      PodPhase phase, ConditionStatus status, String reason, String message) {
    expect(PodConditions.podReady(spec, conditions, statuses, phase), PodCondition.READY, status, reason, message);
  }

  @Test
  void podReady_casesWithoutReadinessGates() {
    String cr = PodConditions.CONTAINERS_NOT_READY;
    ConditionStatus f = ConditionStatus.False;
    ConditionStatus t = ConditionStatus.True;
    podReady(spec(), null, PodPhase.Running, f, PodConditions.UNKNOWN_CONTAINER_STATUSES, "");
    podReady(spec(), List.of(), PodPhase.Running, t, "", "");
    podReady(spec(c("1234")), List.of(), PodPhase.Running, f, cr, "containers with unknown status: [1234]");
    podReady(spec(c("1234"), c("5678")), List.of(ready("1234"), ready("5678")), PodPhase.Running, t, "", "");
    podReady(spec(c("1234"), c("5678")), List.of(ready("1234")), PodPhase.Running, f, cr,
        "containers with unknown status: [5678]");
    podReady(spec(c("1234"), c("5678")), List.of(ready("1234"), notReady("5678")), PodPhase.Running, f, cr,
        "containers with unready status: [5678]");
    podReady(spec(c("1234")), List.of(notReady("1234")), PodPhase.Succeeded, f, PodConditions.POD_COMPLETED, "");
  }

  // --- TestGeneratePodReadyCondition: the 7 readiness-gate cases (upstream's cases 8 to 14) ---

  private static PodSpec gated(List<Container> containers, String... gates) {
    return spec(List.of(), containers).toBuilder().readinessGates(List.of(gates)).build();
  }

  private static PodCondition condition(String type, ConditionStatus status) {
    return PodCondition.of(type, status, "", "", null);
  }

  @Test
  void podReady_readinessGateCases() {
    String gates = PodConditions.READINESS_GATES_NOT_READY;
    ConditionStatus f = ConditionStatus.False;
    ConditionStatus t = ConditionStatus.True;
    List<ContainerStatus> none = List.of();
    // 8: the gate's condition is missing
    podReady(gated(List.of(), "gate1"), List.of(), none, PodPhase.Running, f, gates,
        "corresponding condition of pod readiness gate \"gate1\" does not exist.");
    // 9: the gate's condition is False
    podReady(gated(List.of(), "gate1"), List.of(condition("gate1", f)), none, PodPhase.Running, f, gates,
        "the status of pod readiness gate \"gate1\" is not \"True\", but False");
    // 10: the gate's condition is True
    podReady(gated(List.of(), "gate1"), List.of(condition("gate1", t)), none, PodPhase.Running, t, "", "");
    // 11: two gates, the second's condition missing
    podReady(gated(List.of(), "gate1", "gate2"), List.of(condition("gate1", t)), none, PodPhase.Running, f, gates,
        "corresponding condition of pod readiness gate \"gate2\" does not exist.");
    // 12: two gates, the second's condition False
    podReady(gated(List.of(), "gate1", "gate2"), List.of(condition("gate1", t), condition("gate2", f)), none,
        PodPhase.Running, f, gates, "the status of pod readiness gate \"gate2\" is not \"True\", but False");
    // 13: both True
    podReady(gated(List.of(), "gate1", "gate2"), List.of(condition("gate1", t), condition("gate2", t)), none,
        PodPhase.Running, t, "", "");
    // 14: the gate is True, but a container is not ready: ContainersReady's reason and message
    podReady(gated(List.of(c("1234")), "gate1"), List.of(condition("gate1", t)), List.of(notReady("1234")),
        PodPhase.Running, f, PodConditions.CONTAINERS_NOT_READY, "containers with unready status: [1234]");
  }

  @Test
  void podReady_severalUnmetGates_messagesJoinedInSpecOrder_unknownStatusNamed() {
    // beyond upstream's cases: GeneratePodReadyCondition joins the messages of every unmet gate with ", "
    ConditionStatus u = ConditionStatus.Unknown;
    podReady(gated(List.of(), "b.example.com/x", "a.example.com/y", "c"), List.of(condition("c", ConditionStatus.True),
        condition("b.example.com/x", u)), List.of(), PodPhase.Running, ConditionStatus.False,
        PodConditions.READINESS_GATES_NOT_READY,
        "the status of pod readiness gate \"b.example.com/x\" is not \"True\", but Unknown, "
            + "corresponding condition of pod readiness gate \"a.example.com/y\" does not exist.");
    // a finished pod reports ContainersReady's reason whatever its gates
    podReady(gated(List.of(c("1234")), "gate1"), List.of(), List.of(notReady("1234")), PodPhase.Succeeded,
        ConditionStatus.False, PodConditions.POD_COMPLETED, "");
  }

  // --- TestGeneratePodInitializedCondition (10 cases) ---

  private static final PodSpec NO_INIT = spec();
  private static final PodSpec ONE_INIT = spec(List.of(c("1234")), List.of(c("regular")));
  private static final PodSpec TWO_INIT = spec(List.of(c("1234"), c("5678")), List.of(c("regular")));
  private static final PodSpec ONE_RESTARTABLE = spec(List.of(restartable("1234")), List.of(c("regular")));

  private static void initialized(PodSpec spec, @Nullable List<ContainerStatus> statuses, PodPhase phase,
      ConditionStatus status, String reason) {
    PodCondition actual = PodConditions.initialized(spec, statuses, phase);
    assertThat(actual.type()).isEqualTo(PodCondition.INITIALIZED);
    assertThat(actual.status()).isEqualTo(status);
    assertThat(actual.reason()).isEqualTo(reason);
  }

  @Test
  void initialized_cases() {
    String ni = PodConditions.CONTAINERS_NOT_INITIALIZED;
    ConditionStatus f = ConditionStatus.False;
    ConditionStatus t = ConditionStatus.True;
    initialized(TWO_INIT, null, PodPhase.Running, f, PodConditions.UNKNOWN_CONTAINER_STATUSES);
    initialized(NO_INIT, List.of(), PodPhase.Running, t, "");
    initialized(ONE_INIT, List.of(), PodPhase.Running, f, ni);
    initialized(TWO_INIT, List.of(ready("1234"), ready("5678")), PodPhase.Running, t, "");
    initialized(TWO_INIT, List.of(ready("1234")), PodPhase.Running, f, ni);
    initialized(TWO_INIT, List.of(ready("1234"), notReady("5678")), PodPhase.Running, f, ni);
    initialized(ONE_INIT, List.of(ready("1234")), PodPhase.Succeeded, t, PodConditions.POD_COMPLETED);
    initialized(ONE_RESTARTABLE, List.of(notStarted("1234")), PodPhase.Pending, f, ni);
    initialized(ONE_RESTARTABLE, List.of(started("1234")), PodPhase.Running, t, "");
    // a regular container running: initialized before, even while the sidecar restarts
    initialized(ONE_RESTARTABLE, List.of(notStarted("1234"),
        new ContainerStatus("regular", false, 0, ContainerState.running(Instant.EPOCH), true)), PodPhase.Running, t,
        "");
  }

  @Test
  void initialized_messagesNameTheContainers_asTheSimulatedKubeletShowsThem() {
    // beyond upstream's assertions (it compares no message): the message format of GeneratePodInitializedCondition
    assertThat(PodConditions.initialized(TWO_INIT, List.of(notReady("1234")), PodPhase.Pending).message())
        .isEqualTo("containers with unknown status: [5678], containers with incomplete status: [1234]");
  }

  // --- TestGeneratePodReadyToStartContainersCondition (4 cases) ---

  @Test
  void readyToStartContainers_cases() {
    String type = PodConditions.POD_READY_TO_START_CONTAINERS;
    // "Empty pod status": no sandbox
    PodCondition empty = PodConditions.readyToStartContainers(null);
    assertThat(empty.type()).isEqualTo(type);
    assertThat(empty.status()).isEqualTo(ConditionStatus.False);
    // "Pod sandbox status not ready"
    PodCondition notReady = PodConditions.readyToStartContainers(Sandbox.reported(false, null, 0));
    assertThat(notReady.type()).isEqualTo(type);
    assertThat(notReady.status()).isEqualTo(ConditionStatus.False);
    // "Pod sandbox status ready but no IP configured"
    PodCondition noIp = PodConditions.readyToStartContainers(Sandbox.reported(true, "", 0));
    assertThat(noIp.type()).isEqualTo(type);
    assertThat(noIp.status()).isEqualTo(ConditionStatus.False);
    // "Pod sandbox status ready and IP configured"
    PodCondition ready = PodConditions.readyToStartContainers(Sandbox.reported(true, "10.0.0.10", 0));
    assertThat(ready.type()).isEqualTo(type);
    assertThat(ready.status()).isEqualTo(ConditionStatus.True);
  }
}
