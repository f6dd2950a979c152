/**
 * Batch kinds: Job (batch/v1). Immutable records; thread-safe.
 */
@NullMarked
package io.fleetkit.api.batch;

import org.jspecify.annotations.NullMarked;
