package io.fleetkit.autoscale.queue;

import io.fleetkit.api.autoscaling.MetricTargetType;
import java.util.Objects;

/**
 * One trigger of a {@link ScaledObject}: which scaler it reads and how its value maps to replicas.
 *
 * @param name the trigger's name; the {@link Scaler} registered under it is read
 * @param targetType {@link MetricTargetType#AverageValue} (KEDA's default: {@code target} per replica, so
 *     {@code ceil(value / target)} replicas) or {@link MetricTargetType#Value} (the total value against
 *     {@code target}, scaled by the ready replicas)
 * @param target the target value, above 0
 * @param activationThreshold the target is active while the value is above this (KEDA's
 *     {@code activationThreshold}, default 0)
 * <p>The constructor throws {@link IllegalArgumentException} when the name is empty, the type is Utilization, the
 * target is not positive or the activation threshold is negative.
 */
public record ScaleTrigger(String name, MetricTargetType targetType, double target, double activationThreshold) {
  public ScaleTrigger {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(targetType, "targetType");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("scale trigger: name must not be empty");
    }
    if (targetType == MetricTargetType.Utilization) {
      throw new IllegalArgumentException("scale trigger " + name + ": targetType must be AverageValue or Value, was "
          + targetType);
    }
    if (!(target > 0) || Double.isInfinite(target)) {
      throw new IllegalArgumentException("scale trigger " + name + ": target " + target + " must be > 0");
    }
    if (!(activationThreshold >= 0)) {
      throw new IllegalArgumentException(
          "scale trigger " + name + ": activationThreshold " + activationThreshold + " must be >= 0");
    }
  }

  /** A queue-length trigger: {@code perReplica} items per replica, active above {@code activationThreshold}. */
  public static ScaleTrigger queueLength(String name, double perReplica, double activationThreshold) {
    return new ScaleTrigger(name, MetricTargetType.AverageValue, perReplica, activationThreshold);
  }
}
