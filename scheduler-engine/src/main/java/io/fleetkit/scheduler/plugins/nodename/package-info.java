/**
 * The NodeName plugin ({@link io.fleetkit.scheduler.plugins.nodename.NodeNamePlugin}): a pod that names a node in
 * {@code spec.nodeName} only fits that node.
 *
 * <p>The plugin is stateless and thread-safe.
 */
@NullMarked
package io.fleetkit.scheduler.plugins.nodename;

import org.jspecify.annotations.NullMarked;
