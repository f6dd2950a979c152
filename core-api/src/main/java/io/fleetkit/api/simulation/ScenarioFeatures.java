package io.fleetkit.api.simulation;

/**
 * Which engines a scenario runs beside the store, the workload controllers, the scheduler, the node lifecycle and
 * the simulated kubelets (those always run).
 *
 * @param horizontalPodAutoscaler the HPA controller, every 15 s, reading usage that follows the load
 * @param clusterAutoscaler the cluster autoscaler over the NodePools, every 10 s
 * @param storage PersistentVolume binding and dynamic provisioning
 * @param verticalPodAutoscaler the VPA recommender and updater every minute, and the VPA admission of new pods
 * @param queueAdmission Kueue-style admission of queued Jobs over the scenario's {@code queues}
 * @param queueScaling KEDA-style scaling of the scenario's {@code queueScalers}
 * @param provisioner the Karpenter-style provisioner instead of the cluster autoscaler, every 10 s, launching
 *     nodes shaped like the NodePools (one instance type per pool); never on together with {@code clusterAutoscaler}
 * @param networking Service networking when the manifests have Services: node IPAM and pod IPs, cluster IPs and
 *     node ports, EndpointSlices
 * @param admission the store's standard admission chain (NamespaceLifecycle, LimitRanger, Priority,
 *     DefaultTolerationSeconds, ResourceQuota) when the objects hold Namespaces, ResourceQuotas or LimitRanges: a
 *     create the chain denies is not stored (a workload controller records {@code FailedCreate})
 * @param rollouts the Argo-Rollouts-style Rollout and AnalysisRun controllers (off: Rollouts are stored but nothing
 *     acts on them)
 */
public record ScenarioFeatures(boolean horizontalPodAutoscaler, boolean clusterAutoscaler, boolean storage,
    boolean verticalPodAutoscaler, boolean queueAdmission, boolean queueScaling, boolean provisioner,
    boolean networking, boolean admission, boolean rollouts) {
  /** Everything on, with the cluster autoscaler (not the provisioner). */
  public static final ScenarioFeatures ALL = new ScenarioFeatures(true, true, true, true, true, true, false, true,
      true, true);

  /** The nine as given, rollouts on. */
  public ScenarioFeatures(boolean horizontalPodAutoscaler, boolean clusterAutoscaler, boolean storage,
      boolean verticalPodAutoscaler, boolean queueAdmission, boolean queueScaling, boolean provisioner,
      boolean networking, boolean admission) {
    this(horizontalPodAutoscaler, clusterAutoscaler, storage, verticalPodAutoscaler, queueAdmission, queueScaling,
        provisioner, networking, admission, true);
  }

  /** The eight as given, admission on. */
  public ScenarioFeatures(boolean horizontalPodAutoscaler, boolean clusterAutoscaler, boolean storage,
      boolean verticalPodAutoscaler, boolean queueAdmission, boolean queueScaling, boolean provisioner,
      boolean networking) {
    this(horizontalPodAutoscaler, clusterAutoscaler, storage, verticalPodAutoscaler, queueAdmission, queueScaling,
        provisioner, networking, true);
  }

  /** The seven as given, networking on. */
  public ScenarioFeatures(boolean horizontalPodAutoscaler, boolean clusterAutoscaler, boolean storage,
      boolean verticalPodAutoscaler, boolean queueAdmission, boolean queueScaling, boolean provisioner) {
    this(horizontalPodAutoscaler, clusterAutoscaler, storage, verticalPodAutoscaler, queueAdmission, queueScaling,
        provisioner, true);
  }

  /** The six as given, the provisioner off, networking on. */
  public ScenarioFeatures(boolean horizontalPodAutoscaler, boolean clusterAutoscaler, boolean storage,
      boolean verticalPodAutoscaler, boolean queueAdmission, boolean queueScaling) {
    this(horizontalPodAutoscaler, clusterAutoscaler, storage, verticalPodAutoscaler, queueAdmission, queueScaling,
        false, true);
  }

  /** These features with the provisioner on and the cluster autoscaler off. */
  public ScenarioFeatures withProvisioner() {
    return new ScenarioFeatures(horizontalPodAutoscaler, false, storage, verticalPodAutoscaler, queueAdmission,
        queueScaling, true, networking, admission, rollouts);
  }

  /** The first three as given, the others on except the provisioner. */
  public ScenarioFeatures(boolean horizontalPodAutoscaler, boolean clusterAutoscaler, boolean storage) {
    this(horizontalPodAutoscaler, clusterAutoscaler, storage, true, true, true, false, true);
  }
}
