/**
 * Storage kinds: StorageClass (storage.k8s.io/v1). Immutable records; thread-safe.
 */
@NullMarked
package io.fleetkit.api.storage;

import org.jspecify.annotations.NullMarked;
