package io.fleetkit.reconcile;

import io.fleetkit.api.time.TimerClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every {@link LeaderElector} does whatever its lock: client-go's {@code LeaderElector} loop around one
 * {@code tryAcquireOrRenew} step. A subclass supplies the lock: {@link #attempt} (one try to acquire or renew it),
 * {@link #holdsLock} and {@link #releaseLock}; this class keeps the leadership state and its rules:
 *
 * <ul>
 *   <li>a successful attempt renews: the leader counts itself leader until {@code renewDeadline} after it, and an
 *       elector that did not lead starts leading ({@link LeaderCallbacks#onStartedLeading}, {@link #start()}'s
 *       future completes);</li>
 *   <li>a leader steps down ({@link LeaderCallbacks#onStoppedLeading}) when an attempt fails and it no longer holds
 *       the lock, or its last renewal is {@code renewDeadline} old;</li>
 *   <li>{@link LeaderCallbacks#onNewLeader} fires once per change of the holder the subclass {@link #observe
 *       observes};</li>
 *   <li>{@link #start()} runs the step every {@code retryPeriod} on the {@link TimerClock}; {@link #close()} stops it
 *       and releases the lock if the config says so.</li>
 * </ul>
 *
 * <p>Thread-safe: all state is guarded by {@code this}; the subclass's hooks and the callbacks run under it, which is
 * what keeps callbacks from overlapping.
 */
public abstract class AbstractLeaderElector implements LeaderElector {
  private static final Logger LOG = LoggerFactory.getLogger(AbstractLeaderElector.class);

  /** The election's settings. */
  protected final LeaderElectionConfig config;
  /** Whom the elector tells about changes of leadership. */
  protected final LeaderCallbacks callbacks;
  /** The clock of renew deadlines and of the loop. */
  protected final TimerClock clock;
  private final String lockName;

  private String observedHolder = "";
  private boolean leading;
  private @Nullable Instant lastRenew;
  private final CompletableFuture<Void> firstLead = new CompletableFuture<>();
  private boolean started;
  private boolean closed;
  private TimerClock.@Nullable Timer timer;

  /**
   * @param lockName the lock, for log lines and {@link #toString()}
   */
  protected AbstractLeaderElector(LeaderElectionConfig config, LeaderCallbacks callbacks, TimerClock clock,
      String lockName) {
    this.config = Objects.requireNonNull(config, "config");
    this.callbacks = Objects.requireNonNull(callbacks, "callbacks");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.lockName = Objects.requireNonNull(lockName, "lockName");
  }

  /**
   * One try to acquire the lock if it is free (or expired) or to renew it if this elector holds it. Runs under
   * {@code this}. An exception counts as a failed attempt (logged).
   *
   * @return whether this elector holds the lock after the attempt
   */
  protected abstract boolean attempt(Instant now);

  /** Whether this elector holds the lock as last observed (a failed attempt by a leader that still holds it waits). */
  protected abstract boolean holdsLock();

  /** Gives up the lock if this elector holds it. Runs under {@code this}, before a leader steps down. */
  protected abstract void releaseLock();

  /** After each successful attempt (a renewal), at {@code now}. Runs under {@code this}. */
  protected void renewed(Instant now) {}

  /** After this elector stopped leading. Runs under {@code this}. */
  protected void steppedDown() {}

  /** When {@link #start()} first runs, before the first step. Runs under {@code this}. */
  protected void starting() {}

  /** After {@link #close()} stopped the loop, outside the lock. */
  protected void closed() {}

  /** A note for the "became the leader" log line (" (term 12)", say); empty by default. */
  protected String leadershipNote() {
    return "";
  }

  /** Records the holder of the lock as observed ({@code ""}: nobody); fires onNewLeader when it changed. */
  protected final void observe(String holder) {
    if (!holder.equals(observedHolder)) {
      observedHolder = holder;
      callbacks.onNewLeader(holder);
    }
  }

  /** Steps down now if this elector leads (a subclass that finds its leadership lost mid-attempt). */
  protected final void stepDown() {
    if (leading) {
      leading = false;
      steppedDown();
      LOG.info("leader election {}: {} stopped leading", lockName, config.identity());
      callbacks.onStoppedLeading();
    }
  }

  /** Whether the last successful renewal is less than renewDeadline before {@code now}. */
  protected final boolean withinRenewDeadline(Instant now) {
    return lastRenew != null && lastRenew.plus(config.renewDeadline()).isAfter(now);
  }

  @Override
  public final String identity() {
    return config.identity();
  }

  @Override
  public final synchronized boolean tryAcquireOrRenew() {
    if (closed) {
      return false;
    }
    Instant now = clock.now();
    boolean ok;
    try {
      ok = attempt(now);
    } catch (RuntimeException e) {
      LOG.warn("leader election {}: {} failed to acquire or renew", lockName, config.identity(), e);
      ok = false;
    }
    if (ok) {
      lastRenew = now;
      renewed(now);
      if (!leading) {
        leading = true;
        LOG.info("leader election {}: {} became the leader{}", lockName, config.identity(), leadershipNote());
        callbacks.onStartedLeading();
        firstLead.complete(null);
      }
    } else if (leading && (!holdsLock() || !withinRenewDeadline(now))) {
      stepDown();
    }
    return leading && ok;
  }

  @Override
  public synchronized boolean isLeader() {
    return leading && holdsLock() && withinRenewDeadline(clock.now());
  }

  @Override
  public final synchronized Optional<String> observedLeader() {
    return observedHolder.isEmpty() ? Optional.empty() : Optional.of(observedHolder);
  }

  @Override
  public final synchronized CompletableFuture<Void> start() {
    if (closed) {
      throw new IllegalStateException("leader elector " + config.identity() + " on " + lockName + " is closed");
    }
    if (!started) {
      started = true;
      starting();
      timer = clock.schedule(Duration.ZERO, this::loop);
    }
    return firstLead;
  }

  private void loop() {
    tryAcquireOrRenew();
    synchronized (this) {
      if (!closed) {
        timer = clock.schedule(config.retryPeriod(), this::loop);
      }
    }
  }

  @Override
  public final synchronized void release() {
    releaseLock();
    stepDown();
  }

  @Override
  public final void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      if (timer != null) {
        timer.cancel();
      }
      if (config.releaseOnClose()) {
        release();
      } else {
        stepDown();
      }
      closed = true;
    }
    closed();
  }

  /** Whether {@link #close()} was called. */
  protected final synchronized boolean isClosed() {
    return closed;
  }

  /** The lock, as given to the constructor. */
  protected final String lockName() {
    return lockName;
  }

  @Override
  public synchronized String toString() {
    return getClass().getSimpleName() + "{" + config.identity() + " on " + lockName
        + (leading ? ", leading" + leadershipNote() : "") + "}";
  }
}
