package io.fleetkit.api.framework;

import io.fleetkit.api.core.Pod;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Optional for plugins that reject pods (PreEnqueue, PreFilter, Filter, Reserve, Permit): the cluster events after
 * which a pod this plugin rejected may fit, as kube's {@code EnqueueExtensions.EventsToRegister}. A pod parked as
 * unschedulable is re-queued only by an event one of its rejecting plugins registered; a rejecting plugin that does
 * not implement this interface is taken to register every event. Pods are also re-queued after at most the
 * profile's {@code podMaxInUnschedulablePodsDuration} whatever happens. An update of the parked (or gated, or in
 * flight) pod itself is one or more {@code TARGET_POD_*} events ({@link ClusterEvent#isTargetPodUpdate()}), asked of
 * that pod's rejecting plugins like any other event: a plugin whose rejection the pod's own update can lift (a
 * toleration added, a request lowered, a gate removed) registers the matching one, as upstream's plugins register
 * {@code TargetPod} events; {@link ClusterEvent#TARGET_POD_UPDATE} registers all of them.
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
   * {@link ClusterEvent#DYNAMIC_RESOURCES}, the pod itself before and after its update for the {@code TARGET_POD_*}
   * events; other events, and a deleted pod the scheduler had only assumed, are not asked and re-queue);
   * {@code oldObject} is {@code null} for an addition and {@code newObject} for a deletion. The default
   * says yes (kube's {@code Queue}); answering no ({@code QueueSkip}) leaves the pod parked for other events or the
   * periodic flush.
   */
  default boolean isSchedulableAfter(Pod pod, ClusterEvent event, @Nullable Object oldObject,
      @Nullable Object newObject) {
    return true;
  }
}
