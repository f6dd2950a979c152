package io.fleetkit.reconcile.node;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.ContainerStateType;
import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.meta.ConditionStatus;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The pod conditions the kubelet generates from its view of a pod ({@code pkg/kubelet/status/generate.go}):
 * {@code PodReadyToStartContainers}, {@code Initialized}, {@code Ready} and {@code ContainersReady}, which it writes
 * in that order after the conditions it does not own, followed by {@code PodScheduled=True}. The statuses are the
 * init containers' and the regular containers' in one list, found by name; {@code null} means the kubelet knows
 * none. The conditions carry no transition time: the status manager sets it (kept while the status stays).
 * {@code Ready} is {@code ContainersReady} under its own type, and when that is True, False while a readiness gate
 * of the pod ({@code spec.readinessGates}) names a condition that is missing or not True. Stateless.
 */
final class PodConditions {
  /** The type of the condition that the pod's sandbox is ready and its network configured. */
  static final String POD_READY_TO_START_CONTAINERS = PodCondition.POD_READY_TO_START_CONTAINERS;
  /** Every container status is unknown. */
  static final String UNKNOWN_CONTAINER_STATUSES = "UnknownContainerStatuses";
  /** Every related container succeeded. */
  static final String POD_COMPLETED = "PodCompleted";
  /** The pod failed, and its containers with it. */
  static final String POD_FAILED = "PodFailed";
  /** A container is not ready. */
  static final String CONTAINERS_NOT_READY = "ContainersNotReady";
  /** An init container has not completed. */
  static final String CONTAINERS_NOT_INITIALIZED = "ContainersNotInitialized";
  /** A readiness gate's condition is missing or not True. */
  static final String READINESS_GATES_NOT_READY = "ReadinessGatesNotReady";

  private PodConditions() {}

  private static final PodCondition SANDBOX_READY =
      PodCondition.of(POD_READY_TO_START_CONTAINERS, ConditionStatus.True, "", "", null);
  private static final PodCondition SANDBOX_NOT_READY =
      PodCondition.of(POD_READY_TO_START_CONTAINERS, ConditionStatus.False, "", "", null);

  /**
   * {@code GeneratePodReadyToStartContainersCondition}: True when the pod's latest sandbox needs no replacing (it
   * exists, is ready and has its network configured), False otherwise ({@code null}: the runtime has none).
   */
  static PodCondition readyToStartContainers(InitContainerActions.@Nullable Sandbox latest) {
    return latest != null && latest.ready() ? SANDBOX_READY : SANDBOX_NOT_READY;
  }

  /**
   * {@code GenerateContainersReadyCondition}: True when every sidecar and regular container is ready; False with
   * {@code PodCompleted} or {@code PodFailed} for a finished pod, else with {@code ContainersNotReady} and a message
   * naming the containers of unknown and of unready status.
   */
  static PodCondition containersReady(PodSpec spec, @Nullable List<ContainerStatus> statuses, PodPhase phase) {
    return ready(PodCondition.CONTAINERS_READY, spec, statuses, phase);
  }

  /**
   * {@code GeneratePodReadyCondition}: {@link #containersReady} under the type {@code Ready} while that is not True;
   * otherwise False with {@code ReadinessGatesNotReady} when a readiness gate's condition is not in
   * {@code conditions} ("corresponding condition of pod readiness gate "g" does not exist.") or not True ("the status
   * of pod readiness gate "g" is not "True", but False"), the messages of all such gates in spec order joined with
   * {@code ", "}; True when every gate's condition is True. {@code conditions} are those the kubelet writes before
   * {@code Ready}: the ones it does not own, then {@code PodReadyToStartContainers} and {@code Initialized}.
   */
  static PodCondition podReady(PodSpec spec, List<PodCondition> conditions,
      @Nullable List<ContainerStatus> statuses, PodPhase phase) {
    return podReady(spec, conditions, containersReady(spec, statuses, phase));
  }

  /** {@link #podReady(PodSpec, List, List, PodPhase)} from an already generated {@code ContainersReady}. */
  static PodCondition podReady(PodSpec spec, List<PodCondition> conditions, PodCondition containersReady) {
    if (containersReady.status() != ConditionStatus.True || spec.readinessGates().isEmpty()) {
      return PodCondition.of(PodCondition.READY, containersReady.status(), containersReady.reason(),
          containersReady.message(), null);
    }
    StringBuilder unready = null;
    for (String gate : spec.readinessGates()) {
      PodCondition c = condition(conditions, gate);
      if (c != null && c.status() == ConditionStatus.True) {
        continue;
      }
      unready = unready == null ? new StringBuilder() : unready.append(", ");
      if (c == null) {
        unready.append("corresponding condition of pod readiness gate ").append(quote(gate)).append(" does not exist.");
      } else {
        unready.append("the status of pod readiness gate ").append(quote(gate)).append(" is not \"True\", but ")
            .append(c.status().name());
      }
    }
    return unready == null ? READY
        : PodCondition.of(PodCondition.READY, ConditionStatus.False, READINESS_GATES_NOT_READY, unready.toString(),
            null);
  }

  private static final PodCondition READY = PodCondition.of(PodCondition.READY, ConditionStatus.True, "", "", null);

