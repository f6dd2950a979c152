/**
 * Progressive delivery: {@link io.fleetkit.reconcile.rollouts.RolloutController} (Argo Rollouts' canary and
 * blue-green over ReplicaSets, with automatic rollback), {@link io.fleetkit.reconcile.rollouts.AnalysisRunController}
 * (measures and judges analysis runs), and the two SPIs behind them:
 * {@link io.fleetkit.reconcile.rollouts.MeasurementProvider} (where measurements come from:
 * {@link io.fleetkit.reconcile.rollouts.JobMeasurementProvider}, {@link io.fleetkit.reconcile.rollouts.PrometheusMeasurementProvider},
 * {@link io.fleetkit.reconcile.rollouts.SimulatedMeasurementProvider}) and
 * {@link io.fleetkit.reconcile.rollouts.TrafficRouter} (where a canary's traffic weight is applied; without one the
 * replica ratio is the split).
 *
 * <p>Threading: the controllers are thread-safe as the runtime {@link io.fleetkit.reconcile.Controller} is; providers
 * and routers are called from reconcile workers and must be thread-safe when the controllers run threaded.
 */
@NullMarked
package io.fleetkit.reconcile.rollouts;

import org.jspecify.annotations.NullMarked;
