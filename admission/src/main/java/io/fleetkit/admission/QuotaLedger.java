package io.fleetkit.admission;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.admission.AdmissionVerdict;
import io.fleetkit.api.core.ResourceQuota;
import io.fleetkit.api.core.ResourceQuotaSpec;
import io.fleetkit.api.core.ResourceQuotaStatus;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * The authoritative usage of the ResourceQuotas of one store, kept in memory, for ResourceQuota admission that
 * charges without a status write per quota per create ({@link ResourceQuotaPlugin#ResourceQuotaPlugin(Clock,
 * QuotaLedger)}).
 *
 * <p>Charging: all quotas of a namespace are checked and charged together, in one critical section per namespace
 * (as upstream's quota evaluator hands every request of a namespace to one worker, which evaluates them against all
 * the namespace's quotas at once). Concurrent creates in one namespace are serialized there, so a hard limit is
 * never passed; creates in different namespaces do not wait for each other. A denial carries upstream's message
 * ({@code exceeded quota: NAME, requested: ..., used: ..., limited: ...}) computed from the ledger's usage.
 *
 * <p>Publishing: {@code status.used} is written to the store (a compare-and-set of each changed quota's status,
 * once for all the charges since the last write) by {@link #publish()}, by the admitting thread when the namespace's
 * last publication is older than the interval given at construction ({@link Duration#ZERO}: after every charge,
 * before the create returns, so that the status is current as with status charging), and by a
 * {@link QuotaReplenisher} built with this ledger on every {@code sync}. Between publications the stored status lags
 * the ledger by the charges of the interval; admission itself always decides on the ledger.
 *
 * <p>Staying authoritative: every admission lists the namespace's quotas (as status charging does) and compares
 * each with the version the ledger last wrote or saw. A quota new to the ledger, or whose spec changed, is
 * recounted from the store (the quota controller's work before admission may use it); a quota whose status was
 * written by someone else (a recount by {@link QuotaRecount} or a user) has that usage adopted, as upstream's
 * admission adopts what the controller wrote; a quota whose metadata only changed keeps the ledger's usage. A
 * recount racing with a create that is admitted but not yet stored can miss that create, as upstream's controller
 * can; {@link QuotaReplenisher#sync()} counts again after every deletion.
 *
 * <p>Scope: one ledger serves one store (it binds to the first store that asks) and one process. Several processes
 * sharing a store (two FleetKit programs on one etcd) each keep their own ledger and could together pass a limit;
 * there, charge through the status (the plugin without a ledger), whose compare-and-set is shared.
 *
 * <p>Thread-safe.
 */
public final class QuotaLedger {
  private final long intervalNanos;
  private final Duration interval;
  private final AtomicReference<@Nullable ObjectStore> store = new AtomicReference<>();
  private final ConcurrentHashMap<String, Book> books = new ConcurrentHashMap<>();

  private QuotaLedger(Duration interval) {
    Objects.requireNonNull(interval, "interval");
    if (interval.isNegative()) {
      throw new IllegalArgumentException("QuotaLedger: the publish interval must not be negative but was "
          + interval);
    }
    this.interval = interval;
    this.intervalNanos = interval.toNanos();
  }

  /** A ledger whose admissions publish a namespace's changed quota statuses after every charge. */
  public static QuotaLedger publishingEveryCharge() {
    return new QuotaLedger(Duration.ZERO);
  }

  /**
   * A ledger whose admissions publish a namespace's changed quota statuses at most once per {@code interval}
   * (measured on {@link System#nanoTime()}); {@link #publish()} and a replenisher's {@code sync} publish the rest.
   */
  public static QuotaLedger publishingEvery(Duration interval) {
    return new QuotaLedger(interval);
  }

  /** The publish interval of admissions ({@link Duration#ZERO}: every charge). */
  public Duration publishInterval() {
    return interval;
  }

  // ------------------------------------------------------------------------------------------------ charging

  /**
   * Checks {@code delta} (the request's usage, without zero amounts) of {@code o} against {@code quotas} (the
   * quotas of its namespace, as just listed) and charges all that apply, or none.
   */
  AdmissionVerdict charge(ObjectStore s, ApiObject<?> o, List<ResourceQuota> quotas, ResourceList delta,
      Clock clock) {
    bind(s);
    String ns = o.metadata().namespace();
    Book b = books.computeIfAbsent(ns, Book::new);
    Entry[] charged;
    ResourceList[] amounts;
    b.lock();
    try {
      Entry[] entries = b.sync(s, b.isSeen(quotas) ? quotas : s.list(ResourceQuota.class, ns).items(), clock);
      charged = new Entry[entries.length];
      amounts = new ResourceList[entries.length];
      ResourceList[] newUsed = new ResourceList[entries.length];
      int n = 0;
      for (Entry e : entries) {
        Shape shape = e.shape;
        if (shape.memoFor != o || shape.memoDelta != delta) {
          shape.prepare(o, delta);
        }
        if (!shape.memoMatches) {
          continue;
        }
        if (shape.memoFailed != null) {
          return AdmissionVerdict.deny("spec", "failed quota: " + e.name + ": " + shape.memoFailed);
        }
        ResourceList requested = shape.memoRequested;
        if (requested.isEmpty()) {
          continue;
        }
        ResourceList used = e.used;
        ResourceList after = used.add(requested);
        String exceeded = exceeded(e.name, shape.hard, used, after, requested);
        if (exceeded != null) {
          return AdmissionVerdict.deny("spec", exceeded);
        }
        charged[n] = e;
        amounts[n] = requested;
        newUsed[n] = after;
        n++;
      }
      if (n == 0) {
        return AdmissionVerdict.allow();
      }
      for (int i = 0; i < n; i++) {
        charged[i].used = newUsed[i];
        charged[i].seq++;
      }
      if (n < charged.length) {
        charged = java.util.Arrays.copyOf(charged, n);
        amounts = java.util.Arrays.copyOf(amounts, n);
      }
    } finally {
      b.unlock();
    }
    maybePublish(s, b);
    Entry[] done = charged;
    ResourceList[] given = amounts;
    return AdmissionVerdict.allowWithUndo(() -> refund(s, b, done, given));
  }

  /** Upstream's {@code exceeded quota} message, or {@code null} when {@code after} stays within {@code hard}. */
  static @Nullable String exceeded(String quota, ResourceList hard, ResourceList used, ResourceList after,
      ResourceList requested) {
    if (after.fitsIn(hard)) {
      return null; // every positive amount within its limit (the usual case, without building name sets)
    }
    Set<String> exceeded = null;
    for (String r : requested.names()) {
      if (after.get(r).compareTo(hard.get(r)) > 0) {
        if (exceeded == null) {
          exceeded = new HashSet<>();
        }
        exceeded.add(r);
      }
    }
    if (exceeded == null) {
      return null;
    }
    return "exceeded quota: " + quota + ", requested: "
        + QuotaEvaluator.prettyPrint(QuotaEvaluator.mask(requested, exceeded)) + ", used: "
        + QuotaEvaluator.prettyPrint(QuotaEvaluator.mask(used, exceeded)) + ", limited: "
        + QuotaEvaluator.prettyPrint(QuotaEvaluator.mask(hard, exceeded));
  }

  private void refund(ObjectStore s, Book b, Entry[] entries, ResourceList[] amounts) {
    b.lock();
    try {
      for (int i = 0; i < entries.length; i++) {
        Entry e = entries[i];
        if (b.byName.get(e.name) == e) { // a replaced entry was recounted without the refused object
          e.used = QuotaRecount.clampAtZero(e.used.subtract(amounts[i]));
          e.seq++;
        }
      }
    } finally {
      b.unlock();
    }
    maybePublish(s, b);
  }

  private void bind(ObjectStore s) {
    ObjectStore bound = store.get();
    if (bound == s) {
      return;
    }
    if (bound == null && store.compareAndSet(null, s)) {
      return;
    }
    if (store.get() != s) {
      throw new IllegalStateException("a QuotaLedger keeps the quota usage of one store; it is already in use by "
          + "another store (give each store's admission chain its own ledger)");
    }
  }

  // ---------------------------------------------------------------------------------------------- publishing

  private void maybePublish(ObjectStore s, Book b) {
    if (intervalNanos == 0) {
      publish(s, b);
      return;
    }
    long now = System.nanoTime();
    if (now - b.lastPublish >= intervalNanos) {
      publish(s, b);
    }
  }

  /**
   * Writes the usage of every quota charged or refunded since its last publication to its {@code status.used}.
   *
   * @return how many quota statuses were written
   */
  public int publish() {
    ObjectStore s = store.get();
    if (s == null) {
      return 0;
    }
    int written = 0;
    for (Book b : books.values()) {
      written += publish(s, b);
    }
    return written;
  }

  /** {@link #publish()} for one namespace's quotas. */
  public int publish(String namespace) {
    ObjectStore s = store.get();
    Book b = books.get(Objects.requireNonNull(namespace, "namespace"));
    return s == null || b == null ? 0 : publish(s, b);
  }

  private record Pending(Entry entry, ResourceQuota base, ResourceQuotaStatus status, long seq) {}

  private static int publish(ObjectStore s, Book b) {
    if (b.publishing.isHeldByCurrentThread()) {
      return 0; // a store listener of this thread's write admitted into the namespace: the outer loop publishes it
    }
    b.publishing.lock();
    try {
      b.lastPublish = System.nanoTime();
      int written = 0;
      for (int round = 0; round < ResourceQuotaPlugin.MAX_ATTEMPTS; round++) {
        List<Pending> todo = b.dirty();
        if (todo.isEmpty()) {
          return written;
        }
        for (Pending p : todo) {
          written += write(s, b, p);
        }
      }
      return written;
    } finally {
      b.publishing.unlock();
    }
  }

  private static int write(ObjectStore s, Book b, Pending p) {
    Entry e = p.entry();
    ResourceQuota result;
    try {
      result = s.updateStatus(p.base().withStatus(p.status()));
    } catch (ConflictException c) {
      ResourceQuota fresh = s.get(ResourceQuota.class, b.namespace, e.name).orElse(null);
      b.lock();
      try {
        if (fresh == null || !fresh.metadata().uid().equals(e.base.metadata().uid())
            || !fresh.spec().equals(e.base.spec())) {
          // Deleted, replaced or respecified: the next admission recounts it (a new entry); nothing to publish.
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
    bind(s);
    Book b = books.computeIfAbsent(namespace, Book::new);
    b.lock();
    try {
      Entry[] entries = b.sync(s, s.list(ResourceQuota.class, namespace).items(), clock);
      for (Entry e : entries) {
        ResourceList counted = QuotaRecount.usage(s, e.base, clock.instant());
        if (!counted.equals(e.used) || !e.base.status().used().equals(counted)) {
          e.used = counted;
          e.seq++;
        }
      }
    } finally {
      b.unlock();
    }
    return publish(s, b);
  }

  // ---------------------------------------------------------------------------------------------- the books

  /** The ledger of one namespace; its fields are guarded by {@link #lock}. */
  private static final class Book {
    final String namespace;
    private final ReentrantLock lock = new ReentrantLock();
    /** Held while writing statuses, so that one thread publishes a namespace at a time. */
    final ReentrantLock publishing = new ReentrantLock();
    volatile long lastPublish = System.nanoTime();
    /** The quotas as last listed, and their entries in the same order. */
    private ResourceQuota[] seen = new ResourceQuota[0];
    private Entry[] entries = new Entry[0];
    final Map<String, Entry> byName = new HashMap<>();
    private final Map<ResourceQuotaSpec, Shape> shapes = new HashMap<>();

    Book(String namespace) {
      this.namespace = namespace;
    }

    void lock() {
      if (lock.isHeldByCurrentThread()) {
        throw new IllegalStateException("ResourceQuota admission of namespace " + namespace + " was re-entered by "
            + "a store listener running inside it; deliver watch events off the admitting thread");
      }
      lock.lock();
    }

    void unlock() {
      lock.unlock();
    }

    /** Makes the next {@link #sync} compare every quota with the store again. */
    void forget() {
      seen = new ResourceQuota[0];
    }

    /** Whether {@code quotas} is the listing the entries were last brought up to date with (the same objects). */
    boolean isSeen(List<ResourceQuota> quotas) {
      int n = quotas.size();
      if (n != seen.length) {
        return false;
      }
      for (int i = 0; i < n; i++) {
        if (quotas.get(i) != seen[i]) {
          return false;
        }
      }
      return true;
    }

    /**
     * The entries of {@code quotas}, brought up to date with the store. {@code quotas} must have been listed under
     * the lock (or be the listing last seen): an older listing could hold versions older than the entries know.
     */
    Entry[] sync(ObjectStore s, List<ResourceQuota> quotas, Clock clock) {
      int n = quotas.size();
      if (isSeen(quotas)) {
        return entries;
      }
      ResourceQuota[] newSeen = new ResourceQuota[n];
      List<Entry> newEntries = new ArrayList<>(n);
      Map<String, Entry> keep = new HashMap<>();
      for (int i = 0; i < n; i++) {
        ResourceQuota q = quotas.get(i);
        newSeen[i] = q;
        String name = q.metadata().name();
        Entry e = byName.get(name);
        if (e != null && e.base != q && older(q, e.base)) {
          q = e.base; // a stale read (a store serving lists from a lagging cache): keep what the ledger knows
          newSeen[i] = null;
        }
        if (e == null || !e.base.metadata().uid().equals(q.metadata().uid())
            || !e.base.spec().equals(q.spec()) || !ResourceQuotaPlugin.statusCovers(q)) {
          e = fresh(s, q, clock);
          if (e == null) {
            continue; // deleted meanwhile
          }
        } else if (e.base != q) {
          e.observe(q);
        }
        keep.put(name, e);
        newEntries.add(e);
      }
      byName.clear();
      byName.putAll(keep);
      shapes.keySet().retainAll(specsOf(newEntries));
      boolean complete = newEntries.size() == n;
      for (ResourceQuota q : newSeen) {
        complete &= q != null;
      }
      seen = complete ? newSeen : new ResourceQuota[0]; // a skipped or stale quota: compare again next time
      entries = newEntries.toArray(new Entry[0]);
      return entries;
    }

    /** Whether {@code a} is an older version of the same quota than {@code b} (numeric resourceVersions). */
    private static boolean older(ResourceQuota a, ResourceQuota b) {
      if (!a.metadata().uid().equals(b.metadata().uid())) {
        return false;
      }
      try {
        return Long.parseLong(a.metadata().resourceVersion()) < Long.parseLong(b.metadata().resourceVersion());
      } catch (NumberFormatException e) {
        return false;
      }
    }

    private static Set<ResourceQuotaSpec> specsOf(List<Entry> es) {
      Set<ResourceQuotaSpec> out = new HashSet<>();
      for (Entry e : es) {
        out.add(e.base.spec());
      }
      return out;
    }

    /**
     * An entry for {@code q}, new to the ledger or with a changed spec: its status recounted from the store unless
     * it already covers the spec and the ledger never saw the quota.
     */
    private @Nullable Entry fresh(ObjectStore s, ResourceQuota q, Clock clock) {
      Entry old = byName.get(q.metadata().name());
      boolean specChanged = old != null && old.base.metadata().uid().equals(q.metadata().uid())
          && !old.base.spec().equals(q.spec());
      ResourceQuota current = specChanged ? QuotaRecount.recount(s, q, clock.instant())
          : QuotaRecount.initialize(s, q, clock.instant());
      if (current == null) {
        return null;
      }
      Shape shape = shapes.computeIfAbsent(current.spec(), spec -> new Shape(current));
      return new Entry(current, shape);
    }

    /** What to write: every entry charged or refunded since its last publication. */
    List<Pending> dirty() {
      lock();
      try {
        List<Pending> out = new ArrayList<>();
        for (Entry e : entries) {
          if (e.seq != e.publishedSeq && byName.get(e.name) == e) {
            ResourceQuotaStatus status = new ResourceQuotaStatus(e.base.status().hard(), e.used);
            e.publishing = status;
            out.add(new Pending(e, e.base, status, e.seq));
          }
        }
        return out;
      } finally {
        unlock();
      }
    }
  }

  /** One quota's usage; fields guarded by the book's lock. */
  private static final class Entry {
    final String name;
    final Shape shape;
    /** The newest stored version of the quota the ledger knows. */
    ResourceQuota base;
    /** The authoritative usage. */
    ResourceList used;
    /** The status as stored, by a publication of the ledger or adopted from the store. */
    ResourceQuotaStatus published;
    /** The status a publication is writing, or {@code null}. */
    @Nullable ResourceQuotaStatus publishing;
    /** Changes of {@link #used}, and the change last published. */
    long seq;
    long publishedSeq;

    Entry(ResourceQuota q, Shape shape) {
      this.name = q.metadata().name();
      this.shape = shape;
      this.base = q;
      this.used = q.status().used();
      this.published = q.status();
    }

    /**
     * Takes a newer stored version of the quota (same spec): its metadata only, when its status is one the ledger
     * wrote; else its usage too, which someone else (a recount) wrote.
     */
    void observe(ResourceQuota q) {
      base = q;
      if (q.status().equals(published) || q.status().equals(publishing)) {
        return;
      }
      used = q.status().used();
      published = q.status();
      publishedSeq = seq;
    }
  }

  /**
   * What the quotas with one spec charge the request being admitted; shared by the entries of equal specs (a
   * namespace's quotas often have the same hard limits, with scopes told apart by priority class). The memo fields
   * belong to the request being charged and are guarded by the book's lock.
   */
  private static final class Shape {
    final ResourceQuota quota;
    final ResourceList hard;
    final Set<String> hardNames;
    @Nullable ApiObject<?> memoFor;
    @Nullable ResourceList memoDelta;
    boolean memoMatches;
    @Nullable String memoFailed;
    ResourceList memoRequested = ResourceList.EMPTY;

    Shape(ResourceQuota q) {
      this.quota = q;
      this.hard = q.status().hard();
      this.hardNames = hard.names();
    }

    void prepare(ApiObject<?> o, ResourceList delta) {
      memoFor = o;
      memoDelta = delta;
      memoMatches = QuotaEvaluator.matches(quota, hardNames, o);
      if (memoMatches) {
        memoFailed = QuotaEvaluator.constraints(QuotaEvaluator.matchingResources(hardNames, o), o);
        memoRequested = QuotaEvaluator.mask(delta, hardNames);
      } else {
        memoFailed = null;
        memoRequested = ResourceList.EMPTY;
      }
    }
  }
}
