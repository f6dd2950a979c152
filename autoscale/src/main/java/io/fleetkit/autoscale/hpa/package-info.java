/**
 * The HorizontalPodAutoscaler with Kubernetes' exact algorithm ({@code pkg/controller/podautoscaler}).
 *
 * <p>Entry types: {@link io.fleetkit.autoscale.hpa.ReplicaCalculator} (the replica math of
 * {@code replica_calculator.go}: utilization truncated to a whole percent, tolerance, missing and not-yet-ready pods,
 * Resource, Pods, Object and External metrics), {@link io.fleetkit.autoscale.hpa.ReplicaNormalizer} (stabilization
 * windows and the {@code behavior} rate limits of {@code horizontal.go}),
 * {@link io.fleetkit.autoscale.hpa.HorizontalPodAutoscalerController} (reconciles HPA objects of an
 * {@link io.fleetkit.api.store.ObjectStore} against the scale of Deployments, ReplicaSets, ReplicationControllers,
 * StatefulSets and Rollouts) and the metrics SPI
 * {@link io.fleetkit.autoscale.hpa.MetricsSource}.
 *
 * <p>Thread safety: {@link io.fleetkit.autoscale.hpa.ReplicaCalculator} is immutable and thread-safe; the
 * normalizer and the controller keep per-HPA history and synchronize on it, so they may be shared between threads.
 * Time always comes from an injected {@link java.time.Clock}.
 */
@NullMarked
package io.fleetkit.autoscale.hpa;

import org.jspecify.annotations.NullMarked;
