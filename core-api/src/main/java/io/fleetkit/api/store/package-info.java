/**
 * The object store SPI and its embedded in-memory implementation: create/get/list/update/delete per kind,
 * optimistic concurrency on resourceVersion, and ordered watches. See {@link io.fleetkit.api.store.ObjectStore}.
 */
@NullMarked
package io.fleetkit.api.store;

import org.jspecify.annotations.NullMarked;
