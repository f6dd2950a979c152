package io.fleetkit.api.framework;

import io.fleetkit.api.core.Pod;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Optional for plugins that reject pods (PreEnqueue, PreFilter, Filter, Reserve, Permit): the cluster events after
 * which a pod this plugin rejected may fit, as kube's {@code EnqueueExtensions.EventsToRegister}. A pod parked as
 * unschedulable is re-queued only by an event one of its rejecting plugins registered; a rejecting plugin that does
 * not implement this interface is taken to register every event. Pods are also re-queued after at most the
 * profile's {@code podMaxInUnschedulablePodsDuration} whatever happens, and at once whenever the parked pod itself is
 * updated (whatever changed, hints unasked): so upstream's target-pod events ({@code UpdatePodToleration},
 * {@code UpdatePodScaleDown} of the pod being scheduled...) need no event and no hint here.
 */
public interface EnqueueExtensions {
  /** The events to register; called once when the profile is built. */
  Set<ClusterEvent> eventsToRegister();

  /**
   * kube's {@code QueueingHintFn}: whether {@code event}, one this plugin registered, may make {@code pod} (parked
   * after this plugin rejected it) schedulable. Asked per parked pod for events that carry the changed object (a
   * {@code Node} for node events, a {@code Pod} for assigned-pod events, a {@code Namespace} for
   * {@link ClusterEvent#NAMESPACE_UPDATE}, the PersistentVolumeClaim, PersistentVolume or other storage object for
   * {@link ClusterEvent#STORAGE}, the ResourceClaim, ResourceSlice or DeviceClass for
   * {@link ClusterEvent#DYNAMIC_RESOURCES}; other events, and a deleted pod the scheduler had only assumed, are not asked and
   * re-queue); {@code oldObject} is {@code null} for an addition and {@code newObject} for a deletion. The default
   * says yes (kube's {@code Queue}); answering no ({@code QueueSkip}) leaves the pod parked for other events or the
   * periodic flush.
   */
  default boolean isSchedulableAfter(Pod pod, ClusterEvent event, @Nullable Object oldObject,
      @Nullable Object newObject) {
    return true;
  }
}
