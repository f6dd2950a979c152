/**
 * Building blocks for implementations of {@link io.fleetkit.api.store.ObjectStore} (the in-memory store, the etcd
 * store), so that every implementation delivers watch events by the same rules. Entry type:
 * {@link io.fleetkit.api.store.spi.WatchQueue}. Application code does not need this package. Thread-safety is
 * documented on each type.
 */
@NullMarked
package io.fleetkit.api.store.spi;

import org.jspecify.annotations.NullMarked;
