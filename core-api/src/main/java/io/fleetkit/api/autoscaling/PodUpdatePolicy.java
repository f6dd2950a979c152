package io.fleetkit.api.autoscaling;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How a VPA updates pods ({@code spec.updatePolicy}).
 *
 * @param minReplicas the fewest live replicas for the updater to evict; {@code null} for the updater's flag
 *     (2 by default)
 */
public record PodUpdatePolicy(UpdateMode updateMode, @Nullable Integer minReplicas) {
  public PodUpdatePolicy {
    Objects.requireNonNull(updateMode, "updateMode");
  }

  public static PodUpdatePolicy of(UpdateMode updateMode) {
    return new PodUpdatePolicy(updateMode, null);
  }
}
