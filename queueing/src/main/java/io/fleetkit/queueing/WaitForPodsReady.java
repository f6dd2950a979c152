package io.fleetkit.queueing;

import io.fleetkit.api.Violations;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Kueue's {@code waitForPodsReady} configuration (all-or-nothing scheduling with timeouts), given to the engine with
 * {@link AdmissionEngine.Builder#waitForPodsReady}: an admitted workload whose pods are not all ready within {@code
 * timeout} (or, with a {@code recoveryTimeout}, that stops being ready for longer than it) is evicted with reason
 * {@value #REASON_PODS_READY_TIMEOUT} and queued again after an exponential backoff; after {@code backoffLimitCount}
 * requeues it is deactivated. With {@code blockAdmission}, nothing is admitted while an admitted workload is not yet
 * {@code PodsReady}.
 *
 * <p>Defaults are Kueue's ({@code apis/config/v1beta2/defaults.go}): {@code timeout} 30 minutes, {@code
 * blockAdmission} false, {@code recoveryTimeout} the timeout, {@code requeuingStrategy.timestamp} Eviction, {@code
 * backoffLimitCount} unset (requeue forever), {@code backoffBaseSeconds} 60, {@code backoffMaxSeconds} 3600. The
 * jitter factor is Kueue's fixed {@code 0.0001} (a backoff of {@code d} waits up to {@code d * 1.0001}); Kueue's unit
 * tests, and any caller that wants exact times, set it to 0.
 *
 * @param timeout how long an admitted workload may take for all its pods to be ready (positive)
 * @param blockAdmission whether no workload is admitted while an admitted one is not {@code PodsReady}
 * @param recoveryTimeout how long a workload whose pods were all ready may stay not ready ({@code null}: no limit)
 * @param timestamp the time a workload evicted by the timeout is ordered by in its queue
 * @param backoffLimitCount how many times a workload is requeued before it is deactivated ({@code null}: no limit)
 * @param backoffBaseSeconds the first requeue's delay in seconds
 * @param backoffMaxSeconds the longest requeue delay in seconds
 * @param backoffJitter the jitter factor of a delay, from 0 to 1
 */
