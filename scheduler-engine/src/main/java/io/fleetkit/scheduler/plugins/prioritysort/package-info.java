/**
 * The PrioritySort plugin: kube-scheduler's default QueueSort (higher priority first, then earlier queue timestamp).
 * Stateless and thread-safe.
 */
@NullMarked
package io.fleetkit.scheduler.plugins.prioritysort;

import org.jspecify.annotations.NullMarked;