  /** {@code podutil.GetPodConditionFromList}: the first condition of {@code type}. */
  private static @Nullable PodCondition condition(List<PodCondition> conditions, String type) {
    for (int i = 0; i < conditions.size(); i++) {
      if (conditions.get(i).type().equals(type)) {
        return conditions.get(i);
      }
    }
    return null;
  }

  /** Go's {@code %q} of a condition type: a qualified name (as validation requires) has nothing it would escape. */
  private static String quote(String s) {
    return '"' + s + '"';
  }

  private static PodCondition ready(String type, PodSpec spec, @Nullable List<ContainerStatus> statuses,
      PodPhase phase) {
    if (statuses == null) {
      return PodCondition.of(type, ConditionStatus.False, UNKNOWN_CONTAINER_STATUSES, "", null);
    }
    List<String> unknown = null;
    List<String> unready = null;
    for (Container c : spec.initContainers()) {
      if (!c.isRestartable()) {
        continue;
      }
      ContainerStatus s = find(statuses, c.name());
      if (s == null) {
        unknown = add(unknown, c.name());
      } else if (!s.ready()) {
        unready = add(unready, c.name());
      }
    }
    for (Container c : spec.containers()) {
      ContainerStatus s = find(statuses, c.name());
      if (s == null) {
        unknown = add(unknown, c.name());
      } else if (!s.ready()) {
        unready = add(unready, c.name());
      }
    }
    if (phase == PodPhase.Succeeded && unknown == null) {
      return PodCondition.of(type, ConditionStatus.False, POD_COMPLETED, "", null);
    }
    if (phase == PodPhase.Failed) {
      return PodCondition.of(type, ConditionStatus.False, POD_FAILED, "", null);
    }
    if (unknown == null && unready == null) {
      return PodCondition.of(type, ConditionStatus.True, "", "", null);
    }
    return PodCondition.of(type, ConditionStatus.False, CONTAINERS_NOT_READY, message(unknown, "unknown", unready,
        "unready"), null);
  }

  /**
   * {@code GeneratePodInitializedCondition}: True when every regular init container is ready (exited 0) and every
   * sidecar started, or once a regular container has run (reason {@code PodCompleted} when the pod Succeeded with
   * every init container's status known); otherwise False with {@code ContainersNotInitialized} and a message naming
   * the init containers of unknown and of incomplete status. False with {@code UnknownContainerStatuses} when the
   * kubelet knows no status and the pod has init containers.
   */
  static PodCondition initialized(PodSpec spec, @Nullable List<ContainerStatus> statuses, PodPhase phase) {
    String type = PodCondition.INITIALIZED;
    if (statuses == null && !spec.initContainers().isEmpty()) {
      return PodCondition.of(type, ConditionStatus.False, UNKNOWN_CONTAINER_STATUSES, "", null);
    }
    List<ContainerStatus> known = statuses == null ? List.of() : statuses;
    List<String> unknown = null;
    List<String> incomplete = null;
    for (Container c : spec.initContainers()) {
      ContainerStatus s = find(known, c.name());
      if (s == null) {
        unknown = add(unknown, c.name());
      } else if (c.isRestartable() ? !s.started() : !s.ready()) {
        incomplete = add(incomplete, c.name());
      }
    }
    if (phase == PodPhase.Succeeded && unknown == null) {
      return PodCondition.of(type, ConditionStatus.True, POD_COMPLETED, "", null);
    }
    if (anyRegularContainerStarted(spec, known)) {
      return PodCondition.of(type, ConditionStatus.True, "", "", null);
    }
    if (unknown == null && incomplete == null) {
      return PodCondition.of(type, ConditionStatus.True, "", "", null);
    }
    return PodCondition.of(type, ConditionStatus.False, CONTAINERS_NOT_INITIALIZED, message(unknown, "unknown",
        incomplete, "incomplete"), null);
  }

  /** {@code kubecontainer.HasAnyRegularContainerStarted}: a regular container's status is running or terminated. */
  static boolean anyRegularContainerStarted(PodSpec spec, List<ContainerStatus> statuses) {
    for (Container c : spec.containers()) {
      ContainerStatus s = find(statuses, c.name());
      if (s != null && (s.state().type() == ContainerStateType.Running
          || s.state().type() == ContainerStateType.Terminated)) {
        return true;
      }
    }
    return false;
  }

  private static @Nullable ContainerStatus find(List<ContainerStatus> statuses, String name) {
    for (int i = 0; i < statuses.size(); i++) { // by index: no iterator per lookup
      ContainerStatus s = statuses.get(i);
      if (s.name().equals(name)) {
        return s;
      }
    }
    return null;
  }

  private static List<String> add(@Nullable List<String> l, String name) {
    List<String> out = l == null ? new ArrayList<>(2) : l;
    out.add(name);
    return out;
  }

  /** Upstream's {@code containers with unknown status: [a b], containers with unready status: [c]}. */
  private static String message(@Nullable List<String> first, String firstWord, @Nullable List<String> second,
      String secondWord) {
    StringBuilder b = new StringBuilder();
    if (first != null) {
      b.append("containers with ").append(firstWord).append(" status: [").append(String.join(" ", first)).append(']');
    }
    if (second != null) {
      if (b.length() > 0) {
        b.append(", ");
      }
      b.append("containers with ").append(secondWord).append(" status: [").append(String.join(" ", second))
          .append(']');
    }
    return b.toString();
  }
}
