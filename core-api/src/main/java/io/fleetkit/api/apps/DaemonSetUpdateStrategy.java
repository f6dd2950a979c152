package io.fleetkit.api.apps;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A DaemonSet's update strategy. For {@code RollingUpdate} a {@code null} rollingUpdate becomes
 * {@link RollingUpdateDaemonSet#DEFAULT}, as Kubernetes' defaulting does; {@code OnDelete} ignores it.
 */
public record DaemonSetUpdateStrategy(DaemonSetUpdateStrategyType type, @Nullable RollingUpdateDaemonSet rollingUpdate) {
  public static final DaemonSetUpdateStrategy ROLLING_UPDATE =
      new DaemonSetUpdateStrategy(DaemonSetUpdateStrategyType.RollingUpdate, RollingUpdateDaemonSet.DEFAULT);
  public static final DaemonSetUpdateStrategy ON_DELETE =
      new DaemonSetUpdateStrategy(DaemonSetUpdateStrategyType.OnDelete, null);

  public DaemonSetUpdateStrategy {
    Objects.requireNonNull(type, "type");
    if (type == DaemonSetUpdateStrategyType.RollingUpdate && rollingUpdate == null) {
      rollingUpdate = RollingUpdateDaemonSet.DEFAULT;
    }
  }

  /** RollingUpdate with these bounds. */
  public static DaemonSetUpdateStrategy rollingUpdate(RollingUpdateDaemonSet bounds) {
    return new DaemonSetUpdateStrategy(DaemonSetUpdateStrategyType.RollingUpdate, Objects.requireNonNull(bounds,
        "bounds"));
  }
}
