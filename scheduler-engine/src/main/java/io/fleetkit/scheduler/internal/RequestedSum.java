package io.fleetkit.scheduler.internal;

import io.fleetkit.api.resource.ResourceList;
import org.jspecify.annotations.Nullable;

/**
 * A node's summed pod requests as a {@link ResourceList}, folded from the added lists only when {@link #value()} is
 * first read. The cache keeps the standard amounts (cpu, memory, ephemeral storage) beside it as {@code long}s,
 * summed at once with {@link #add} and {@link #subtract} (the saturating arithmetic of {@link ResourceList#add} and
 * {@link ResourceList#subtract}), because the node table and the fit loops read them every cycle; plugins read the
 * whole list only for extended resources, so in a cluster without them the per-bind list merge is never made.
 *
 * <p>Each sum is a link holding the list added and the sum before it; a subtraction (a pod leaving the node) folds
 * the chain and starts a new one, so a chain holds only lists of pods added since the node last lost one. Immutable
 * but for the memoised value: {@link #value()} may be called from any thread (Filter's workers); racing readers fold
 * equal lists.
 */
final class RequestedSum {
  static final RequestedSum EMPTY = new RequestedSum(ResourceList.EMPTY);

  private final @Nullable RequestedSum prev;
  private final @Nullable ResourceList added;
  private volatile @Nullable ResourceList value;

  private RequestedSum(ResourceList value) {
    this.prev = null;
    this.added = null;
    this.value = value;
  }

  private RequestedSum(RequestedSum prev, ResourceList added) {
    this.prev = prev;
    this.added = added;
  }

  /** This sum plus {@code r}; {@code value().add(r)} when read. */
  RequestedSum plus(ResourceList r) {
    return r.isEmpty() ? this : new RequestedSum(this, r);
  }

  /** This sum minus {@code r}, folded now: {@code value().subtract(r)}. */
  RequestedSum minus(ResourceList r) {
    ResourceList v = value();
    ResourceList after = v.subtract(r);
    return after == v ? this : new RequestedSum(after);
  }

  /** The sum as a list: the chain's base plus every added list, in the order added. */
  ResourceList value() {
    ResourceList v = value;
    if (v != null) {
      return v;
    }
    int depth = 0;
    RequestedSum s = this;
    while (s.value == null) {
      s = java.util.Objects.requireNonNull(s.prev);
      depth++;
    }
    RequestedSum[] chain = new RequestedSum[depth];
    s = this;
    for (int i = depth - 1; i >= 0; i--) {
      chain[i] = s;
      s = java.util.Objects.requireNonNull(s.prev);
    }
    v = java.util.Objects.requireNonNull(s.value);
    for (RequestedSum link : chain) {
      ResourceList known = link.value;
      v = known != null ? known : v.add(java.util.Objects.requireNonNull(link.added));
      link.value = v;
    }
    return v;
  }

  /** A standard amount plus another, as {@link ResourceList#add} sums them (saturating at the long range). */
  static long add(long a, long b) {
    long r = a + b;
    if (((a ^ r) & (b ^ r)) < 0) {
      return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
    return r;
  }

  /** A standard amount minus another, as {@link ResourceList#subtract} computes it. */
  static long subtract(long a, long b) {
    return add(a, b == Long.MIN_VALUE ? Long.MAX_VALUE : -b);
  }
}
