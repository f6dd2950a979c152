package io.fleetkit.autoscale.queue;

/**
 * Reads one number for a trigger: a queue's length, a backlog, requests in flight, any external value (KEDA's
 * scaler). Called once per polling interval per trigger.
 */
@FunctionalInterface
public interface Scaler {
  /**
   * The current value, at least 0.
   *
   * @throws RuntimeException when the value cannot be read; the controller reports it and keeps the replica count
   */
  double currentValue();
}
