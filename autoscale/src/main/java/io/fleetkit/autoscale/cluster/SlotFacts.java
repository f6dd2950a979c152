package io.fleetkit.autoscale.cluster;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * What scale-down computed of each node view of its simulation, by slot: the view's utilization, and its drain while
 * no disruption budget exists (then a drain depends on the view's pods alone); and of each node object, whether it is
 * a candidate at all (in a pool, not annotated against scale-down). Views and node objects are immutable, so the facts
 * of a slot hold while it holds the same view, or the same node object. The candidate pass of every evaluation reads them for every node; they sit
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
  /** Per slot, the pods of its recorded drain's evict list as the drain simulation moves them, or {@code null}. */
  private final PodInfo @Nullable [][] moving;
  /**
   * Per slot, the node object whose candidacy facts the slot holds ({@code null}: none), and those facts: whether the
   * node is in one of the pools of {@link #pools}, and whether it is annotated against scale-down. A node object is
   * immutable and a slot holds one node name for its lifetime, so while the list of ready nodes holds the same object
   * the facts hold, without reading the object.
   */
  private final @Nullable Node[] nodes;
  private final boolean[] pooled;
  private final boolean[] disabled;
  private Set<String> pools = Set.of();

  @SuppressWarnings("unchecked")
  /** {@code --ignore-daemonsets-utilization}: utilization without the DaemonSet pods. */
  private final boolean ignoreDaemonSets;

  SlotFacts(int slots) {
    this(slots, false);
  }

  /** Facts for {@code slots} slots, utilization without DaemonSet pods when {@code ignoreDaemonSetsUtilization}. */
  SlotFacts(int slots, boolean ignoreDaemonSetsUtilization) {
    this.ignoreDaemonSets = ignoreDaemonSetsUtilization;
    views = new NodeInfo[slots];
    utilization = new double[slots];
    gpuNode = new boolean[slots];
    drains = new Drainability.Drain[slots];
    drainKinds = new byte[slots];
    moving = new PodInfo[slots][];
    nodes = new Node[slots];
    pooled = new boolean[slots];
    disabled = new boolean[slots];
  }

  /** Forgets the candidacy facts unless they were recorded for {@code poolNames}. */
  void pools(Set<String> poolNames) {
    if (!pools.equals(poolNames)) {
      java.util.Arrays.fill(nodes, null);
      pools = poolNames;
    }
  }

  /** Whether {@code slot} holds the candidacy facts of {@code node} (the same object). */
  boolean holdsNode(int slot, Node node) {
    return nodes[slot] == node;
  }

  /**
   * Records the candidacy facts of {@code node} (not being deleted) in {@code slot}: whether its pool label names one
   * of the {@linkplain #pools pools} and whether it is annotated against scale-down ({@code annotation} "true").
   */
  void node(int slot, Node node, String annotation) {
    String pool = node.metadata().labels().get(NodePool.POOL_LABEL);
    nodes[slot] = node;
    pooled[slot] = pool != null && pools.contains(pool);
    disabled[slot] = "true".equals(node.metadata().annotations().get(annotation));
  }

  /** The node object of the slot's candidacy facts. */
  Node node(int slot) {
    return java.util.Objects.requireNonNull(nodes[slot]);
  }

  /** Whether the slot's node is in one of the pools. */
  boolean pooled(int slot) {
    return pooled[slot];
  }

  /** Whether the slot's node is annotated against scale-down. */
  boolean scaleDownDisabled(int slot) {
    return disabled[slot];
  }

  /** Whether the facts of {@code slot} are of {@code view}. */
  boolean holds(int slot, NodeInfo view) {
    return views[slot] == view;
  }

  /** Makes the facts of {@code slot} those of {@code view}: kept when they are, else its utilization (drain unknown). */
  void refresh(int slot, NodeInfo view) {
    if (views[slot] != view) {
      NodeUtilization u = NodeUtilization.of(view, ignoreDaemonSets);
      views[slot] = view;
      utilization[slot] = u.value();
      gpuNode[slot] = u.gpuNode();
      drains[slot] = null;
      drainKinds[slot] = UNKNOWN;
      moving[slot] = null;
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
    moving[slot] = null;
  }

  /**
   * {@code movable} of each pod of the recorded drain's evict list, in order: made at the first call after the drain
   * was recorded and kept with it, so that an evaluation moving the slot's pods again reads the kept copies instead of
   * each pod. {@code movable} must give the same object for the same pod (the drain simulation's copy of a pod without
   * its node, {@link AutoscalerPodInfo#unbound}).
   *
   * @throws IllegalStateException if no drain is recorded for the slot
   */
  PodInfo[] moving(int slot, java.util.function.UnaryOperator<PodInfo> movable) {
    PodInfo[] m = moving[slot];
    if (m == null) {
      Drainability.Drain<PodInfo> d = drains[slot];
      if (d == null) {
        throw new IllegalStateException("slot facts: no drain recorded for slot " + slot);
      }
      List<PodInfo> evict = d.evict();
      m = new PodInfo[evict.size()];
      for (int i = 0; i < m.length; i++) {
        m[i] = movable.apply(evict.get(i));
      }
      moving[slot] = m;
    }
    return m;
  }

  /** What {@code d} does: {@link #BLOCKED}, {@link #EMPTY} or {@link #EVICTS}. */
  static byte kind(Drainability.Drain<?> d) {
    return d.blocked() ? BLOCKED : d.evict().isEmpty() ? EMPTY : EVICTS;
  }
}
