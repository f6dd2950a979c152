package io.fleetkit.autoscale.cluster;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.store.WatchEvent;
import io.fleetkit.api.store.WatchEventType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The store's pods as the cluster autoscaler reads them, kept from one loop to the next: the bound, non-terminal pods
 * of each node (with the scheduler's view of each) and the unbound, non-terminal ones, all in key order
 * ({@code namespace/name}, the store's listing order).
 *
 * <p>Two ways to keep it current, not to be mixed on one instance: {@link #update} compares the loop's pod list with
 * the last one by object identity (the store's objects are immutable, so an unchanged pod is the same instance) and
 * touches only the pods that differ, so a loop in which a few pods changed costs a pass over the list's references
 * plus the changed pods; {@link #apply} takes one watch event and touches that pod only. A node's
 * {@linkplain #infosOn pod list} is the same list instance while none of its pods changed.
 *
 * <p>Not thread-safe: one per autoscaler, used inside its synchronized loop.
 */
final class ClusterPods {
  /** The pods of one node by key, and the list made from them (dropped on change). */
  private static final class NodePods {
    final TreeMap<String, PodInfo> byKey = new TreeMap<>();
    List<PodInfo> infos;
    List<Pod> pods;

    void changed() {
      infos = null;
      pods = null;
    }
  }

  private List<Pod> last = List.of();
  private final Map<String, NodePods> byNode = new HashMap<>();
  private final TreeMap<String, Pod> unbound = new TreeMap<>();
  /** The non-terminal pods held, by key: what a watch event replaces or deletes. */
  private final Map<String, Pod> held = new HashMap<>();
  private long boundVersion;
  /**
   * The {@linkplain TerminatingPods#longTerminatingAfter long-terminating instants} of the bound pods being deleted,
   * with how many pods have each.
   */
  private final TreeMap<Instant, Integer> terminating = new TreeMap<>();
  /** The nodes whose bound pods changed since the last {@link #takeChangedNodes()}. */
  private Set<String> changedNodes = new HashSet<>();

  /**
   * Brings the state to {@code pods} (the store's list of every pod).
   *
   * @return whether a pod changed since the last update
   */
  boolean update(List<Pod> pods) {
    List<Pod> before = last;
    if (pods == before) {
      return false;
    }
    last = pods;
    List<Pod> gone = new ArrayList<>();
    List<Pod> added = new ArrayList<>();
    int i = 0;
    int j = 0;
    while (i < pods.size() && j < before.size()) {
      Pod a = pods.get(i);
      Pod b = before.get(j);
      if (a == b) {
        i++;
        j++;
        continue;
      }
      // Both lists are in key order for the stores of this repository; any other order still ends in the right
      // state (every pod not matched by identity is removed or added), only with more work.
      int c = a.metadata().key().compareTo(b.metadata().key());
      if (c <= 0) {
        added.add(a);
        i++;
      }
      if (c >= 0) {
        gone.add(b);
        j++;
      }
    }
    for (; i < pods.size(); i++) {
      added.add(pods.get(i));
    }
    for (; j < before.size(); j++) {
      gone.add(before.get(j));
    }
    if (gone.isEmpty() && added.isEmpty()) {
      return false;
    }
    for (Pod p : gone) {
      remove(p);
    }
    for (Pod p : added) {
      add(p);
    }
    return true;
  }

  /**
   * Brings the state to the store's after {@code event}, the next change of a watch started from the version of the
   * list last given to {@link #update} (or from an empty store): an added or modified pod replaces the one held under
   * its key, a deleted one removes it.
   */
  void apply(WatchEvent<Pod> event) {
    Pod p = event.object();
    Pod had = held.get(p.metadata().key());
    if (had == p && event.type() != WatchEventType.DELETED) {
      return;
    }
    if (had != null) {
      remove(had);
    }
    if (event.type() != WatchEventType.DELETED) {
      add(p);
    }
  }

  private void add(Pod p) {
    if (p.isTerminal()) {
      return;
    }
    String key = p.metadata().key();
    held.put(key, p);
    if (p.isBound()) {
      NodePods n = byNode.computeIfAbsent(p.spec().nodeName(), k -> new NodePods());
      PodInfo had = n.byKey.put(key, AutoscalerPodInfo.of(p));
      if (had != null) {
        untrack(had.pod());
      }
      track(p);
      n.changed();
      boundVersion++;
      changedNodes.add(p.spec().nodeName());
    } else {
      unbound.put(key, p);
    }
  }

  private void remove(Pod p) {
    if (p.isTerminal()) {
      return;
    }
    String key = p.metadata().key();
    if (held.get(key) == p) {
      held.remove(key);
    }
    if (p.isBound()) {
      NodePods n = byNode.get(p.spec().nodeName());
      if (n != null) {
        PodInfo had = n.byKey.get(key);
        if (had != null && had.pod() == p) {
          n.byKey.remove(key);
          untrack(p);
          n.changed();
          boundVersion++;
          changedNodes.add(p.spec().nodeName());
          if (n.byKey.isEmpty()) {
            byNode.remove(p.spec().nodeName());
          }
        }
      }
    } else if (unbound.get(key) == p) {
      unbound.remove(key);
    }
  }

  private void track(Pod p) {
    Instant t = p.metadata().deletionTimestamp() == null ? null : TerminatingPods.longTerminatingAfter(p);
    if (t != null) {
      terminating.merge(t, 1, Integer::sum);
    }
  }

  private void untrack(Pod p) {
    Instant t = p.metadata().deletionTimestamp() == null ? null : TerminatingPods.longTerminatingAfter(p);
    if (t != null) {
      terminating.computeIfPresent(t, (k, c) -> c == 1 ? null : c - 1);
    }
  }

  /** Whether a bound, non-terminal pod is being deleted. */
  boolean anyTerminating() {
    return !terminating.isEmpty();
  }

  /**
   * How many bound, non-terminal pods are long-terminating at {@code now}: with the same {@link #boundVersion}, two
   * times with the same count have the same long-terminating pods.
   */
  int longTerminating(Instant now) {
    if (terminating.isEmpty()) {
      return 0;
    }
    int n = 0;
    for (int c : terminating.headMap(now, false).values()) {
      n += c;
    }
    return n;
  }

  /**
   * A number that changes whenever a bound, non-terminal pod is added, removed or replaced: the pods of every node
   * are the same objects while it stays the same.
   */
  long boundVersion() {
    return boundVersion;
  }

  /**
   * The names of the nodes whose {@linkplain #infosOn pod list} changed since the last call (or since this grouping
   * was made), and forgets them.
   */
  Set<String> takeChangedNodes() {
    Set<String> c = changedNodes;
    changedNodes = new HashSet<>();
    return c;
  }

  /**
   * The scheduler's views of the bound, non-terminal pods on {@code node}, in key order; the same list until one of
   * them changes.
   */
  List<PodInfo> infosOn(String node) {
    NodePods n = byNode.get(node);
    if (n == null) {
      return List.of();
    }
    List<PodInfo> l = n.infos;
    if (l == null) {
      l = Collections.unmodifiableList(new ArrayList<>(n.byKey.values()));
      n.infos = l;
    }
    return l;
  }

  /** The bound, non-terminal pods on {@code node}, in key order. */
  List<Pod> on(String node) {
    NodePods n = byNode.get(node);
    if (n == null) {
      return List.of();
    }
    List<Pod> l = n.pods;
    if (l == null) {
      List<Pod> out = new ArrayList<>(n.byKey.size());
      for (PodInfo pi : n.byKey.values()) {
        out.add(pi.pod());
      }
      l = Collections.unmodifiableList(out);
      n.pods = l;
    }
    return l;
  }

  /** The unbound, non-terminal pods, in key order (a live view; do not keep it across updates). */
  Collection<Pod> unbound() {
    return Collections.unmodifiableCollection(unbound.values());
  }
}
