package io.fleetkit.reconcile.controllers.internal;

import io.fleetkit.reconcile.ObjectKey;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Kubernetes' {@code UIDTrackingControllerExpectations}: what a controller is waiting to see in its cache after
 * its own writes, so that it does not act twice on a stale cache. Before creating n pods a controller records
 * {@link #expectCreations}; the pod informer calls {@link #creationObserved} for each add. Deletions are tracked by
 * pod key. A controller manages replicas only while {@link #satisfied}: no record, everything observed, or the
 * record older than {@link #TTL} (a lost event must not wedge the controller). Thread-safe.
 */
public final class ControllerExpectations {
  /** Upstream's {@code ExpectationsTimeout}. */
  public static final Duration TTL = Duration.ofMinutes(5);

  private static final class Entry {
    int adds;
    final Set<String> deletes = new HashSet<>();
    Instant timestamp;

    Entry(Instant timestamp) {
      this.timestamp = timestamp;
    }
  }

  private final Map<ObjectKey, Entry> entries = new HashMap<>();

  /** Expects {@code n} creations for {@code key}, replacing any earlier record. */
  public synchronized void expectCreations(ObjectKey key, int n, Instant now) {
    Entry e = new Entry(now);
    e.adds = n;
    entries.put(key, e);
  }

  /** Expects the deletion of these pod keys ({@code namespace/name}) for {@code key}, replacing any record. */
  public synchronized void expectDeletions(ObjectKey key, Set<String> podKeys, Instant now) {
    Entry e = new Entry(now);
    e.deletes.addAll(podKeys);
    entries.put(key, e);
  }

  /** One creation for {@code key} was observed (or will never happen). */
  public synchronized void creationObserved(ObjectKey key) {
    Entry e = entries.get(key);
    if (e != null) {
      e.adds--;
    }
  }

  /** The deletion of pod {@code podKey} for {@code key} was observed (or will never happen). */
  public synchronized void deletionObserved(ObjectKey key, String podKey) {
    Entry e = entries.get(key);
    if (e != null) {
      e.deletes.remove(podKey);
    }
  }

  /** Whether the controller may act on {@code key}: no record, all observed, or the record expired. */
  public synchronized boolean satisfied(ObjectKey key, Instant now) {
    Entry e = entries.get(key);
    if (e == null) {
      return true;
    }
    if (e.adds <= 0 && e.deletes.isEmpty()) {
      return true;
    }
    return !e.timestamp.plus(TTL).isAfter(now);
  }

  /** Creations still expected for {@code key} (0 without a record). */
  public synchronized int pendingCreations(ObjectKey key) {
    Entry e = entries.get(key);
    return e == null ? 0 : Math.max(0, e.adds);
  }

  /** Deletions still expected for {@code key}. */
  public synchronized int pendingDeletions(ObjectKey key) {
    Entry e = entries.get(key);
    return e == null ? 0 : e.deletes.size();
  }

  /** Forgets {@code key} (its object is gone). */
  public synchronized void delete(ObjectKey key) {
    entries.remove(Objects.requireNonNull(key, "key"));
  }
}
