/**
 * kube-scheduler's {@code NodePorts} plugin: a pod's host ports must be free on the node
 * ({@code pkg/scheduler/framework/plugins/nodeports}), with the {@link io.fleetkit.scheduler.plugins.nodeports.HostPortInfo}
 * set that decides what conflicts.
 */
@NullMarked
package io.fleetkit.scheduler.plugins.nodeports;

import org.jspecify.annotations.NullMarked;
