package io.fleetkit.autoscale.cluster;

import java.util.Objects;

/**
 * A failure of the cluster autoscaler's own work, typed as upstream's {@code utils/errors.AutoscalerError}: what kind
 * of failure it was and a message naming the node or pod. A value carried by results ({@link NodeDeleteResult},
 * {@link ScaleDownStatus}), never thrown.
 *
 * @param type the kind of failure
 * @param message what failed, naming the object
 */
public record AutoscalerError(Type type, String message) {
  /** Upstream's {@code AutoscalerErrorType}s that scale-down actuation produces. */
  public enum Type {
    /** The node provider (here: the store's node deletion) failed ({@code CloudProviderError}). */
    CLOUD_PROVIDER_ERROR,
    /** A call to the API (here: the store, or its admission) failed ({@code ApiCallError}). */
    API_CALL_ERROR,
    /** The autoscaler's own state did not allow the operation ({@code InternalError}). */
    INTERNAL_ERROR,
    /** A failure that may pass by itself: pods still present after the drain's wait ({@code TransientError}). */
    TRANSIENT_ERROR,
    /** An operation not attempted because an earlier one failed ({@code UnexpectedScaleDownStateError}). */
    UNEXPECTED_SCALE_DOWN_STATE_ERROR
  }

  public AutoscalerError {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(message, "message");
  }

  @Override
  public String toString() {
    return type + ": " + message;
  }
}
