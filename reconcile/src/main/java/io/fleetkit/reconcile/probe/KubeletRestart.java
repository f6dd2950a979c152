package io.fleetkit.reconcile.probe;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How the kubelet's prober manager keeps a container's readiness across a restart of the kubelet itself (kubelet's
 * {@code setReadyStateOnKubeletRestart} and {@code canInheritProbeState} in {@code prober_manager.go}, with the
 * {@code ChangeContainerStatusOnKubeletRestart} gate off, its default): the new kubelet has no probe results yet,
 * and a running container that started more than {@link #GRACE_PERIOD} before the kubelet did survived the restart.
 * Until its readiness probe gives a result, such a container is ready when the API server's status knows the same
 * instance (or knows no instance of it) and, if it declares a readiness probe, the pod's {@code Ready} condition is
 * {@code True}; a container the runtime replaced while the API server did not hear of it inherits nothing. Stateless.
 */
public final class KubeletRestart {
  /** kubelet's {@code kubeletRestartGracePeriod}: how long before the kubelet's start a survivor started. */
  public static final Duration GRACE_PERIOD = Duration.ofSeconds(10);

  private KubeletRestart() {}

  /**
   * kubelet's {@code canInheritProbeState}: false only when the API server's status names a different instance of
   * {@code containerName} than the runtime runs.
   *
   * @param apiContainerIds the container IDs of the pod's status as the API server has it, by container name (an
   *     empty ID: not known)
   * @param runtimeId the ID of the instance the runtime runs; empty when not known
   */
  public static boolean canInheritProbeState(Map<String, String> apiContainerIds, String containerName,
      String runtimeId) {
    Objects.requireNonNull(containerName, "containerName");
    Objects.requireNonNull(runtimeId, "runtimeId");
    String api = apiContainerIds.get(containerName);
    return api == null || api.isEmpty() || runtimeId.isEmpty() || api.equals(runtimeId);
  }

  /**
   * Whether a container that started at {@code startedAt} survived a kubelet that started at {@code kubeletStart}.
   */
  public static boolean survived(@Nullable Instant startedAt, Instant kubeletStart) {
    return startedAt != null && startedAt.isBefore(kubeletStart.minus(GRACE_PERIOD));
  }

  /**
   * A running, started container's readiness as {@code UpdatePodStatus} gives it once the kubelet-restart rule has
   * run ({@code setReadyStateOnKubeletRestart}).
   *
   * @param ready the readiness without the rule: the readiness probe's result is Success, or the container has no
   *     readiness worker
   * @param hasReadinessResult whether the readiness worker has cached a result for this instance
   * @param survived whether the container survived the kubelet restart ({@link #survived})
   * @param canInherit {@link #canInheritProbeState} for this instance
   * @param declaresReadinessProbe whether the container declares a readiness probe
   * @param podReady whether the API server's status has the pod's {@code Ready} condition {@code True}
   */
  public static boolean ready(boolean ready, boolean hasReadinessResult, boolean survived, boolean canInherit,
      boolean declaresReadinessProbe, boolean podReady) {
    if (!survived || hasReadinessResult) {
      return ready;
    }
    if (!canInherit) {
      // a replaced instance inherits nothing: without a result of its own it is not ready
      return ready && !declaresReadinessProbe;
    }
    if (declaresReadinessProbe) {
      return podReady;
    }
    return true;
  }
}
