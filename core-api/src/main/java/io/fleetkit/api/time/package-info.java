/**
 * Time for simulations: {@link io.fleetkit.api.time.ManualClock}, a {@link java.time.Clock} that moves only when
 * told to, so that runs on simulated time are reproducible. Thread-safe.
 */
@NullMarked
package io.fleetkit.api.time;

import org.jspecify.annotations.NullMarked;
