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
 */
public record ScenarioFeatures(boolean horizontalPodAutoscaler, boolean clusterAutoscaler, boolean storage,
    boolean verticalPodAutoscaler, boolean queueAdmission, boolean queueScaling, boolean provisioner) {
  /** Everything on, with the cluster autoscaler (not the provisioner). */
  public static final ScenarioFeatures ALL = new ScenarioFeatures(true, true, true, true, true, true, false);

  /** The six as given, the provisioner off. */
  public ScenarioFeatures(boolean horizontalPodAutoscaler, boolean clusterAutoscaler, boolean storage,
      boolean verticalPodAutoscaler, boolean queueAdmission, boolean queueScaling) {
    this(horizontalPodAutoscaler, clusterAutoscaler, storage, verticalPodAutoscaler, queueAdmission, queueScaling,
        false);
  }

  /** These features with the provisioner on and the cluster autoscaler off. */
  public ScenarioFeatures withProvisioner() {
    return new ScenarioFeatures(horizontalPodAutoscaler, false, storage, verticalPodAutoscaler, queueAdmission,
        queueScaling, true);
  }

  /** The first three as given, the others on except the provisioner. */
  public ScenarioFeatures(boolean horizontalPodAutoscaler, boolean clusterAutoscaler, boolean storage) {
    this(horizontalPodAutoscaler, clusterAutoscaler, storage, true, true, true, false);
  }
}
