package io.fleetkit.benchmarks.impl;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.SchedulerProfile;
import io.fleetkit.scheduler.DefaultPlugins;
import io.fleetkit.scheduler.ScheduleResult;
import io.fleetkit.scheduler.Scheduler;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Drives a FleetKit {@link Scheduler} through a workload on a manual clock: pods are added, cycles run until the
 * queue is idle, and the clock jumps past the backoff whenever pods wait on it (preemption victims, retries).
 */
public final class FleetKitHarness implements AutoCloseable {
  private final Scheduler scheduler;
  private final ManualClock clock = ManualClock.atEpoch2026();

  public FleetKitHarness(List<Node> nodes, @Nullable Integer percentageOfNodesToScore, int parallelism, long seed) {
    this(nodes, DefaultPlugins.profile().toBuilder().percentageOfNodesToScore(percentageOfNodesToScore).build(),
        parallelism, seed);
  }

  /** {@code parallelism} 0 keeps the engine's default. */
  public FleetKitHarness(List<Node> nodes, SchedulerProfile profile, int parallelism, long seed) {
    this(nodes, profile, parallelism, seed, b -> { });
  }

  /** As above, with {@code customize} applied to the scheduler builder last (metrics, tracing, events). */
  public FleetKitHarness(List<Node> nodes, SchedulerProfile profile, int parallelism, long seed,
      java.util.function.Consumer<io.fleetkit.scheduler.SchedulerBuilder> customize) {
    var builder = Scheduler.builder().profile(profile).clock(clock).seed(seed);
    if (parallelism > 0) {
      builder.parallelism(parallelism);
    }
    customize.accept(builder);
    scheduler = builder.build();
    for (Node n : nodes) {
      scheduler.addNode(n);
    }
  }

  public Scheduler scheduler() {
    return scheduler;
  }

  /** Adds the pods and schedules until nothing more can be bound; returns how many pods were bound. */
  public int scheduleAll(List<Pod> pods) {
    for (Pod p : pods) {
      scheduler.addPod(p);
    }
    int bound = 0;
    for (int round = 0; round < 100; round++) {
      List<ScheduleResult> results = scheduler.runUntilIdle();
      int before = bound;
      for (ScheduleResult r : results) {
        if (r.isBound()) {
          bound++;
        }
      }
      if (scheduler.pending().isEmpty() || (results.isEmpty() && round > 0 && bound == before)) {
        break;
      }
      clock.advance(Duration.ofSeconds(11));
    }
    return bound;
  }

  @Override
  public void close() {
    scheduler.close();
  }
}
