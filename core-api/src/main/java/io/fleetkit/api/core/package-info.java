/**
 * Core (v1) kinds: {@link io.fleetkit.api.core.Node}, {@link io.fleetkit.api.core.Pod} and their parts (containers,
 * volumes, conditions, GPU devices), and the other core kinds. Immutable records validated in the top-level
 * record's constructor (every violation reported at once); thread-safe. Builders are mutable and not thread-safe.
 */
@NullMarked
package io.fleetkit.api.core;

import org.jspecify.annotations.NullMarked;
