package io.fleetkit.api.apps;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A StatefulSet's update strategy. For {@code RollingUpdate} a {@code null} rollingUpdate becomes
 * {@link RollingUpdateStatefulSetStrategy#DEFAULT}.
 */
public record StatefulSetUpdateStrategy(StatefulSetUpdateStrategyType type,
    @Nullable RollingUpdateStatefulSetStrategy rollingUpdate) {
  public static final StatefulSetUpdateStrategy ROLLING_UPDATE = new StatefulSetUpdateStrategy(
      StatefulSetUpdateStrategyType.RollingUpdate, RollingUpdateStatefulSetStrategy.DEFAULT);
  public static final StatefulSetUpdateStrategy ON_DELETE =
      new StatefulSetUpdateStrategy(StatefulSetUpdateStrategyType.OnDelete, null);

  public StatefulSetUpdateStrategy {
    Objects.requireNonNull(type, "type");
    if (type == StatefulSetUpdateStrategyType.RollingUpdate && rollingUpdate == null) {
      rollingUpdate = RollingUpdateStatefulSetStrategy.DEFAULT;
    }
  }
}
