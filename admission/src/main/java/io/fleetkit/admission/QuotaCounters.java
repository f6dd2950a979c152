package io.fleetkit.admission;

import io.fleetkit.api.core.ResourceQuota;
import io.fleetkit.api.core.ResourceQuotaScope;
import io.fleetkit.api.core.ResourceQuotaStatus;
import io.fleetkit.api.core.ScopeSelectorOperator;
import io.fleetkit.api.core.ScopedResourceSelectorRequirement;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * One quota's authoritative usage in a {@link QuotaLedger}, as primitive counters: per resource of its hard limits,
 * the usage in milli-units, with the quantity kept exactly only where a value does not fit a {@code long} of
 * milli-units (finer than a milli-unit, or beyond 9.2 × 10<sup>15</sup>). What the quota applies to is decided once,
 * when the counters are made: its scope requirements, whether pods use any of its resources, and which container
 * fields it obliges pods to set. All mutable fields are guarded by the lock of the namespace's {@link QuotaBook}.
 */
final class QuotaCounters {
  /** Marks an amount that is not a whole number of milli-units in the {@code long} range. */
  static final long INEXACT = Long.MIN_VALUE;

  /** Bits of {@link #constrained}: which container fields a quota tracking cpu or memory needs set. */
  static final int REQ_CPU = 1;
  static final int REQ_MEMORY = 2;
  static final int LIM_CPU = 4;
  static final int LIM_MEMORY = 8;

  final String name;
  final String uid;
  /** The quota's hard limits, as in its status (which covers its spec). */
  final ResourceList hardList;
  final Set<String> hardNames;
  /** Resource names of the counters, sorted (the order of {@link ResourceList#names()}). */
  final String[] names;
  final Quantity[] hardQ;
  /** The hard limit in milli-units; {@link Long#MAX_VALUE} when beyond the range; see {@link #hardExact}. */
  final long[] hard;
  /** Whether {@link #hard} decides (exact, or beyond the range); else the quantity is compared. */
  final boolean[] hardExact;
  final ScopedResourceSelectorRequirement[] selectors;
  /** Whether pods use a resource of this quota ({@code MatchingResources} non-empty for pods). */
  final boolean podResource;
  /** The container fields pods must set for this quota ({@link #REQ_CPU}...). */
  final int constrained;

  /** The newest stored version of the quota the ledger knows. */
  ResourceQuota base;
  final long[] used;
  /** Usage kept exactly where {@link #used} cannot hold it; {@code null} entries elsewhere. */
  final @Nullable Quantity[] usedBig;
  /**
   * Whether every counter is exact: its usage in {@link #used} (none in {@link #usedBig}) and its hard limit decided
   * by {@link #hard}; then a check reads only those two arrays.
   */
  boolean exact;
  /** The format each usage prints in (a sum keeps its first non-zero operand's format, as Kubernetes' Add). */
  final Quantity.Format[] format;
  /** The status as stored, by a publication of the ledger or adopted from the store. */
  ResourceQuotaStatus published;
  /** The status a publication is writing, or {@code null}. */
  @Nullable ResourceQuotaStatus publishing;
  /** Changes of the usage, and the change last published. */
  long seq;
  long publishedSeq;

  QuotaCounters(ResourceQuota q) {
    this.name = q.metadata().name();
    this.uid = q.metadata().uid();
    this.base = q;
    this.hardList = q.status().hard();
    this.hardNames = hardList.names();
    this.names = hardNames.toArray(new String[0]);
    int n = names.length;
    hardQ = new Quantity[n];
    hard = new long[n];
    hardExact = new boolean[n];
    used = new long[n];
    usedBig = new Quantity[n];
    format = new Quantity.Format[n];
    boolean pods = false;
    int c = 0;
    for (int k = 0; k < n; k++) {
      Quantity h = hardList.get(names[k]);
      hardQ[k] = h;
      long m = milli(h);
      if (m != INEXACT) {
        hard[k] = m;
        hardExact[k] = true;
      } else if (h.signum() > 0 && h.compareTo(Quantity.ofMilli(Long.MAX_VALUE)) > 0) {
        hard[k] = Long.MAX_VALUE; // every sum that fits a long is below it
        hardExact[k] = true;
      }
      if (QuotaEvaluator.isPodResource(names[k])) {
        pods = true;
        c |= constraintBit(names[k]);
      }
    }
    this.podResource = pods;
    this.constrained = c;
    List<ScopedResourceSelectorRequirement> sel = new ArrayList<>();
    for (ResourceQuotaScope s : q.spec().scopes()) {
      sel.add(new ScopedResourceSelectorRequirement(s, ScopeSelectorOperator.Exists, List.of()));
    }
    sel.addAll(q.spec().scopeSelector());
    this.selectors = sel.toArray(new ScopedResourceSelectorRequirement[0]);
    load(q.status().used());
    this.published = q.status();
  }

