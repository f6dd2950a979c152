package io.fleetkit.networking.endpointslice;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.discovery.AddressType;
import io.fleetkit.api.discovery.Endpoint;
import io.fleetkit.api.discovery.EndpointPort;
import io.fleetkit.api.discovery.EndpointSlice;
import io.fleetkit.networking.endpointslice.EndpointSliceReconciler.EndpointKey;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * One Service's memo of its last EndpointSlice plan. Pods, nodes and Services are immutable, so the same instances
 * derive the same endpoint: {@link #byPod} lets a plan skip the derivation of unchanged pods. When the last plan left
 * the Service in a simple shape (one address type, one port mapping, every slice non-empty, no pod skipped), the
 * memo also records which slice holds each pod's endpoint and the endpoint list of every slice as written; a later
 * plan whose input slices are exactly those (same list instances: the store and caches copy metadata, not
 * endpoint lists) can then work on the changed pods only ({@link EndpointSliceReconciler}'s incremental plan).
 *
 * <p>Not thread-safe: guarded by the reconciler's lock on the instance.
 */
final class SyncMemo {
  /**
   * What a pod instance derived: {@code ports} is null when the pod is not to be in endpoints at all, {@code endpoint}
   * null when it is but has no address of the type.
   */
  record Derived(Pod pod, @Nullable Node node, Service service, AddressType type, @Nullable Endpoint endpoint,
      @Nullable EndpointKey key, @Nullable List<EndpointPort> ports) {
    boolean derivedFrom(Pod p, @Nullable Node n, Service s, AddressType t) {
      return pod == p && node == n && service == s && type == t;
    }
  }

  /** A pod's memo entry. */
  static final class Entry {
    Derived derived;
    /** The slice holding the endpoint (incremental state only). */
    @Nullable String slice;
    /** The pod's place in the previous plan's pod list ({@link #lastPods}). */
    int index;

    Entry(Derived derived) {
      this.derived = derived;
    }
  }

  /** A slice as the last plan left it. */
  record SliceState(List<Endpoint> endpoints, List<EndpointPort> ports, Map<String, String> labels) {
    static SliceState of(EndpointSlice s) {
      return new SliceState(s.endpoints(), s.ports(), s.metadata().labels());
    }
  }

  Map<String, Entry> byPod = new HashMap<>();
  /** The Service instance the incremental state is valid for; null when it is not valid. */
  @Nullable Service service;
  AddressType type = AddressType.IPv4;
  List<EndpointPort> ports = List.of();
  final Map<EndpointKey, Entry> byKey = new HashMap<>();
  final Map<String, SliceState> slices = new HashMap<>();
  /** The previous plan's pods, in its order (incremental state only). */
  Pod[] lastPods = new Pod[0];
  /**
   * Whether {@link #lastPods} and the entries' indexes hold: false after an incremental plan driven by named changes,
   * which does not learn the pod order; the list-walking incremental plan then needs a full plan first.
   */
  boolean ordered;
  /** The node instance each node name gave in the previous plans (incremental state only). */
  final Map<String, @Nullable Node> nodesUsed = new HashMap<>();

  /** Drops the incremental state: the next plan is a full one. */
  void invalidate() {
    service = null;
    byKey.clear();
    slices.clear();
    nodesUsed.clear();
    lastPods = new Pod[0];
    ordered = false;
  }

  /**
   * Records the pod list of an incremental plan: the changed instances in place, or, when pods were added, removed
   * or reordered, the whole list with every entry's new index.
   */
  void rememberPods(List<Pod> pods, boolean shifted, List<Pod> changed) {
    if (!shifted) {
      for (Pod p : changed) {
        Entry e = byPod.get(p.metadata().name());
        if (e != null) {
          lastPods[e.index] = p;
        }
      }
      return;
    }
    lastPods = pods.toArray(new Pod[0]);
    for (int i = 0; i < lastPods.length; i++) {
      Entry e = byPod.get(lastPods[i].metadata().name());
      if (e == null) {
        invalidate();
        return;
      }
      e.index = i;
    }
  }

  /**
   * Records the result of a full plan (whose derivations are already in {@link #byPod}) as the incremental state,
   * when its shape allows; otherwise leaves the state invalid.
   */
  void rememberFull(Service svc, Set<AddressType> supported, List<EndpointSlice> existing, SlicePlan plan,
      boolean incrementalAllowed, List<Pod> pods) {
    invalidate();
    if (!incrementalAllowed || supported.size() != 1 || !plan.errors().isEmpty()
        || svc.metadata().deletionTimestamp() != null) {
      return;
    }
    AddressType t = supported.iterator().next();
    Map<String, EndpointSlice> result = new LinkedHashMap<>();
    existing.forEach(s -> result.put(s.metadata().name(), s));
    plan.deletes().forEach(s -> result.remove(s.metadata().name()));
    plan.updates().forEach(s -> result.put(s.metadata().name(), s));
    plan.creates().forEach(s -> result.put(s.metadata().name(), s));
    if (result.isEmpty()) {
      return;
    }
    List<EndpointPort> p = result.values().iterator().next().ports();
    Map<EndpointKey, Entry> keys = new HashMap<>();
    for (Entry e : byPod.values()) {
      e.slice = null;
      Derived d = e.derived;
      if (d.ports() != null && !d.ports().equals(p)) {
        return; // more than one port mapping
      }
      if (d.key() != null) {
        keys.put(d.key(), e);
      }
    }
    int placed = 0;
    for (EndpointSlice s : result.values()) {
      if (s.addressType() != t || s.endpoints().isEmpty() || !s.ports().equals(p) || !SliceRules.ownedBy(s, svc)) {
        return;
      }
      for (Endpoint x : s.endpoints()) {
        Entry e = keys.get(EndpointKey.of(x));
        if (e == null || e.slice != null) {
          return;
        }
        e.slice = s.metadata().name();
        placed++;
      }
    }
    if (placed != keys.size()) {
      return;
    }
    Pod[] order = pods.toArray(new Pod[0]);
    Map<String, @Nullable Node> used = new HashMap<>();
    for (int i = 0; i < order.length; i++) {
      Entry e = byPod.get(order[i].metadata().name());
      if (e == null || e.derived.pod() != order[i]) {
        return;
      }
      e.index = i;
      Derived d = e.derived;
      if (d.ports() != null) {
        String nodeName = order[i].spec().nodeName();
        if (used.containsKey(nodeName) && used.get(nodeName) != d.node()) {
          return;
        }
        used.put(nodeName, d.node());
      }
    }
    if (byPod.size() != order.length) {
      return;
    }
    lastPods = order;
    ordered = true;
    nodesUsed.putAll(used);
    result.forEach((name, s) -> slices.put(name, SliceState.of(s)));
    byKey.putAll(keys);
    type = t;
    ports = p;
    service = svc;
  }

  /** Whether {@code existing} are exactly the slices the last plan left (same endpoint lists, ports and labels). */
  boolean matches(Service svc, List<EndpointSlice> existing) {
    if (service != svc || existing.size() != slices.size()) {
      return false;
    }
    for (EndpointSlice s : existing) {
      SliceState st = slices.get(s.metadata().name());
      if (st == null || st.endpoints() != s.endpoints() || s.addressType() != type || !st.ports().equals(s.ports())
          || !st.labels().equals(s.metadata().labels()) || !SliceRules.ownedBy(s, svc)) {
        return false;
      }
    }
    return true;
  }
}
