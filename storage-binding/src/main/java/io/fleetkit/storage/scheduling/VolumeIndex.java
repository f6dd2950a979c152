package io.fleetkit.storage.scheduling;

import io.fleetkit.api.core.ClaimReference;
import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.core.PersistentVolumePhase;
import io.fleetkit.api.store.ListResult;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.WatchEventType;
import io.fleetkit.storage.VolumeMatching;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The volumes VolumeBinding may choose from, kept current by a watch on the store (like kube's informer cache):
 * Available volumes without claim reference by class, and volumes with a claim reference by the claim they name.
 * PreFilter then looks at the free volumes of one class instead of every volume. Started on first use (list, then
 * watch from the list's version). With the store's direct delivery it is exact after every write; with asynchronous
 * delivery it may lag a little, which PreBind's optimistic binding turns into a retry, never a double binding.
 * Thread-safe.
 */
final class VolumeIndex {
  private final ObjectStore store;
  private final Map<String, Map<String, PersistentVolume>> freeByClass = new ConcurrentHashMap<>();
  private final Map<String, Map<String, PersistentVolume>> reservedByClaim = new ConcurrentHashMap<>();
  private final Map<String, PersistentVolume> byName = new ConcurrentHashMap<>();
  private volatile boolean started;

  VolumeIndex(ObjectStore store) {
    this.store = store;
  }

  private void ensureStarted() {
    if (started) {
      return;
    }
    synchronized (this) {
      if (started) {
        return;
      }
      ListResult<PersistentVolume> list = store.list(PersistentVolume.class);
      for (PersistentVolume pv : list.items()) {
        put(pv);
      }
      store.watch(PersistentVolume.class, list.resourceVersion(), e -> {
        if (e.type() == WatchEventType.DELETED) {
          remove(e.object().metadata().name());
        } else {
          put(e.object());
        }
      });
      started = true;
    }
  }

  private synchronized void put(PersistentVolume pv) {
    remove(pv.metadata().name());
    byName.put(pv.metadata().name(), pv);
    ClaimReference ref = pv.spec().claimRef();
    if (ref != null) {
      reservedByClaim.computeIfAbsent(ref.namespace() + "/" + ref.name(), k -> new ConcurrentHashMap<>())
          .put(pv.metadata().name(), pv);
    } else if (pv.status().phase() == PersistentVolumePhase.Available && pv.metadata().deletionTimestamp() == null) {
      freeByClass.computeIfAbsent(VolumeMatching.volumeClass(pv), k -> new ConcurrentHashMap<>())
          .put(pv.metadata().name(), pv);
    }
  }

  private synchronized void remove(String name) {
    PersistentVolume old = byName.remove(name);
    if (old == null) {
      return;
    }
    ClaimReference ref = old.spec().claimRef();
    if (ref != null) {
      Map<String, PersistentVolume> m = reservedByClaim.get(ref.namespace() + "/" + ref.name());
      if (m != null) {
        m.remove(name);
      }
    } else {
      Map<String, PersistentVolume> m = freeByClass.get(VolumeMatching.volumeClass(old));
      if (m != null) {
        m.remove(name);
      }
    }
  }

  /** Volumes a claim of {@code className} keyed {@code claimKey} may match: free ones of the class, and its own. */
  List<PersistentVolume> candidates(String className, String claimKey) {
    ensureStarted();
    List<PersistentVolume> out = new ArrayList<>(freeByClass.getOrDefault(className, Map.of()).values());
    out.addAll(reservedByClaim.getOrDefault(claimKey, Map.of()).values());
    out.sort(java.util.Comparator.comparing(p -> p.metadata().name()));
    return out;
  }
}
