package io.fleetkit.queueing.internal;

import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A cohort's node in the cohort tree, with Kueue's quota arithmetic ({@code pkg/cache/scheduler/resource_node.go}),
 * kept up to date on every usage change:
 *
 * <pre>
 * quota (SubtreeQuota) = own nominal + Σ children (child.quota - child.localQuota)
 * localQuota           = max(0, quota - lendingLimit)   (0 without a lending limit): never lent to the parent
 * usage                = Σ children max(0, child.usage - child.localQuota)
 * available            = quota - usage                                                      at the root
 *                      = max(0, localQuota - usage) + min(parent.available,
 *                          (quota - localQuota) - max(0, usage - localQuota) + borrowingLimit)  (the min only with a limit)
 * </pre>
 *
 * A cohort named only by ClusterQueues (or as a parent) is a root without quota of its own, as Kueue's implicit
 * cohorts.
 */
final class CohortState {
  final String name;
  @Nullable CohortState parent;
  final List<CqState> members = new ArrayList<>();
  final List<CohortState> children = new ArrayList<>();
  /** The cohort's own quotas per flavor-resource (Kueue {@code Cohort.spec.resourceGroups}). */
  final long[] nominal;
  final long[] borrowingLimit;
  final long[] lendingLimit;
  /** Kueue's {@code SubtreeQuota}. */
  final long[] quota;
  final long[] usage;
  /** The cohort's fair sharing weight in milli-units (Kueue's {@code spec.fairSharing.weight}, default 1). */
  long weightMilli = 1000;

  CohortState(String name, int frCount) {
    this.name = name;
    this.nominal = new long[frCount];
    this.borrowingLimit = new long[frCount];
    this.lendingLimit = new long[frCount];
    java.util.Arrays.fill(borrowingLimit, CqState.NO_LIMIT);
    java.util.Arrays.fill(lendingLimit, CqState.NO_LIMIT);
    this.quota = new long[frCount];
    this.usage = new long[frCount];
  }

  boolean hasParent() {
    return parent != null;
  }

  CohortState root() {
    CohortState c = this;
    while (c.parent != null) {
      c = c.parent;
    }
    return c;
  }

  /** The path from the root to this cohort, as Kueue prints it: {@code /root/child}. */
  String path() {
    return (parent == null ? "" : parent.path()) + "/" + name;
  }

  long localQuota(int fr) {
    long ll = lendingLimit[fr];
    return ll == CqState.NO_LIMIT ? 0 : Math.max(0, quota[fr] - ll);
  }

  /** Kueue's {@code LocalAvailable}: the local quota not in use, which is never lent to the parent. */
  long localAvailable(int fr) {
    return Math.max(0, localQuota(fr) - usage[fr]);
  }

  /** What a member of this subtree may take of {@code fr} from this cohort now. */
  long available(int fr) {
    CohortState p = parent;
    if (p == null) {
      return quota[fr] - usage[fr];
    }
    long lq = localQuota(fr);
    long fromParent = p.available(fr);
    if (borrowingLimit[fr] != CqState.NO_LIMIT) {
      long storedInParent = quota[fr] - lq;
      long usedInParent = Math.max(0, usage[fr] - lq);
      fromParent = Math.min(fromParent, CqState.saturatedAdd(storedInParent - usedInParent, borrowingLimit[fr]));
    }
    return CqState.saturatedAdd(localAvailable(fr), fromParent);
  }

  /** What a member of this subtree could take of {@code fr} from this cohort if nothing were running. */
  long potentialAvailable(int fr) {
    CohortState p = parent;
    if (p == null) {
      return quota[fr];
    }
    long avail = CqState.saturatedAdd(localQuota(fr), p.potentialAvailable(fr));
    if (borrowingLimit[fr] != CqState.NO_LIMIT) {
      avail = Math.min(avail, CqState.saturatedAdd(quota[fr], borrowingLimit[fr]));
    }
    return avail;
  }

  /** Kueue's {@code BorrowingWith} of a cohort: using {@code value} more would take it above its subtree quota. */
  boolean borrowingWith(int fr, long value) {
    return parent != null && usage[fr] + value > quota[fr];
  }

  /** Kueue's {@code IsWithinNominalInResources}: usage within the subtree quota in every marked flavor-resource. */
  boolean withinNominalIn(boolean[] frSet) {
    for (int fr = 0; fr < frSet.length; fr++) {
      if (frSet[fr] && usage[fr] > quota[fr]) {
        return false;
      }
    }
    return true;
  }

  /** Adds {@code delta} to the usage of {@code fr}, passing on to the parent what is above the local quota. */
  void addUsage(int fr, long delta) {
    long old = usage[fr];
    long now = old + delta;
    usage[fr] = now;
    CohortState p = parent;
    if (p != null) {
      long lq = localQuota(fr);
      long up = Math.max(0, now - lq) - Math.max(0, old - lq);
      if (up != 0) {
        p.addUsage(fr, up);
      }
    }
  }

  /** Kueue's {@code getNodeHeight}: the distance to the furthest leaf (a ClusterQueue is a leaf). */
  int height() {
    int h = members.isEmpty() && children.isEmpty() ? 0 : 1;
    for (CohortState c : children) {
      h = Math.max(h, c.height() + 1);
    }
    return h;
  }

  /** Every ClusterQueue in this subtree. */
  void collectQueues(List<CqState> out) {
    out.addAll(members);
    for (CohortState c : children) {
      c.collectQueues(out);
    }
  }
}
