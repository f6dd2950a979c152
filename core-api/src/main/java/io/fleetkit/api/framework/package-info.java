/**
 * The scheduling framework SPI, after kube-scheduler's: one small interface per extension point
 * ({@link io.fleetkit.api.framework.PreFilterPlugin}, {@link io.fleetkit.api.framework.FilterPlugin},
 * {@link io.fleetkit.api.framework.ScorePlugin}, ...), results as {@link io.fleetkit.api.framework.Status} values
 * with a closed {@link io.fleetkit.api.framework.Status.Code}, typed per-cycle state
 * ({@link io.fleetkit.api.framework.CycleState}, {@link io.fleetkit.api.framework.StateKey}), read-only views of the
 * cluster snapshot ({@link io.fleetkit.api.framework.NodeInfo}, {@link io.fleetkit.api.framework.PodInfo}), and
 * profiles that pick plugins per point with score weights.
 *
 * <p>Threading: the scheduling cycle runs one pod at a time, but Filter and Score run in parallel over nodes;
 * plugins must be thread-safe for those two points and must only read {@link io.fleetkit.api.framework.CycleState}
 * there (write it in PreFilter/PreScore). Every other point runs on one thread per pod.
 */
@NullMarked
package io.fleetkit.api.framework;

import org.jspecify.annotations.NullMarked;
