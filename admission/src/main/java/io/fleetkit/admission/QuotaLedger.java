package io.fleetkit.admission;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.admission.AdmissionChain;
import io.fleetkit.api.admission.AdmissionPlugin;
import io.fleetkit.api.admission.AdmissionRequest;
import io.fleetkit.api.admission.AdmissionVerdict;
import io.fleetkit.api.core.ResourceQuota;
import io.fleetkit.api.store.ObjectStore;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The authoritative usage of ResourceQuotas, kept in memory by ResourceQuota admission ({@link ResourceQuotaPlugin}):
 * quotas are charged at admission, and their {@code status.used} is reconciled with the store on a cadence, as
 * Kubernetes' quota controller writes status.
 *
 * <p><b>Charging.</b> Per namespace, a plan is made when the set of quotas changes: the union of the quotas'
 * resources as numbered slots, which quotas apply to pods and with which scopes, which container fields they need
 * set. Admitting a pod then computes its amount per slot once, as {@code long} milli-units, and checks and charges
 * every applying quota with additions and comparisons of primitive counters; no object is built and nothing is
 * written to the store. All quotas of a namespace are checked and charged together in one critical section (as
 * upstream's quota evaluator hands every request of a namespace to one worker, which evaluates it against all the
 * namespace's quotas at once): either every applying quota is charged or none, so concurrent creates never pass a
 * hard limit; namespaces do not wait for each other. A denial carries upstream's message ({@code exceeded quota:
 * NAME, requested: ..., used: ..., limited: ...}) from the ledger's usage. A create refused later in the chain, or
 * whose write fails, gives its charges back.
 *
 * <p><b>Publishing.</b> {@code status.used} is written (one compare-and-set per changed quota, covering every charge
 * since its last write) by the admitting thread when the namespace's last publication is older than the interval
 * ({@link Duration#ZERO}: after every charge, before the create returns), by {@link #publish()}, and by every
 * {@link QuotaReplenisher#sync()} of a replenisher given the ledger. Between publications the stored status lags the
 * ledger by the charges of the interval; admission always decides on the ledger.
 *
 * <p><b>Staying current.</b> Every admission lists the namespace's quotas (a lock-free read of the store) and compares
 * them with the listing the plan was made from, object by object. A quota new to the ledger, or whose spec changed,
 * is recounted from the store (the quota controller's work before admission may use it); a quota whose status was
 * written by someone else (a recount by {@link QuotaRecount} or a user) has that usage adopted, as upstream's
 * admission adopts what the controller wrote; a quota whose metadata only changed keeps the ledger's usage. Usage
 * goes down only by a recount ({@link QuotaReplenisher} after deletions). A recount racing with a create that is
 * admitted but not yet stored can miss that create until the next recount, as upstream's controller can.
 *
 * <p><b>Scope.</b> A ledger keeps separate books for each store it admits into, in one process, and is charged only
 * for stores no other process writes: for a store that is {@linkplain ObjectStore#sharedWithOtherProcesses() shared}
 * (two programs on one etcd), {@link ResourceQuotaPlugin} charges through compare-and-set of the stored status
 * instead, since ledgers in two processes would not see each other's charges and could together pass a limit.
 *
 * <p>Thread-safe.
 */
public final class QuotaLedger {
  /** The publish interval of {@link ResourceQuotaPlugin#ResourceQuotaPlugin(Clock)}. */
  public static final Duration DEFAULT_PUBLISH_INTERVAL = Duration.ofMillis(100);

  private final long intervalMillis;
  private final Duration interval;
  /** The books of the store admitted into last, and of every store (weakly). */
  private volatile @Nullable Books last;
  private final Map<ObjectStore, Books> byStore = new WeakHashMap<>();

  /** The namespaces' books of one store. */
  private static final class Books {
    final ObjectStore store;
    final ConcurrentHashMap<String, QuotaBook> namespaces = new ConcurrentHashMap<>();

    Books(ObjectStore store) {
      this.store = store;
    }
  }

  private QuotaLedger(Duration interval) {
    Objects.requireNonNull(interval, "interval");
    if (interval.isNegative()) {
      throw new IllegalArgumentException("QuotaLedger: the publish interval must not be negative but was "
          + interval);
    }
    this.interval = interval;
    this.intervalMillis = interval.isZero() ? 0 : Math.max(1, interval.toMillis());
  }

  /** A ledger whose admissions publish a namespace's changed quota statuses after every charge. */
  public static QuotaLedger publishingEveryCharge() {
    return new QuotaLedger(Duration.ZERO);
  }

  /**
   * A ledger whose admissions publish a namespace's changed quota statuses at most once per {@code interval}
   * (measured on the admitting plugin's clock, so a simulation publishes at the same simulated times on every run);
   * {@link #publish()} and a replenisher's {@code sync} publish the rest.
   */
  public static QuotaLedger publishingEvery(Duration interval) {
    return new QuotaLedger(interval);
  }

  /** The ledger of the ResourceQuota plugin in {@code chain}, if it has one. */
  public static Optional<QuotaLedger> of(AdmissionChain chain) {
    for (AdmissionPlugin p : chain.plugins()) {
      if (p instanceof ResourceQuotaPlugin rq) {
        return Optional.of(rq.ledger());
      }
    }
    return Optional.empty();
  }

  /** The publish interval of admissions ({@link Duration#ZERO}: every charge). */
  public Duration publishInterval() {
    return interval;
  }

  private Books books(ObjectStore s) {
    Books b = last;
    if (b != null && b.store == s) {
      return b;
    }
    synchronized (byStore) {
      b = byStore.computeIfAbsent(s, Books::new);
    }
    last = b;
    return b;
  }

  private List<Books> allBooks() {
    synchronized (byStore) {
      return new ArrayList<>(byStore.values());
    }
  }

  // ------------------------------------------------------------------------------------------------ charging

  /**
   * Charges {@code request} (a create, or an update that can grow usage) to the quotas of its namespace, checking
   * first that {@code limited} resources and scopes have a covering quota.
   */
  AdmissionVerdict charge(ObjectStore s, AdmissionRequest request, Clock clock, List<LimitedResource> limited) {
    String ns = request.namespace();
    List<ResourceQuota> quotas = s.list(ResourceQuota.class, ns).items();
    Books books = books(s);
    QuotaBook b = books.namespaces.get(ns);
    if (b == null) {
      if (quotas.isEmpty() && limited.isEmpty()) {
        return AdmissionVerdict.allow();
      }
      b = books.namespaces.computeIfAbsent(ns, n -> new QuotaBook(n, clock.millis()));
    }
    QuotaBook book = b;
    return b.charge(s, request, quotas, clock, limited, () -> maybePublish(s, book, clock));
  }

  // ---------------------------------------------------------------------------------------------- publishing

  private void maybePublish(ObjectStore s, QuotaBook b, Clock clock) {
    if (intervalMillis == 0) {
      publish(s, b);
      return;
    }
    long now = clock.millis();
    if (now - b.lastPublish >= intervalMillis) {
      b.lastPublish = now;
      publish(s, b);
    }
  }

  /**
   * Writes the usage of every quota charged or refunded since its last publication to its {@code status.used}.
   *
   * @return how many quota statuses were written
   */
  public int publish() {
    int written = 0;
    for (Books books : allBooks()) {
      for (QuotaBook b : books.namespaces.values()) {
        written += publish(books.store, b);
      }
    }
    return written;
  }

  /** {@link #publish()} for one namespace's quotas. */
  public int publish(String namespace) {
    Objects.requireNonNull(namespace, "namespace");
    int written = 0;
    for (Books books : allBooks()) {
      QuotaBook b = books.namespaces.get(namespace);
      if (b != null) {
        written += publish(books.store, b);
      }
    }
    return written;
  }

  private static int publish(ObjectStore s, QuotaBook b) {
    if (b.publishing.isHeldByCurrentThread()) {
      return 0; // a store listener of this thread's write admitted into the namespace: the outer loop publishes it
    }
    b.publishing.lock();
    try {
      int written = 0;
      for (int round = 0; round < ResourceQuotaPlugin.MAX_ATTEMPTS; round++) {
        List<QuotaBook.Pending> todo = b.dirty();
        if (todo.isEmpty()) {
          return written;
        }
        for (QuotaBook.Pending p : todo) {
          written += write(s, b, p);
        }
      }
      return written;
    } finally {
      b.publishing.unlock();
    }
  }

  private static int write(ObjectStore s, QuotaBook b, QuotaBook.Pending p) {
    QuotaCounters e = p.entry();
    ResourceQuota result;
    try {
      result = s.updateStatus(p.base().withStatus(p.status()));
    } catch (ConflictException c) {
      ResourceQuota fresh = s.get(ResourceQuota.class, b.namespace, e.name).orElse(null);
      b.lock();
      try {
        if (fresh == null || !fresh.metadata().uid().equals(e.uid) || !fresh.spec().equals(e.base.spec())) {
          // Deleted, replaced or respecified: the next admission recounts it; nothing to publish.
          e.publishedSeq = e.seq;
          b.forget();
        } else {
          e.observe(fresh);
        }
        e.publishing = null;
      } finally {
        b.unlock();
      }
      return 0;
    } catch (NotFoundException nf) {
      b.lock();
      try {
        e.publishedSeq = e.seq;
        e.publishing = null;
      } finally {
        b.unlock();
      }
      return 0;
    }
    b.lock();
    try {
      if (e.base == p.base()) {
        e.base = result;
      }
      e.published = p.status();
      e.publishing = null;
      if (p.seq() - e.publishedSeq > 0) {
        e.publishedSeq = p.seq();
      }
    } finally {
      b.unlock();
    }
    return 1;
  }

  // ----------------------------------------------------------------------------------------------- recounting

  /**
   * Recounts the quotas of {@code namespace} from the store (as {@link QuotaRecount}, the quota controller's work),
   * makes the ledger hold those counts and publishes them.
   *
   * @return how many quota statuses were written
   */
  public int recount(ObjectStore s, String namespace, Clock clock) {
    QuotaBook b = books(s).namespaces.computeIfAbsent(namespace, n -> new QuotaBook(n, clock.millis()));
    b.recount(s, clock);
    return publish(s, b);
  }
}
