package io.fleetkit.queueing.backfill;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Slurm's backfill ({@code sched/backfill}) as conservative backfill over one pool of identical nodes: a lower-priority
 * job starts early only if doing so does not delay the expected start of any higher-priority job.
 *
 * <ol>
 *   <li>Build a timeline of free nodes from the running jobs' expected ends ({@code start + time limit}, which Slurm
 *       enforces), rounded up to {@code bf_resolution}.
 *   <li>For each pending job in priority order (up to {@code bf_max_job_test}): find the earliest time its nodes are
 *       free for its whole time limit. Now: start it. Later but within {@code bf_window}: reserve its nodes from then
 *       until then + its time limit, so later (lower-priority) jobs can only use what is left around the reservation.
 * </ol>
 *
 * The pending jobs must come in the order Slurm considers them (see {@link MultifactorPriority#order}). A job's time
 * limit is its own, else its partition's {@code DefaultTime}, else the partition's {@code MaxTime}, else unlimited.
 */
public final class BackfillScheduler {
  private static final long UNLIMITED = Long.MAX_VALUE / 4;

  private final BackfillConfig config;
  private final Map<String, Partition> partitions = new HashMap<>();

  public BackfillScheduler(BackfillConfig config, List<Partition> partitions) {
    this.config = Objects.requireNonNull(config, "config");
    for (Partition p : partitions) {
      this.partitions.put(p.name(), p);
    }
  }

  private long roundUp(long seconds) {
    long r = config.resolution().getSeconds();
    if (seconds >= UNLIMITED) {
      return UNLIMITED;
    }
    return (seconds + r - 1) / r * r;
  }

  private static long seconds(@Nullable Duration d) {
    return d == null ? UNLIMITED : Math.max(1, d.getSeconds() + (d.getNano() > 0 ? 1 : 0));
  }

  /**
   * Plans one backfill pass.
   *
   * @param now the current time
   * @param totalNodes the nodes of the pool
   * @param running the running jobs
   * @param pending the pending jobs in priority order
   * @throws IllegalArgumentException if the running jobs hold more nodes than there are, or a job names an unknown
   *     partition
   */
  public BackfillPlan plan(Instant now, int totalNodes, List<RunningJob> running, List<BatchJob> pending) {
    int busy = 0;
    for (RunningJob r : running) {
      busy += r.nodes();
    }
    if (busy > totalNodes) {
      throw new IllegalArgumentException("backfill: running jobs hold " + busy + " nodes but the pool has "
          + totalNodes);
    }
    Timeline timeline = new Timeline(totalNodes - busy);
    long res = config.resolution().getSeconds();
    for (RunningJob r : running) {
      long end;
      if (r.timeLimit() == null) {
        continue;
      }
      end = Duration.between(now, r.start().plus(r.timeLimit())).getSeconds();
      // A job past its limit is about to be killed: its nodes free up at the next step.
      end = Math.max(roundUp(Math.max(end, 0)), res);
      timeline.add(end, UNLIMITED * 2, r.nodes());
    }
    long window = config.window().getSeconds();
    List<String> startNow = new ArrayList<>();
    Map<String, Instant> expected = new LinkedHashMap<>();
    Map<String, String> reasons = new LinkedHashMap<>();
    int tested = 0;
    for (BatchJob job : pending) {
      if (tested++ >= config.maxJobTest()) {
        reasons.put(job.id(), "NotTested");
        continue;
      }
      Partition part = partitions.get(job.partition());
      if (part == null) {
        throw new IllegalArgumentException("job " + job.id() + ": partition \"" + job.partition()
            + "\" is not known");
      }
      Duration limit = job.timeLimit() != null ? job.timeLimit()
          : part.defaultTime() != null ? part.defaultTime() : part.maxTime();
      if (job.timeLimit() != null && part.maxTime() != null && job.timeLimit().compareTo(part.maxTime()) > 0) {
        reasons.put(job.id(), "PartitionTimeLimit");
        continue;
      }
      if (job.nodes() > totalNodes) {
        reasons.put(job.id(), "PartitionNodeLimit");
        continue;
      }
      long duration = roundUp(seconds(limit));
      long start = timeline.earliest(job.nodes(), duration, window);
      if (start < 0) {
        reasons.put(job.id(), "BackfillWindow");
        continue;
      }
      timeline.add(start, start + duration, -job.nodes());
      expected.put(job.id(), now.plusSeconds(start));
      if (start == 0) {
        startNow.add(job.id());
      } else {
        reasons.put(job.id(), "Resources");
      }
    }
    return new BackfillPlan(startNow, expected, reasons);
  }
}
