package io.fleetkit.api.framework;

/**
 * A change in the cluster that may make a rejected pod schedulable, as kube-scheduler's {@code fwk.ClusterEvent}
 * (coarser: resource and action only). The engine re-queues an unschedulable pod after an event that one of the
 * plugins which rejected it registered through {@link EnqueueExtensions}.
 *
 * <p>The {@code TARGET_POD_*} events are upstream's {@code TargetPod} resource: an update of the waiting pod itself
 * (parked as unschedulable, gated, or in flight), delivered to that pod only, as kube's {@code Update} of the
 * scheduling queue turns it into events with {@code PodSchedulingPropertiesChange}. One update can be several of them
 * (a label changed and a request lowered); an update that is none of the specific ones is
 * {@link #TARGET_POD_UPDATE}.
 */
public enum ClusterEvent {
  NODE_ADD,
  NODE_UPDATE,
  NODE_DELETE,
  /** A bound pod appeared (bound by someone else, or first seen). */
  ASSIGNED_POD_ADD,
  /**
   * A bound pod changed its node, its labels or its resource requests (an in-place resize: upstream's
   * {@code UpdatePodLabel} and {@code UpdatePodScaleDown} of an {@code AssignedPod}). Updates of a waiting pod are
   * the {@code TARGET_POD_*} events, delivered to that pod only.
   */
  ASSIGNED_POD_UPDATE,
  /** A bound or assumed pod went away (deleted, terminated, preempted, or its binding failed). */
  ASSIGNED_POD_DELETE,
  /** A label of the waiting pod itself was added, changed or removed (upstream's {@code UpdatePodLabel}). */
  TARGET_POD_UPDATE_LABEL,
  /**
   * The waiting pod itself asks for less: a resource's request went down or was removed (upstream's
   * {@code UpdatePodScaleDown}).
   */
  TARGET_POD_UPDATE_SCALE_DOWN,
  /**
   * The waiting pod itself got a toleration (upstream's {@code UpdatePodToleration}; tolerations can only be added
   * once a pod exists, so the number of them changing is the event).
   */
  TARGET_POD_UPDATE_TOLERATION,
  /**
   * The last scheduling gate of the waiting pod itself was removed (upstream's
   * {@code UpdatePodSchedulingGatesEliminated}); removing one of several is {@link #TARGET_POD_UPDATE}.
   */
  TARGET_POD_UPDATE_SCHEDULING_GATES_ELIMINATED,
  /**
   * The claims generated for the waiting pod itself changed: its {@code status.resourceClaimStatuses} (upstream's
   * {@code UpdatePodGeneratedResourceClaim}).
   */
  TARGET_POD_UPDATE_GENERATED_RESOURCE_CLAIM,
  /**
   * Any update of the waiting pod itself (upstream's {@code TargetPod}/{@code Update}). Registering it registers
   * every {@code TARGET_POD_*} event, as upstream's general {@code Update} action covers the specific ones; it is
   * delivered alone for an update that is none of them (an annotation, a status write such as the scheduler's own
   * {@code PodScheduled} condition, a request raised).
   */
  TARGET_POD_UPDATE,
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
  OTHER;

  /** Whether this is one of the {@code TARGET_POD_*} events: an update of the waiting pod itself. */
  public boolean isTargetPodUpdate() {
    return switch (this) {
      case TARGET_POD_UPDATE_LABEL, TARGET_POD_UPDATE_SCALE_DOWN, TARGET_POD_UPDATE_TOLERATION,
          TARGET_POD_UPDATE_SCHEDULING_GATES_ELIMINATED, TARGET_POD_UPDATE_GENERATED_RESOURCE_CLAIM,
          TARGET_POD_UPDATE -> true;
      default -> false;
    };
  }
}
