/**
 * Implementation of the Kubernetes custom scheduler; not part of FleetKit's public contract.
 *
 * <p>{@code ClusterFeed} runs fabric8 informers and feeds the engine's {@code Scheduler}; {@code LiveConverter}
 * turns live fabric8 objects into core-api records with the YAML loader's converters; {@code ApiRequests} sends the
 * scheduler's writes with one retry policy; {@code PodBindingBinder} posts {@code pods/binding};
 * {@code PodStatusWriter} patches {@code pods/status} (PodScheduled, nominatedNodeName, DisruptionTarget);
 * {@code PreemptionEvictor} marks and deletes preemption victims; {@code SchedulingEvents} posts events.k8s.io/v1
 * Events from its own thread; {@code RequestBodies} writes the Binding and Event JSON; {@code ForgottenPods}
 * remembers pods whose binding the API server refused for good (409, 404); {@code EvictedPods} tracks victims being
 * deleted; {@code WatchEventSerialization} is fabric8's serialization with a one-pass read of watch events (set by
 * {@code SchedulerClients}). Each class states its thread-safety.
 */
@NullMarked
package io.fleetkit.adapter.kubernetes.scheduler.internal;

import org.jspecify.annotations.NullMarked;
