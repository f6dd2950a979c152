package io.fleetkit.simulator;

import io.fleetkit.api.time.ManualClock;
import io.fleetkit.api.time.TimerClock;
import io.fleetkit.autoscale.cluster.ClusterAutoscaler;
import io.fleetkit.autoscale.cluster.DeletionProgress;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The cluster autoscaler's deletion steps between its loops on the simulation's clock: upstream's deletion goroutine
 * sleeps {@code --node-delete-delay-after-taint} after tainting, then drains and deletes, whatever the loop is doing.
 * After each loop and each step, {@link #arm} sets a timer at {@link ClusterAutoscaler#nextDeletionStep()}; when it
 * fires, the simulation's settle step runs {@link #runIfDue}, which calls {@link ClusterAutoscaler#advanceDeletions()}.
 * Confined to the simulation thread.
 */
final class DeletionSteps {
  private final ClusterAutoscaler ca;
  private final ManualClock clock;
  private final Consumer<DeletionProgress> report;
  private TimerClock.@Nullable Timer timer;
  private @Nullable Instant armedAt;
  private boolean due;

  DeletionSteps(ClusterAutoscaler ca, ManualClock clock, Consumer<DeletionProgress> report) {
    this.ca = Objects.requireNonNull(ca, "ca");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.report = Objects.requireNonNull(report, "report");
  }

  /** Sets the timer at the autoscaler's next deletion step, replacing one set for another instant. */
  void arm() {
    Optional<Instant> next = ca.nextDeletionStep();
    if (next.isPresent() && next.get().equals(armedAt)) {
      return;
    }
    cancel();
    if (next.isPresent()) {
      Instant at = next.get();
      Duration in = Duration.between(clock.instant(), at);
      armedAt = at;
      timer = clock.schedule(in.isNegative() ? Duration.ZERO : in, () -> due = true);
    }
  }

  /** Runs the step when its timer fired; 1 when it ran, else 0. */
  int runIfDue() {
    if (!due) {
      return 0;
    }
    due = false;
    armedAt = null;
    timer = null;
    report.accept(ca.advanceDeletions());
    arm();
    return 1;
  }

  /** Cancels the timer. */
  void cancel() {
    TimerClock.Timer t = timer;
    if (t != null) {
      t.cancel();
    }
    timer = null;
    armedAt = null;
  }
}
