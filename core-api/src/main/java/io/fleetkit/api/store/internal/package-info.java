/**
 * The in-memory {@link io.fleetkit.api.store.ObjectStore}: {@link io.fleetkit.api.store.internal.InMemoryObjectStore}
 * (one write lock, lock-free gets, a ring of recent events for replay), its per-kind tables and its per-watch
 * delivery queues. Not part of the public contract: construct stores with {@code ObjectStore.builder()}.
 * Thread-safe as documented on each type.
 */
@NullMarked
package io.fleetkit.api.store.internal;

import org.jspecify.annotations.NullMarked;
