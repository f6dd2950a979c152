package io.fleetkit.reconcile.controllers;

import io.fleetkit.api.batch.Job;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.reconcile.Controller;
import io.fleetkit.reconcile.ControllerBuilder;
import io.fleetkit.reconcile.SchedulingClock;
import io.fleetkit.reconcile.controllers.internal.JobReconciler;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * Runs {@link Job}s to completion, as Kubernetes' Job controller: up to {@code parallelism} active pods until
 * {@code completions} succeed (NonIndexed), or until each index {@code 0..completions-1} succeeded once (Indexed:
 * annotation and label {@value WorkloadLabels#JOB_COMPLETION_INDEX}, env {@value
 * WorkloadLabels#JOB_COMPLETION_INDEX_ENV}, hostname {@code NAME-INDEX}); without completions, until one succeeds
 * and all have ended. Failed pods are replaced after a 10 s backoff doubling per failure since the last success (6
 * minutes at most); more failures than {@code backoffLimit} fail the Job ({@code BackoffLimitExceeded}), as does
 * {@code activeDeadlineSeconds} ({@code DeadlineExceeded}); {@code suspend} deletes the active pods. Status counts
 * active, ready, succeeded and failed pods and carries Complete/Failed/Suspended conditions. Expectations (the
 * names of the pods it created and deleted, checked against its own pod cache) keep it from acting twice before
 * that cache has caught up with its writes.
 *
 * <p>Thread-safe. In stepping mode drive it with {@link #runUntilIdle()} on one thread.
 */
public final class JobController implements AutoCloseable {
  private static final char[] ALPHANUMS = "bcdfghjklmnpqrstvwxz2456789".toCharArray();

  private final Controller<Job> controller;

  private JobController(Builder b) {
    Random random = new Random(b.seed);
    JobReconciler reconciler = new JobReconciler(() -> {
      char[] s = new char[5];
      synchronized (random) {
        for (int i = 0; i < s.length; i++) {
          s[i] = ALPHANUMS[random.nextInt(ALPHANUMS.length)];
        }
      }
      return new String(s);
    });
    ControllerBuilder<Job> cb = Controller.builder(b.store, Job.class).name(b.name).reconciler(reconciler)
        .owns(Pod.class);
    if (b.clock != null) {
      cb.clock(b.clock);
    }
    if (b.stepping) {
      cb.stepping();
    } else {
      cb.workers(b.workers);
    }
    controller = cb.build();
  }

  /** A builder for a Job controller over {@code store}. */
  public static Builder builder(ObjectStore store) {
    return new Builder(store);
  }

  /** Starts the informers (and workers); completes when synced. */
  public CompletableFuture<Void> start() {
    return controller.start();
  }

  /** Stepping mode: reconciles until no key is ready; returns how many keys were processed. */
  public int runUntilIdle() {
    return controller.runUntilIdle();
  }

  /** The underlying controller (queue, lister, enqueue). */
  public Controller<Job> controller() {
    return controller;
  }

  @Override
  public void close() {
    controller.close();
  }

  /** Configures a {@link JobController}. Not thread-safe. */
  public static final class Builder {
    private final ObjectStore store;
    private String name = "job";
    private @Nullable SchedulingClock clock;
    private boolean stepping;
    private int workers = 1;
    private long seed = 1;

    private Builder(ObjectStore store) {
      this.store = Objects.requireNonNull(store, "store");
    }

    /** The controller name (logs, thread names); default {@code job}. */
    public Builder name(String v) {
      name = Objects.requireNonNull(v, "name");
      return this;
    }

    /** The clock (backoff, deadlines, expectations TTL); default the system clock. */
    public Builder clock(SchedulingClock v) {
      if (clock != null) {
        throw new IllegalStateException("JobController: clock was already set to " + clock);
      }
      clock = Objects.requireNonNull(v, "clock");
      return this;
    }

    /** Stepping mode: no threads, drive with {@link JobController#runUntilIdle()}. */
    public Builder stepping() {
      stepping = true;
      return this;
    }

    /**
     * Threaded mode with {@code n} workers (default 1).
     *
     * @throws IllegalArgumentException if {@code n < 1}
     */
    public Builder workers(int n) {
      if (n < 1) {
        throw new IllegalArgumentException("JobController: workers must be at least 1 but was " + n);
      }
      workers = n;
      return this;
    }

    /** Seed of the generated pod-name suffixes (default 1), for reproducible simulations. */
    public Builder seed(long v) {
      seed = v;
      return this;
    }

    public JobController build() {
      return new JobController(this);
    }
  }
}
