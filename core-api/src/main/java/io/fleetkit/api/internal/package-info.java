/**
 * Implementation helpers of core-api: {@link io.fleetkit.api.internal.Violations} gathers every broken rule of one
 * object and throws a single {@link io.fleetkit.api.ValidationException}; {@link io.fleetkit.api.internal.Names}
 * pre-checks names fast; {@link io.fleetkit.api.internal.PodSpecChecks} and
 * {@link io.fleetkit.api.internal.WorkloadChecks} hold the pod and workload rules. Not part of the public contract:
 * other modules must not depend on this package. Stateless, or (a {@code Violations}) confined to one thread.
 */
@NullMarked
package io.fleetkit.api.internal;

import org.jspecify.annotations.NullMarked;
