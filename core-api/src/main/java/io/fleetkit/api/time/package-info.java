/**
 * Time: {@link io.fleetkit.api.time.TimerClock}, a clock with timers ("run this later"), as the wall clock
 * ({@link io.fleetkit.api.time.TimerClock#system()}) or as {@link io.fleetkit.api.time.ManualClock}, which is also a
 * {@link java.time.Clock} and moves only when told to, running the timers that fall due on the way, so that runs on
 * simulated time are reproducible; and {@link io.fleetkit.api.time.GoDurations}, Go's duration text
 * ({@code 1h30m}, {@code 300ms}) read and written with Go's exact rules. Thread-safe.
 */
@NullMarked
package io.fleetkit.api.time;

import org.jspecify.annotations.NullMarked;
