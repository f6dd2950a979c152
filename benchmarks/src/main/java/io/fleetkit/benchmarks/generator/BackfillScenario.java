package io.fleetkit.benchmarks.generator;

import io.fleetkit.queueing.backfill.BatchJob;
import io.fleetkit.queueing.backfill.RunningJob;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A Slurm backfill pass: {@code nodes} nodes, about 90% held by running jobs of 1-16 nodes ending within 1-24 h, and
 * {@code pending} jobs of 1-32 nodes with time limits of 10 min to 12 h, in priority order. Seeded.
 *
 * @param now the planning time
 * @param nodes the pool size
 * @param running the running jobs
 * @param pending the pending jobs, highest priority first
 */
public record BackfillScenario(Instant now, int nodes, List<RunningJob> running, List<BatchJob> pending) {
  public static BackfillScenario of(int nodes, int pending, long seed) {
    Instant now = Instant.parse("2026-01-01T00:00:00Z");
    SplittableRandom rnd = new SplittableRandom(seed);
    List<RunningJob> running = new ArrayList<>();
    int busy = 0;
    while (busy < nodes * 9 / 10) {
      int n = Math.min(1 + rnd.nextInt(16), nodes * 9 / 10 - busy);
      running.add(new RunningJob("r" + running.size(), n, now.minus(Duration.ofMinutes(rnd.nextInt(60))),
          Duration.ofMinutes(60 + rnd.nextInt(23 * 60))));
      busy += n;
    }
    List<BatchJob> jobs = new ArrayList<>();
    for (int i = 0; i < pending; i++) {
      jobs.add(BatchJob.of("p" + i, 1 + rnd.nextInt(32), Duration.ofMinutes(10 + rnd.nextInt(12 * 60 - 10)), now));
    }
    return new BackfillScenario(now, nodes, List.copyOf(running), List.copyOf(jobs));
  }
}
