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
  /** A pod that is not active (terminated or being deleted): not counted, not in the active list. */
  private static final byte INACTIVE = 8;

  /** The counts of one ReplicaSet's active pods. */
  record Counts(List<Pod> active, int fullyLabeled, int ready, int available) {}

  /** The last call's owned pods, each one's flags (by position), how many are inactive, and the result. */
  private record Last(List<Pod> owned, byte[] flags, int inactive, Map<String, String> templateLabels,
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
      byte[] flags = new byte[owned.size()];
      int[] sums = new int[3];
      int inactive = 0;
      for (int i = 0; i < flags.length; i++) {
        flags[i] = flags(owned.get(i), templateLabels, minReadySeconds, now);
        inactive += add(sums, flags[i], 1);
      }
      Counts c = new Counts(active(owned, flags, inactive), sums[0], sums[1], sums[2]);
      if (minReadySeconds == 0) {
        last.put(key, new Last(owned, flags, inactive, templateLabels, c));
      }
      return c;
    }
    if (was.owned() == owned) {
      return was.counts();
    }
    // the pods both owned lists share at their head and tail keep their flags (cached pods are immutable); only those
    // in between are looked at, whether active or not
    List<Pod> before = was.owned();
    int max = Math.min(before.size(), owned.size());
    int head = 0;
    while (head < max && before.get(head) == owned.get(head)) {
      head++;
    }
    int tail = 0;
    while (tail < max - head && before.get(before.size() - 1 - tail) == owned.get(owned.size() - 1 - tail)) {
      tail++;
    }
    byte[] old = was.flags();
    byte[] flags = new byte[owned.size()];
    System.arraycopy(old, 0, flags, 0, head);
    System.arraycopy(old, old.length - tail, flags, flags.length - tail, tail);
    int[] sums = {was.counts().fullyLabeled(), was.counts().ready(), was.counts().available()};
    int inactive = was.inactive();
    for (int i = head; i < old.length - tail; i++) {
      inactive -= add(sums, old[i], -1);
    }
    for (int i = head; i < flags.length - tail; i++) {
      flags[i] = flags(owned.get(i), templateLabels, 0, now);
      inactive += add(sums, flags[i], 1);
    }
    Counts c = new Counts(active(owned, flags, inactive), sums[0], sums[1], sums[2]);
    last.put(key, new Last(owned, flags, inactive, templateLabels, c));
    return c;
  }

  /** The active pods of {@code owned}: the list itself, read-only, when none is inactive (the usual case). */
  private static List<Pod> active(List<Pod> owned, byte[] flags, int inactive) {
    if (inactive == 0) {
      return java.util.Collections.unmodifiableList(owned);
    }
    List<Pod> active = new ArrayList<>(owned.size() - inactive);
    for (int i = 0; i < flags.length; i++) {
      if ((flags[i] & INACTIVE) == 0) {
        active.add(owned.get(i));
      }
    }
    return java.util.Collections.unmodifiableList(active);
  }

  private static byte flags(Pod p, Map<String, String> templateLabels, int minReadySeconds, Instant now) {
    if (!ActivePods.isActive(p)) {
      return INACTIVE;
    }
    byte f = 0;
    if (ReplicaSetReconciler.hasAll(p.metadata().labels(), templateLabels)) {
      f |= FULLY_LABELED;
    }
    if (p.isReady()) {
      f |= READY;
      if (ActivePods.isAvailable(p, minReadySeconds, now)) {
        f |= AVAILABLE;
      }
    }
    return f;
  }

  /** Adds {@code d} times a pod's flags to the sums; 1 when it is inactive (counted nowhere), else 0. */
  private static int add(int[] sums, byte f, int d) {
    if ((f & INACTIVE) != 0) {
      return 1;
    }
    if ((f & FULLY_LABELED) != 0) {
      sums[0] += d;
    }
    if ((f & READY) != 0) {
      sums[1] += d;
    }
    if ((f & AVAILABLE) != 0) {
      sums[2] += d;
    }
    return 0;
  }
}
