/**
 * The NodeUnschedulable plugin ({@link io.fleetkit.scheduler.plugins.nodeunschedulable.NodeUnschedulablePlugin}):
 * cordoned nodes ({@code spec.unschedulable}) take no new pods, unless the pod tolerates the
 * {@code node.kubernetes.io/unschedulable:NoSchedule} taint.
 *
 * <p>The plugin is stateless and thread-safe.
 */
@NullMarked
package io.fleetkit.scheduler.plugins.nodeunschedulable;

import org.jspecify.annotations.NullMarked;
