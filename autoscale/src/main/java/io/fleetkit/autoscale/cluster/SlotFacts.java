package io.fleetkit.autoscale.cluster;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * What scale-down computed of each node view of its simulation, by slot: the view's utilization, and its drain while
 * no disruption budget exists (then a drain depends on the view's pods alone); and of each node object, whether it is
 * a candidate at all (in a pool, not annotated against scale-down). Views and node objects are immutable, so the facts
 * of a slot hold while it holds the same view, or the same node object. The candidate pass of every evaluation reads them for every node; they sit
 * in arrays so that an unchanged node costs array reads, not a walk through its view, utilization and drain objects.
 *
 * <p>Time: a view's utilization and drain also depend on which of its pods being deleted are long-terminating
 * ({@link TerminatingPods}), which changes only when the time passes one of those pods' instants. The facts are taken
 * at the time given to {@link #at}; a slot whose view holds a pod being deleted keeps the window of times over which
 * its facts hold (from the last of its pods' instants passed to the first not passed), and {@link #at} forgets the
 * facts of each slot whose window the new time leaves. While no pod of the simulation is being deleted (the caller
 * says so), no window exists and no pod's deletion is read.
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

  /** {@code --ignore-daemonsets-utilization}: utilization without the DaemonSet pods. */
  private final boolean ignoreDaemonSets;
  /** {@code --ignore-mirror-pods-utilization}: utilization without the mirror pods. */
  private final boolean ignoreMirrorPods;
  /**
   * The utilization of a view's DRA devices ({@code null}: its node has no node-local slice). It depends on the view's
   * pods and on the simulation's claims and slices, which change only with placements (which change the view) and
   * with the node (a slot holds one node for its lifetime); a new simulation gets new facts.
   */
  private final Function<NodeInfo, @Nullable DeviceUtilization> devices;
  /** The time the facts are taken at ({@link #at}). */
  private Instant now = Instant.EPOCH;
  /** Whether a pod of the simulation may be being deleted (else no pod's deletion is read). */
  private boolean terminating;
  /**
   * Per slot whose facts depend on the time (its view holds a pod being deleted), the window over which they hold:
   * after {@code validAfter} (the last long-terminating instant passed when they were taken; {@code null}: none) and
   * up to {@code validUntil} (the first not passed; {@code null}: none); both {@code null} and {@code timed} false for
   * other slots.
   */
  private final @Nullable Instant[] validAfter;
  private final @Nullable Instant[] validUntil;
  private final boolean[] timed;
  /** The number of slots with a window. */
  private int timedSlots;

  SlotFacts(int slots) {
    this(slots, false, false);
  }

  /** Facts for views of nodes without DRA devices (see {@link #SlotFacts(int, boolean, boolean, Function)}). */
  SlotFacts(int slots, boolean ignoreDaemonSetsUtilization, boolean ignoreMirrorPodsUtilization) {
    this(slots, ignoreDaemonSetsUtilization, ignoreMirrorPodsUtilization, view -> null);
  }

  /**
   * Facts for {@code slots} slots, utilization without DaemonSet pods when {@code ignoreDaemonSetsUtilization} and
   * without mirror pods when {@code ignoreMirrorPodsUtilization}; {@code devices} gives the utilization of a view's
   * DRA devices, {@code null} for a node without node-local slices (read for nodes without GPUs only, as upstream
   * judges a GPU node by its GPUs).
   */
  @SuppressWarnings("unchecked")
  SlotFacts(int slots, boolean ignoreDaemonSetsUtilization, boolean ignoreMirrorPodsUtilization,
      Function<NodeInfo, @Nullable DeviceUtilization> devices) {
    this.ignoreDaemonSets = ignoreDaemonSetsUtilization;
    this.ignoreMirrorPods = ignoreMirrorPodsUtilization;
    this.devices = Objects.requireNonNull(devices, "devices");
    validAfter = new Instant[slots];
    validUntil = new Instant[slots];
    timed = new boolean[slots];
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

  /**
   * Takes the facts at {@code now} from here on: forgets those of each slot whose window does not hold {@code now}.
   * {@code anyTerminating} says whether a pod of the simulation (a node's or one placed on it) may be being deleted;
   * when false, facts are taken without reading any pod's deletion.
   */
  void at(Instant now, boolean anyTerminating) {
    this.now = Objects.requireNonNull(now, "now");
    this.terminating = anyTerminating;
    if (timedSlots == 0) {
      return;
    }
    for (int slot = 0; slot < timed.length; slot++) {
      if (timed[slot]) {
        Instant after = validAfter[slot];
        Instant until = validUntil[slot];
        if ((after != null && !after.isBefore(now)) || (until != null && until.isBefore(now))) {
          forget(slot);
        }
      }
    }
  }

  /** Whether the facts of {@code slot} depend on the time (its view holds a pod being deleted). */
  boolean timed(int slot) {
    return timed[slot];
  }

  /** Forgets the facts of {@code slot}'s view. */
  private void forget(int slot) {
    views[slot] = null;
    drains[slot] = null;
    drainKinds[slot] = UNKNOWN;
    moving[slot] = null;
    untime(slot);
  }

  private void untime(int slot) {
    if (timed[slot]) {
      timed[slot] = false;
      validAfter[slot] = null;
      validUntil[slot] = null;
      timedSlots--;
    }
  }

  /**
   * Makes the facts of {@code slot} those of {@code view}: kept when they are, else its utilization at the facts'
   * time (drain unknown).
   */
  void refresh(int slot, NodeInfo view) {
    if (views[slot] != view) {
      untime(slot);
      NodeUtilization u;
      if (terminating) {
        u = NodeUtilization.of(view, ignoreDaemonSets, ignoreMirrorPods, now);
        window(slot, view);
      } else {
        u = NodeUtilization.noneTerminating(view, ignoreDaemonSets, ignoreMirrorPods);
      }
      if (!u.gpuNode()) {
        u = u.withDevices(devices.apply(view));
      }
      views[slot] = view;
      utilization[slot] = u.value();
      gpuNode[slot] = u.gpuNode();
      drains[slot] = null;
      drainKinds[slot] = UNKNOWN;
      moving[slot] = null;
    }
  }

  /** Records the window of {@code slot} when {@code view} holds a pod being deleted. */
  private void window(int slot, NodeInfo view) {
    Instant after = null;
    Instant until = null;
    boolean any = false;
    for (PodInfo p : view.pods()) {
      Instant t = TerminatingPods.longTerminatingAfter(p.pod());
      if (t == null) {
        continue;
      }
      any = true;
      if (t.isBefore(now)) {
        if (after == null || t.isAfter(after)) {
          after = t;
        }
      } else if (until == null || t.isBefore(until)) {
        until = t;
      }
    }
    if (any) {
      timed[slot] = true;
      validAfter[slot] = after;
      validUntil[slot] = until;
      timedSlots++;
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
