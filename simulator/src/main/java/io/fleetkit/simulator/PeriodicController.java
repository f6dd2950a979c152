package io.fleetkit.simulator;

import io.fleetkit.api.time.ManualClock;
import io.fleetkit.api.time.TimerClock;
import io.fleetkit.reconcile.SimulatedController;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A loop that runs every {@code period} of simulated time (the HPA's 15 s sync, the cluster autoscaler's 10 s scan),
 * as a {@link SimulatedController}: the clock marks it due, the simulation's settle step runs it once.
 */
final class PeriodicController implements SimulatedController {
  private final String name;
  private final ManualClock clock;
  private final Duration period;
  private final Runnable loop;
  private TimerClock.@Nullable Timer timer;
  private boolean due;

  PeriodicController(String name, ManualClock clock, Duration period, Runnable loop) {
    this.name = Objects.requireNonNull(name, "name");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.period = Objects.requireNonNull(period, "period");
    this.loop = Objects.requireNonNull(loop, "loop");
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public void start() {
    arm();
  }

  private void arm() {
    timer = clock.schedule(period, () -> due = true);
  }

  @Override
  public int runUntilIdle() {
    if (!due) {
      return 0;
    }
    due = false;
    arm();
    loop.run();
    return 1;
  }

  @Override
  public void close() {
    TimerClock.Timer t = timer;
    if (t != null) {
      t.cancel();
    }
  }
}
