/** Tests of the engine internals. */
@NullMarked
package io.fleetkit.scheduler.internal;

import org.jspecify.annotations.NullMarked;
