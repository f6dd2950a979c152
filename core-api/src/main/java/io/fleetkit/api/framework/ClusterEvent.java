package io.fleetkit.api.framework;

/**
 * A change in the cluster that may make a rejected pod schedulable, as kube-scheduler's {@code fwk.ClusterEvent}
 * (coarser: resource and action only). The engine re-queues an unschedulable pod after an event that one of the
 * plugins which rejected it registered through {@link EnqueueExtensions}.
 */
public enum ClusterEvent {
  NODE_ADD,
  NODE_UPDATE,
  NODE_DELETE,
  /** A bound pod appeared (bound by someone else, or first seen). */
  ASSIGNED_POD_ADD,
  /**
   * A bound pod changed its node, its labels or its resource requests (an in-place resize: upstream's
   * {@code UpdatePodLabel} and {@code UpdatePodScaleDown} for pods other than the one being scheduled). Updates of a
   * pending pod are no cluster event: the pod itself is re-queued when it changes.
   */
  ASSIGNED_POD_UPDATE,
  /** A bound or assumed pod went away (deleted, terminated, preempted, or its binding failed). */
  ASSIGNED_POD_DELETE,
  /**
   * A new pod waiting to be scheduled appeared, e.g. the last sibling a gang waits for (upstream's
   * {@code UnscheduledPodAdd}). Only emitted when a plugin of some profile registered it, so profiles without such a
   * plugin pay nothing for it.
   */
  UNSCHEDULED_POD_ADD,
  /**
   * A Namespace was added, changed (its labels) or deleted: a pod whose inter-pod affinity term selects namespaces
   * by label may fit now. kube-scheduler has no namespace event (such a pod waits there for the periodic flush of
   * unschedulable pods); FleetKit re-queues at once.
   */
  NAMESPACE_UPDATE,
  /** PersistentVolume, PersistentVolumeClaim, StorageClass or CSI objects changed. */
  STORAGE,
  /**
   * A ResourceClaim, ResourceSlice or DeviceClass (Dynamic Resource Allocation) was added, changed or deleted:
   * upstream's {@code ResourceClaim}, {@code ResourceSlice} and {@code DeviceClass} events in one (and DeviceTaintRule
   * changes, which upstream sees as ResourceSlice updates), which the queueing hints tell apart by the objects.
   */
  DYNAMIC_RESOURCES,
  /** Any other cluster object the scheduler was given changed. */
  OTHER
}
