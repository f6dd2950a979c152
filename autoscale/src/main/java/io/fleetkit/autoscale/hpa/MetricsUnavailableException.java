package io.fleetkit.autoscale.hpa;

import io.fleetkit.api.FleetKitException;

/**
 * A metric could not be read or gave no usable value, e.g. {@code did not receive metrics for targeted pods (pods
 * might be unready)}. The messages follow Kubernetes' replica calculator so that they can be matched in tests and
 * logs. The HPA controller turns it into a {@code ScalingActive=False} condition; it is never thrown out of a
 * reconcile.
 */
public class MetricsUnavailableException extends FleetKitException {
  private static final long serialVersionUID = 1L;

  public MetricsUnavailableException(String message) {
    super(message);
  }

  public MetricsUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
