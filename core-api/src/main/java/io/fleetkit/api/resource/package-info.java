/**
 * Resource quantities with Kubernetes' exact parsing, formatting and arithmetic
 * ({@link io.fleetkit.api.resource.Quantity}), and resource lists tuned for the scheduler's hot path
 * ({@link io.fleetkit.api.resource.ResourceList}). Immutable and thread-safe.
 */
@NullMarked
package io.fleetkit.api.resource;

import org.jspecify.annotations.NullMarked;
