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
  /**
   * Annotation allowing a Job to be admitted with fewer pods (Kueue's partial admission): the fewest pods it accepts,
   * from 1 to one less than its parallelism; the Job's pod set gets it as {@code minCount}. A Job admitted with fewer
   * pods runs with its {@code parallelism} lowered to the admitted count until it loses its admission.
   */
  public static final String JOB_MIN_PARALLELISM = "kueue.x-k8s.io/job-min-parallelism";
  /**
   * Annotation ({@code true}/{@code false}) of an Indexed Job whose completions equal its parallelism: a partial
   * admission lowers both.
   */
  public static final String JOB_COMPLETIONS_EQUAL_PARALLELISM = "kueue.x-k8s.io/job-completions-equal-parallelism";
  /**
   * Annotation holding the Job's own parallelism while a partial admission runs it with fewer pods (restored when
   * the Job loses its admission).
   */
  public static final String ORIGINAL_PARALLELISM = "fleetkit.io/queue-original-parallelism";
  /**
   * Annotation listing, comma-separated, the pod-template label keys the controller added from admission checks'
   * pod set updates (removed again when the Job loses its admission).
   */
  public static final String INJECTED_TEMPLATE_LABELS = "fleetkit.io/queue-injected-template-labels";
  /**
   * Annotation listing, comma-separated, the pod-template annotation keys the controller added from admission
   * checks' pod set updates (removed again when the Job loses its admission).
   */
  public static final String INJECTED_TEMPLATE_ANNOTATIONS = "fleetkit.io/queue-injected-template-annotations";
  /**
   * Scheduling gate of the pods of a pod set admitted with a topology assignment (Kueue's {@code
   * TopologySchedulingGate}): added to the Job's pod template when it starts, removed from each pod by the topology
   * ungater together with the node labels of the pod's topology domain added to its nodeSelector.
   */
  public static final String TOPOLOGY_SCHEDULING_GATE = "kueue.x-k8s.io/topology";
  /**
   * Pod-template (and so pod) annotation naming the workload a pod belongs to (Kueue's {@code WorkloadAnnotation}; a
   * Job's workload has the Job's name); set on a Job started with a topology assignment.
   */
  public static final String WORKLOAD = "kueue.x-k8s.io/workload";
  /**
   * Pod-template (and so pod) label naming the pod set of the admitted workload the pods belong to (Kueue's {@code
   * PodSetLabel}); set on a Job started with a topology assignment.
   */
  public static final String POD_SET = "kueue.x-k8s.io/podset";
  /**
   * Pod annotation with the offset of the pods' index labels within their replica (Kueue's {@code
   * PodIndexOffsetAnnotation}): the ungater subtracts it from a pod's index to get its rank.
   */
  public static final String POD_INDEX_OFFSET = "kueue.x-k8s.io/pod-index-offset";
  /**
   * Annotation listing, comma-separated, the scheduling gates the controller added to the pod template (removed
   * again when the Job loses its admission).
   */
  public static final String INJECTED_SCHEDULING_GATES = "fleetkit.io/queue-injected-scheduling-gates";
  /**
   * Annotation recording the topology assignment of a Job admitted with one, {@code LEVEL,...|VALUE,...=COUNT;...}
   * (e.g. {@code kubernetes.io/hostname|h1=2;h2=1}; Kueue keeps it in the Workload's status): kept current while the
   * Job holds quota (a node replacement moves its pods), so that a restarted controller restores it and its
   * topology ungater goes on placing the Job's gated pods.
   */
  public static final String TOPOLOGY_ASSIGNMENT = "fleetkit.io/queue-topology-assignment";
  /** Job condition type: whether the Job holds quota (Kueue's Workload condition of that name). */
  public static final String QUOTA_RESERVED = "QuotaReserved";
  /** Reason of {@code QuotaReserved=True}. */
  public static final String REASON_ADMITTED = "QuotaReserved";
  /** Reason of {@code QuotaReserved=False} while waiting for quota. */
  public static final String REASON_PENDING = "Pending";
  /** Reason of {@code QuotaReserved=False} after a preemption. */
  public static final String REASON_PREEMPTED = "Preempted";
  /**
   * Reason of {@code QuotaReserved=False} after an admission check in state Retry evicted the Job's workload (Kueue's
   * eviction reason {@code AdmissionCheck}); it waits in its queue again.
   */
  public static final String REASON_ADMISSION_CHECK = "AdmissionCheck";
  /** Reason of {@code QuotaReserved=False} after an admission check in state Rejected deactivated the workload. */
  public static final String REASON_DEACTIVATED = "Deactivated";
  /**
   * Reason of {@code QuotaReserved=False} when the admission checks' pod set updates conflict with each other or
   * with the pod template (Kueue finishes the workload with reason {@code FailedToStart}); the Job stays suspended.
   */
  public static final String REASON_FAILED_TO_START = "FailedToStart";
  /**
   * Reason of {@code QuotaReserved=False} after {@code waitForPodsReady} evicted the Job's workload because its pods
   * were not ready in time (Kueue's eviction reason); it waits in its queue again after a backoff.
   */
  public static final String REASON_PODS_READY_TIMEOUT = "PodsReadyTimeout";
  /**
   * Reason of {@code QuotaReserved=False} after the engine evicted the Job's workload because a node of its topology
   * assignment failed and no replacement was found, or a second one failed (Kueue's eviction reason); it waits in its
   * queue again.
   */
  public static final String REASON_NODE_FAILURES = io.fleetkit.queueing.NodeReplacement.REASON_NODE_FAILURES;
  /**
   * Reason of {@code QuotaReserved=False} while {@code waitForPodsReady.blockAdmission} holds the Job back until every
   * admitted Job's pods are ready.
   */
  public static final String REASON_WAITING_FOR_PODS_READY = "WaitingForPodsReady";
  /** Reason of {@code QuotaReserved=True} while the admission checks of the reservation are not all ready. */
  public static final String REASON_WAITING_FOR_CHECKS = "WaitingForAdmissionChecks";
  /**
   * Reason of {@code QuotaReserved=False} while the Job's LocalQueue or ClusterQueue is stopped or inactive (Kueue's
   * {@code Suspended}, {@link io.fleetkit.queueing.QueueBlocker#SUSPENDED}; message e.g. {@code ClusterQueue cq is
   * inactive}); a Job drained by a {@code HoldAndDrain} queue is suspended with it.
   */
  public static final String REASON_SUSPENDED = io.fleetkit.queueing.QueueBlocker.SUSPENDED;
  /**
   * Reason of {@code QuotaReserved=False} while the Job's ClusterQueue does not exist (Kueue's {@code Misconfigured},
   * {@link io.fleetkit.queueing.QueueBlocker#MISCONFIGURED}; message {@code ClusterQueue cq doesn't exist}).
   */
  public static final String REASON_MISCONFIGURED = io.fleetkit.queueing.QueueBlocker.MISCONFIGURED;
  /**
   * Label naming the WorkloadPriorityClass whose value a Job's workload queues with (Kueue's {@code
   * kueue.x-k8s.io/priority-class}); the Job's pods keep the priority of their own PriorityClass.
   */
  public static final String PRIORITY_CLASS = io.fleetkit.queueing.WorkloadPriorityClass.LABEL;
  /**
   * Reason of {@code QuotaReserved=False} while the WorkloadPriorityClass a Job's {@value #PRIORITY_CLASS} label
   * names does not exist (Kueue's warning event of that reason, message {@code WorkloadPriorityClass "x" not found}):
   * no workload is queued until it does.
   */
  public static final String REASON_WORKLOAD_PRIORITY_CLASS_NOT_FOUND = "WorkloadPriorityClassNotFound";
  /** Reason of {@code QuotaReserved=False} when the Job can never be admitted as it is (e.g. unknown LocalQueue). */
  public static final String REASON_INADMISSIBLE = "Inadmissible";

  private QueueLabels() {}
}
