package io.fleetkit.scheduler.internal;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.scheduler.nodetable.NodeTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The scheduler's view of the cluster, as kube-scheduler's {@code internal/cache}: nodes with the pods bound or
 * assumed on them, and the assumed pods' lifecycle (assume on Reserve, finish binding, confirm when the bound pod is
 * observed, or forget on failure or expiry). Nodes are kept in a list ordered by generation, most recent first, so
 * that {@link #updateSnapshot} visits only nodes changed since the last snapshot. Confined to the scheduler's lock.
 */
public final class SchedulerCache {
  /** Where a pod is and whether it is only assumed. */
  static final class PodState {
    PodInfo info;
    String nodeName;
    boolean assumed;
    boolean bindingFinished;
    long deadlineNanos;

    PodState(PodInfo info, String nodeName, boolean assumed) {
      this.info = info;
      this.nodeName = nodeName;
      this.assumed = assumed;
    }
  }

  private final Map<String, CacheNode> nodes = new LinkedHashMap<>();
  private final Map<String, PodState> pods = new HashMap<>();
  /** The assumed pods' keys, in assumption order, for {@link #cleanupExpired}; kept only when assumed pods expire. */
  private final Set<String> assumedKeys = new LinkedHashSet<>();
  private int assumedCount;
  private final long assumedTtlNanos;
  private @Nullable CacheNode head;
  private long generation;
  private long nodeListVersion;
  private int realNodes;
  /** The last {@link CacheNode#order} given out. */
  private long lastOrder;
  /**
   * The snapshot whose membership the nodes' {@link CacheNode#inPlaced} describe (the one last built from scratch),
   * and the nodes added or removed since it was last brought up to date: its next update removes and appends just
   * those. Any other snapshot is rebuilt from scratch.
   */
  private @Nullable ClusterSnapshot placed;
  private final List<CacheNode> membershipChanged = new ArrayList<>();
  /** Scratch for {@link #applyMembership}. */
  private int[] removedPositions = new int[8];
  private final List<CacheNode> added = new ArrayList<>();

  /** @param assumedTtlNanos how long a pod whose binding finished stays assumed; 0 for ever */
  public SchedulerCache(long assumedTtlNanos) {
    this.assumedTtlNanos = assumedTtlNanos;
  }

  // ------------------------------------------------------------------------------------------------- nodes

  /** Adds or replaces a node. */
  public void putNode(Node node) {
    CacheNode n = nodes.get(node.name());
    if (n == null) {
      n = new CacheNode(node.name(), ++lastOrder);
      nodes.put(node.name(), n);
    }
    if (n.node == null) {
      realNodes++;
      nodeListVersion++;
      membershipChanged(n);
    }
    n.node = node;
    touch(n);
  }

  /** Removes a node; its pods keep a placeholder until they are removed. Returns whether it existed. */
  public boolean removeNode(String name) {
    CacheNode n = nodes.get(name);
    if (n == null || n.node == null) {
      return false;
    }
    n.node = null;
    realNodes--;
    nodeListVersion++;
    membershipChanged(n);
    if (n.pods.isEmpty()) {
      unlink(n);
      nodes.remove(name);
    } else {
      touch(n);
    }
    return true;
  }

  /** The node object held for {@code name}, or {@code null}. */
  public @Nullable Node node(String name) {
    CacheNode n = nodes.get(name);
    return n == null ? null : n.node;
  }

  public boolean hasNode(String name) {
    CacheNode n = nodes.get(name);
    return n != null && n.node != null;
  }

  /** The number of nodes (placeholders excluded). */
  public int nodeCount() {
    return realNodes;
  }

  /** An immutable view of the node now, or {@code null}. */
  public @Nullable NodeInfo nodeInfo(String name) {
    CacheNode n = nodes.get(name);
    return n == null || n.node == null ? null : n.view();
  }

  // -------------------------------------------------------------------------------------------------- pods

  /** Whether the cache holds {@code key}, bound or assumed. */
  public boolean hasPod(String key) {
    return pods.containsKey(key);
  }

  public boolean isAssumed(String key) {
    PodState s = pods.get(key);
    return s != null && s.assumed;
  }

  public @Nullable String nodeOf(String key) {
    PodState s = pods.get(key);
    return s == null ? null : s.nodeName;
  }

  public @Nullable PodInfo podInfo(String key) {
    PodState s = pods.get(key);
    return s == null ? null : s.info;
  }

  /** The number of pods only assumed (bound by this scheduler, not yet observed bound). */
  public int assumedCount() {
    return assumedCount;
  }

  /** The number of pods held, assumed ones included. */
  public int podCount() {
    return pods.size();
  }

  /**
   * Adds a pod observed bound to {@code info.pod().spec().nodeName()}. If the scheduler had assumed it, this confirms
   * it (moving it if it was bound elsewhere); if it is known already, it is replaced.
   */
  public void addOrUpdateBoundPod(PodInfo info) {
    String key = info.key();
    String nodeName = info.pod().spec().nodeName();
    PodState s = pods.get(key);
    if (s != null) {
      removeFromNode(s);
      unassume(s, key);
      s.info = info;
      s.nodeName = nodeName;
      s.assumed = false;
      s.bindingFinished = false;
    } else {
      s = new PodState(info, nodeName, false);
      pods.put(key, s);
    }
    addToNode(s);
  }

  /** Removes a pod (bound or assumed). Returns the node it was on, or {@code null} if unknown. */
  public @Nullable String removePod(String key) {
    PodState s = pods.remove(key);
    if (s == null) {
      return null;
    }
    unassume(s, key);
    removeFromNode(s);
    return s.nodeName;
  }

  /**
   * Assumes {@code info} on {@code nodeName}: it counts there from now on.
   *
   * @throws IllegalStateException if the pod is in the cache already
   */
  public void assume(PodInfo info, String nodeName) {
    PodState s = new PodState(info, nodeName, true);
    PodState held = pods.putIfAbsent(info.key(), s);
    if (held != null) {
      throw new IllegalStateException("scheduler cache: pod " + info.key() + " is already in the cache on node "
          + held.nodeName + "; it cannot be assumed on " + nodeName);
    }
    assumedCount++;
    if (assumedTtlNanos > 0) {
      assumedKeys.add(info.key());
    }
    addToNode(s);
  }

  /** {@code s} (held under {@code key}) no longer counts as assumed, if it did. */
  private void unassume(PodState s, String key) {
    if (s.assumed) {
      assumedCount--;
      if (assumedTtlNanos > 0) {
        assumedKeys.remove(key);
      }
    }
  }

  /** The binding of an assumed pod finished; it expires {@code ttl} after {@code nowNanos} unless confirmed. */
  public void finishBinding(String key, long nowNanos) {
    PodState s = pods.get(key);
    if (s != null && s.assumed) {
      s.bindingFinished = true;
      s.deadlineNanos = nowNanos + assumedTtlNanos;
    }
  }

  /** Forgets an assumed pod (its binding failed or it was rejected). Bound pods are left alone. */
  public boolean forget(String key) {
    PodState s = pods.get(key);
    if (s == null || !s.assumed) {
      return false;
    }
    removePod(key);
    return true;
  }

  /** Forgets assumed pods whose binding finished more than the TTL ago; returns their keys. */
  public List<String> cleanupExpired(long nowNanos) {
    if (assumedTtlNanos <= 0 || assumedKeys.isEmpty()) {
      return List.of();
    }
    List<String> expired = new ArrayList<>(0);
    for (Iterator<String> it = assumedKeys.iterator(); it.hasNext(); ) {
      String key = it.next();
      PodState s = pods.get(key);
      if (s != null && s.bindingFinished && nowNanos - s.deadlineNanos > 0) {
        expired.add(key);
      }
    }
    for (String key : expired) {
      removePod(key);
    }
    return expired;
  }

  private void addToNode(PodState s) {
    CacheNode n = nodes.get(s.nodeName);
    if (n == null) {
      n = new CacheNode(s.nodeName, ++lastOrder);
      nodes.put(s.nodeName, n);
    }
    n.addPod(s.info);
    touch(n);
  }

  private void removeFromNode(PodState s) {
    CacheNode n = nodes.get(s.nodeName);
    if (n == null) {
      return;
    }
    n.removePod(s.info.key());
    if (n.node == null && n.pods.isEmpty()) {
      unlink(n);
      nodes.remove(n.name);
    } else {
      touch(n);
    }
  }

  // ---------------------------------------------------------------------------------------------- snapshot

  /** Notes that {@code n} gained or lost its node, for the next update of the {@link #placed} snapshot. */
  private void membershipChanged(CacheNode n) {
    if (placed != null && !n.membershipQueued) {
      n.membershipQueued = true;
      membershipChanged.add(n);
    }
  }

  /** Moves {@code n} to the head of the generation list with a new generation. */
  private void touch(CacheNode n) {
    n.generation = ++generation;
    if (head == n) {
      return;
    }
    unlink(n);
    n.next = head;
    if (head != null) {
      head.prev = n;
    }
    head = n;
  }

  private void unlink(CacheNode n) {
    if (n.prev != null) {
      n.prev.next = n.next;
    }
    if (n.next != null) {
      n.next.prev = n.prev;
    }
    if (head == n) {
      head = n.next;
    }
    n.prev = null;
    n.next = null;
  }

  /**
   * Brings {@code snap} up to date: O(nodes changed since its last update). Nodes removed since then leave their
   * positions, the later rows moving down to close the gaps (a block move per table column, the node order kept);
   * nodes added since are appended (they come last in the cache's node order, unless a node comes back to the entry
   * its pods kept, in which case the snapshot is built afresh); a node that gained its first or lost its last pod with
   * (anti-)affinity moves in or out of the affinity lists in place (a binary search and an array shift, not a pass
   * over every node).
   *
   * @return how many node views were (re)placed into the snapshot
   */
  public int updateSnapshot(ClusterSnapshot snap) {
    int refreshed = 0;
    if (snap.nodeListVersion != nodeListVersion) {
      if (snap != placed || !applyMembership(snap)) {
        rebuildFromScratch(snap);
        return snap.size;
      }
      refreshed = added.size();
      added.clear();
    }
    for (CacheNode n = head; n != null && n.generation > snap.generation; n = n.next) {
      if (n.node == null || !n.inPlaced) {
        continue;
      }
      int i = snap.positionOf(n);
      n.snapshotIndex = i;
      NodeInfo old = snap.table.view(i);
      NodeInfo now = n.view();
      if (old == now) {
        continue; // appended just now
      }
      snap.table.set(i, now);
      refreshed++;
      boolean affinity = !now.podsWithAffinity().isEmpty();
      if (old.podsWithAffinity().isEmpty() == affinity) {
        snap.affinitySize = affinity ? insertSorted(snap.affinityIdx, snap.affinitySize, i)
            : removeSorted(snap.affinityIdx, snap.affinitySize, i);
      }
      boolean anti = !now.podsWithRequiredAntiAffinity().isEmpty();
      if (old.podsWithRequiredAntiAffinity().isEmpty() == anti) {
        snap.antiSize = anti ? insertSorted(snap.antiIdx, snap.antiSize, i) : removeSorted(snap.antiIdx, snap.antiSize, i);
      }
    }
    snap.generation = generation;
    return refreshed;
  }

  /**
   * Adds position {@code i} to the ascending positions {@code idx[0..size)} (kept as the full rebuild orders them);
   * returns the new size. The arrays hold every position of the snapshot, so there is room.
   */
  private static int insertSorted(int[] idx, int size, int i) {
    int at = Arrays.binarySearch(idx, 0, size, i);
    if (at >= 0) {
      return size;
    }
    at = -at - 1;
    System.arraycopy(idx, at, idx, at + 1, size - at);
    idx[at] = i;
    return size + 1;
  }

  /** Removes position {@code i} from the ascending positions {@code idx[0..size)}; returns the new size. */
  private static int removeSorted(int[] idx, int size, int i) {
    int at = Arrays.binarySearch(idx, 0, size, i);
    if (at < 0) {
      return size;
    }
    System.arraycopy(idx, at + 1, idx, at, size - at - 1);
    return size - 1;
  }

  /**
   * Applies the nodes added and removed since {@code snap} (the {@link #placed} one) was last brought up to date:
   * removes the departed ones' rows, then appends the new ones (their views placed, {@link #added} listing them).
   * Returns false, having changed nothing, when a node is to be inserted before the last one kept (a node back in the
   * entry its pods kept): the caller then builds the snapshot afresh.
   */
  private boolean applyMembership(ClusterSnapshot snap) {
    int size = snap.size;
    int removed = 0;
    added.clear();
    for (CacheNode c : membershipChanged) {
      boolean present = c.node != null && nodes.get(c.name) == c;
      if (c.inPlaced && !present) {
        if (removed == removedPositions.length) {
          removedPositions = Arrays.copyOf(removedPositions, removed * 2);
        }
        removedPositions[removed++] = snap.positionOf(c);
      } else if (!c.inPlaced && present) {
        added.add(c);
      }
    }
    Arrays.sort(removedPositions, 0, removed);
    if (!added.isEmpty()) {
      added.sort((a, b) -> Long.compare(a.order, b.order));
      int last = size - 1;
      for (int r = removed - 1; r >= 0 && removedPositions[r] == last; r--) {
        last--;
      }
      if (last >= 0 && added.get(0).order < snap.orders[last]) {
        added.clear();
        return false;
      }
    }
    for (CacheNode c : membershipChanged) {
      c.membershipQueued = false;
      if (c.inPlaced && !(c.node != null && nodes.get(c.name) == c)) {
        c.inPlaced = false;
        c.snapshotIndex = -1;
        snap.byName.remove(c.name, c);
      }
    }
    membershipChanged.clear();
    NodeTable table = snap.table;
    if (removed > 0) {
      table.removeRows(removedPositions, removed);
      removeOrders(snap.orders, size, removedPositions, removed);
      size -= removed;
    }
    int newSize = size + added.size();
    table.ensureCapacity(newSize);
    if (snap.orders.length < newSize) {
      snap.orders = Arrays.copyOf(snap.orders, Math.max(newSize, snap.orders.length * 2));
    }
    for (CacheNode c : added) {
      table.set(size, c.view());
      snap.orders[size] = c.order;
      snap.byName.put(c.name, c);
      c.inPlaced = true;
      c.snapshotIndex = size;
      size++;
    }
    snap.size = size;
    snap.nodeListVersion = nodeListVersion;
    rebuildAffinityLists(snap);
    return true;
  }

  /** Removes {@code positions[0..count)} (ascending) from {@code orders[0..size)}, keeping the others' order. */
  private static void removeOrders(long[] orders, int size, int[] positions, int count) {
    for (int j = 0; j < count; j++) {
      int from = positions[j] + 1;
      int to = j + 1 < count ? positions[j + 1] : size;
      System.arraycopy(orders, from, orders, from - (j + 1), to - from);
    }
  }

  /** Places every node into {@code snap} afresh, in the cache's node order. */
  private void rebuildFromScratch(ClusterSnapshot snap) {
    placed = snap;
    for (CacheNode c : membershipChanged) {
      c.membershipQueued = false;
      c.inPlaced = false; // nodes gone from the map are not visited below
    }
    membershipChanged.clear();
    snap.table.ensureCapacity(realNodes);
    snap.table.clearFrom(realNodes);
    snap.byName.clear();
    if (snap.orders.length < realNodes) {
      snap.orders = new long[Math.max(realNodes, snap.orders.length * 2)];
    }
    int i = 0;
    for (CacheNode n : nodes.values()) {
      if (n.node == null) {
        n.snapshotIndex = -1;
        n.inPlaced = false;
        continue;
      }
      n.snapshotIndex = i;
      n.inPlaced = true;
      snap.table.set(i, n.view());
      snap.orders[i] = n.order;
      snap.byName.put(n.name, n);
      i++;
    }
    snap.size = i;
    snap.generation = generation;
    snap.nodeListVersion = nodeListVersion;
    rebuildAffinityLists(snap);
  }

  private static void rebuildAffinityLists(ClusterSnapshot snap) {
    if (snap.affinityIdx.length < snap.size) {
      snap.affinityIdx = new int[snap.size];
      snap.antiIdx = new int[snap.size];
    }
    int a = 0;
    int b = 0;
    // From the table's flag bytes, not the views: one sequential pass instead of a cache miss per node.
    NodeTable table = snap.table;
    for (int i = 0; i < snap.size; i++) {
      if (table.hasAffinityPods(i)) {
        snap.affinityIdx[a++] = i;
      }
      if (table.hasRequiredAntiAffinityPods(i)) {
        snap.antiIdx[b++] = i;
      }
    }
    snap.affinitySize = a;
    snap.antiSize = b;
  }
}
