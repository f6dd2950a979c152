package io.fleetkit.admission;

import io.fleetkit.api.admission.AdmissionOperation;
import io.fleetkit.api.admission.AdmissionRequest;
import io.fleetkit.api.admission.AdmissionVerdict;
import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.ResourceQuota;
import io.fleetkit.api.core.ResourceQuotaStatus;
import io.fleetkit.api.core.ScopedResourceSelectorRequirement;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * The quotas of one namespace in a {@link QuotaLedger}: their {@link QuotaCounters}, and a plan made when the set of
 * quotas changes (the union of their resources as numbered slots, where a pod's amount for each slot comes from,
 * which slots each quota counts), so that admitting a pod computes its amounts once as {@code long}s and charges
 * every applying quota by additions and comparisons, with no object built and nothing written to the store.
 *
 * <p>All quotas of the namespace are checked and charged together in one critical section (upstream's quota
 * evaluator hands a namespace's requests to one worker, which evaluates them against all its quotas at once):
 * either every applying quota is charged or none, and concurrent creates cannot pass a limit together.
 */
final class QuotaBook {
  /** Where a pod's amount for a slot comes from. */
  private static final byte NONE = 0;
  private static final byte COUNT = 1; // count/pods: every pod
  private static final byte PODS = 2; // pods: pods that are charged compute
  private static final byte REQUEST = 3;
  private static final byte LIMIT = 4;
  private static final long ONE = 1000;

  final String namespace;
  private final ReentrantLock lock = new ReentrantLock();
  /** Held while writing statuses, so that one thread publishes a namespace at a time. */
  final ReentrantLock publishing = new ReentrantLock();
  /** When admission last published the namespace, on the admitting clock (milliseconds). */
  volatile long lastPublish;
  /** The quotas as last listed, the listing the plan was made from. */
  private ResourceQuota[] seen = new ResourceQuota[0];
  private final Map<String, QuotaCounters> byName = new HashMap<>();
  private Plan plan = Plan.EMPTY;

  QuotaBook(String namespace, long now) {
    this.namespace = namespace;
    this.lastPublish = now;
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

  /** Makes the next admission compare every quota with the store again. */
  void forget() {
    seen = new ResourceQuota[0];
  }

  /** Whether {@code quotas} is the listing the plan was last made from (the same objects). */
  boolean isSeen(List<ResourceQuota> quotas) {
    ResourceQuota[] s = seen;
    int n = quotas.size();
    if (n != s.length) {
      return false;
    }
    for (int i = 0; i < n; i++) {
      if (quotas.get(i) != s[i]) {
        return false;
      }
    }
    return true;
  }

  // ------------------------------------------------------------------------------------------------- charging

  /**
   * Checks {@code request} against the namespace's quotas ({@code listed}: as just listed) and the covering-quota
   * rules of {@code limited}, and charges all quotas that apply, or none. {@code onChange} runs after the lock is
   * released when something was charged or refunded.
   */
  AdmissionVerdict charge(ObjectStore s, AdmissionRequest request, List<ResourceQuota> listed, Clock clock,
      List<LimitedResource> limited, Runnable onChange) {
    Plan p;
    Demand dm;
    int[] hits;
    int h = 0;
    lock();
    try {
      p = sync(s, isSeen(listed) ? listed : s.list(ResourceQuota.class, namespace).items(), clock);
      QuotaCounters[] entries = p.entries;
      if (entries.length == 0 && limited.isEmpty()) {
        return AdmissionVerdict.allow();
      }
      ApiObject<?> o = request.object();
      Pod pod = request.operation() == AdmissionOperation.CREATE && o instanceof Pod x ? x : null;
      // The quotas that apply, each checked for the container fields it needs (upstream checks all of them before
      // any limit).
      int[] matched = new int[entries.length];
      int m = 0;
      int missing = -1;
      int facts = 0;
      for (int i = 0; i < entries.length; i++) {
        QuotaCounters e = entries[i];
        if (pod != null) {
          if (!e.podResource) {
            continue;
          }
          if (e.selectors.length > 0) {
            if (facts == 0) {
              facts = facts(pod.spec());
            }
            if (!scopesMatch(e.selectors, pod, facts)) {
              continue;
            }
          }
          if (e.constrained != 0) {
            if (missing < 0) {
              missing = missing(pod.spec());
            }
            if ((e.constrained & missing) != 0) {
              return AdmissionVerdict.deny("spec", "failed quota: " + e.name + ": "
                  + QuotaEvaluator.constraints(QuotaEvaluator.matchingResources(e.hardNames, pod), pod));
            }
          }
        } else if (!QuotaEvaluator.matches(e.base, e.hardNames, o)) {
          continue;
        }
        matched[m++] = i;
      }
      if (!limited.isEmpty()) {
        String uncovered = LimitedResources.check(limited, request, clock.instant(), entries, matched, m);
        if (uncovered != null) {
          return AdmissionVerdict.deny("spec", uncovered);
        }
      }
      if (m == 0) {
        return AdmissionVerdict.allow();
      }
      dm = pod != null ? podDemand(p, pod, clock) : genericDemand(p, request, clock);
      hits = matched;
      for (int j = 0; j < m; j++) {
        int i = matched[j];
        QuotaCounters e = entries[i];
        int[] slots = p.slotOf[i];
        boolean requested = false;
        for (int k = 0; k < slots.length; k++) {
          int slot = slots[k];
          long d = dm.milli[slot];
          if (d == 0) {
            continue;
          }
          requested = true;
          if (e.exceeds(k, d, d == QuotaCounters.INEXACT ? dm.quantity(slot) : null)) {
            return AdmissionVerdict.deny("spec", exceeded(e, slots, dm));
          }
        }
        if (requested) {
          hits[h++] = i; // h <= j: overwrites only entries already read
        }
      }
      if (h == 0 || request.dryRun()) {
        return AdmissionVerdict.allow(); // a dry run is checked, never charged
      }
      for (int j = 0; j < h; j++) {
        int i = hits[j];
        QuotaCounters e = entries[i];
        int[] slots = p.slotOf[i];
        for (int k = 0; k < slots.length; k++) {
          long d = dm.milli[slots[k]];
          if (d != 0 && !e.tryAdd(k, d)) {
            e.addExact(k, dm.quantity(slots[k]));
          }
        }
        e.seq++;
      }
    } finally {
      unlock();
    }
    onChange.run();
    Plan charged = p;
    Demand amounts = dm;
    int[] which = hits;
    int count = h;
    return AdmissionVerdict.allowWithUndo(() -> {
      refund(charged, which, count, amounts);
      onChange.run();
    });
  }

  /** Upstream's {@code exceeded quota} message for the amounts of {@code dm} that pass {@code e}'s limits. */
  private static String exceeded(QuotaCounters e, int[] slots, Demand dm) {
    ResourceList.Builder requested = ResourceList.builder();
    ResourceList.Builder used = ResourceList.builder();
    ResourceList.Builder hard = ResourceList.builder();
    for (int k = 0; k < slots.length; k++) {
      long d = dm.milli[slots[k]];
      if (d != 0 && e.exceeds(k, d, d == QuotaCounters.INEXACT ? dm.quantity(slots[k]) : null)) {
        requested.put(e.names[k], dm.quantity(slots[k]));
        used.put(e.names[k], e.usedQuantity(k));
        hard.put(e.names[k], e.hardQ[k]);
      }
    }
    return "exceeded quota: " + e.name + ", requested: " + QuotaEvaluator.prettyPrint(requested.build())
        + ", used: " + QuotaEvaluator.prettyPrint(used.build()) + ", limited: "
        + QuotaEvaluator.prettyPrint(hard.build());
  }

  private void refund(Plan p, int[] hits, int h, Demand dm) {
    lock();
    try {
      for (int j = 0; j < h; j++) {
        QuotaCounters e = p.entries[hits[j]];
        if (byName.get(e.name) != e) {
          continue; // replaced: recounted without the refused object
        }
        int[] slots = p.slotOf[hits[j]];
        for (int k = 0; k < slots.length; k++) {
          long d = dm.milli[slots[k]];
          if (d != 0 && !e.trySubtract(k, d)) {
            e.subtractExact(k, dm.quantity(slots[k]));
          }
        }
        e.seq++;
      }
    } finally {
      unlock();
    }
  }

  // ------------------------------------------------------------------------------------------ what is charged

  /**
   * A request's amount per slot of a plan, in milli-units ({@link QuotaCounters#INEXACT} where only the quantity is
   * exact), and the quantities themselves, made on demand (for a denial's message, or a usage's first format).
   */
  private static final class Demand {
    final long[] milli;
    private final Plan plan;
    /** The pod's effective requests and limits, or for any other request its whole amount (in {@link #requests}). */
    private final @Nullable ResourceList requests;
    private final @Nullable ResourceList limits;
    private final boolean generic;

    Demand(long[] milli, Plan plan, @Nullable ResourceList requests, @Nullable ResourceList limits,
        boolean generic) {
      this.milli = milli;
      this.plan = plan;
      this.requests = requests;
      this.limits = limits;
      this.generic = generic;
    }

    Quantity quantity(int slot) {
      if (generic) {
        return requests == null ? Quantity.ZERO : requests.get(plan.slots[slot]);
      }
      return switch (plan.source[slot]) {
        case COUNT, PODS -> Quantity.of(1);
        case REQUEST -> requests == null ? Quantity.ZERO : requests.get(plan.sourceName[slot]);
        case LIMIT -> limits == null ? Quantity.ZERO : limits.get(plan.sourceName[slot]);
        default -> Quantity.ZERO;
      };
    }
  }

  /** What a pod create adds per slot: {@code QuotaEvaluator.usage}, without building it. */
  private static Demand podDemand(Plan p, Pod pod, Clock clock) {
    boolean compute = !pod.status().phase().isTerminal();
    if (compute && pod.metadata().deletionTimestamp() != null) {
      compute = QuotaEvaluator.chargesCompute(pod, clock.instant());
    }
    PodSpec spec = pod.spec();
    ResourceList requests = compute && p.needsRequests ? spec.effectiveRequests() : null;
    ResourceList limits = compute && p.needsLimits ? QuotaEvaluator.effectiveLimits(spec) : null;
    long[] milli = new long[p.slots.length];
    for (int slot = 0; slot < milli.length; slot++) {
      switch (p.source[slot]) {
        case COUNT -> milli[slot] = ONE;
        case PODS -> milli[slot] = compute ? ONE : 0;
        case REQUEST -> milli[slot] = requests == null ? 0 : milliOf(requests, p.sourceName[slot], p.code[slot]);
        case LIMIT -> milli[slot] = limits == null ? 0 : milliOf(limits, p.sourceName[slot], p.code[slot]);
        default -> milli[slot] = 0;
      }
    }
    return new Demand(milli, p, requests, limits, false);
  }

  /** {@code name}'s amount in {@code l} in milli-units ({@code code}: 0 cpu, 1 memory, 2 ephemeral-storage). */
  private static long milliOf(ResourceList l, String name, byte code) {
    long v;
    switch (code) {
      case 0 -> {
        return l.milliCpu();
      }
      case 1 -> v = l.memoryBytes();
      case 2 -> v = l.ephemeralStorageBytes();
      default -> {
        return l.has(name) ? QuotaCounters.milli(l.get(name)) : 0;
      }
    }
    long m = v * 1000;
    return Math.multiplyHigh(v, 1000) == (m >> 63) ? m : QuotaCounters.INEXACT;
  }

  /**
   * What any other request adds per slot: a create its usage, an update of a Service or claim its growth
   * ({@code SubtractWithNonNegativeResult}: a shrinking claim frees nothing until a recount).
   */
  private static Demand genericDemand(Plan p, AdmissionRequest request, Clock clock) {
    Instant now = clock.instant();
    ResourceList delta = QuotaEvaluator.usage(request.object(), now);
    if (QuotaEvaluator.chargesGrowthOnly(request)) {
      delta = QuotaRecount.clampAtZero(delta.subtract(QuotaEvaluator.usage(java.util.Objects.requireNonNull(request.oldObject()), now)));
    }
    long[] milli = new long[p.slots.length];
    for (int slot = 0; slot < milli.length; slot++) {
      Quantity q = delta.get(p.slots[slot]);
      milli[slot] = q.isZero() ? 0 : QuotaCounters.milli(q);
    }
    return new Demand(milli, p, delta, null, true);
  }

  /** Bits of what a pod's scopes depend on that takes a loop to find; bit 0 marks the facts computed. */
  private static final int KNOWN = 1;
  private static final int BEST_EFFORT = 2;
  private static final int CROSS_NAMESPACE = 4;

  private static int facts(PodSpec spec) {
    int f = KNOWN;
    if (QuotaEvaluator.isBestEffort(spec)) {
      f |= BEST_EFFORT;
    }
    if (QuotaEvaluator.crossNamespaceAffinity(spec)) {
      f |= CROSS_NAMESPACE;
    }
    return f;
  }

  private static boolean scopesMatch(ScopedResourceSelectorRequirement[] selectors, Pod pod, int facts) {
    for (ScopedResourceSelectorRequirement s : selectors) {
      boolean match = switch (s.scopeName()) {
        case BestEffort -> (facts & BEST_EFFORT) != 0;
        case NotBestEffort -> (facts & BEST_EFFORT) == 0;
        case CrossNamespacePodAffinity -> (facts & CROSS_NAMESPACE) != 0;
        default -> QuotaEvaluator.podMatchesScope(s, pod);
      };
      if (!match) {
        return false;
      }
    }
    return true;
  }

  /** The {@link QuotaCounters#REQ_CPU}... bits of the fields some container or init container does not set. */
  private static int missing(PodSpec spec) {
    if (spec.hasPodLevelResources()) {
      return 0; // containers of a pod with pod-level resources need not set them (QuotaEvaluator.constraints)
    }
    return missing(spec.containers()) | missing(spec.initContainers());
  }

  private static int missing(List<Container> cs) {
    int m = 0;
    for (Container c : cs) {
      ResourceList r = c.resources().requests();
      ResourceList l = c.resources().limits();
      if (!r.has("cpu")) {
        m |= QuotaCounters.REQ_CPU;
      }
      if (!r.has("memory")) {
        m |= QuotaCounters.REQ_MEMORY;
      }
      if (!l.has("cpu")) {
        m |= QuotaCounters.LIM_CPU;
      }
      if (!l.has("memory")) {
        m |= QuotaCounters.LIM_MEMORY;
      }
    }
    return m;
  }

  // ---------------------------------------------------------------------------------------------- the plan

  /** The slots of a namespace's quotas and where a pod's amount for each comes from. Immutable. */
  private static final class Plan {
    static final Plan EMPTY = new Plan(new QuotaCounters[0]);

    final QuotaCounters[] entries;
    final String[] slots;
    final int[][] slotOf;
    final byte[] source;
    final String[] sourceName;
    /** 0 cpu, 1 memory, 2 ephemeral-storage, 3 any other resource, of {@link #sourceName}. */
    final byte[] code;
    final boolean needsRequests;
    final boolean needsLimits;

    Plan(QuotaCounters[] entries) {
      this.entries = entries;
      Map<String, Integer> index = new LinkedHashMap<>();
      slotOf = new int[entries.length][];
      for (int i = 0; i < entries.length; i++) {
        String[] names = entries[i].names;
        slotOf[i] = new int[names.length];
        for (int k = 0; k < names.length; k++) {
          slotOf[i][k] = index.computeIfAbsent(names[k], n -> index.size());
        }
      }
      slots = index.keySet().toArray(new String[0]);
      source = new byte[slots.length];
      sourceName = new String[slots.length];
      code = new byte[slots.length];
      boolean req = false;
      boolean lim = false;
      for (int s = 0; s < slots.length; s++) {
        String r = slots[s];
        String from = r;
        byte src;
        if (r.equals("count/pods")) {
          src = COUNT;
        } else if (r.equals("pods")) {
          src = PODS;
        } else if (r.equals("cpu") || r.equals("memory") || r.equals("ephemeral-storage")
            || r.startsWith("hugepages-")) {
          src = REQUEST;
        } else if (r.startsWith("limits.") && isCompute(r.substring("limits.".length()))) {
          src = LIMIT;
          from = r.substring("limits.".length());
        } else if (r.startsWith("requests.") && (isCompute(r.substring("requests.".length()))
            || r.startsWith("requests.hugepages-")
            || QuotaEvaluator.isExtended(r.substring("requests.".length())))) {
          src = REQUEST;
          from = r.substring("requests.".length());
        } else {
          src = NONE;
        }
        source[s] = src;
        sourceName[s] = from;
        code[s] = switch (from) {
          case "cpu" -> (byte) 0;
          case "memory" -> (byte) 1;
          case "ephemeral-storage" -> (byte) 2;
          default -> (byte) 3;
        };
        req |= src == REQUEST;
        lim |= src == LIMIT;
      }
      needsRequests = req;
      needsLimits = lim;
    }

    private static boolean isCompute(String r) {
      return r.equals("cpu") || r.equals("memory") || r.equals("ephemeral-storage");
    }
  }

  // --------------------------------------------------------------------------------------- staying current

  /**
   * The plan of {@code quotas}, its counters brought up to date with the store. {@code quotas} must have been
   * listed under the lock (or be the listing last seen): an older listing could hold versions older than the
   * counters know.
   */
  private Plan sync(ObjectStore s, List<ResourceQuota> quotas, Clock clock) {
    if (isSeen(quotas)) {
      return plan;
    }
    int n = quotas.size();
    ResourceQuota[] newSeen = new ResourceQuota[n];
    List<QuotaCounters> newEntries = new ArrayList<>(n);
    Map<String, QuotaCounters> keep = new HashMap<>();
    for (int i = 0; i < n; i++) {
      ResourceQuota q = quotas.get(i);
      newSeen[i] = q;
      String name = q.metadata().name();
      QuotaCounters e = byName.get(name);
      if (e != null && e.base != q && older(q, e.base)) {
        q = e.base; // a stale read (a store serving lists from a lagging cache): keep what the ledger knows
        newSeen[i] = null;
      }
      if (e == null || !e.uid.equals(q.metadata().uid()) || !e.base.spec().equals(q.spec())
          || !ResourceQuotaPlugin.statusCovers(q)) {
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
    boolean complete = newEntries.size() == n;
    for (ResourceQuota q : newSeen) {
      complete &= q != null;
    }
    seen = complete ? newSeen : new ResourceQuota[0]; // a skipped or stale quota: compare again next time
    QuotaCounters[] entries = newEntries.toArray(new QuotaCounters[0]);
    if (!java.util.Arrays.equals(entries, plan.entries)) {
      plan = new Plan(entries);
    }
    return plan;
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

  /**
   * Counters for {@code q}, new to the ledger or with a changed spec: its status recounted from the store unless it
   * already covers the spec and the ledger never saw the quota.
   */
  private @Nullable QuotaCounters fresh(ObjectStore s, ResourceQuota q, Clock clock) {
    QuotaCounters old = byName.get(q.metadata().name());
    boolean specChanged = old != null && old.uid.equals(q.metadata().uid()) && !old.base.spec().equals(q.spec());
    ResourceQuota current = specChanged ? QuotaRecount.recount(s, q, clock.instant())
        : QuotaRecount.initialize(s, q, clock.instant());
    return current == null ? null : new QuotaCounters(current);
  }

  /** Brings the counters up to date with the store and recounts each from the stored objects. */
  void recount(ObjectStore s, Clock clock) {
    lock();
    try {
      Plan p = sync(s, s.list(ResourceQuota.class, namespace).items(), clock);
      for (QuotaCounters e : p.entries) {
        ResourceList counted = QuotaRecount.usage(s, e.base, clock.instant());
        if (!counted.equals(e.usedList()) || !e.base.status().used().equals(counted)) {
          e.load(counted);
          e.seq++;
        }
      }
    } finally {
      unlock();
    }
  }

  /** A status to write: the counters' usage when it was taken. */
  record Pending(QuotaCounters entry, ResourceQuota base, ResourceQuotaStatus status,
      long seq) {}

  /** What to write: every quota charged or refunded since its last publication. */
  List<Pending> dirty() {
    lock();
    try {
      List<Pending> out = new ArrayList<>();
      for (QuotaCounters e : plan.entries) {
        if (e.seq != e.publishedSeq && byName.get(e.name) == e) {
          ResourceQuotaStatus status = e.status();
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
