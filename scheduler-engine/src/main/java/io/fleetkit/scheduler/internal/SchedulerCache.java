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
  /**
   * The snapshot whose positions the nodes' {@link CacheNode#snapshotIndex} describe (the one last rebuilt), and the
   * names of nodes removed since then that it may still hold: its next rebuild re-places only positions that
   * changed. Any other snapshot is rebuilt from scratch.
   */
  private @Nullable ClusterSnapshot placed;
  private final List<String> leftSinceRebuild = new ArrayList<>();

  /** @param assumedTtlNanos how long a pod whose binding finished stays assumed; 0 for ever */
  public SchedulerCache(long assumedTtlNanos) {
    this.assumedTtlNanos = assumedTtlNanos;
  }

  // ------------------------------------------------------------------------------------------------- nodes

  /** Adds or replaces a node. */
  public void putNode(Node node) {
    CacheNode n = nodes.get(node.name());
    if (n == null) {
      n = new CacheNode(node.name());
      nodes.put(node.name(), n);
    }
    if (n.node == null) {
      realNodes++;
      nodeListVersion++;
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
    if (placed != null && n.snapshotIndex >= 0) {
      leftSinceRebuild.add(name);
    }
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
      n = new CacheNode(s.nodeName);
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
   * Brings {@code snap} up to date: O(nodes changed since its last update), plus, when nodes were added or removed, a
   * walk over the nodes that re-places only the positions whose node or view changed (those after the first node
   * added or removed, as the order is kept); a node that gained its first or lost its last pod with (anti-)affinity moves in or out of the affinity
   * lists in place (a binary search and an array shift, not a pass over every node).
   *
   * @return how many node views were (re)placed into the snapshot
   */
  public int updateSnapshot(ClusterSnapshot snap) {
    if (snap.nodeListVersion != nodeListVersion) {
      rebuild(snap);
      return snap.size;
    }
    int refreshed = 0;
    for (CacheNode n = head; n != null && n.generation > snap.generation; n = n.next) {
      if (n.node == null || n.snapshotIndex < 0) {
        continue;
      }
      int i = n.snapshotIndex;
      NodeInfo old = snap.table.view(i);
      NodeInfo now = n.view();
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

  private void rebuild(ClusterSnapshot snap) {
    if (snap != placed) {
      rebuildFromScratch(snap);
      return;
    }
    NodeTable table = snap.table;
    table.ensureCapacity(realNodes);
    for (String name : leftSinceRebuild) {
      CacheNode n = nodes.get(name);
      if (n == null || n.node == null) {
        snap.indexByName.remove(name);
      }
    }
    leftSinceRebuild.clear();
    int i = 0;
    for (CacheNode n : nodes.values()) {
      if (n.node == null) {
        n.snapshotIndex = -1;
        continue;
      }
      NodeInfo v = n.view();
      if (table.view(i) != v) { // the same view at the same position: nothing to re-place
        table.set(i, v);
      }
      if (n.snapshotIndex != i) {
        n.snapshotIndex = i;
        snap.indexByName.put(n.name, i);
      }
      i++;
    }
    table.clearFrom(i);
    snap.size = i;
    snap.generation = generation;
    snap.nodeListVersion = nodeListVersion;
    rebuildAffinityLists(snap);
  }

  /** Places every node into {@code snap} afresh, in the cache's node order. */
  private void rebuildFromScratch(ClusterSnapshot snap) {
    placed = snap;
    leftSinceRebuild.clear();
    snap.table.ensureCapacity(realNodes);
    snap.table.clearFrom(realNodes);
    snap.indexByName.clear();
    int i = 0;
    for (CacheNode n : nodes.values()) {
      if (n.node == null) {
        n.snapshotIndex = -1;
        continue;
      }
      n.snapshotIndex = i;
      snap.table.set(i, n.view());
      snap.indexByName.put(n.name, i);
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
