package io.fleetkit.queueing.internal;

import io.fleetkit.queueing.PodsReadyCondition;
import io.fleetkit.queueing.RequeueState;
import io.fleetkit.queueing.WaitForPodsReady;
import io.fleetkit.queueing.Workload;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;

/**
 * Kueue's {@code waitForPodsReady} bookkeeping for the engine's workloads: when each admitted one became admitted (its
 * {@code Admitted} condition's transition time), each one's {@code PodsReady} condition, and the {@code
 * status.requeueState} of those the timeout evicted; and what a passed timeout does ({@link #expire}): the workload is
 * evicted and queued again after an exponential backoff, or deactivated once it was requeued {@code
 * backoffLimitCount} times.
 *
 * <p>Without a configuration ({@link #configure} not called) the conditions are still kept, but no timeout runs and
 * nothing blocks admission. Moving workloads (releasing quota, queueing, deactivating) is the caller's.
 *
 * <p>Not thread-safe; the {@link io.fleetkit.queueing.AdmissionEngine} serializes every call.
 */
final class PodsReadyTimeouts {
  /**
   * What a passed PodsReady timeout does to a workload.
   *
   * @param timeout the timeout that passed (its cause is the eviction's)
   * @param requeueAt when the evicted workload is queued again, or {@code null} if it is deactivated
   */
  record Expiry(WaitForPodsReady.Timeout timeout, @Nullable Instant requeueAt) {
    Expiry {
      Objects.requireNonNull(timeout, "timeout");
    }

    boolean deactivates() {
      return requeueAt == null;
    }
  }

  /** Kueue's {@code waitForPodsReady}, or {@code null} when not enabled. */
  private @Nullable WaitForPodsReady config;
  /** Draws the jitter of requeue delays. */
  private RandomGenerator random = new SplittableRandom();
  /** PodsReady conditions of workloads with quota (and of evicted ones, waiting for start again). */
  private final Map<String, PodsReadyCondition> podsReady = new HashMap<>();
  /** When each admitted workload became admitted (the {@code Admitted} condition's transition time). */
  private final Map<String, Instant> admittedSince = new HashMap<>();
  /** Kueue's {@code status.requeueState} of workloads the timeout evicted (or restored). */
  private final Map<String, RequeueState> requeueStates = new HashMap<>();

  /** Enables Kueue's {@code waitForPodsReady} with {@code config}; {@code random} draws the jitter of requeue delays. */
  void configure(WaitForPodsReady config, RandomGenerator random) {
    this.config = config;
    this.random = random;
  }

  /** The configuration, or {@code null} if {@code waitForPodsReady} is not enabled. */
  @Nullable WaitForPodsReady config() {
    return config;
  }

  /** Records that {@code key} is admitted from {@code at} (its {@code Admitted} condition turned true). */
  void admitted(String key, Instant at) {
    admittedSince.put(key, at);
  }

  /**
   * Records that {@code key} is not admitted (it lost its quota or a check); its PodsReady condition stays as it was
   * (Kueue's workload controller evicts without touching it), and no timeout runs for it.
   */
  void notAdmitted(String key) {
    admittedSince.remove(key);
  }

  /**
   * Records that {@code key} got quota again: a PodsReady condition left from an earlier admission becomes the one
   * Kueue's job reconciler writes while it is not admitted ({@code WaitForStart}), so that its timeout counts from the
   * new admission. Nothing changes for a workload without a condition.
   */
  void quotaReserved(String key, Instant now) {
    PodsReadyCondition c = podsReady.get(key);
    if (c != null) {
      podsReady.put(key, PodsReadyCondition.next(c, false, false, now));
    }
  }

  /**
   * Sets whether all pods of {@code key} are ready (as Kueue's job reconciler does).
   *
   * @param admitted whether the workload is admitted (the condition's reason depends on it)
   * @return its new {@code PodsReady} condition
   */
  PodsReadyCondition setPodsReady(String key, boolean admitted, boolean ready, Instant now) {
    PodsReadyCondition next = PodsReadyCondition.next(podsReady.get(key), admitted, ready, now);
    podsReady.put(key, next);
    return next;
  }

  /** The PodsReady condition of {@code key}, or {@code null} if none was set. */
  @Nullable PodsReadyCondition podsReady(String key) {
    return podsReady.get(key);
  }

