package io.fleetkit.api.apps;

import io.fleetkit.api.meta.IntOrPercent;
import java.util.Objects;

/**
 * Bounds of a DaemonSet rolling update, as apps/v1 {@code RollingUpdateDaemonSet}: at most {@code maxUnavailable}
 * nodes without an available daemon pod (default 1), or, with {@code maxUnavailable} 0, at most {@code maxSurge}
 * nodes running an old and a new pod at once (default 0). Exactly one of them must be non-zero (checked by
 * {@link DaemonSet}). Percentages are of the nodes that should run a daemon pod, rounded up.
 */
public record RollingUpdateDaemonSet(IntOrPercent maxUnavailable, IntOrPercent maxSurge) {
  public static final RollingUpdateDaemonSet DEFAULT = new RollingUpdateDaemonSet(IntOrPercent.ONE, IntOrPercent.ZERO);

  public RollingUpdateDaemonSet {
    Objects.requireNonNull(maxUnavailable, "maxUnavailable");
    Objects.requireNonNull(maxSurge, "maxSurge");
  }

  /** Surge-driven bounds: {@code maxUnavailable} 0 and this {@code maxSurge}. */
  public static RollingUpdateDaemonSet surge(IntOrPercent maxSurge) {
    return new RollingUpdateDaemonSet(IntOrPercent.ZERO, maxSurge);
  }

  /** Unavailability-driven bounds: this {@code maxUnavailable} and {@code maxSurge} 0. */
  public static RollingUpdateDaemonSet unavailable(IntOrPercent maxUnavailable) {
    return new RollingUpdateDaemonSet(maxUnavailable, IntOrPercent.ZERO);
  }
}
