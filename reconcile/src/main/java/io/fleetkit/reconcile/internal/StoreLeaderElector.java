package io.fleetkit.reconcile.internal;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.TimerClock;
import io.fleetkit.reconcile.AbstractLeaderElector;
import io.fleetkit.reconcile.LeaderCallbacks;
import io.fleetkit.reconcile.LeaderElectionConfig;
import io.fleetkit.reconcile.LeaderLease;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * client-go's {@code tryAcquireOrRenew} over a {@link LeaderLease}. Expiry is judged, as upstream, from the time
 * this elector last <em>observed the record change</em> on its own clock, not from timestamps in the record, so
 * candidates need not trust each other's clocks. The loop, the renew deadline and the callbacks are
 * {@link AbstractLeaderElector}'s; all state is guarded by {@code this}.
 */
public final class StoreLeaderElector extends AbstractLeaderElector {
  private static final Logger LOG = LoggerFactory.getLogger(StoreLeaderElector.class);

  private final ObjectStore store;

  private LeaderLease.@Nullable Spec observedSpec;
  private @Nullable Instant observedTime;

  public StoreLeaderElector(ObjectStore store, LeaderElectionConfig config, LeaderCallbacks callbacks,
      TimerClock clock) {
    super(config, callbacks, clock, config.namespace() + "/" + config.name());
    this.store = Objects.requireNonNull(store, "store");
  }

  @Override
  protected boolean attempt(Instant now) {
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
    observe(spec.holderIdentity());
  }

  @Override
  protected boolean holdsLock() {
    return observedSpec != null && observedSpec.holderIdentity().equals(config.identity());
  }

  /** As client-go: an empty holder and a 1 s duration, so that others take over without waiting out the lease. */
  @Override
  protected void releaseLock() {
    if (!holdsLock()) {
      return;
    }
    try {
      Optional<LeaderLease> current = store.get(LeaderLease.class, config.namespace(), config.name());
      if (current.isPresent() && current.get().spec().holderIdentity().equals(config.identity())) {
        LeaderLease.Spec old = current.get().spec();
        LeaderLease.Spec released = new LeaderLease.Spec("", Duration.ofSeconds(1), old.acquireTime(),
            clock.now(), old.leaseTransitions());
        LeaderLease updated = store.update(current.get().withSpec(released));
        observe(updated.spec(), clock.now());
      }
    } catch (RuntimeException e) {
      LOG.warn("leader election {}: {} failed to release the lease", lockName(), config.identity(), e);
    }
  }
}
