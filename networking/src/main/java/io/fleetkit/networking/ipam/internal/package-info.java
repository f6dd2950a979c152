/** Implementation of the allocators; not part of the contract. Not thread-safe: callers synchronize. */
@NullMarked
package io.fleetkit.networking.ipam.internal;

import org.jspecify.annotations.NullMarked;
