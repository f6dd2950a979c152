package io.fleetkit.queueing.backfill;

import java.util.Objects;

/**
 * A Slurm quality of service; its factor is its priority over the largest QOS priority.
 *
 * @param name the QOS name
 * @param priority its priority, not negative
 */
public record Qos(String name, int priority) {
  public Qos {
    Objects.requireNonNull(name, "name");
    if (priority < 0) {
      throw new IllegalArgumentException("qos " + name + ": priority " + priority + " must not be negative");
    }
  }
}
