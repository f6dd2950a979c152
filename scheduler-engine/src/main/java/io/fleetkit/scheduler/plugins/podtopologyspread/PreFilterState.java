package io.fleetkit.scheduler.plugins.podtopologyspread;

import io.fleetkit.api.scheduling.RequiredNodeAffinity;
import io.fleetkit.scheduler.nodetable.NodeTable;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What PreFilter computed for Filter (upstream {@code preFilterState}): the pod's hard constraints, whether the pod
 * matches each constraint's own selector, and per constraint the matching-pod counts of every eligible domain with
 * their minimum. Read-only once written; {@link #copy()} gives the copy a dry-run update may change.
 */
final class PreFilterState {
  /** Written when the pod has no hard constraint: Filter passes every node. */
  static final PreFilterState EMPTY = new PreFilterState(new SpreadConstraint[0], new boolean[0],
      new DomainCounts[0], RequiredNodeAffinity.of(Map.of(), null), null);

  final SpreadConstraint[] constraints;
  final boolean[] selfMatch;
  final DomainCounts[] domains;
  /** The pod's nodeSelector and required node affinity, for the nodeAffinityPolicy in dry-run updates. */
  final RequiredNodeAffinity affinity;
  /** Filter's table path, or {@code null} (then Filter reads labels; always null in a {@link #copy()}). */
  final @Nullable TablePath tablePath;

  PreFilterState(SpreadConstraint[] constraints, boolean[] selfMatch, DomainCounts[] domains,
      RequiredNodeAffinity affinity, @Nullable TablePath tablePath) {
    this.constraints = constraints;
    this.selfMatch = selfMatch;
    this.domains = domains;
    this.affinity = affinity;
    this.tablePath = tablePath;
  }

  /**
   * Per constraint, the numbering of its topology key's values in {@code table} ({@code keys[i]}) and the count of
   * each numbered value's domain ({@code counts[i][id]}, as {@link DomainCounts#count}), with the pod's self-match
   * and the global minimum folded into {@code limits[i]}: a node whose domain counts more than {@code limits[i]} fails
   * (count + selfMatch - minMatchNum &gt; maxSkew).
   */
  record TablePath(NodeTable table, NodeTable.Domains[] keys, int[][] counts, long[] limits) {}

  /** The global minimum for skew, 0 when fewer than minDomains eligible domains exist (upstream minMatchNum). */
  int minMatchNum(int i) {
    DomainCounts d = domains[i];
    return d.size() < constraints[i].minDomains() ? 0 : d.min();
  }

  PreFilterState copy() {
    DomainCounts[] copies = new DomainCounts[domains.length];
    for (int i = 0; i < domains.length; i++) {
      copies[i] = domains[i].copy();
    }
    return new PreFilterState(constraints, selfMatch, copies, affinity, null);
  }
}
