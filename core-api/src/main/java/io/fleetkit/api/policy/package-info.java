/**
 * Policy kinds: PodDisruptionBudget (policy/v1). Immutable records; thread-safe.
 */
@NullMarked
package io.fleetkit.api.policy;

import org.jspecify.annotations.NullMarked;
