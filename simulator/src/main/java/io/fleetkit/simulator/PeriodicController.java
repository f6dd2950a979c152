package io.fleetkit.simulator;

import io.fleetkit.api.time.ManualClock;
import io.fleetkit.api.time.TimerClock;
import io.fleetkit.reconcile.SimulatedController;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;
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

  /**
   * A controller that follows the store from its start ({@code follow} opens the watches that mark what changed, and
   * its result closes them) and runs {@code pass} every {@code period}: the shape of the controllers whose
   * {@code syncChanged()} syncs only what their watches marked (the ephemeral volume and resource-claim controllers).
   */
  static SimulatedController following(String name, ManualClock clock, Duration period,
      Supplier<AutoCloseable> follow, Runnable pass) {
    Objects.requireNonNull(follow, "follow");
    PeriodicController loop = new PeriodicController(name, clock, period, pass);
    AutoCloseable[] following = new AutoCloseable[1];
    return SimulatedController.of(name, () -> {
      following[0] = follow.get();
      loop.start();
    }, loop::runUntilIdle, () -> {
      loop.close();
      if (following[0] != null) {
        following[0].close();
      }
    });
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
