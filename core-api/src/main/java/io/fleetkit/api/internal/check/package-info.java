/**
 * Validation plumbing shared by the kinds of core-api: {@link io.fleetkit.api.internal.check.ViolationCollector}
 * gathers every broken rule of one object and throws a single {@link io.fleetkit.api.ValidationException}.
 *
 * <p>Not part of the public contract: may change without notice. A collector is confined to the thread that
 * validates one object.
 */
@NullMarked
package io.fleetkit.api.internal.check;

import org.jspecify.annotations.NullMarked;
