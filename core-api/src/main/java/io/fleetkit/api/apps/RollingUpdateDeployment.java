package io.fleetkit.api.apps;

import io.fleetkit.api.meta.IntOrPercent;
import java.util.Objects;

/**
 * Bounds of a rolling update. Kubernetes defaults both to 25%; {@code maxSurge} is scaled rounding up and
 * {@code maxUnavailable} rounding down (see {@link IntOrPercent#scaledValue}).
 */
public record RollingUpdateDeployment(IntOrPercent maxSurge, IntOrPercent maxUnavailable) {
  public static final RollingUpdateDeployment DEFAULT =
      new RollingUpdateDeployment(IntOrPercent.TWENTY_FIVE_PERCENT, IntOrPercent.TWENTY_FIVE_PERCENT);

  public RollingUpdateDeployment {
    Objects.requireNonNull(maxSurge, "maxSurge");
    Objects.requireNonNull(maxUnavailable, "maxUnavailable");
  }

  /**
   * Kubernetes' {@code ResolveFenceposts}: the absolute surge and unavailability for {@code replicas}; when both
   * come out 0, unavailability becomes 1 so that a rollout can progress.
   *
   * @return {@code {maxSurge, maxUnavailable}}
   */
  public int[] resolveFenceposts(int replicas) {
    int surge = maxSurge.scaledValue(replicas, true);
    int unavailable = maxUnavailable.scaledValue(replicas, false);
    if (surge == 0 && unavailable == 0) {
      unavailable = 1;
    }
    return new int[] {surge, unavailable};
  }
}