public record WaitForPodsReady(Duration timeout, boolean blockAdmission, @Nullable Duration recoveryTimeout,
    RequeuingTimestamp timestamp, @Nullable Integer backoffLimitCount, int backoffBaseSeconds, int backoffMaxSeconds,
    double backoffJitter) {
  /** Kueue's {@code Evicted} reason of a workload whose pods were not ready in time. */
  public static final String REASON_PODS_READY_TIMEOUT = "PodsReadyTimeout";
  /** Kueue's {@code DeactivationTarget} reason of a workload requeued {@code backoffLimitCount} times. */
  public static final String REASON_REQUEUING_LIMIT_EXCEEDED = "RequeuingLimitExceeded";
  /** Kueue's {@code Evicted} reason of a workload deactivated by the requeuing limit. */
  public static final String REASON_DEACTIVATED_REQUEUING_LIMIT = "DeactivatedDueToRequeuingLimitExceeded";
  /** Kueue's eviction cause: the pods never were all ready. */
  public static final String CAUSE_WAIT_FOR_START = PodsReadyCondition.REASON_WAIT_FOR_START;
  /** Kueue's eviction cause: the pods were all ready, then not. */
  public static final String CAUSE_WAIT_FOR_RECOVERY = PodsReadyCondition.REASON_WAIT_FOR_RECOVERY;
  /** Kueue's {@code QuotaReserved=False} reason of a workload held back by {@code blockAdmission}. */
  public static final String REASON_WAITING_FOR_PODS_READY = "WaitingForPodsReady";
  /** Kueue's message of a workload held back by {@code blockAdmission}. */
  public static final String MESSAGE_WAITING_FOR_PODS_READY =
      "waiting for all admitted workloads to be in PodsReady condition";
  /** Kueue's {@code DeactivationTarget} message of a workload requeued {@code backoffLimitCount} times. */
  public static final String MESSAGE_REQUEUING_LIMIT = "exceeding the maximum number of re-queuing retries";
  /** Kueue's {@code waitForPodsReady.timeout} default (v1beta2). */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(30);
  public static final int DEFAULT_BACKOFF_BASE_SECONDS = 60;
  public static final int DEFAULT_BACKOFF_MAX_SECONDS = 3600;
  /** Kueue's jitter factor of a requeue delay ({@code UpdateRequeueState}). */
  public static final double DEFAULT_BACKOFF_JITTER = 0.0001;

  /** Kueue's {@code requeuingStrategy.timestamp}. */
  public enum RequeuingTimestamp {
    /** A workload evicted by the timeout is ordered by the time of its eviction (Kueue's default). */
    EVICTION,
    /** A workload evicted by the timeout keeps its place by creation time. */
    CREATION
  }

  /**
   * Validates as Kueue's {@code validateWaitForPodsReady}.
   *
   * @throws io.fleetkit.api.ValidationException naming the field: a timeout that is zero ({@code Required value}) or
   *     negative, a negative recovery timeout, backoff limit count, base or max seconds, or a jitter outside 0..1
   */
  public WaitForPodsReady {
    Objects.requireNonNull(timeout, "timeout");
    Objects.requireNonNull(timestamp, "timestamp");
    Violations v = new Violations("Configuration", "", "waitForPodsReady");
    if (timeout.isZero()) {
      v.add("waitForPodsReady.timeout", "must be specified", timeout);
    } else if (timeout.isNegative()) {
      v.add("waitForPodsReady.timeout", Violations.NON_NEGATIVE, timeout);
    }
    if (recoveryTimeout != null && recoveryTimeout.isNegative()) {
      v.add("waitForPodsReady.recoveryTimeout", Violations.NON_NEGATIVE, recoveryTimeout);
    }
    v.nonNegative("waitForPodsReady.requeuingStrategy.backoffLimitCount", backoffLimitCount);
    v.nonNegative("waitForPodsReady.requeuingStrategy.backoffBaseSeconds", backoffBaseSeconds);
    v.nonNegative("waitForPodsReady.requeuingStrategy.backoffMaxSeconds", backoffMaxSeconds);
    if (!(backoffJitter >= 0 && backoffJitter <= 1)) {
      v.add("waitForPodsReady.requeuingStrategy.backoffJitter", "must be from 0 to 1", backoffJitter);
    }
    v.throwIfAny();
  }

  /** Kueue's defaults. */
  public static WaitForPodsReady defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Kueue's requeue delay after the {@code count}-th eviction ({@code UpdateRequeueState}, apimachinery's {@code
   * wait.Backoff} without jitter): {@code backoffBaseSeconds * 2^(count-1)}, at most {@code backoffMaxSeconds} (a max
   * of 0 means no cap).
   *
   * @throws IllegalArgumentException if {@code count < 1}
   */
  public Duration requeueDelay(int count) {
    return requeueDelay(count, 0);
  }

  /**
   * As {@link #requeueDelay(int)}, plus Kueue's jitter: {@code delay * backoffJitter * random}.
   *
   * @param random a number from 0 (inclusive) to 1 (exclusive), as Go's {@code rand.Float64}
   * @throws IllegalArgumentException if {@code count < 1} or {@code random} is outside [0, 1)
   */
  public Duration requeueDelay(int count, double random) {
    if (count < 1) {
      throw new IllegalArgumentException("waitForPodsReady: requeue count " + count + " must be at least 1");
    }
    if (!(random >= 0 && random < 1)) {
      throw new IllegalArgumentException("waitForPodsReady: random " + random + " must be in [0, 1)");
    }
    long base = Duration.ofSeconds(backoffBaseSeconds).toNanos();
    long cap = backoffMaxSeconds == 0 ? Long.MAX_VALUE / 2 : Duration.ofSeconds(backoffMaxSeconds).toNanos();
    // wait.Backoff.Step: returns the current duration, then doubles it (capped); WaitTime(n) takes the n-th step
    long d = base;
    for (int i = 1; i < count && d < cap; i++) {
      d = d > cap / 2 ? cap : d * 2;
    }
    d = Math.min(d, cap);
    long jitter = (long) (random * backoffJitter * d);
    return Duration.ofNanos(d + jitter);
  }

  /**
   * Kueue's {@code admittedNotReadyWorkload}: for an admitted workload, why it would be evicted (the eviction's
   * underlying cause, {@value #CAUSE_WAIT_FOR_START} or {@value #CAUSE_WAIT_FOR_RECOVERY}) and in how long (zero
   * once the timeout passed); empty if it is not admitted, its pods are ready, or it waits for recovery without a
   * recovery timeout.
   *
   * @param config the configuration, or {@code null} when {@code waitForPodsReady} is not enabled (never a timeout)
   * @param admitted whether the workload is admitted ({@code Admitted=True})
   * @param admittedSince when it became admitted (the {@code Admitted} condition's transition time)
   * @param podsReady its {@code PodsReady} condition, or {@code null} if it has none
   */
  public static Optional<Timeout> admittedNotReady(@Nullable WaitForPodsReady config, boolean admitted,
      Instant admittedSince, @Nullable PodsReadyCondition podsReady, Instant now) {
    if (config == null || !admitted) {
      return Optional.empty();
    }
    if (podsReady != null && podsReady.status()) {
      return Optional.empty();
    }
    if (podsReady == null || podsReady.reason().equals(PodsReadyCondition.REASON_WAIT_FOR_START)
        || podsReady.reason().equals(PodsReadyCondition.REASON_LEGACY_PODS_READY)) {
      Duration elapsed = Duration.between(admittedSince, now);
      return Optional.of(new Timeout(CAUSE_WAIT_FOR_START, nonNegative(config.timeout().minus(elapsed))));
    }
    if (podsReady.reason().equals(PodsReadyCondition.REASON_WAIT_FOR_RECOVERY) && config.recoveryTimeout() != null) {
      Duration elapsed = Duration.between(podsReady.lastTransitionTime(), now);
      return Optional.of(new Timeout(CAUSE_WAIT_FOR_RECOVERY,
          nonNegative(config.recoveryTimeout().minus(elapsed))));
    }
    return Optional.empty();
  }

  private static Duration nonNegative(Duration d) {
    return d.isNegative() ? Duration.ZERO : d;
  }

  /**
   * A pending PodsReady timeout.
   *
   * @param cause the eviction's underlying cause, {@value #CAUSE_WAIT_FOR_START} or {@value #CAUSE_WAIT_FOR_RECOVERY}
   * @param recheckAfter how long until the timeout passes (zero: it has)
   */
  public record Timeout(String cause, Duration recheckAfter) {
    public Timeout {
      Objects.requireNonNull(cause, "cause");
      Objects.requireNonNull(recheckAfter, "recheckAfter");
    }
  }

  /**
   * Builds a {@link WaitForPodsReady} from Kueue's defaults; a setting made twice is refused. Not thread-safe.
   */
  public static final class Builder {
    private final java.util.Map<String, @Nullable Object> set = new java.util.HashMap<>();
    private Duration timeout = DEFAULT_TIMEOUT;
    private boolean blockAdmission;
    private @Nullable Duration recoveryTimeout;
    private boolean recoverySet;
    private RequeuingTimestamp timestamp = RequeuingTimestamp.EVICTION;
    private @Nullable Integer backoffLimitCount;
    private int backoffBaseSeconds = DEFAULT_BACKOFF_BASE_SECONDS;
    private int backoffMaxSeconds = DEFAULT_BACKOFF_MAX_SECONDS;
    private double backoffJitter = DEFAULT_BACKOFF_JITTER;

    private Builder() {}

    /** @throws IllegalStateException if {@code setting} was set before */
    private void once(String setting, @Nullable Object value) {
      if (set.containsKey(setting)) {
        Object old = set.get(setting);
        throw new IllegalStateException("waitForPodsReady: " + setting + " was already set to "
            + (old instanceof Duration d ? Violations.durationText(d) : old));
      }
      set.put(setting, value);
    }

    /** {@code timeout} (default 30 minutes). */
    public Builder timeout(Duration v) {
      once("timeout", v);
      timeout = Objects.requireNonNull(v, "timeout");
      return this;
    }

    /** {@code blockAdmission} (default false). */
    public Builder blockAdmission(boolean v) {
      once("blockAdmission", v);
      blockAdmission = v;
      return this;
    }

    /** {@code recoveryTimeout} (default: the timeout, as Kueue's defaulting). */
    public Builder recoveryTimeout(Duration v) {
      once("recoveryTimeout", Objects.requireNonNull(v, "recoveryTimeout"));
      recoveryTimeout = v;
      recoverySet = true;
      return this;
    }

    /** No recovery timeout: a workload whose pods stop being ready is never evicted for it. */
    public Builder withoutRecoveryTimeout() {
      once("recoveryTimeout", null);
      recoveryTimeout = null;
      recoverySet = true;
      return this;
    }

    /** {@code requeuingStrategy.timestamp} (default Eviction). */
    public Builder timestamp(RequeuingTimestamp v) {
      once("timestamp", v);
      timestamp = Objects.requireNonNull(v, "timestamp");
      return this;
    }

    /** {@code requeuingStrategy.backoffLimitCount} (default unset: no limit). */
    public Builder backoffLimitCount(@Nullable Integer v) {
      once("backoffLimitCount", v);
      backoffLimitCount = v;
      return this;
    }

    /** {@code requeuingStrategy.backoffBaseSeconds} (default 60). */
    public Builder backoffBaseSeconds(int v) {
      once("backoffBaseSeconds", v);
      backoffBaseSeconds = v;
      return this;
    }

    /** {@code requeuingStrategy.backoffMaxSeconds} (default 3600). */
    public Builder backoffMaxSeconds(int v) {
      once("backoffMaxSeconds", v);
      backoffMaxSeconds = v;
      return this;
    }

    /** The jitter factor of requeue delays (default Kueue's 0.0001; 0 for exact times). */
    public Builder backoffJitter(double v) {
      once("backoffJitter", v);
      backoffJitter = v;
      return this;
    }

    /** @throws io.fleetkit.api.ValidationException as the record's constructor */
    public WaitForPodsReady build() {
      // the default recovery timeout is the timeout (Kueue's defaulting); an invalid timeout is reported once, on itself
      Duration recovery = recoverySet ? recoveryTimeout : timeout.isNegative() ? null : timeout;
      return new WaitForPodsReady(timeout, blockAdmission, recovery, timestamp,
          backoffLimitCount, backoffBaseSeconds, backoffMaxSeconds, backoffJitter);
    }
  }
}