  private static int constraintBit(String r) {
    return switch (r) {
      case "cpu", "requests.cpu" -> REQ_CPU;
      case "memory", "requests.memory" -> REQ_MEMORY;
      case "limits.cpu" -> LIM_CPU;
      case "limits.memory" -> LIM_MEMORY;
      default -> 0;
    };
  }

  /** {@code q} in milli-units, or {@link #INEXACT}. */
  static long milli(Quantity q) {
    long v = q.scaledValue(-3);
    if (v == Long.MAX_VALUE || v == Long.MIN_VALUE || q.compareTo(Quantity.ofMilli(v)) != 0) {
      return INEXACT;
    }
    return v;
  }

  /** Sets the usage to {@code l} (absent names: zero). */
  void load(ResourceList l) {
    for (int k = 0; k < names.length; k++) {
      Quantity q = l.get(names[k]);
      set(k, q);
    }
  }

  private void set(int k, Quantity q) {
    long m = milli(q);
    if (m == INEXACT) {
      used[k] = 0;
      usedBig[k] = q;
    } else {
      used[k] = m;
      usedBig[k] = null;
    }
    format[k] = q.format();
    boolean all = true;
    for (int i = 0; i < names.length; i++) {
      all &= usedBig[i] == null && hardExact[i];
    }
    exact = all;
  }

  /** The usage of counter {@code k} as a quantity. */
  Quantity usedQuantity(int k) {
    Quantity b = usedBig[k];
    return b != null ? b : Quantity.ofMilli(used[k], format[k]);
  }

  /**
   * Whether adding {@code d} milli-units to counter {@code k} passes its hard limit; {@code dq} is the amount as a
   * quantity, needed only when {@code d} is {@link #INEXACT}.
   */
  boolean exceeds(int k, long d, @Nullable Quantity dq) {
    if (d != INEXACT && (exact || usedBig[k] == null && hardExact[k])) {
      long u = used[k];
      long after = u + d;
      if (((u ^ after) & (d ^ after)) >= 0) { // no overflow
        return after > hard[k];
      }
    }
    return usedQuantity(k).add(dq != null ? dq : Quantity.ofMilli(d)).compareTo(hardQ[k]) > 0;
  }

  /**
   * Adds {@code d} milli-units when that needs no quantity (the usage is a non-zero {@code long} and the sum fits);
   * returns false otherwise, and then {@link #addExact} must be called.
   */
  boolean tryAdd(int k, long d) {
    long u = used[k];
    if (d == INEXACT || u == 0 || !exact && usedBig[k] != null) {
      return false; // from zero the sum takes the amount's format
    }
    long after = u + d;
    if (((u ^ after) & (d ^ after)) < 0) {
      return false;
    }
    used[k] = after;
    return true;
  }

  void addExact(int k, Quantity dq) {
    set(k, usedQuantity(k).add(dq));
  }

  /** Takes {@code d} milli-units back when that needs no quantity; false otherwise (see {@link #subtractExact}). */
  boolean trySubtract(int k, long d) {
    if (d == INEXACT || d < 0 || usedBig[k] != null || used[k] < d) {
      return false;
    }
    used[k] -= d;
    return true;
  }

  /** Takes an amount back; usage never goes below zero. */
  void subtractExact(int k, Quantity dq) {
    Quantity after = usedQuantity(k).subtract(dq);
    set(k, after.signum() < 0 ? Quantity.ZERO : after);
  }

  /** The usage as a resource list over the hard limits' names. */
  ResourceList usedList() {
    ResourceList.Builder b = ResourceList.builder();
    for (int k = 0; k < names.length; k++) {
      b.put(names[k], usedQuantity(k));
    }
    return b.build();
  }

  ResourceQuotaStatus status() {
    return new ResourceQuotaStatus(hardList, usedList());
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
    load(q.status().used());
    published = q.status();
    publishedSeq = seq;
  }
}
