/**
 * Scheduling constraints carried by pods and nodes: taints and tolerations, node selectors and node
 * affinity, pod (anti-)affinity and topology spread constraints, with reusable matching functions that follow
 * kubernetes/component-helpers; and the scheduling kinds {@link io.fleetkit.api.scheduling.PodGroup}
 * (coscheduling gangs) and {@link io.fleetkit.api.scheduling.PriorityClass}. Immutable and thread-safe.
 */
@NullMarked
package io.fleetkit.api.scheduling;

import org.jspecify.annotations.NullMarked;
