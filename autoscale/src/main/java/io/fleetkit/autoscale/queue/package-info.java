/**
 * Queue-length and external-value scaling in KEDA's model: a {@link io.fleetkit.autoscale.queue.ScaledObject} names
 * a scale target and triggers; each trigger reads a value through the {@link io.fleetkit.autoscale.queue.Scaler} SPI
 * (a queue length or any external number). The {@link io.fleetkit.autoscale.queue.ScaledObjectController} activates
 * the target from zero to one replica when a value exceeds its activation threshold, scales from one to N with the
 * HPA's math ({@code GetExternalPerPodMetricReplicas} / {@code GetExternalMetricReplicas}, tolerance, normalization
 * and behavior, from {@link io.fleetkit.autoscale.hpa}) and back to zero once no trigger has been active for the
 * cooldown period (300 s by default).
 *
 * <p>Thread safety: {@link io.fleetkit.autoscale.queue.ScaledObject} and its parts are immutable; the controller
 * synchronizes its per-object state; scalers must be thread-safe if the controller is shared between threads.
 */
@NullMarked
package io.fleetkit.autoscale.queue;

import org.jspecify.annotations.NullMarked;
