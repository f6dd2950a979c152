/**
 * Implementation helpers of core-api (validation collectors and name checks). Not part of the public contract:
 * other modules must not depend on this package. Stateless or confined to one thread.
 */
@NullMarked
package io.fleetkit.api.internal;

import org.jspecify.annotations.NullMarked;
