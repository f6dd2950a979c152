package io.fleetkit.reconcile.controllers.internal;

import io.fleetkit.reconcile.ObjectKey;
import java.time.Instant;
import io.fleetkit.api.meta.ApiObject;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * Expectations checked against the cache the reconciler itself reads: the names of the pods a controller created
 * and deleted for an owner, until its pod lister shows the created ones (or the store no longer has them) and shows
 * the deleted ones gone or being deleted (a deletion timestamp: a pod deleted gracefully stays until its kubelet ends
 * it, and on a dead node for good; upstream's controllers count a deletion as observed at the timestamp). Complements {@link ControllerExpectations}, whose counts are fed by a separate
 * informer: that informer can run ahead of the reconciler's cache, and then a sync would act on a stale list
 * again (create pods twice). Records expire after {@link ControllerExpectations#TTL}. Thread-safe; one owner's
 * record is only touched by that owner's reconcile, which the runtime never runs concurrently.
 */
public final class CacheExpectations {
  private static final class Pending {
    final Set<String> creates = new HashSet<>();
    final Set<String> deletes = new HashSet<>();
    final Instant since;

    Pending(Instant since) {
      this.since = since;
    }
  }

  private final Map<ObjectKey, Pending> pending = new ConcurrentHashMap<>();

  /** The controller created pod {@code name} for {@code owner}. */
  public void created(ObjectKey owner, String name, Instant now) {
    pending.computeIfAbsent(owner, k -> new Pending(now)).creates.add(Objects.requireNonNull(name, "name"));
  }

  /** The controller deleted pod {@code name} of {@code owner}. */
  public void deleted(ObjectKey owner, String name, Instant now) {
    pending.computeIfAbsent(owner, k -> new Pending(now)).deletes.add(Objects.requireNonNull(name, "name"));
  }

  /**
   * Whether the cache has caught up with the controller's writes for {@code owner}.
   *
   * @param cached names of the owner's pods in the reconciler's cache
   * @param remaining those of them not being deleted
   * @param inStore whether a pod of that name exists in the store (asked only for created pods the cache lacks)
   */
  private boolean satisfied(ObjectKey owner, Set<String> cached, Set<String> remaining, Predicate<String> inStore,
      Instant now) {
    Pending p = pending.get(owner);
    if (p == null) {
      return true;
    }
    p.creates.removeIf(name -> cached.contains(name) || !inStore.test(name));
    p.deletes.removeIf(name -> !remaining.contains(name));
    if ((p.creates.isEmpty() && p.deletes.isEmpty()) || !p.since.plus(ControllerExpectations.TTL).isAfter(now)) {
      pending.remove(owner);
      return true;
    }
    return false;
  }

  /**
   * Whether the cache has caught up with the controller's writes for {@code owner}: {@code cachedObjects} are the
   * owner's pods in the reconciler's cache; only those the owner's record waits for are looked at.
   *
   * @param inStore whether a pod of that name exists in the store (asked only for created pods the cache lacks)
   */
  public boolean satisfied(ObjectKey owner, List<? extends ApiObject<?>> cachedObjects, Predicate<String> inStore,
      Instant now) {
    Pending p = pending.get(owner);
    if (p == null) {
      return true;
    }
    Set<String> cached = new HashSet<>();
    Set<String> remaining = new HashSet<>();
    for (ApiObject<?> o : cachedObjects) {
      String name = o.metadata().name();
      if (p.creates.contains(name) || p.deletes.contains(name)) {
        note(o, cached, remaining);
      }
    }
    return satisfied(owner, cached, remaining, inStore, now);
  }

  private static void note(ApiObject<?> o, Set<String> cached, Set<String> remaining) {
    cached.add(o.metadata().name());
    if (o.metadata().deletionTimestamp() == null) {
      remaining.add(o.metadata().name());
    }
  }

  /**
   * {@link #satisfied(ObjectKey, List, Predicate, Instant)} for {@code cachedObjects} in listing order (namespace,
   * then name): when all of them are in {@code owner}'s namespace, each name the record waits for is looked up by
   * binary search instead of every object being visited.
   */
  public boolean satisfiedInOrder(ObjectKey owner, List<? extends ApiObject<?>> cachedObjects,
      Predicate<String> inStore, Instant now) {
    Pending p = pending.get(owner);
    if (p == null) {
      return true;
    }
    int n = cachedObjects.size();
    String ns = owner.namespace();
    if (n > 0 && (!cachedObjects.get(0).metadata().namespace().equals(ns)
        || !cachedObjects.get(n - 1).metadata().namespace().equals(ns))) {
      return satisfied(owner, cachedObjects, inStore, now); // another namespace among them: visit them all
    }
    // in one namespace, listing order is name order
    Set<String> cached = new HashSet<>();
    Set<String> remaining = new HashSet<>();
    for (String name : p.creates) {
      ApiObject<?> o = find(cachedObjects, name);
      if (o != null) {
        note(o, cached, remaining);
      }
    }
    for (String name : p.deletes) {
      ApiObject<?> o = find(cachedObjects, name);
      if (o != null) {
        note(o, cached, remaining);
      }
    }
    return satisfied(owner, cached, remaining, inStore, now);
  }

  /** The object named {@code name} in {@code sorted} (in name order), or {@code null}. */
  private static @Nullable ApiObject<?> find(List<? extends ApiObject<?>> sorted, String name) {
    int lo = 0;
    int hi = sorted.size() - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int c = sorted.get(mid).metadata().name().compareTo(name);
      if (c < 0) {
        lo = mid + 1;
      } else if (c > 0) {
        hi = mid - 1;
      } else {
        return sorted.get(mid);
      }
    }
    return null;
  }

  /**
   * Whether writes of {@code owner} are being waited for; when not, {@link #satisfied} is true whatever the cache
   * holds (so a caller need not collect the names).
   */
  public boolean waiting(ObjectKey owner) {
    return pending.containsKey(owner);
  }

  /** Writes of {@code owner} the cache has not shown yet. */
  public int pending(ObjectKey owner) {
    Pending p = pending.get(owner);
    return p == null ? 0 : p.creates.size() + p.deletes.size();
  }

  /** Forgets {@code owner} (it is gone or finished). */
  public void forget(ObjectKey owner) {
    pending.remove(owner);
  }
}
