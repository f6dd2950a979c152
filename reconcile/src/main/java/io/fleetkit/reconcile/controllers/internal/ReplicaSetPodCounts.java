package io.fleetkit.reconcile.controllers.internal;

import io.fleetkit.api.core.Pod;
import io.fleetkit.reconcile.ObjectKey;
import io.fleetkit.reconcile.controllers.ActivePods;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The pod-derived part of a ReplicaSet's status ({@code calculateStatus}: active, fully labeled, ready and available
 * pods), kept per ReplicaSet between reconciles so that a reconcile pays for the pods that changed rather than for
 * all of them. The pod lists come from the informer cache in key order and cached pods are immutable, so a pod that
 * is the same object as last time needs no second look: each call compares the new list with the last one by
 * identity, skips the common head and tail, and counts only the pods between them (one pod for a status update, a
 * creation or a deletion). Availability reads the clock when {@code minReadySeconds} is positive; then every pod is
 * counted each time.
 *
 * <p>Thread-safe for different ReplicaSets (one reconcile per key at a time, as the work queue guarantees).
 */
final class ReplicaSetPodCounts {
  private static final byte FULLY_LABELED = 1;
  private static final byte READY = 2;
  private static final byte AVAILABLE = 4;

  /** The counts of one ReplicaSet's active pods. */
  record Counts(List<Pod> active, int fullyLabeled, int ready, int available) {}

  private record Last(List<Pod> owned, List<Pod> active, byte[] flags, Map<String, String> templateLabels,
      Counts counts) {}

  private final Map<ObjectKey, Last> last = new ConcurrentHashMap<>();

  /** Forgets a deleted ReplicaSet. */
  void forget(ObjectKey key) {
    last.remove(key);
  }

  /**
   * The active pods of {@code owned} (in its order) and their counts, as {@link ReplicaSetReconciler#calculateStatus}
   * counts them.
   */
  Counts count(ObjectKey key, List<Pod> owned, Map<String, String> templateLabels, int minReadySeconds,
      Instant now) {
    Last was = last.get(key);
    if (minReadySeconds != 0 || was == null || !was.templateLabels().equals(templateLabels)) {
      if (was != null) {
        last.remove(key);
      }
      List<Pod> active = active(owned);
      byte[] flags = new byte[active.size()];
      int[] sums = new int[3];
      for (int i = 0; i < flags.length; i++) {
        flags[i] = flags(active.get(i), templateLabels, minReadySeconds, now);
        add(sums, flags[i], 1);
      }
      Counts c = new Counts(active, sums[0], sums[1], sums[2]);
      if (minReadySeconds == 0) {
        last.put(key, new Last(owned, active, flags, templateLabels, c));
      }
      return c;
    }
    if (was.owned() == owned) {
      return was.counts();
    }
    List<Pod> old = was.active();
    List<Pod> active = null;
    int head = 0;
    int tail = 0;
    if (old.size() == was.owned().size()) {
      // every pod was active, so the last active list is the last owned list: the pods both owned lists share at
      // their head and tail still are, and when those in between are too, that head and tail are the active lists'
      List<Pod> before = was.owned();
      int max = Math.min(before.size(), owned.size());
      while (head < max && before.get(head) == owned.get(head)) {
        head++;
      }
      while (tail < max - head && before.get(before.size() - 1 - tail) == owned.get(owned.size() - 1 - tail)) {
        tail++;
      }
      if (allActive(owned, head, owned.size() - tail)) {
        active = java.util.Collections.unmodifiableList(owned);
      }
    }
    if (active == null) {
      active = active(owned);
      head = 0;
      tail = 0;
      int max = Math.min(old.size(), active.size());
      while (head < max && old.get(head) == active.get(head)) {
        head++;
      }
      while (tail < max - head && old.get(old.size() - 1 - tail) == active.get(active.size() - 1 - tail)) {
        tail++;
      }
    }
    int[] sums = {was.counts().fullyLabeled(), was.counts().ready(), was.counts().available()};
    byte[] flags = new byte[active.size()];
    System.arraycopy(was.flags(), 0, flags, 0, head);
    System.arraycopy(was.flags(), old.size() - tail, flags, active.size() - tail, tail);
    for (int i = head; i < old.size() - tail; i++) {
      add(sums, was.flags()[i], -1);
    }
    for (int i = head; i < active.size() - tail; i++) {
      flags[i] = flags(active.get(i), templateLabels, 0, now);
      add(sums, flags[i], 1);
    }
    Counts c = new Counts(active, sums[0], sums[1], sums[2]);
    last.put(key, new Last(owned, active, flags, templateLabels, c));
    return c;
  }

  private static List<Pod> active(List<Pod> owned) {
    int n = owned.size();
    int first = 0; // the first inactive pod
    while (first < n && ActivePods.isActive(owned.get(first))) {
      first++;
    }
    if (first == n) {
      // every pod active (the usual case): the list itself, read-only (the cache's list is already)
      return java.util.Collections.unmodifiableList(owned);
    }
    List<Pod> active = new ArrayList<>(n - 1);
    active.addAll(owned.subList(0, first));
    for (int i = first + 1; i < n; i++) {
      Pod p = owned.get(i);
      if (ActivePods.isActive(p)) {
        active.add(p);
      }
    }
    return java.util.Collections.unmodifiableList(active);
  }

  private static boolean allActive(List<Pod> pods, int from, int to) {
    for (int i = from; i < to; i++) {
      if (!ActivePods.isActive(pods.get(i))) {
        return false;
      }
    }
    return true;
  }

  private static byte flags(Pod p, Map<String, String> templateLabels, int minReadySeconds, Instant now) {
    byte f = 0;
    if (ReplicaSetReconciler.hasAll(p.metadata().labels(), templateLabels)) {
      f |= FULLY_LABELED;
    }
    if (ActivePods.isReady(p)) {
      f |= READY;
      if (ActivePods.isAvailable(p, minReadySeconds, now)) {
        f |= AVAILABLE;
      }
    }
    return f;
  }

  private static void add(int[] sums, byte f, int d) {
    if ((f & FULLY_LABELED) != 0) {
      sums[0] += d;
    }
    if ((f & READY) != 0) {
      sums[1] += d;
    }
    if ((f & AVAILABLE) != 0) {
      sums[2] += d;
    }
  }
}
