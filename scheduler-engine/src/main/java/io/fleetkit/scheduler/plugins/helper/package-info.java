/**
 * Small helpers shared by the built-in scheduler plugins, after kube-scheduler's
 * {@code pkg/scheduler/framework/plugins/helper}: {@link io.fleetkit.scheduler.plugins.helper.NormalizeScore} rescales
 * raw plugin scores into [0, 100]; {@link io.fleetkit.scheduler.plugins.helper.ObjectChange} types the objects a
 * queueing hint is handed ({@code util.As}).
 *
 * <p>Everything here is stateless and thread-safe.
 */
@NullMarked
package io.fleetkit.scheduler.plugins.helper;

import org.jspecify.annotations.NullMarked;
