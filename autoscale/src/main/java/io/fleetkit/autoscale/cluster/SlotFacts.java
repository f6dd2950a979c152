package io.fleetkit.autoscale.cluster;

import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import org.jspecify.annotations.Nullable;

/**
 * What scale-down computed of each node view of its simulation, by slot: the view's utilization, and its drain while
 * no disruption budget exists (then a drain depends on the view's pods alone). Views are immutable, so the facts of a
 * slot hold while it holds the same view. The candidate pass of every evaluation reads them for every node; they sit
 * in arrays so that an unchanged node costs array reads, not a walk through its view, utilization and drain objects.
 *
 * <p>Not thread-safe: one per simulation, used by the autoscaler's loop.
 */
final class SlotFacts {
  /** A drain not known yet; otherwise {@link #BLOCKED}, {@link #EMPTY} (nothing to evict) or {@link #EVICTS}. */
  static final byte UNKNOWN = 0;
  static final byte BLOCKED = 1;
  static final byte EMPTY = 2;
  static final byte EVICTS = 3;

  private final @Nullable NodeInfo[] views;
  private final double[] utilization;
  private final boolean[] gpuNode;
  private final Drainability.@Nullable Drain<PodInfo>[] drains;
  private final byte[] drainKinds;

  @SuppressWarnings("unchecked")
  SlotFacts(int slots) {
    views = new NodeInfo[slots];
    utilization = new double[slots];
    gpuNode = new boolean[slots];
    drains = new Drainability.Drain[slots];
    drainKinds = new byte[slots];
  }

  /** Whether the facts of {@code slot} are of {@code view}. */
  boolean holds(int slot, NodeInfo view) {
    return views[slot] == view;
  }

  /** Makes the facts of {@code slot} those of {@code view}: kept when they are, else its utilization (drain unknown). */
  void refresh(int slot, NodeInfo view) {
    if (views[slot] != view) {
      NodeUtilization u = NodeUtilization.of(view);
      views[slot] = view;
      utilization[slot] = u.value();
      gpuNode[slot] = u.gpuNode();
      drains[slot] = null;
      drainKinds[slot] = UNKNOWN;
    }
  }

  /** The view the facts of {@code slot} are of. */
  @Nullable NodeInfo view(int slot) {
    return views[slot];
  }

  /** {@link NodeUtilization#value()} of the slot's view. */
  double utilization(int slot) {
    return utilization[slot];
  }

  /** {@link NodeUtilization#gpuNode()} of the slot's view. */
  boolean gpuNode(int slot) {
    return gpuNode[slot];
  }

  /** The drain recorded for the slot's view, or {@code null}. */
  Drainability.@Nullable Drain<PodInfo> drain(int slot) {
    return drains[slot];
  }

  /** {@link #UNKNOWN}, or what the recorded drain does. */
  byte drainKind(int slot) {
    return drainKinds[slot];
  }

  /** Records the drain of the slot's view (computed without budgets). */
  void drain(int slot, Drainability.Drain<PodInfo> d) {
    drains[slot] = d;
    drainKinds[slot] = kind(d);
  }

  /** What {@code d} does: {@link #BLOCKED}, {@link #EMPTY} or {@link #EVICTS}. */
  static byte kind(Drainability.Drain<?> d) {
    return d.blocked() ? BLOCKED : d.evict().isEmpty() ? EMPTY : EVICTS;
  }
}
