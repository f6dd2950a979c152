package io.fleetkit.simulator;

import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Makes a simulation's starting objects creatable when they were dumped from a running cluster
 * ({@code kubectl get ... -o yaml}): the store-owned {@code resourceVersion} is cleared, owners are created before
 * the objects they own, and an owner reference that names a starting object by its dumped uid is pointed at the
 * uid the store gave that object, so that a dumped pod stays owned by its dumped ReplicaSet instead of being
 * orphaned (and replaced by a new pod). Not thread-safe: one per simulation setup.
 */
final class DumpedState {
  /** Dumped uid to the uid the store gave the object. */
  private final Map<String, String> uids = new HashMap<>();

  /**
   * {@code objects} with every object after those of the list that own it (by owner reference uid), otherwise in
   * the given order; objects without owners among them keep their places.
   */
  static List<ApiObject<?>> ownersFirst(List<ApiObject<?>> objects) {
    Map<String, ApiObject<?>> byUid = new HashMap<>();
    for (ApiObject<?> o : objects) {
      if (!o.metadata().uid().isEmpty()) {
        byUid.putIfAbsent(o.metadata().uid(), o);
      }
    }
    if (byUid.isEmpty()) {
      return objects;
    }
    List<ApiObject<?>> out = new ArrayList<>(objects.size());
    Set<ApiObject<?>> placed = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    Set<ApiObject<?>> visiting = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    for (ApiObject<?> o : objects) {
      place(o, byUid, placed, visiting, out);
    }
    return out;
  }

  private static void place(ApiObject<?> o, Map<String, ApiObject<?>> byUid, Set<ApiObject<?>> placed,
      Set<ApiObject<?>> visiting, List<ApiObject<?>> out) {
    if (placed.contains(o) || !visiting.add(o)) {
      return; // placed, or an ownership cycle: the rest of the cycle keeps its order
    }
    for (OwnerReference r : o.metadata().ownerReferences()) {
      ApiObject<?> owner = byUid.get(r.uid());
      if (owner != null && owner != o) {
        place(owner, byUid, placed, visiting, out);
      }
    }
    visiting.remove(o);
    if (placed.add(o)) {
      out.add(o);
    }
  }

  /** {@code o} as it can be created: no resourceVersion, owner references at the uids of created owners. */
  ApiObject<?> prepare(ApiObject<?> o) {
    ObjectMeta m = o.metadata();
    boolean remap = false;
    for (OwnerReference r : m.ownerReferences()) {
      remap |= uids.containsKey(r.uid());
    }
    if (m.resourceVersion().isEmpty() && !remap) {
      return o;
    }
    List<OwnerReference> refs = new ArrayList<>(m.ownerReferences().size());
    for (OwnerReference r : m.ownerReferences()) {
      String uid = uids.get(r.uid());
      refs.add(uid == null ? r : new OwnerReference(r.apiVersion(), r.kind(), r.name(), uid, r.controller(),
          r.blockOwnerDeletion()));
    }
    return o.withMetadata(m.toBuilder().resourceVersion("").ownerReferences(refs).build());
  }

  /** Records that {@code given} (as dumped) was created as {@code created}. */
  void created(ApiObject<?> given, ApiObject<?> created) {
    if (!given.metadata().uid().isEmpty()) {
      uids.put(given.metadata().uid(), created.metadata().uid());
    }
  }
}
