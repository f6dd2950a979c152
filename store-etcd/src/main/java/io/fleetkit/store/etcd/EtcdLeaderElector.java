package io.fleetkit.store.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.Lease;
import io.etcd.jetcd.Watch.Watcher;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import io.etcd.jetcd.watch.WatchEvent;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.TimerClock;
import io.fleetkit.reconcile.AbstractLeaderElector;
import io.fleetkit.reconcile.LeaderCallbacks;
import io.fleetkit.reconcile.LeaderElectionConfig;
import io.fleetkit.reconcile.LeaderElector;
import io.fleetkit.store.etcd.internal.EtcdObjectStore;
import io.fleetkit.store.etcd.internal.EtcdSettings;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leader election on etcd's own leases, the way etcd's {@code concurrency.Election} does it, behind FleetKit's
 * {@link LeaderElector} SPI. The lock is the key {@code <store prefix>/leaders/<namespace>/<name>}, holding the
 * leader's identity and attached to the leader's etcd lease:
 *
 * <ul>
 *   <li>Each candidate grants itself a lease with a TTL of {@code leaseDuration} (rounded up to whole seconds) and
 *       keeps it alive with one keep-alive per {@code retryPeriod}.</li>
 *   <li>It becomes the leader with the transaction {@code if create_revision(key) == 0 then put(key, identity,
 *       lease)}. The key's create revision is the leader's <em>term</em>: every takeover creates the key anew, so
 *       terms only grow.</li>
 *   <li>When a leader's process dies, etcd expires its lease after the TTL and deletes the key with it; followers
 *       watch the key and try at once (and at least every {@code retryPeriod}), so one of them leads within the
 *       lease duration plus one round trip. A leader that closes revokes its lease, which hands over at once.</li>
 *   <li>A leader counts itself leader only until {@code renewDeadline} after its last successful keep-alive, less
 *       than the TTL etcd gives it, so it steps down before etcd can hand the key to anyone else.</li>
 *   <li>Fencing: {@link #fencedStore()} is a view of the store whose every write carries the condition
 *       "the lock key still has this elector's term as its create revision" in the write's own etcd transaction.
 *       A deposed leader (paused past its lease, partitioned away) cannot write through it even if it has not yet
 *       noticed: the write fails with a {@link io.fleetkit.api.ConflictException}.</li>
 * </ul>
 *
 * <p>Unlike the {@linkplain LeaderElector#inStore in-store election}, expiry is judged by etcd's clock (the lease's
 * TTL), not by each candidate's observation of the lock; the renew deadline is on this elector's clock. Use
 * {@link #forStore} to get this election when the store is on etcd and the in-store one otherwise.
 *
 * <p>The loop, the renew deadline and the callbacks are {@link AbstractLeaderElector}'s. Thread-safe: all state is
 * guarded by {@code this}; callbacks run under it, as {@link LeaderCallbacks} says.
 */
public final class EtcdLeaderElector extends AbstractLeaderElector {
  private static final Logger LOG = LoggerFactory.getLogger(EtcdLeaderElector.class);

  private final EtcdObjectStore store;
  private final EtcdSettings settings;
  private final String keyName;
  private final ByteSequence key;
  private final ByteSequence identity;
  private final KV kv;
  private final Lease leases;
  private final long ttlSeconds;
  private final EtcdObjectStore fenced;

  private long leaseId;
  /** The create revision of the lock key while this elector holds it; 0 otherwise. Written under the lock. */
  private volatile long term;
  /** The term and renew deadline the fenced store reads without taking the lock. */
  private volatile long fenceTerm;
  private volatile @Nullable Instant fenceUntil;
  private @Nullable Watcher keyWatch;

  private EtcdLeaderElector(EtcdObjectStore store, LeaderElectionConfig config, LeaderCallbacks callbacks,
      TimerClock clock, String keyName) {
    super(config, callbacks, clock, keyName);
    this.store = store;
    this.settings = store.settings();
    this.keyName = keyName;
    this.key = bytes(keyName);
    this.identity = bytes(config.identity());
    this.kv = store.client().getKVClient();
    this.leases = store.client().getLeaseClient();
    this.ttlSeconds = Math.max(1, (config.leaseDuration().toMillis() + 999) / 1000);
    this.fenced = store.fenced(new EtcdObjectStore.Fence(keyName, this::currentFenceTerm,
        "leader " + config.identity()));
  }

  /**
   * An election on an etcd lease among the processes sharing {@code store}'s etcd and prefix.
   *
   * @param store a store built by {@link EtcdStore#builder}; the elector uses its connection and prefix
   * @throws IllegalArgumentException if {@code store} is not an etcd store
   */
  public static EtcdLeaderElector onLease(ObjectStore store, LeaderElectionConfig config, LeaderCallbacks callbacks,
      TimerClock clock) {
    Objects.requireNonNull(store, "store");
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(callbacks, "callbacks");
    Objects.requireNonNull(clock, "clock");
    if (!(store instanceof EtcdObjectStore etcd)) {
      throw new IllegalArgumentException("leader election " + config.namespace() + "/" + config.name()
          + ": an etcd lease needs a store built by EtcdStore.builder(..), not " + store);
    }
    return new EtcdLeaderElector(etcd, config, callbacks, clock,
        etcd.settings().prefix() + "/leaders/" + config.namespace() + "/" + config.name());
  }

  /**
   * The election that suits {@code store}: on an etcd lease when it is an etcd store, otherwise
   * {@link LeaderElector#inStore} (a {@link io.fleetkit.reconcile.LeaderLease} object in the store).
   */
  public static LeaderElector forStore(ObjectStore store, LeaderElectionConfig config, LeaderCallbacks callbacks,
      TimerClock clock) {
    Objects.requireNonNull(store, "store");
    return store instanceof EtcdObjectStore ? onLease(store, config, callbacks, clock)
        : LeaderElector.inStore(store, config, callbacks, clock);
  }

  /**
   * Keep the lease alive (or grant one), then take the key if free; whether this elector holds it. A leader whose
   * lease was lost and who took the key anew steps down first: a new term, not a continuation.
   */
  @Override
  protected boolean attempt(Instant now) {
    long previousTerm = term;
    boolean holds = acquireOrKeep();
    if (holds && previousTerm != term) {
      stepDown();
    }
    return holds;
  }

  private boolean acquireOrKeep() {
    if (leaseId != 0 && !keepAlive()) {
      LOG.info("leader election {}: {}'s lease {} expired", keyName, config.identity(), Long.toHexString(leaseId));
      leaseId = 0;
      term = 0;
    }
    if (leaseId == 0) {
      leaseId = call(leases.grant(ttlSeconds), "grant a lease of " + ttlSeconds + " s").getID();
    }
    TxnResponse r = call(kv.txn()
        .If(new Cmp(key, Cmp.Op.EQUAL, CmpTarget.createRevision(0)))
        .Then(Op.put(key, identity, PutOption.builder().withLeaseId(leaseId).build()))
        .Else(Op.get(key, GetOption.DEFAULT))
        .commit(), "acquire " + keyName);
    if (r.isSucceeded()) {
      term = r.getHeader().getRevision();
      observe(config.identity());
      return true;
    }
    List<KeyValue> kvs = r.getGetResponses().get(0).getKvs();
    if (kvs.isEmpty()) {
      term = 0; // deleted between the compare and the read cannot happen in one transaction; defensive
      return false;
    }
    KeyValue holder = kvs.get(0);
    if (holder.getLease() == leaseId) {
      term = holder.getCreateRevision();
      observe(config.identity());
      return true;
    }
    term = 0;
    observe(holder.getValue().toString(StandardCharsets.UTF_8));
    return false;
  }

  /** One keep-alive; false when etcd no longer knows the lease (it expired or was revoked). */
  private boolean keepAlive() {
    try {
      return call(leases.keepAliveOnce(leaseId), "renew lease " + Long.toHexString(leaseId)).getTTL() > 0;
    } catch (RuntimeException e) {
      if (String.valueOf(rootMessage(e)).contains("not found")) {
        return false;
      }
      throw e;
    }
  }

  private static @Nullable String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t.getMessage() != null ? t.getMessage() : e.getMessage();
  }

  @Override
  protected boolean holdsLock() {
    return term != 0;
  }

  @Override
  protected void renewed(Instant now) {
    fenceTerm = term;
    fenceUntil = now.plus(config.renewDeadline());
  }

  @Override
  protected void steppedDown() {
    fenceTerm = 0;
  }

  @Override
  protected String leadershipNote() {
    return " (term " + term + ")";
  }

  private long currentFenceTerm() {
    Instant until = fenceUntil;
    return until != null && clock.now().isBefore(until) ? fenceTerm : 0;
  }

  /**
   * This elector's term while it {@linkplain #isLeader() leads}: the etcd revision at which it created the lock key.
   * A fencing token: it grows with every change of leader.
   */
  public synchronized OptionalLong term() {
    return isLeader() ? OptionalLong.of(term) : OptionalLong.empty();
  }

  /** The etcd key this election locks. */
  public String lockKey() {
    return keyName;
  }

  /**
   * The store this elector was made with, with every write fenced by this elector's term: a write commits only if,
   * in etcd at the moment of the write, the lock key is the one this elector created; otherwise (this elector does
   * not lead, or no longer does) it fails with a {@link io.fleetkit.api.ConflictException} naming the lock. Reads
   * and watches are the store's. Give it to the controllers and the scheduler that only the leader may run.
   */
  public ObjectStore fencedStore() {
    return fenced;
  }

  /**
   * A follower tries at once when the key goes (the leader's lease expired or was revoked), not only every
   * retryPeriod. The holder whose key went does not rush back: it finds out at its next renewal.
   */
  @Override
  protected void starting() {
    keyWatch = store.client().getWatchClient().watch(key, response -> {
      for (WatchEvent e : response.getEvents()) {
        if (e.getEventType() == WatchEvent.EventType.DELETE && term == 0) {
          clock.schedule(Duration.ZERO, this::tryAcquireOrRenew);
          return;
        }
      }
    }, error -> LOG.debug("leader election {}: watch of the lock ended: {}", keyName, error.getMessage()));
  }

  /** Revokes this elector's lease, which deletes the lock key if it holds it: another candidate leads at once. */
  @Override
  protected void releaseLock() {
    if (leaseId != 0) {
      try {
        call(leases.revoke(leaseId), "revoke lease " + Long.toHexString(leaseId));
      } catch (RuntimeException e) {
        LOG.warn("leader election {}: {} failed to revoke its lease", keyName, config.identity(), e);
      }
      leaseId = 0;
    }
    if (term != 0) {
      term = 0;
      observe("");
    }
  }

  /**
   * Stops the watch of the lock; the lease was revoked if the config says to release on close, otherwise it is left
   * to expire after its TTL. Does not close the store.
   */
  @Override
  protected void closed() {
    fenceTerm = 0;
    Watcher w;
    synchronized (this) {
      w = keyWatch;
      keyWatch = null;
    }
    if (w != null) {
      w.close();
    }
  }

  private <R> R call(CompletableFuture<R> f, String what) {
    return EtcdObjectStore.call(settings, f, "leader election " + keyName + ": " + what);
  }

  private static ByteSequence bytes(String s) {
    return ByteSequence.from(s, StandardCharsets.UTF_8);
  }
}
