package io.fleetkit.adapter.slurm;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobCondition;
import io.fleetkit.api.batch.JobStatus;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.scheduling.PodGroup;
import io.fleetkit.api.scheduling.PodGroupPhase;
import io.fleetkit.api.scheduling.PodGroupStatus;
import io.fleetkit.api.store.ObjectStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a {@link Job} or a {@link PodGroup} as one Slurm job and keeps its state in an {@link ObjectStore}.
 *
 * <p>{@link #run(Job)} / {@link #run(PodGroup, PodSpec)} create the object in the store if it is not there,
 * submit it ({@link SlurmWorkloads}), and record the Slurm job id and shape in annotations ({@link #JOB_ID},
 * {@link #TASKS}, {@link #PODS_PER_TASK}). {@link #pollOnce()} then reads every such object that has not finished
 * from the store, asks Slurm for its job (or the array's tasks) and writes the status:
 * <ul>
 *   <li>Job: {@code active} = pending + running pods, {@code ready} = running pods, {@code succeeded} /
 *       {@code failed} = pods of finished tasks; when all tasks have ended, {@code Complete} (all succeeded, with
 *       {@code completionTime}) or {@code Failed} (reason: Slurm's state reason, or the state, e.g.
 *       {@code NonZeroExitCode}; message: the Slurm summary with the decoded exit status).</li>
 *   <li>PodGroup: phase Pending → Running → Finished or Failed, with the member counts.</li>
 *   <li>Annotations {@link #STATE}, {@link #EXIT_STATUS} ({@code exit:signal}) and {@link #NODES} follow Slurm.</li>
 * </ul>
 * A job Slurm no longer knows (forgotten after MinJobAge before FleetKit saw it end) becomes Failed with reason
 * {@link #REASON_LOST}. Objects deleted from the store have their Slurm job cancelled on the next poll. Slurm being
 * unreachable is logged and retried at the next poll.
 *
 * <p>The store is the record: a new backend over the same store resumes tracking. Polling runs either by calling
 * {@link #pollOnce()} (deterministic tests) or every {@code pollInterval} on a daemon thread after {@link #start()}.
 * Timestamps come from the injected {@link Clock} when Slurm has none. Thread-safe.
 */
public final class SlurmBackend implements AutoCloseable {
  /** The Slurm job id (for an array, the master id). */
  public static final String JOB_ID = "slurm.fleetkit.io/job-id";
  /** Array tasks of the Slurm job, 1 for a plain job. */
  public static final String TASKS = "slurm.fleetkit.io/tasks";
  /** Pods (nodes) each task stands for. */
  public static final String PODS_PER_TASK = "slurm.fleetkit.io/pods-per-task";
  /** Slurm's job state as last seen (for an array: the state of the last task seen to change). */
  public static final String STATE = "slurm.fleetkit.io/state";
  /** The decoded wait status, {@code exit:signal}, once known. */
  public static final String EXIT_STATUS = "slurm.fleetkit.io/exit-status";
  /** The allocated nodes in Slurm host-list notation. */
  public static final String NODES = "slurm.fleetkit.io/nodes";
  /** Failed reason of a job Slurm forgot before it was seen to end. */
  public static final String REASON_LOST = "SlurmJobLost";

  private static final Logger LOG = LoggerFactory.getLogger(SlurmBackend.class);

  private final SlurmClient client;
  private final ObjectStore store;
  private final Clock clock;
  private final Duration pollInterval;
  /** Submitted by this backend and not yet finished: key → Slurm id, to cancel jobs whose object was deleted. */
  private final Map<String, Long> live = new ConcurrentHashMap<>();
  private @Nullable ScheduledExecutorService poller;

  private SlurmBackend(Builder b) {
    this.client = Objects.requireNonNull(b.client, "slurm backend: client is required");
    this.store = Objects.requireNonNull(b.store, "slurm backend: store is required");
    this.clock = b.clock;
    this.pollInterval = b.pollInterval;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Submits the job (created in the store if absent) and returns it as stored, annotated with its Slurm id. */
  public Job run(Job job) {
    Job stored = store.get(Job.class, job.metadata().namespace(), job.metadata().name())
        .orElseGet(() -> store.create(job));
    SlurmJobSpec spec = SlurmWorkloads.forJob(stored);
    int tasks = spec.array().isEmpty() ? 1 : Objects.requireNonNull(stored.spec().completions());
    long id = submitOnce(stored, spec);
    Job annotated = annotate(Job.class, stored, id, tasks, spec.nodes());
    return mutateStatus(Job.class, annotated, j -> j.withStatus(new JobStatus(tasks * spec.nodes(), 0, 0, 0,
        j.status().conditions(), j.status().startTime() == null ? clock.instant() : j.status().startTime(), null,
        "")));
  }

  /** Submits the gang (created in the store if absent) of {@code minMember} pods shaped like {@code member}. */
  public PodGroup run(PodGroup group, PodSpec member) {
    PodGroup stored = store.get(PodGroup.class, group.metadata().namespace(), group.metadata().name())
        .orElseGet(() -> store.create(group));
    SlurmJobSpec spec = SlurmWorkloads.forPodGroup(stored, member);
    long id = submitOnce(stored, spec);
    PodGroup annotated = annotate(PodGroup.class, stored, id, 1, spec.nodes());
    return mutateStatus(PodGroup.class, annotated, g -> new PodGroup(g.metadata(), g.spec(),
        new PodGroupStatus(PodGroupPhase.Pending, 0, 0, 0, 0, clock.instant())));
  }

  private long submitOnce(ApiObject<?> obj, SlurmJobSpec spec) {
    String existing = obj.metadata().annotations().get(JOB_ID);
    if (existing != null) {
      throw new IllegalStateException(obj.describe() + ": already running as Slurm job " + existing);
    }
    long id = client.submit(spec).jobId();
    LOG.debug("{} submitted as Slurm job {}", obj.describe(), id);
    live.put(key(obj), id);
    return id;
  }

  /** Cancels the object's Slurm job; the next poll records the end. Does nothing if it was never submitted. */
  public void cancel(ApiObject<?> object) {
    ApiObject<?> stored = object instanceof Job ? store.get(Job.class, object.metadata().namespace(),
        object.metadata().name()).orElse(null)
        : store.get(PodGroup.class, object.metadata().namespace(), object.metadata().name()).orElse(null);
    ObjectMeta meta = stored == null ? object.metadata() : stored.metadata();
    String id = meta.annotations().get(JOB_ID);
    if (id != null) {
      client.cancel(Long.parseLong(id));
    }
  }

  /**
   * One round: updates every unfinished Job and PodGroup that has a Slurm job, and cancels Slurm jobs whose object
   * was deleted. Returns how many objects' status changed.
   */
  public int pollOnce() {
    int changed = 0;
    List<String> seen = new ArrayList<>();
    for (Job j : store.list(Job.class).items()) {
      if (j.metadata().annotations().containsKey(JOB_ID)) {
        seen.add(key(j));
        if (!j.status().isFinished()) {
          changed += pollJob(j) ? 1 : 0;
        }
      }
    }
    for (PodGroup g : store.list(PodGroup.class).items()) {
      if (g.metadata().annotations().containsKey(JOB_ID)) {
        seen.add(key(g));
        PodGroupPhase p = g.status().phase();
        if (p != PodGroupPhase.Finished && p != PodGroupPhase.Failed) {
          changed += pollGroup(g) ? 1 : 0;
        }
      }
    }
    for (Map.Entry<String, Long> e : List.copyOf(live.entrySet())) {
      if (!seen.contains(e.getKey())) {
        try {
          client.cancel(e.getValue());
          LOG.debug("{} was deleted: cancelled Slurm job {}", e.getKey(), e.getValue());
          live.remove(e.getKey());
        } catch (SlurmJobNotFoundException gone) {
          live.remove(e.getKey());
        } catch (SlurmException ex) {
          LOG.warn("cannot cancel Slurm job {} of deleted {}: {}", e.getValue(), e.getKey(), ex.getMessage());
        }
      }
    }
    return changed;
  }

  /** Counts of one Slurm job's tasks, in pods. */
  private record Progress(int active, int ready, int succeeded, int failed, boolean finished,
      @Nullable SlurmJob last, @Nullable SlurmJob firstFailure, @Nullable Instant start, @Nullable Instant end) {}

  private @Nullable Progress progress(ApiObject<?> obj) {
    Map<String, String> a = obj.metadata().annotations();
    long id = Long.parseLong(a.get(JOB_ID));
    int tasks = Integer.parseInt(a.getOrDefault(TASKS, "1"));
    int pods = Integer.parseInt(a.getOrDefault(PODS_PER_TASK, "1"));
    List<SlurmJob> entries;
    try {
      entries = tasks > 1 ? client.jobs().stream().filter(j -> j.arrayJobId() == id || j.jobId() == id).toList()
          : List.of(client.job(id));
    } catch (SlurmJobNotFoundException e) {
      entries = List.of();
    } catch (SlurmException e) {
      LOG.warn("{}: cannot read Slurm job {}, will retry at the next poll: {}", obj.describe(), id, e.getMessage());
      return null;
    }
    if (entries.isEmpty()) {
      return new Progress(0, 0, 0, tasks * pods, true, null, null, null, clock.instant());
    }
    int succeeded = 0;
    int failed = 0;
    int running = 0;
    SlurmJob firstFailure = null;
    Instant start = null;
    Instant end = null;
    for (SlurmJob j : entries) {
      if (j.state() == SlurmJobState.COMPLETED) {
        succeeded++;
      } else if (j.isFinished()) {
        failed++;
        if (firstFailure == null) {
          firstFailure = j;
        }
      } else if (j.state() == SlurmJobState.RUNNING || j.state() == SlurmJobState.COMPLETING) {
        running++;
      }
      if (j.startTime() != null && (start == null || j.startTime().isBefore(start))) {
        start = j.startTime();
      }
      if (j.isFinished() && j.endTime() != null && (end == null || j.endTime().isAfter(end))) {
        end = j.endTime();
      }
    }
    boolean finished = succeeded + failed >= tasks;
    int active = finished ? 0 : tasks - succeeded - failed;
    return new Progress(active * pods, running * pods, succeeded * pods, failed * pods, finished,
        entries.get(entries.size() - 1), firstFailure, start, end);
  }

  private boolean pollJob(Job job) {
    Progress p = progress(job);
    if (p == null) {
      return false;
    }
    Instant now = clock.instant();
    List<JobCondition> conds = new ArrayList<>(job.status().conditions());
    Instant completion = null;
    if (p.finished()) {
      if (p.failed() == 0) {
        conds.add(new JobCondition(JobCondition.COMPLETE, ConditionStatus.True, "Completed",
            p.last() == null ? "" : p.last().summary(), now, now));
        completion = p.end() == null ? now : p.end();
      } else {
        SlurmJob f = p.firstFailure();
        String reason = f == null ? REASON_LOST
            : !f.stateReason().isEmpty() && !f.stateReason().equals("None") ? f.stateReason() : f.state().name();
        String msg = f == null ? "Slurm job " + job.metadata().annotations().get(JOB_ID) + " is no longer known to "
            + "Slurm" : f.summary();
        conds.add(new JobCondition(JobCondition.FAILED, ConditionStatus.True, reason, msg, now, now));
      }
    }
    JobStatus old = job.status();
    JobStatus st = new JobStatus(p.active(), p.succeeded(), p.failed(), p.ready(), conds,
        old.startTime() != null ? old.startTime() : p.start(), completion, old.completedIndexes(), null,
        old.failedIndexes());
    Job annotated = annotateProgress(Job.class, job, p);
    Job written = mutateStatus(Job.class, annotated, j -> j.withStatus(st));
    if (p.finished()) {
      live.remove(key(job));
    }
    return !written.status().equals(old);
  }

  private boolean pollGroup(PodGroup group) {
    Progress p = progress(group);
    if (p == null) {
      return false;
    }
    PodGroupPhase phase;
    if (p.finished()) {
      phase = p.failed() == 0 ? PodGroupPhase.Finished : PodGroupPhase.Failed;
    } else {
      phase = p.ready() > 0 ? PodGroupPhase.Running : PodGroupPhase.Pending;
    }
    PodGroupStatus old = group.status();
    int scheduled = phase == PodGroupPhase.Pending ? 0 : p.ready() + p.succeeded() + p.failed();
    PodGroupStatus st = new PodGroupStatus(phase, scheduled, p.ready(), p.succeeded(), p.failed(),
        old.scheduleStartTime());
    PodGroup annotated = annotateProgress(PodGroup.class, group, p);
    PodGroup written = mutateStatus(PodGroup.class, annotated,
        g -> new PodGroup(g.metadata(), g.spec(), st));
    if (p.finished()) {
      live.remove(key(group));
    }
    return !written.status().equals(old);
  }

  private <T extends ApiObject<T>> T annotate(Class<T> kind, T obj, long id, int tasks, int podsPerTask) {
    return mutate(kind, obj, o -> o.withMetadata(o.metadata().toBuilder().annotation(JOB_ID, Long.toString(id))
        .annotation(TASKS, Integer.toString(tasks)).annotation(PODS_PER_TASK, Integer.toString(podsPerTask))
        .build()));
  }

  private <T extends ApiObject<T>> T annotateProgress(Class<T> kind, T obj, Progress p) {
    SlurmJob shown = p.firstFailure() != null ? p.firstFailure() : p.last();
    if (shown == null) {
      return obj;
    }
    return mutate(kind, obj, o -> {
      ObjectMeta.Builder m = o.metadata().toBuilder().annotation(STATE, shown.state().name());
      if (!shown.nodes().isEmpty()) {
        m.annotation(NODES, shown.nodes());
      }
      if (shown.isFinished()) {
        m.annotation(EXIT_STATUS, shown.exitStatus().toString());
      }
      return o.withMetadata(m.build());
    });
  }

  /** Read-modify-write of metadata with retry on conflict. */
  private <T extends ApiObject<T>> T mutate(Class<T> kind, T obj, UnaryOperator<T> change) {
    T current = obj;
    for (int i = 0; ; i++) {
      try {
        return store.update(change.apply(current));
      } catch (ConflictException e) {
        if (i >= 10) {
          throw e;
        }
        current = reread(kind, current);
      }
    }
  }

  private <T extends ApiObject<T>> T mutateStatus(Class<T> kind, T obj, UnaryOperator<T> change) {
    T current = obj;
    for (int i = 0; ; i++) {
      try {
        return store.updateStatus(change.apply(current));
      } catch (ConflictException e) {
        if (i >= 10) {
          throw e;
        }
        current = reread(kind, current);
      }
    }
  }

  private <T extends ApiObject<T>> T reread(Class<T> kind, T obj) {
    Optional<T> fresh = store.get(kind, obj.metadata().namespace(), obj.metadata().name());
    return fresh.orElseThrow(() -> new IllegalStateException(obj.describe() + ": deleted while being updated"));
  }

  private static String key(ApiObject<?> o) {
    return o.kind() + ":" + o.metadata().namespace() + "/" + o.metadata().name();
  }

  /** Polls every {@code pollInterval} on a daemon thread until {@link #close()}. Idempotent. */
  public synchronized void start() {
    if (poller != null) {
      return;
    }
    ScheduledExecutorService s = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "fleetkit-slurm-poller");
      t.setDaemon(true);
      return t;
    });
    s.scheduleWithFixedDelay(() -> {
      try {
        pollOnce();
      } catch (RuntimeException e) {
        LOG.warn("slurm poll failed: {}", e.toString());
      }
    }, 0, pollInterval.toMillis(), TimeUnit.MILLISECONDS);
    poller = s;
  }

  /** Stops polling (Slurm jobs keep running). */
  @Override
  public synchronized void close() {
    if (poller != null) {
      poller.shutdownNow();
      poller = null;
    }
  }

  /** Builder; client and store are required. Not thread-safe. */
  public static final class Builder {
    private @Nullable SlurmClient client;
    private @Nullable ObjectStore store;
    private Clock clock = Clock.systemUTC();
    private Duration pollInterval = Duration.ofSeconds(5);

    private Builder() {}

    public Builder client(SlurmClient v) { client = Objects.requireNonNull(v, "client"); return this; }
    public Builder store(ObjectStore v) { store = Objects.requireNonNull(v, "store"); return this; }
    public Builder clock(Clock v) { clock = Objects.requireNonNull(v, "clock"); return this; }

    public Builder pollInterval(Duration v) {
      Objects.requireNonNull(v, "pollInterval");
      if (v.isNegative() || v.isZero()) {
        throw new IllegalArgumentException("slurm backend: pollInterval " + v + " must be positive");
      }
      pollInterval = v;
      return this;
    }

    public SlurmBackend build() {
      return new SlurmBackend(this);
    }
  }
}
