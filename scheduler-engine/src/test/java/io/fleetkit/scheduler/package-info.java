/** Tests of the scheduler's public API. */
@NullMarked
package io.fleetkit.scheduler;

import org.jspecify.annotations.NullMarked;
