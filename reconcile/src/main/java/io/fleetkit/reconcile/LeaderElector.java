package io.fleetkit.reconcile;

import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.TimerClock;
import io.fleetkit.reconcile.internal.StoreLeaderElector;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Leader election among candidates sharing a lock, as client-go's {@code leaderelection.LeaderElector}. This
 * interface is the SPI: {@link #inStore} implements it over a {@link LeaderLease} in an {@link ObjectStore}; the
 * Kubernetes adapter implements it over a {@code coordination.k8s.io} Lease.
 *
 * <p>Guarantee: with {@code renewDeadline < leaseDuration} and a shared clock, two electors on one lock are never
 * both {@link #isLeader() leaders} at the same instant: a candidate takes over only when the lock has not changed
 * for {@code leaseDuration} as observed by itself, while a leader counts itself leader only until
 * {@code renewDeadline} after its last successful renewal. Writes to the lock use optimistic concurrency, so of
 * two simultaneous attempts at most one succeeds.
 *
 * <p>Driving: either call {@link #tryAcquireOrRenew()} yourself (deterministic simulations), or {@link #start()} to
 * run it every {@code retryPeriod} on the elector's {@link TimerClock}. Thread-safe; see
 * {@link LeaderCallbacks} for callback threading.
 */
public interface LeaderElector extends AutoCloseable {

  /** An elector over a {@link LeaderLease} named by {@code config} in {@code store}. */
  static LeaderElector inStore(ObjectStore store, LeaderElectionConfig config, LeaderCallbacks callbacks,
      TimerClock clock) {
    return new StoreLeaderElector(store, config, callbacks, clock);
  }

  /** This candidate's identity. */
  String identity();

  /**
   * One attempt: acquire the lock if it is free or expired, or renew it if held by this elector. Fires the
   * callbacks for any change of leadership it observes.
   *
   * @return whether this elector leads after the attempt
   */
  boolean tryAcquireOrRenew();

  /** Whether this elector leads now: it holds the lock and its last renewal is less than renewDeadline ago. */
  boolean isLeader();

  /** The holder of the lock as last observed ({@code empty} if none was observed or it was released). */
  Optional<String> observedLeader();

  /**
   * Runs {@link #tryAcquireOrRenew()} now and then every retryPeriod on the clock until closed.
   *
   * @return completes when this elector first becomes the leader
   * @throws IllegalStateException if closed
   */
  CompletableFuture<Void> start();

  /** Gives up the lock if this elector holds it, so another candidate can take it at once. */
  void release();

  /** Stops the loop; releases the lock if the config says so. Idempotent. */
  @Override
  void close();
}
