package io.fleetkit.api.simulation;

/** What a {@link ScenarioFault} breaks. */
public enum FaultType {
  /** One node (target: the node name) stops heartbeating and running pods. */
  NodeFailure,
  /** Every node whose {@code topology.kubernetes.io/zone} label is the target fails at once. */
  ZoneFailure,
  /**
   * {@code devices} GPUs of one node (target: the node name) turn unhealthy, as a device plugin reports them: the
   * node's allocatable {@code nvidia.com/gpu} drops by that many (its capacity stays), and the pods holding them are
   * evicted. On a node without {@code nvidia.com/gpu} whose GPUs are Dynamic Resource Allocation devices, each failed
   * device gets a NoExecute DeviceTaintRule instead, and the device taint eviction controller evicts its pods.
   */
  GpuDeviceFault,
  /** The API answers {@code latency} late (no target): the scheduler's bindings and the controllers' writes wait. */
  ApiSlowness,
  /**
   * The kubelet of one node (target: the node name) restarts, as in a node upgrade: its containers keep running, and
   * what it held in memory is rebuilt (probe workers start afresh, readiness follows the prober manager's
   * kubelet-restart rule, the restart backoff is forgotten). Instant: it has no recovery.
   */
  KubeletRestart,
  /**
   * The cloud runs out of the machines of one NodePool (target: the pool name), in one zone ({@code zone}) or in
   * every zone: a machine an autoscaler asks for there is refused at once with an out-of-capacity error instead of
   * starting. The nodes that exist are not touched.
   */
  CapacityStockout,
  /**
   * The cloud takes back {@code nodes} spot machines of one NodePool (target: the pool name): at the fault's time it
   * warns (as a cloud's interruption notice) for that many Ready nodes of the pool, picked with the run's seed, and
   * {@code notice} later their machines are gone: the kubelets stop and the cloud node lifecycle controller deletes
   * the nodes once they are not Ready. Instant: it has no recovery.
   */
  SpotInterruption
}
