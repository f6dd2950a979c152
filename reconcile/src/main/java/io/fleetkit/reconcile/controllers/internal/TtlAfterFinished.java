package io.fleetkit.reconcile.controllers.internal;

import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobCondition;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The arithmetic of Kubernetes' TTL-after-finished controller ({@code
 * pkg/controller/ttlafterfinished/ttlafterfinished_controller.go}: {@code needsCleanup}, {@code
 * getFinishAndExpireTime}, {@code timeLeft}, {@code jobFinishTime}). A Job needs clean-up when it has
 * {@code spec.ttlSecondsAfterFinished} and is finished (a {@code Complete} or {@code Failed} condition is
 * {@code True}); it finished at that condition's {@code lastTransitionTime} and expires {@code ttl} seconds later.
 * Pure and stateless.
 */
public final class TtlAfterFinished {
  private TtlAfterFinished() {}

  /** When a Job finished and when its TTL expires ({@code finishAt + ttlSecondsAfterFinished}). */
  public record Expiry(Instant finishAt, Instant expireAt) {
    public Expiry {
      Objects.requireNonNull(finishAt, "finishAt");
      Objects.requireNonNull(expireAt, "expireAt");
    }
  }

  /**
   * What is left of a Job's TTL at some instant.
   *
   * @param left {@code expireAt - since}: zero or negative once the TTL has expired
   * @param expireAt when the TTL expires
   */
  public record TimeLeft(Duration left, Instant expireAt) {
    public TimeLeft {
      Objects.requireNonNull(left, "left");
      Objects.requireNonNull(expireAt, "expireAt");
    }

    /** Whether the TTL has expired ({@code left <= 0}, upstream's {@code *t <= 0}). */
    public boolean expired() {
      return left.isNegative() || left.isZero();
    }
  }

  /** Whether {@code job} has a TTL and is finished (upstream's {@code needsCleanup}). */
  public static boolean needsCleanup(Job job) {
    return job.spec().ttlSecondsAfterFinished() != null && job.status().isFinished();
  }

  /**
   * When the finished {@code job} finished: the {@code lastTransitionTime} of its first {@code Complete} or
   * {@code Failed} condition that is {@code True} (upstream's {@code jobFinishTime}).
   *
   * @throws IllegalArgumentException if that condition has no {@code lastTransitionTime}, or the Job has no such
   *     condition (it has not finished)
   */
  public static Instant jobFinishTime(Job job) {
    JobCondition c = job.status().finishedCondition();
    if (c != null) {
      Instant at = c.lastTransitionTime();
      if (at == null) {
        throw new IllegalArgumentException("job " + key(job) + ": unable to find the time when the Job finished: "
            + "status.conditions[type=" + c.type() + "] has no lastTransitionTime");
      }
      return at;
    }
    throw new IllegalArgumentException("job " + key(job)
        + ": unable to find the status of the finished Job: no Complete or Failed condition is True");
  }

  /**
   * When {@code job} finished and when its TTL expires (upstream's {@code getFinishAndExpireTime}).
   *
   * @throws IllegalArgumentException if the Job should not be cleaned up (no {@code spec.ttlSecondsAfterFinished},
   *     or not finished), or its finish time is unknown (see {@link #jobFinishTime})
   */
  public static Expiry finishAndExpireTime(Job job) {
    Integer ttl = job.spec().ttlSecondsAfterFinished();
    if (ttl == null) {
      throw new IllegalArgumentException("job " + key(job)
          + " should not be cleaned up: spec.ttlSecondsAfterFinished is not set");
    }
    if (!job.status().isFinished()) {
      throw new IllegalArgumentException("job " + key(job)
          + " should not be cleaned up: it has not finished (no Complete or Failed condition is True)");
    }
    Instant finishAt = jobFinishTime(job);
    return new Expiry(finishAt, finishAt.plusSeconds(ttl));
  }

  /**
   * How much of {@code job}'s TTL is left at {@code since}, and when it expires (upstream's {@code timeLeft}). A Job
   * that finished after {@code since} (clock skew) has more than its TTL left: its clean-up is deferred.
   *
   * @throws IllegalArgumentException as {@link #finishAndExpireTime}
   */
  public static TimeLeft timeLeft(Job job, Instant since) {
    Expiry e = finishAndExpireTime(job);
    return new TimeLeft(Duration.between(since, e.expireAt()), e.expireAt());
  }

  private static String key(Job job) {
    return job.metadata().namespace() + "/" + job.metadata().name();
  }
}
