/**
 * Store metrics: {@link io.fleetkit.observability.store.MeteredObjectStore} wraps any
 * {@link io.fleetkit.api.store.ObjectStore} and counts its requests by outcome (compare-and-swap conflicts included),
 * the watch events it delivers and the watches open, as {@link io.fleetkit.observability.store.StoreMetrics}
 * describes. Thread-safe.
 */
@NullMarked
package io.fleetkit.observability.store;

import org.jspecify.annotations.NullMarked;
