/**
 * Implementation helpers of core-api's rules ({@link io.fleetkit.api.Violations} is the public collector):
 * {@link io.fleetkit.api.internal.Names} pre-checks names fast; {@link io.fleetkit.api.internal.PodSpecChecks} and
 * {@link io.fleetkit.api.internal.WorkloadChecks} hold the pod and workload rules. Not part of the public contract:
 * other modules must not depend on this package. Stateless.
 */
@NullMarked
package io.fleetkit.api.internal;

import org.jspecify.annotations.NullMarked;
