/**
 * The TaintToleration plugin ({@link io.fleetkit.scheduler.plugins.tainttoleration.TaintTolerationPlugin}): a node's
 * NoSchedule and NoExecute taints must all be tolerated by the pod (Filter), and nodes with fewer untolerated
 * PreferNoSchedule taints rank higher (PreScore, Score, reverse normalization).
 *
 * <p>The plugin is thread-safe: its only state is a bounded, concurrent cache of rejection statuses.
 */
@NullMarked
package io.fleetkit.scheduler.plugins.tainttoleration;

import org.jspecify.annotations.NullMarked;
