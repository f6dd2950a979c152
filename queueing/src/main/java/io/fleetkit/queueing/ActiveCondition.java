package io.fleetkit.queueing;

import java.util.Objects;

/**
 * A queue's {@code Active} condition as Kueue reports it in the queue's status ({@link
 * AdmissionEngine#clusterQueueActive}, {@link AdmissionEngine#localQueueActive}).
 *
 * @param status whether the queue admits (or, for a LocalQueue, can submit) new workloads
 * @param reason the condition reason, e.g. {@value #READY}, {@value #STOPPED}, {@code FlavorNotFound}
 * @param message Kueue's message, e.g. {@code Can't admit new workloads: is stopped.}
 */
public record ActiveCondition(boolean status, String reason, String message) {
  /** Reason of an active queue. */
  public static final String READY = "Ready";
  /** Reason of a queue whose {@link StopPolicy} is not {@code None}. */
  public static final String STOPPED = "Stopped";
  /** Reason of a ClusterQueue removed while workloads still hold its quota. */
  public static final String TERMINATING = "Terminating";
  /** Reason of a ClusterQueue naming a ResourceFlavor the engine does not have. */
  public static final String FLAVOR_NOT_FOUND = "FlavorNotFound";
  /** Reason of a ClusterQueue naming an AdmissionCheck the engine does not have. */
  public static final String ADMISSION_CHECK_NOT_FOUND = "AdmissionCheckNotFound";
  /** Reason of a ClusterQueue naming an inactive AdmissionCheck. */
  public static final String ADMISSION_CHECK_INACTIVE = "AdmissionCheckInactive";
  /** Reason of a LocalQueue whose ClusterQueue does not exist. */
  public static final String CLUSTER_QUEUE_DOES_NOT_EXIST = "ClusterQueueDoesNotExist";
  /** Reason of a LocalQueue whose ClusterQueue is inactive. */
  public static final String CLUSTER_QUEUE_IS_INACTIVE = "ClusterQueueIsInactive";

  public ActiveCondition {
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(message, "message");
  }
}
