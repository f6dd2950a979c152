/**
 * Autoscaling kinds: HorizontalPodAutoscaler (autoscaling/v2), VerticalPodAutoscaler
 * (autoscaling.k8s.io/v1) and FleetKit's own NodePool (a node template with size bounds, start-up delay and price).
 * Immutable records; thread-safe.
 */
@NullMarked
package io.fleetkit.api.autoscaling;

import org.jspecify.annotations.NullMarked;
