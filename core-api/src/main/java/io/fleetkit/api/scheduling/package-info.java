/**
 * Scheduling constraints carried by pods and nodes: taints and tolerations, node selectors and node
 * affinity, pod (anti-)affinity and topology spread constraints, with reusable matching functions that follow
 * kubernetes/component-helpers; and the scheduling kinds {@link io.fleetkit.api.scheduling.PodGroup}
 * (coscheduling gangs) and {@link io.fleetkit.api.scheduling.PriorityClass}. Immutable and thread-safe.
 *
 * <p>Matching entry points: {@link io.fleetkit.api.scheduling.Toleration#toleratesTaint} (every toleration operator,
 * the numeric Gt and Lt included, is matched there and nowhere else) and {@link io.fleetkit.api.scheduling.Taints}; {@link io.fleetkit.api.scheduling.RequiredNodeAffinity} (a pod's
 * nodeSelector AND required node affinity), {@link io.fleetkit.api.scheduling.NodeSelectorMatcher} and
 * {@link io.fleetkit.api.scheduling.PreferredSchedulingTerms}, compiled once per pod and allocation-free when
 * matching. Validation with Kubernetes' rules and wording: {@link io.fleetkit.api.scheduling.SchedulingValidation}.
 */
@NullMarked
package io.fleetkit.api.scheduling;

import org.jspecify.annotations.NullMarked;
