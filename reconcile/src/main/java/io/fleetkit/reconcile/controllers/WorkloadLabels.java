package io.fleetkit.reconcile.controllers;

/** The label and annotation names the workload controllers read and write, as in Kubernetes. */
public final class WorkloadLabels {
  /** Label on a ReplicaSet, its selector and its pods: the hash of the Deployment template it runs. */
  public static final String POD_TEMPLATE_HASH = "pod-template-hash";
  /** Annotation on a Deployment and its ReplicaSets: the rollout revision, a decimal number. */
  public static final String REVISION = "deployment.kubernetes.io/revision";
  /** Annotation on a pod: the cost of deleting it relative to its siblings (lower goes first). */
  public static final String POD_DELETION_COST = "controller.kubernetes.io/pod-deletion-cost";
  /** Annotation on a ReplicaSet: the Deployment's replicas when the ReplicaSet was last scaled. */
  public static final String DESIRED_REPLICAS = "deployment.kubernetes.io/desired-replicas";
  /** Annotation on a ReplicaSet: replicas + maxSurge of the Deployment when it was last scaled. */
  public static final String MAX_REPLICAS = "deployment.kubernetes.io/max-replicas";

  /** Reason of Progressing=True while a new ReplicaSet is being created. */
  public static final String REASON_NEW_RS_CREATED = "NewReplicaSetCreated";
  /** Reason of Progressing=True when an existing ReplicaSet became the new one. */
  public static final String REASON_FOUND_NEW_RS = "FoundNewReplicaSet";
  /** Reason of Progressing=True while the new ReplicaSet is scaled up and the old ones down. */
  public static final String REASON_RS_UPDATED = "ReplicaSetUpdated";
  /** Reason of Progressing=True once the rollout is complete. */
  public static final String REASON_NEW_RS_AVAILABLE = "NewReplicaSetAvailable";
  /** Reason of Progressing=False when no progress was made within progressDeadlineSeconds. */
  public static final String REASON_PROGRESS_DEADLINE_EXCEEDED = "ProgressDeadlineExceeded";
  /**
   * Deployment annotation: {@code "true"} opts into an automatic {@code rollout undo} (to the previous revision)
   * when the Deployment's progress deadline is exceeded.
   */
  public static final String ROLLBACK_ON_PROGRESS_DEADLINE = "deployment.fleetkit.io/rollback-on-progress-deadline";
  /** Reason of Progressing=Unknown while paused. */
  public static final String REASON_PAUSED = "DeploymentPaused";
  /** Reason of Progressing=Unknown when resumed. */
  public static final String REASON_RESUMED = "DeploymentResumed";
  /** Reason of Available=True/False. */
  public static final String REASON_MINIMUM_REPLICAS_AVAILABLE = "MinimumReplicasAvailable";
  /** Reason of Available=False. */
  public static final String REASON_MINIMUM_REPLICAS_UNAVAILABLE = "MinimumReplicasUnavailable";

  /** Label on a StatefulSet pod: its own name (upstream's {@code StatefulSetPodNameLabel}). */
  public static final String STATEFULSET_POD_NAME = "statefulset.kubernetes.io/pod-name";
  /** Label on a StatefulSet pod: its ordinal (upstream's {@code PodIndexLabel}). */
  public static final String POD_INDEX = "apps.kubernetes.io/pod-index";
  /** Label on a StatefulSet pod: the name of the revision ({@code <set>-<hash>}) it was made from. */
  public static final String CONTROLLER_REVISION_HASH = "controller-revision-hash";
  /**
   * Annotation on a StatefulSet or Indexed Job pod: its {@code spec.hostname}. FleetKit's {@code PodSpec} has no
   * hostname field, so the stable network identity is carried here ({@code <pod>.<subdomain>.<ns>.svc}).
   */
  public static final String HOSTNAME = "fleetkit.io/hostname";
  /** Annotation on a StatefulSet pod: its {@code spec.subdomain}, the set's governing service name. */
  public static final String SUBDOMAIN = "fleetkit.io/subdomain";

  /** Label on a Job's pods: the Job's uid. */
  public static final String JOB_CONTROLLER_UID = "batch.kubernetes.io/controller-uid";
  /** Label on a Job's pods: the Job's name. */
  public static final String JOB_NAME = "batch.kubernetes.io/job-name";
  /** Annotation and label on an Indexed Job's pods: the completion index. */
  public static final String JOB_COMPLETION_INDEX = "batch.kubernetes.io/job-completion-index";
  /**
   * Annotation on the pods of an Indexed Job with {@code backoffLimitPerIndex}: the failures of the pod's index
   * before it (the pods it replaces that counted).
   */
  public static final String JOB_INDEX_FAILURE_COUNT = "batch.kubernetes.io/job-index-failure-count";
  /**
   * Annotation on the pods of an Indexed Job with {@code backoffLimitPerIndex}: the failures of the pod's index an
   * {@code Ignore} rule of the pod failure policy matched; absent when none.
   */
  public static final String JOB_INDEX_IGNORED_FAILURE_COUNT = "batch.kubernetes.io/job-index-ignored-failure-count";
  /** Environment variable of every container of an Indexed Job's pod: the completion index. */
  public static final String JOB_COMPLETION_INDEX_ENV = "JOB_COMPLETION_INDEX";

  /** Label on a DaemonSet pod: the template generation it was made from (upstream's DaemonSetTemplateGenerationKey). */
  public static final String POD_TEMPLATE_GENERATION = "pod-template-generation";
  /**
   * Annotation on a DaemonSet holding its template generation (upstream's {@code DeprecatedTemplateGeneration}, which
   * the API server maintains); when present, its pods get {@value #POD_TEMPLATE_GENERATION}.
   */
  public static final String DEPRECATED_TEMPLATE_GENERATION = "deprecated.daemonset.template.generation";

  private WorkloadLabels() {}
}
