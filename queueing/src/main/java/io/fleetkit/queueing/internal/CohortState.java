package io.fleetkit.queueing.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * A cohort's aggregates, kept up to date on every usage change: what its members lend ({@code quota}, Kueue's cohort
 * {@code SubtreeQuota}) and how much of that is in use ({@code usage}: each member's usage above its guaranteed,
 * non-lendable part).
 */
final class CohortState {
  final String name;
  final List<CqState> members = new ArrayList<>();
  final long[] quota;
  final long[] usage;
  /** Lendable quota per resource name index, summed over flavors: the denominator of the dominant resource share. */
  final long[] lendableByResource;

  CohortState(String name, int frCount, int resourceCount) {
    this.name = name;
    this.quota = new long[frCount];
    this.usage = new long[frCount];
    this.lendableByResource = new long[resourceCount];
  }
}
