package io.fleetkit.queueing.backfill;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A discrete-event Slurm-style cluster for what-if runs and tests: at every event (a job becomes eligible or ends) the
 * pending jobs are ordered by {@link MultifactorPriority#order} and planned by {@link BackfillScheduler}; the jobs it
 * starts now run for their actual runtime, or are killed at their time limit plus {@code OverTimeLimit} ({@code
 * TIMEOUT}), which is what makes backfill's expected end times trustworthy. Deterministic; not thread-safe.
 */
public final class BatchSimulator {
  private record Submitted(BatchJob job, Duration runtime, Duration limit) {}

  private record Running(Submitted s, Instant start, Instant end, JobRecord.State state) {}

  private final int nodes;
  private final MultifactorPriority priority;
  private final BackfillScheduler backfill;
  private final Duration overTimeLimit;
  private final Map<String, Partition> partitions = new LinkedHashMap<>();
  private final List<Submitted> submitted = new ArrayList<>();

  /**
   * @param overTimeLimit Slurm's {@code OverTimeLimit}: how long a job may run past its limit before it is killed
   */
  public BatchSimulator(int nodes, List<Partition> partitions, MultifactorPriority priority,
      BackfillScheduler backfill, Duration overTimeLimit) {
    if (nodes < 1 || overTimeLimit.isNegative()) {
      throw new IllegalArgumentException("batch simulator: nodes " + nodes + " must be at least 1 and OverTimeLimit "
          + overTimeLimit + " not negative");
    }
    this.nodes = nodes;
    this.priority = Objects.requireNonNull(priority, "priority");
    this.backfill = Objects.requireNonNull(backfill, "backfill");
    this.overTimeLimit = overTimeLimit;
    for (Partition p : partitions) {
      this.partitions.put(p.name(), p);
    }
  }

  /**
   * Submits {@code job}, which will run for {@code actualRuntime} if its time limit allows.
   *
   * @throws IllegalArgumentException if its partition is unknown or it has no time limit at all
   */
  public void submit(BatchJob job, Duration actualRuntime) {
    Partition p = partitions.get(job.partition());
    if (p == null) {
      throw new IllegalArgumentException("job " + job.id() + ": partition \"" + job.partition() + "\" is not known");
    }
    Duration limit = job.timeLimit() != null ? job.timeLimit()
        : p.defaultTime() != null ? p.defaultTime() : p.maxTime();
    if (limit == null) {
      throw new IllegalArgumentException("job " + job.id() + ": timeLimit is required in partition " + p.name()
          + " without DefaultTime or MaxTime");
    }
    submitted.add(new Submitted(job, actualRuntime, limit));
  }

  /** Runs until every job has ended or can never start, from {@code start}; returns the jobs that ran. */
  public List<JobRecord> run(Instant start) {
    Instant now = start;
    List<Submitted> waiting = new ArrayList<>(submitted);
    List<Running> running = new ArrayList<>();
    List<JobRecord> done = new ArrayList<>();
    while (true) {
      for (int i = running.size() - 1; i >= 0; i--) {
        Running r = running.get(i);
        if (!r.end().isAfter(now)) {
          done.add(new JobRecord(r.s().job().id(), r.s().job().nodes(), r.start(), r.end(), r.state()));
          running.remove(i);
        }
      }
      List<BatchJob> eligible = new ArrayList<>();
      Map<String, Submitted> byId = new LinkedHashMap<>();
      for (Submitted s : waiting) {
        if (!s.job().eligibleTime().isAfter(now)) {
          eligible.add(s.job());
          byId.put(s.job().id(), s);
        }
      }
      eligible.sort(priority.order(now));
      List<RunningJob> busy = new ArrayList<>();
      for (Running r : running) {
        busy.add(new RunningJob(r.s().job().id(), r.s().job().nodes(), r.start(), r.s().limit()));
      }
      BackfillPlan plan = backfill.plan(now, nodes, busy, eligible);
      for (String id : plan.startNow()) {
        Submitted s = byId.get(id);
        boolean timeout = s.runtime().compareTo(s.limit().plus(overTimeLimit)) > 0;
        Duration ran = timeout ? s.limit().plus(overTimeLimit) : s.runtime();
        running.add(new Running(s, now, now.plus(ran), timeout ? JobRecord.State.TIMEOUT : JobRecord.State.COMPLETED));
        waiting.remove(s);
      }
      TreeMap<Instant, Boolean> next = new TreeMap<>();
      for (Running r : running) {
        next.put(r.end(), Boolean.TRUE);
      }
      for (Submitted s : waiting) {
        if (s.job().eligibleTime().isAfter(now)) {
          next.put(s.job().eligibleTime(), Boolean.TRUE);
        }
      }
      if (next.isEmpty()) {
        return done;
      }
      now = next.firstKey();
    }
  }
}
