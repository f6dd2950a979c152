package io.fleetkit.api.simulation;

/**
 * Which engines a scenario runs beside the store, the workload controllers, the scheduler, the node lifecycle and
 * the simulated kubelets (those always run).
 *
 * @param horizontalPodAutoscaler the HPA controller, every 15 s, reading usage that follows the load
 * @param clusterAutoscaler the cluster autoscaler over the NodePools, every 10 s
 * @param storage PersistentVolume binding and dynamic provisioning
 */
public record ScenarioFeatures(boolean horizontalPodAutoscaler, boolean clusterAutoscaler, boolean storage) {
  /** Everything on. */
  public static final ScenarioFeatures ALL = new ScenarioFeatures(true, true, true);
}
