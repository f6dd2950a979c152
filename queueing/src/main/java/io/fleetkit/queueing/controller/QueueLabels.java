package io.fleetkit.queueing.controller;

/**
 * The label, annotations and condition through which {@link QueueAdmissionController} and users talk about a Job's
 * queueing, after Kueue's job integration.
 */
public final class QueueLabels {
  /** Label naming the LocalQueue (in the Job's namespace) a Job is submitted to; its presence makes a Job managed. */
  public static final String QUEUE_NAME = "kueue.x-k8s.io/queue-name";
  /**
   * Annotation holding a Job's admission, {@code CLUSTERQUEUE/RESOURCE=FLAVOR,RESOURCE=FLAVOR} (e.g.
   * {@code team-a/cpu=on-demand,nvidia.com/gpu=a100}); present exactly while the Job holds quota.
   */
  public static final String ADMISSION = "kueue.x-k8s.io/admission";
  /** Annotation holding when the quota was reserved (ISO-8601), kept with {@link #ADMISSION}. */
  public static final String ADMITTED_AT = "fleetkit.io/queue-admitted-at";
  /**
   * Annotation listing, comma-separated, the pod-template nodeSelector keys the controller injected from the
   * assigned flavors' node labels (removed again when the Job loses its admission).
   */
  public static final String INJECTED_NODE_SELECTOR = "fleetkit.io/queue-injected-node-selector";
  /**
   * Annotation holding how many tolerations the controller appended to the pod template from the assigned flavors'
   * tolerations (taken off the end again when the Job loses its admission).
   */
  public static final String INJECTED_TOLERATIONS = "fleetkit.io/queue-injected-tolerations";
  /** Job condition type: whether the Job holds quota (Kueue's Workload condition of that name). */
  public static final String QUOTA_RESERVED = "QuotaReserved";
  /** Reason of {@code QuotaReserved=True}. */
  public static final String REASON_ADMITTED = "QuotaReserved";
  /** Reason of {@code QuotaReserved=False} while waiting for quota. */
  public static final String REASON_PENDING = "Pending";
  /** Reason of {@code QuotaReserved=False} after a preemption. */
  public static final String REASON_PREEMPTED = "Preempted";
  /** Reason of {@code QuotaReserved=False} when the Job can never be admitted as it is (e.g. unknown LocalQueue). */
  public static final String REASON_INADMISSIBLE = "Inadmissible";

  private QueueLabels() {}
}