  /** The requeue state of {@code key}, or {@code null} if it has none. */
  @Nullable RequeueState requeueState(String key) {
    return requeueStates.get(key);
  }

  /** Restores the requeue state of {@code key} (Kueue keeps it in the Workload's status). */
  void restoreRequeueState(String key, RequeueState state) {
    requeueStates.put(key, state);
  }

  /** Records that {@code key} is queued again after its backoff: Kueue clears {@code requeueAt}, keeps the count. */
  void requeued(String key) {
    RequeueState rs = requeueStates.get(key);
    if (rs != null && rs.requeueAt() != null) {
      requeueStates.put(key, new RequeueState(rs.count(), null));
    }
  }

  /**
   * The pending PodsReady timeout of {@code key} at {@code now}, or {@code null} if none runs (not enabled, not
   * admitted, or PodsReady).
   */
  WaitForPodsReady.@Nullable Timeout timeout(String key, Instant now) {
    Instant since = admittedSince.get(key);
    return WaitForPodsReady.admittedNotReady(config, since != null, since == null ? Instant.EPOCH : since,
        podsReady.get(key), now).orElse(null);
  }

  /** Whether a timeout may run: {@code waitForPodsReady} is enabled and some workload is admitted. */
  boolean watching() {
    return config != null && !admittedSince.isEmpty();
  }

  /** The admitted workloads (those a timeout may run for), in no particular order. */
  Collection<String> admittedKeys() {
    return List.copyOf(admittedSince.keySet());
  }

  /**
   * Kueue's {@code reconcileNotReadyTimeout} for admitted {@code key} at {@code now}. If its PodsReady timeout (or
   * recovery timeout) has passed: with {@code backoffLimitCount} requeues already, it is deactivated and its requeue
   * state cleared; else its requeue count goes up and it is queued again at {@code now} plus {@code
   * backoffBaseSeconds * 2^(count-1)} (up to {@code backoffMaxSeconds}, with jitter), never earlier than a {@code
   * requeueAt} it has (Kueue's {@code UpdateRequeueState}). Draws one random number per requeue with jitter.
   *
   * @return what the timeout does, or {@code null} if it has not passed (nothing changes)
   */
  @Nullable Expiry expire(String key, Instant now) {
    WaitForPodsReady cfg = config;
    if (cfg == null) {
      return null;
    }
    WaitForPodsReady.Timeout t = timeout(key, now);
    if (t == null || !(t.recheckAfter().isZero() || t.recheckAfter().isNegative())) {
      return null;
    }
    RequeueState rs = requeueStates.getOrDefault(key, new RequeueState(0, null));
    Integer limit = cfg.backoffLimitCount();
    if (limit != null && rs.count() + 1 > limit) {
      // Kueue's triggerDeactivation, then the eviction of the deactivated workload (which clears its requeue state)
      requeueStates.remove(key);
      return new Expiry(t, null);
    }
    double r = cfg.backoffJitter() == 0 ? 0 : random.nextDouble();
    RequeueState next = RequeueState.set(rs, now.plus(cfg.requeueDelay(rs.count() + 1, r)), true);
    requeueStates.put(key, next);
    return new Expiry(t, Objects.requireNonNull(next.requeueAt()));
  }

  /**
   * The time {@code wl}, evicted by the timeout at {@code now}, is ordered by in its queue (Kueue's {@code
   * requeuingStrategy.timestamp}): {@code now}, or its creation time.
   */
  Instant queueOrderTime(Workload wl, Instant now) {
    WaitForPodsReady cfg = config;
    return cfg != null && cfg.timestamp() == WaitForPodsReady.RequeuingTimestamp.EVICTION ? now : wl.creationTime();
  }

  /**
   * Kueue's {@code PodsReadyForAllAdmittedWorkloads} with {@code blockAdmission}: whether one of {@code withQuota} is
   * not PodsReady, so that nothing is admitted.
   */
  boolean blocksAdmission(Collection<String> withQuota) {
    WaitForPodsReady cfg = config;
    if (cfg == null || !cfg.blockAdmission()) {
      return false;
    }
    for (String key : withQuota) {
      PodsReadyCondition c = podsReady.get(key);
      if (c == null || !c.status()) {
        return true;
      }
    }
    return false;
  }

  /** Forgets everything about {@code key} (the workload was deleted). */
  void forget(String key) {
    podsReady.remove(key);
    admittedSince.remove(key);
    requeueStates.remove(key);
  }
}
