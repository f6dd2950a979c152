package io.fleetkit.networking.endpointslice;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.reconcile.Lister;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * One Service's selected pods, kept by the {@link EndpointSliceController} between syncs: the pods by name, and the
 * names of pods that pod events touched since the last sync. A sync after a pod event looks up only those names in
 * the pod cache, so its cost does not grow with the Service's size; the full list of the Service's pods is taken
 * only when the Service itself changed (another instance: selector, ports, annotations) or on the first sync.
 *
 * <p>Threading: {@link #touch} is called from pod event handlers (any thread); {@link #sync} by the one worker that
 * holds the Service's key (the work queue never hands one key to two workers), so the pod map needs no lock, and
 * only the set of touched names is shared.
 */
final class SelectedPods {
  private final String namespace;
  /** The selector of the Service instance the pod map was built for; read by event handlers. */
  private volatile @Nullable LabelSelector selector;
  private @Nullable Service service;
  /** By name, in the pod cache's order (sorted by name), as a full plan takes them. */
  private final TreeMap<String, Pod> pods = new TreeMap<>();
  private final Object lock = new Object();
  private Set<String> touched = new HashSet<>();

  SelectedPods(String namespace) {
    this.namespace = namespace;
  }

  /**
   * A pod event: when the pod (as it was, or is now) matches the Service's selector, remembers its name for the
   * next sync and returns true (the Service must be synced). Pods that never matched are ignored: if the selector
   * changes, the Service changes, and its next sync lists all pods anyway.
   */
  boolean touch(Pod pod) {
    LabelSelector sel = selector;
    if (sel == null || !sel.matches(pod.metadata().labels())) {
      return false;
    }
    synchronized (lock) {
      touched.add(pod.metadata().name());
    }
    return true;
  }

  /** The changes of one sync: the Service's pods after applying them, and the names that may have changed. */
  record Changes(SortedMap<String, Pod> pods, @Nullable Set<String> changed) {
  }

  /**
   * Brings the pod map up to date for a sync of {@code svc}. With the same Service instance as the last sync, only
   * the touched names are looked up in {@code podCache}; otherwise every pod of the namespace matching the selector
   * is listed and {@link Changes#changed()} is {@code null} (everything may have changed).
   */
  Changes sync(Service svc, Lister<Pod> podCache) {
    if (svc == service) {
      Set<String> names;
      synchronized (lock) {
        names = touched;
        touched = new HashSet<>();
      }
      LabelSelector sel = java.util.Objects.requireNonNull(selector);
      for (String name : names) {
        Optional<Pod> p = podCache.get(namespace, name);
        if (p.isPresent() && sel.matches(p.get().metadata().labels())) {
          pods.put(name, p.get());
        } else {
          pods.remove(name);
        }
      }
      return new Changes(pods, names);
    }
    LabelSelector sel = LabelSelector.of(svc.spec().selector());
    // handlers see the new selector before the list: a pod changing during the list is touched, and looked up again
    // at the next sync
    selector = sel;
    synchronized (lock) {
      touched = new HashSet<>();
    }
    List<Pod> all = podCache.list(namespace, sel);
    pods.clear();
    for (Pod p : all) {
      pods.put(p.metadata().name(), p);
    }
    service = svc;
    return new Changes(pods, null);
  }
}
