package io.fleetkit.queueing;

import java.util.List;
import java.util.Objects;

/**
 * What a scheduling cycle did about an admitted workload whose topology assignment names an unhealthy node (Kueue's
 * node replacement, the scheduler's second pass, and its node failure controller; reported in {@link
 * CycleResult#nodeReplacements()}).
 *
 * @param workload the workload's key
 * @param clusterQueue the ClusterQueue whose quota it holds (or held)
 * @param unhealthyNodes the workload's unhealthy nodes when the cycle acted (Kueue's {@code status.unhealthyNodes})
 * @param kind replaced, not replaced, or evicted
 * @param message empty for {@link Kind#REPLACED}; for {@link Kind#FAILED} why no replacement was found (Kueue's
 *     {@code SecondPassFailed} event, e.g. {@code couldn't assign flavors to pod set one: topology "t" doesn't allow
 *     to fit any of 1 pod(s)}); for {@link Kind#EVICTED} Kueue's eviction message ({@value #NO_REPLACEMENT_MESSAGE}
 *     followed by the nodes, or {@value #MULTIPLE_FAILURES_MESSAGE} followed by the nodes)
 * @param reservation for {@link Kind#REPLACED} the workload's new quota reservation (the same quota, with the pods of
 *     the unhealthy node moved); otherwise the reservation it had
 */
public record NodeReplacement(String workload, String clusterQueue, List<String> unhealthyNodes, Kind kind,
    String message, QuotaReservation reservation) {
  /** Kueue's {@code Evicted} condition reason for evictions caused by node failures. */
  public static final String REASON_NODE_FAILURES = "NodeFailures";
  /** Kueue's message when no replacement was found and {@code failFast} is on, before the node names. */
  public static final String NO_REPLACEMENT_MESSAGE =
      "Workload was evicted as there was no replacement for unhealthy node(s): ";
  /** Kueue's node failure controller's message when a second node of a workload fails, before the node names. */
  public static final String MULTIPLE_FAILURES_MESSAGE =
      "Workload eviction triggered due to multiple TAS assigned node failures, including: ";

  public NodeReplacement {
    Objects.requireNonNull(workload, "workload");
    Objects.requireNonNull(clusterQueue, "clusterQueue");
    unhealthyNodes = List.copyOf(Objects.requireNonNull(unhealthyNodes, "unhealthyNodes"));
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(reservation, "reservation");
  }

  /** What happened. */
  public enum Kind {
    /** A replacement was found: the pods of the unhealthy node go elsewhere, the rest stay; the record is cleared. */
    REPLACED,
    /**
     * No replacement was found and {@code failFast} is off: the workload keeps its assignment and unhealthy node, and
     * the next cycle tries again.
     */
    FAILED,
    /**
     * The workload was evicted (quota released, queued again, its unhealthy nodes cleared): no replacement was found
     * with {@code failFast} on, or a second node of its assignment failed.
     */
    EVICTED
  }

  /**
   * Whether {@code pod} is one of the progressing pods on {@code node} that Kueue's node failure controller waits for
   * ({@code hasProgressingPods}): bound to the node ({@code spec.nodeName}), not being deleted and not terminated
   * ({@code Succeeded} or {@code Failed}). A pending pod bound to the node counts; one only pinned to it by a node
   * selector, or gated, does not. For {@link AdmissionEngine#setProgressingPods}.
   */
  public static boolean isProgressing(io.fleetkit.api.core.Pod pod, String node) {
    return pod.spec().nodeName().equals(node) && pod.metadata().deletionTimestamp() == null && !pod.isTerminal();
  }
}
