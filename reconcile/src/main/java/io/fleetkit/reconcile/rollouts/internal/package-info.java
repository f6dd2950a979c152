/**
 * Implementation of the rollout controllers: the Rollout and AnalysisRun reconcilers and the pure rules behind them,
 * ported from Argo Rollouts' tables (canary and blue-green replica counts, measurement assessment, condition
 * expressions). Not part of the public contract. The math classes are stateless and thread-safe; a reconciler is
 * called by its controller, never concurrently for one key. {@code AnalysisRunEvents}, the analysis runs' phases the
 * Rollout reconciler last saw (for their events), is the one piece of state kept between reconciles, and thread-safe.
 */
@NullMarked
package io.fleetkit.reconcile.rollouts.internal;

import org.jspecify.annotations.NullMarked;
