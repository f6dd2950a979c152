package io.fleetkit.autoscale.cluster;

import io.fleetkit.api.core.Pod;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How the deletion of one node ended (upstream's {@code scaledown/status.NodeDeleteResult}).
 *
 * @param type the outcome
 * @param error why it failed, or {@code null} when {@link Type#OK}
 * @param podEvictionResults the evictions of a drain that failed while evicting, by pod name; empty otherwise
 */
public record NodeDeleteResult(Type type, @Nullable AutoscalerError error,
    Map<String, PodEvictionResult> podEvictionResults) {
  /**
   * Upstream's {@code NodeDeleteResultType}s that its actuator reports (a refused taint is the failure of the whole
   * call, {@link ScaleDownStatus.Result#ERROR}, not a node's result).
   */
  public enum Type {
    /** The node was deleted ({@code NodeDeleteOk}). */
    OK,
    /** Deleting the node failed, or was aborted with its atomic pool ({@code NodeDeleteErrorFailedToDelete}). */
    FAILED_TO_DELETE,
    /** The node's pods no longer allowed its deletion: an "empty" node got pods ({@code NodeDeleteErrorInternal}). */
    INTERNAL,
    /** An eviction failed, or evicted pods did not disappear in time ({@code NodeDeleteErrorFailedToEvictPods}). */
    FAILED_TO_EVICT_PODS
  }

  public NodeDeleteResult {
    Objects.requireNonNull(type, "type");
    podEvictionResults = Map.copyOf(podEvictionResults);
    if ((type == Type.OK) != (error == null)) {
      throw new IllegalArgumentException("node delete result " + type + ": error " + error
          + " must be set exactly when the result is not OK");
    }
  }

  /** The result of a deleted node. */
  static final NodeDeleteResult OK_RESULT = new NodeDeleteResult(Type.OK, null, Map.of());

  static NodeDeleteResult failed(Type type, AutoscalerError error) {
    return new NodeDeleteResult(type, error, Map.of());
  }

  /**
   * How the eviction of one pod ended (upstream's {@code status.PodEvictionResult}).
   *
   * @param pod the pod as it was on the node
   * @param timedOut whether the eviction was still not done when the drain gave up on it
   * @param error the last error, or {@code null}
   * @param gracePeriodSeconds the grace period the eviction gave the pod (0 when it was not evicted)
   */
  public record PodEvictionResult(Pod pod, boolean timedOut, @Nullable String error, long gracePeriodSeconds) {
    public PodEvictionResult {
      Objects.requireNonNull(pod, "pod");
    }

    /** Upstream's {@code WasEvictionSuccessful}: no error and not timed out. */
    public boolean successful() {
      return error == null && !timedOut;
    }
  }
}
