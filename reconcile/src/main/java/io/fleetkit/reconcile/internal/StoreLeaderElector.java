package io.fleetkit.reconcile.internal;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.reconcile.LeaderCallbacks;
import io.fleetkit.reconcile.LeaderElectionConfig;
import io.fleetkit.reconcile.LeaderElector;
import io.fleetkit.reconcile.LeaderLease;
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
 * client-go's {@code tryAcquireOrRenew} over a {@link LeaderLease}. Expiry is judged, as upstream, from the time
 * this elector last <em>observed the record change</em> on its own clock, not from timestamps in the record, so
 * candidates need not trust each other's clocks. All state is guarded by {@code this}; callbacks run under it,
 * which is what keeps them from overlapping.
 */
public final class StoreLeaderElector implements LeaderElector {
  private static final Logger LOG = LoggerFactory.getLogger(StoreLeaderElector.class);

  private final ObjectStore store;
  private final LeaderElectionConfig config;
  private final LeaderCallbacks callbacks;
  private final TimerClock clock;

  private LeaderLease.@Nullable Spec observedSpec;
  private @Nullable Instant observedTime;
  private String reportedLeader = "";
  private boolean leading;
  private @Nullable Instant lastRenew;
  private final CompletableFuture<Void> firstLead = new CompletableFuture<>();
  private boolean started;
  private boolean closed;
  private TimerClock.@Nullable Timer timer;

  public StoreLeaderElector(ObjectStore store, LeaderElectionConfig config, LeaderCallbacks callbacks,
      TimerClock clock) {
    this.store = Objects.requireNonNull(store, "store");
    this.config = Objects.requireNonNull(config, "config");
    this.callbacks = Objects.requireNonNull(callbacks, "callbacks");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  @Override
  public String identity() {
    return config.identity();
  }

  @Override
  public synchronized boolean tryAcquireOrRenew() {
    if (closed) {
      return false;
    }
    Instant now = clock.now();
    boolean ok;
    try {
      ok = attempt(now);
    } catch (RuntimeException e) {
      LOG.warn("leader election {}: {} failed to acquire or renew", lockName(), config.identity(), e);
      ok = false;
    }
    if (ok) {
      lastRenew = now;
      if (!leading) {
        leading = true;
        LOG.info("leader election {}: {} became the leader", lockName(), config.identity());
        callbacks.onStartedLeading();
        firstLead.complete(null);
      }
    } else if (leading && (!isHolder() || !withinRenewDeadline(now))) {
      stopLeading();
    }
    return leading && ok;
  }

  private boolean attempt(Instant now) {
    Optional<LeaderLease> current = store.get(LeaderLease.class, config.namespace(), config.name());
    if (current.isEmpty()) {
      LeaderLease.Spec spec = new LeaderLease.Spec(config.identity(), config.leaseDuration(), now, now, 0);
      try {
        LeaderLease created = store.create(new LeaderLease(ObjectMeta.of(config.namespace(), config.name()),
            spec));
        observe(created.spec(), now);
        return true;
      } catch (ConflictException e) {
        return false; // someone else created it first
      }
    }
    LeaderLease lease = current.get();
    LeaderLease.Spec old = lease.spec();
    if (!old.equals(observedSpec)) {
      observe(old, now);
    }
    boolean heldByOther = !old.holderIdentity().isEmpty() && !old.holderIdentity().equals(config.identity());
    if (heldByOther && observedTime != null && observedTime.plus(old.leaseDuration()).isAfter(now)) {
      return false; // the other holder's lease has not expired as far as we have seen
    }
    boolean ours = old.holderIdentity().equals(config.identity());
    LeaderLease.Spec spec = new LeaderLease.Spec(config.identity(), config.leaseDuration(),
        ours ? old.acquireTime() : now, now, ours ? old.leaseTransitions() : old.leaseTransitions() + 1);
    try {
      LeaderLease updated = store.update(lease.withSpec(spec));
      observe(updated.spec(), now);
      return true;
    } catch (ConflictException | NotFoundException e) {
      return false; // lost a race; the next attempt re-reads
    }
  }

  private void observe(LeaderLease.Spec spec, Instant now) {
    observedSpec = spec;
    observedTime = now;
    if (!spec.holderIdentity().equals(reportedLeader)) {
      reportedLeader = spec.holderIdentity();
      callbacks.onNewLeader(reportedLeader);
    }
  }

  private boolean isHolder() {
    return observedSpec != null && observedSpec.holderIdentity().equals(config.identity());
  }

  private boolean withinRenewDeadline(Instant now) {
    return lastRenew != null && lastRenew.plus(config.renewDeadline()).isAfter(now);
  }

  private void stopLeading() {
    leading = false;
    LOG.info("leader election {}: {} stopped leading", lockName(), config.identity());
    callbacks.onStoppedLeading();
  }

  @Override
  public synchronized boolean isLeader() {
    return leading && withinRenewDeadline(clock.now());
  }

  @Override
  public synchronized Optional<String> observedLeader() {
    return observedSpec == null || observedSpec.holderIdentity().isEmpty() ? Optional.empty()
        : Optional.of(observedSpec.holderIdentity());
  }

  @Override
  public synchronized CompletableFuture<Void> start() {
    if (closed) {
      throw new IllegalStateException("leader elector " + config.identity() + " on " + lockName() + " is closed");
    }
    if (!started) {
      started = true;
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
  public synchronized void release() {
    if (!leading && !isHolder()) {
      return;
    }
    try {
      Optional<LeaderLease> current = store.get(LeaderLease.class, config.namespace(), config.name());
      if (current.isPresent() && current.get().spec().holderIdentity().equals(config.identity())) {
        LeaderLease.Spec old = current.get().spec();
        // as client-go: empty holder, 1 s duration, so others take over without waiting out the lease
        LeaderLease.Spec released = new LeaderLease.Spec("", Duration.ofSeconds(1), old.acquireTime(),
            clock.now(), old.leaseTransitions());
        LeaderLease updated = store.update(current.get().withSpec(released));
        observe(updated.spec(), clock.now());
      }
    } catch (RuntimeException e) {
      LOG.warn("leader election {}: {} failed to release the lease", lockName(), config.identity(), e);
    }
    if (leading) {
      stopLeading();
    }
  }

  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      if (timer != null) {
        timer.cancel();
      }
      if (config.releaseOnClose()) {
        release();
      } else if (leading) {
        stopLeading();
      }
      closed = true;
    }
  }

  private String lockName() {
    return config.namespace() + "/" + config.name();
  }

  @Override
  public String toString() {
    return "LeaderElector{" + config.identity() + " on " + lockName() + (leading ? ", leading}" : "}");
  }
}
