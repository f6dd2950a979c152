package io.fleetkit.api.simulation;

import java.time.Duration;
import java.util.Objects;

/**
 * KEDA-style scaling of a Deployment on the length of its work queue. The queue is fed by the scenario's load on
 * the same Deployment (requests/s become messages/s) and drained by its ready pods (each serves its CPU request
 * divided by the load's {@code cpuPerRequest} messages/s); every {@code pollingInterval} the messages waiting are
 * read as a {@code queueLength} trigger with {@code perReplica} messages per replica, active above
 * {@code activation}, between {@code minReplicas} (0 scales to zero) and {@code maxReplicas}, back to rest
 * {@code cooldown} after the last active poll (KEDA's ScaledObject).
 */
public record QueueScaler(String namespace, String name, double perReplica, double activation, int minReplicas,
    int maxReplicas, Duration pollingInterval, Duration cooldown) {
  /** KEDA's default polling interval. */
  public static final Duration DEFAULT_POLLING_INTERVAL = Duration.ofSeconds(30);
  /** KEDA's default cooldown period. */
  public static final Duration DEFAULT_COOLDOWN = Duration.ofSeconds(300);
  /** KEDA's default maxReplicaCount. */
  public static final int DEFAULT_MAX_REPLICAS = 100;

  public QueueScaler {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(pollingInterval, "pollingInterval");
    Objects.requireNonNull(cooldown, "cooldown");
  }

  /** {@code Deployment/namespace/name}, as a load's target. */
  public String target() {
    return "Deployment/" + namespace + "/" + name;
  }
}
