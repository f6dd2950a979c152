/**
 * Time: {@link io.fleetkit.api.time.TimerClock}, a clock with timers ("run this later"), as the wall clock
 * ({@link io.fleetkit.api.time.TimerClock#system()}) or as {@link io.fleetkit.api.time.ManualClock}, which is also a
 * {@link java.time.Clock} and moves only when told to, running the timers that fall due on the way, so that runs on
 * simulated time are reproducible. Thread-safe.
 */
@NullMarked
package io.fleetkit.api.time;

import org.jspecify.annotations.NullMarked;
