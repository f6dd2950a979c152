package io.fleetkit.api.apps;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A deployment's strategy. For {@code RollingUpdate} a {@code null} rollingUpdate becomes
 * {@link RollingUpdateDeployment#DEFAULT}; for {@code Recreate} it must be {@code null} (checked by the deployment).
 */
public record DeploymentStrategy(DeploymentStrategyType type, @Nullable RollingUpdateDeployment rollingUpdate) {
  public static final DeploymentStrategy RECREATE = new DeploymentStrategy(DeploymentStrategyType.Recreate, null);
  public static final DeploymentStrategy ROLLING_UPDATE =
      new DeploymentStrategy(DeploymentStrategyType.RollingUpdate, RollingUpdateDeployment.DEFAULT);

  public DeploymentStrategy {
    Objects.requireNonNull(type, "type");
    if (type == DeploymentStrategyType.RollingUpdate && rollingUpdate == null) {
      rollingUpdate = RollingUpdateDeployment.DEFAULT;
    }
  }

  public static DeploymentStrategy rollingUpdate(RollingUpdateDeployment bounds) {
    return new DeploymentStrategy(DeploymentStrategyType.RollingUpdate, bounds);
  }
}
