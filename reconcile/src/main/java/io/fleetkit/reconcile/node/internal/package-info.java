/**
 * Implementation of the node-side controllers of {@link io.fleetkit.reconcile.node}: {@link
 * io.fleetkit.reconcile.node.internal.PodGcIndex}, the pod garbage collector's watch-maintained view of pods and
 * nodes. Not part of the contract; not thread-safe (single-threaded simulations, as the controllers that use it).
 */
@NullMarked
package io.fleetkit.reconcile.node.internal;

import org.jspecify.annotations.NullMarked;
