package io.fleetkit.api.core;

import io.fleetkit.api.meta.ConditionStatus;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** One condition of a pod, e.g. {@code PodScheduled=False reason=Unschedulable}. */
public record PodCondition(String type, ConditionStatus status, String reason, String message,
    @Nullable Instant lastProbeTime, @Nullable Instant lastTransitionTime) {
  public static final String POD_SCHEDULED = "PodScheduled";
  public static final String READY = "Ready";
  public static final String INITIALIZED = "Initialized";
  public static final String CONTAINERS_READY = "ContainersReady";
  public static final String DISRUPTION_TARGET = "DisruptionTarget";
  /**
   * The pod's sandbox is ready and its network configured (the kubelet writes it, kube's
   * {@code PodReadyToStartContainers}).
   */
  public static final String POD_READY_TO_START_CONTAINERS = "PodReadyToStartContainers";
  /**
   * The reason the scheduler gives on {@code PodScheduled=False} when no node fits the pod (kube's
   * {@code PodReasonUnschedulable}).
   */
  public static final String REASON_UNSCHEDULABLE = "Unschedulable";
  /**
   * The reason the scheduler gives on {@code PodScheduled=False} when the attempt failed on an internal error, e.g. a
   * plugin error or a binding that gave up (kube's {@code PodReasonSchedulerError}).
   */
  public static final String REASON_SCHEDULER_ERROR = "SchedulerError";

  public PodCondition {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(message, "message");
  }

  public static PodCondition of(String type, ConditionStatus status, String reason, String message,
      @Nullable Instant lastTransitionTime) {
    return new PodCondition(type, status, reason, message, null, lastTransitionTime);
  }
}
