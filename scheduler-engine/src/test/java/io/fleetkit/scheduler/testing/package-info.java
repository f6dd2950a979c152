/** Test fixtures for the scheduler: a manual clock, cluster builders and tiny test-only plugins. */
@NullMarked
package io.fleetkit.scheduler.testing;

import org.jspecify.annotations.NullMarked;
