package io.fleetkit.api.framework;

import java.util.Set;

/**
 * Optional for plugins that reject pods (PreEnqueue, PreFilter, Filter, Reserve, Permit): the cluster events after
 * which a pod this plugin rejected may fit, as kube's {@code EnqueueExtensions.EventsToRegister}. A pod parked as
 * unschedulable is re-queued only by an event one of its rejecting plugins registered; a rejecting plugin that does
 * not implement this interface is taken to register every event. Pods are also re-queued after at most the
 * profile's {@code podMaxInUnschedulablePodsDuration} whatever happens.
 */
public interface EnqueueExtensions {
  /** The events to register; called once when the profile is built. */
  Set<ClusterEvent> eventsToRegister();
}
