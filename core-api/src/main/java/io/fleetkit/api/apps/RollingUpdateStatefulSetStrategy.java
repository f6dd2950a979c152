package io.fleetkit.api.apps;

import io.fleetkit.api.meta.IntOrPercent;
import java.util.Objects;

/**
 * Bounds of a StatefulSet rolling update: pods with an ordinal below {@code partition} keep the old revision; at
 * most {@code maxUnavailable} pods are down at once (default 1).
 */
public record RollingUpdateStatefulSetStrategy(int partition, IntOrPercent maxUnavailable) {
  public static final RollingUpdateStatefulSetStrategy DEFAULT =
      new RollingUpdateStatefulSetStrategy(0, IntOrPercent.ONE);

  public RollingUpdateStatefulSetStrategy {
    Objects.requireNonNull(maxUnavailable, "maxUnavailable");
  }
}
