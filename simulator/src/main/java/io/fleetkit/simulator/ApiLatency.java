package io.fleetkit.simulator;

import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.time.Instant;

/**
 * A slow API in simulated time: while the latency is above zero, the scheduler and the controllers get at most one
 * round of work per latency (each round's reads and writes are one round trip, answered that late), so a chain of
 * writes (Deployment, ReplicaSet, Pod, binding) takes one latency per link. Kubelets, the node lifecycle and taint
 * eviction are not slowed. Not thread-safe; owned by one {@link Simulation}.
 */
final class ApiLatency {
  private Duration latency = Duration.ZERO;
  private Instant nextRound = Instant.MIN;

  /** From now on, answers {@code d} late; {@link Duration#ZERO} restores a prompt API. */
  void set(Duration d) {
    latency = d;
    if (d.isZero()) {
      nextRound = Instant.MIN;
    }
  }

  Duration latency() {
    return latency;
  }

  /** Whether the scheduler and controllers may run a round at {@code now}. */
  boolean open(Instant now) {
    return latency.isZero() || !now.isBefore(nextRound);
  }

  /** After a round that did {@code work}: the next one waits for the answers (a clock wake-up at that instant). */
  void ran(int work, ManualClock clock) {
    if (latency.isZero() || work == 0) {
      return;
    }
    nextRound = clock.now().plus(latency);
    clock.schedule(latency, () -> { });
  }
}
