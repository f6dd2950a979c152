package io.fleetkit.networking.endpointslice;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.discovery.AddressType;
import io.fleetkit.api.discovery.Endpoint;
import io.fleetkit.api.discovery.EndpointPort;
import io.fleetkit.api.discovery.EndpointSlice;
import io.fleetkit.api.meta.ObjectMeta;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Plans the EndpointSlice writes for one Service, as Kubernetes' {@code k8s.io/endpointslice} {@code Reconciler}:
 * per address type and per group of pods with the same resolved ports, existing slices keep the endpoints still
 * desired (updated in place when conditions, node or zone change), emptied slices are deleted, new endpoints first
 * fill slices already being updated (fullest first), then the unchanged slice that ends closest to full, then new
 * slices; a Service with no endpoints keeps one placeholder slice; a create is turned into an update of a slice
 * that would be deleted ("recycling"). This keeps the number of writes per sync low: one pod changing in a Service
 * of 10,000 pods rewrites one slice.
 *
 * <p>Stateless apart from its settings; thread-safe when the name supplier is.
 */
public final class EndpointSliceReconciler {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(EndpointSliceReconciler.class);
  /** Kubernetes' default {@code --max-endpoints-per-slice}. */
  public static final int DEFAULT_MAX_ENDPOINTS_PER_SLICE = 100;
  /** The annotation carrying the time of the change that triggered the sync. */
  public static final String TRIGGER_TIME_ANNOTATION = "endpoints.kubernetes.io/last-change-trigger-time";
  /** The Service annotation enabling topology-aware hints ("Auto" mode). */
  public static final String TOPOLOGY_MODE_ANNOTATION = Service.TOPOLOGY_MODE_ANNOTATION;
  /** The deprecated form of {@link #TOPOLOGY_MODE_ANNOTATION}; takes precedence when both are set. */
  public static final String DEPRECATED_TOPOLOGY_HINTS_ANNOTATION = Service.DEPRECATED_TOPOLOGY_HINTS_ANNOTATION;

  private static final DateTimeFormatter RFC3339_NANO =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSSSS'Z'").withZone(ZoneOffset.UTC);

  private final int maxEndpointsPerSlice;
  private final String controllerName;
  private final boolean preferSameTrafficDistribution;
  private final Supplier<String> nameSuffixes;
  private final @Nullable TopologyCache topologyCache;
  /** Per Service, the memo of the last plan ({@link SyncMemo}); a speed-up only: a miss recomputes. */
  private final java.util.concurrent.ConcurrentHashMap<String, SyncMemo> caches =
      new java.util.concurrent.ConcurrentHashMap<>();
  private final java.util.concurrent.atomic.AtomicInteger incrementalPlans = new java.util.concurrent.atomic.AtomicInteger();

  /**
   * @param maxEndpointsPerSlice 1..1000
   * @param controllerName the managed-by label value
   * @param preferSameTrafficDistribution whether {@code PreferSameZone}/{@code PreferSameNode} are honoured (the
   *     PreferSameTrafficDistribution feature)
   * @param nameSuffixes the random part of new slice names (what {@code generateName} appends)
   */
  public EndpointSliceReconciler(int maxEndpointsPerSlice, String controllerName,
      boolean preferSameTrafficDistribution, Supplier<String> nameSuffixes) {
    this(maxEndpointsPerSlice, controllerName, preferSameTrafficDistribution, nameSuffixes, null);
  }

  /**
   * As {@link #EndpointSliceReconciler(int, String, boolean, Supplier)}, with the topology cache that hints the
   * slices of Services annotated {@code topology-mode: Auto}; without one such Services get no hints.
   */
  public EndpointSliceReconciler(int maxEndpointsPerSlice, String controllerName,
      boolean preferSameTrafficDistribution, Supplier<String> nameSuffixes, @Nullable TopologyCache topologyCache) {
    this.topologyCache = topologyCache;
    if (maxEndpointsPerSlice < 1 || maxEndpointsPerSlice > EndpointSlice.MAX_ENDPOINTS) {
      throw new IllegalArgumentException("maxEndpointsPerSlice " + maxEndpointsPerSlice + " must be between 1 and "
          + EndpointSlice.MAX_ENDPOINTS);
    }
    this.maxEndpointsPerSlice = maxEndpointsPerSlice;
    this.controllerName = Objects.requireNonNull(controllerName, "controllerName");
    this.preferSameTrafficDistribution = preferSameTrafficDistribution;
    this.nameSuffixes = Objects.requireNonNull(nameSuffixes, "nameSuffixes");
  }

  public int maxEndpointsPerSlice() {
    return maxEndpointsPerSlice;
  }

  public String controllerName() {
    return controllerName;
  }

  /** Whether the Service's annotations turn on topology-aware hints ({@code hintsEnabled}). */
  public static boolean hintsEnabled(Map<String, String> annotations) {
    String v = annotations.get(DEPRECATED_TOPOLOGY_HINTS_ANNOTATION);
    if (v == null) {
      v = annotations.get(TOPOLOGY_MODE_ANNOTATION);
    }
    return "Auto".equals(v) || "auto".equals(v);
  }

  boolean validTrafficDistribution(String td) {
    if (td.equals(TrafficDistributionHints.PREFER_CLOSE)) {
      return true;
    }
    return preferSameTrafficDistribution && (td.equals(TrafficDistributionHints.PREFER_SAME_ZONE)
        || td.equals(TrafficDistributionHints.PREFER_SAME_NODE));
  }

  /**
   * The writes that bring {@code service}'s slices to the desired state.
   *
   * <p>When {@code existing} are exactly the slices the previous plan for this Service left (as after applying it)
   * and the Service instance is the same, only the pods whose instance (or node instance) changed are derived
   * again and only the slices holding them are examined: the cost is one map lookup per pod plus the work of the
   * change. Otherwise, and whenever the change needs more than updates and additions (a slice emptied, a new port
   * mapping, a pod on an unknown node), the full plan runs; both give the same writes.
   *
   * @param pods the pods the Service selects (in its namespace)
   * @param nodes looks a node up by name; {@code null} when unknown
   * @param existing the slices labelled with the Service's name
   * @param triggerTime the time of the last change that triggered this sync, or {@code null}
   */
  public SlicePlan plan(Service service, List<Pod> pods, Function<String, @Nullable Node> nodes,
      List<EndpointSlice> existing, @Nullable Instant triggerTime) {
    SyncMemo memo = caches.computeIfAbsent(service.metadata().key(), k -> new SyncMemo());
    synchronized (memo) {
      if (memo.ordered && memo.matches(service, existing)) {
        SlicePlan p = planIncrementally(service, pods, nodes, existing, triggerTime, memo);
        if (p != null) {
          incrementalPlans.incrementAndGet();
          return p;
        }
      }
      return planFully(service, pods, nodes, existing, triggerTime, memo);
    }
  }

  /**
   * As {@link #plan(Service, List, Function, List, Instant)}, for a caller that tracks which pods changed (a
   * controller fed by pod events): {@code pods} are the Service's pods by name (a full plan takes them in the map's
   * order; new endpoints are placed in that order by either path), and {@code changed} names every pod that may differ from what this reconciler's previous plan for the
   * Service saw (added, updated or no longer selected); every other pod must be the same instance as then. When the
   * previous plan's memo holds, only the named pods are looked at: the cost is that of the change, independent of
   * the Service's size. Otherwise the full plan runs over {@code pods.values()}; both give the same writes.
   *
   * @param changed names of pods that may have changed since the previous plan; {@code null} when unknown (then
   *     every pod is compared, as {@link #plan(Service, List, Function, List, Instant)} does)
   */
  public SlicePlan plan(Service service, SortedMap<String, Pod> pods, @Nullable Set<String> changed,
      Function<String, @Nullable Node> nodes, List<EndpointSlice> existing, @Nullable Instant triggerTime) {
    if (changed == null) {
      return plan(service, new ArrayList<>(pods.values()), nodes, existing, triggerTime);
    }
    SyncMemo memo = caches.computeIfAbsent(service.metadata().key(), k -> new SyncMemo());
    synchronized (memo) {
      if (memo.matches(service, existing)) {
        SlicePlan p = planChanges(service, pods, changed, nodes, existing, triggerTime, memo);
        if (p != null) {
          incrementalPlans.incrementAndGet();
          return p;
        }
      }
      return planFully(service, new ArrayList<>(pods.values()), nodes, existing, triggerTime, memo);
    }
  }

  /** How many plans took the incremental path (for tests). */
  int incrementalPlans() {
    return incrementalPlans.get();
  }

  /** Drops the memo of a Service (call when it is deleted). */
  public void forget(String namespace, String name) {
    caches.remove(namespace.isEmpty() ? name : namespace + "/" + name);
  }

  private SlicePlan planFully(Service service, List<Pod> pods, Function<String, @Nullable Node> nodes,
      List<EndpointSlice> existing, @Nullable Instant triggerTime, SyncMemo memo) {
    Map<String, SyncMemo.Entry> nextByPod = new HashMap<>(pods.size() * 2);
    Set<AddressType> supported = SliceRules.addressTypes(service);
    List<EndpointSlice> deletes = new ArrayList<>();
    Map<AddressType, List<EndpointSlice>> byType = new EnumMap<>(AddressType.class);
    for (EndpointSlice s : existing) {
      if (!supported.contains(s.addressType())) {
        deletes.add(s);
      } else {
        byType.computeIfAbsent(s.addressType(), t -> new ArrayList<>()).add(s);
      }
    }
    List<EndpointSlice> creates = new ArrayList<>();
    List<EndpointSlice> updates = new ArrayList<>();
    List<String> errors = new ArrayList<>();
    List<TopologyCache.HintEvent> events = new ArrayList<>();
    for (AddressType type : supported) {
      byAddressType(service, pods, nodes, byType.getOrDefault(type, List.of()), type, triggerTime, creates, updates,
          deletes, errors, events, memo.byPod, nextByPod);
    }
    memo.byPod = nextByPod;
    SlicePlan plan = new SlicePlan(creates, updates, deletes, errors, events);
    memo.rememberFull(service, supported, existing, plan, !hintsEnabled(service.metadata().annotations()), pods);
    return plan;
  }

  private void byAddressType(Service service, List<Pod> pods, Function<String, @Nullable Node> nodes,
      List<EndpointSlice> existing, AddressType type, @Nullable Instant triggerTime, List<EndpointSlice> createsOut,
      List<EndpointSlice> updatesOut, List<EndpointSlice> deletesOut, List<String> errors,
      List<TopologyCache.HintEvent> events, Map<String, SyncMemo.Entry> known, Map<String, SyncMemo.Entry> nextByPod) {
    List<Draft> creates = new ArrayList<>();
    List<Draft> updates = new ArrayList<>();
    List<EndpointSlice> deletes = new ArrayList<>();
    Map<Set<EndpointPort>, List<EndpointSlice>> existingByPorts = new LinkedHashMap<>();
    for (EndpointSlice s : existing) {
      if (SliceRules.ownedBy(s, service)) {
        existingByPorts.computeIfAbsent(Set.copyOf(s.ports()), k -> new ArrayList<>()).add(s);
      } else {
        deletes.add(s);
      }
    }
    Map<Set<EndpointPort>, List<EndpointPort>> desiredPorts = new LinkedHashMap<>();
    Map<Set<EndpointPort>, Map<EndpointKey, Endpoint>> desired = new LinkedHashMap<>();
    List<EndpointPort> lastPorts = null;
    Map<EndpointKey, Endpoint> lastSet = null;
    for (Pod pod : pods) {
      SyncMemo.Entry entry = known.get(pod.metadata().name());
      if (!SliceRules.shouldPodBeInEndpoints(pod)) {
        nextByPod.put(pod.metadata().name(),
            new SyncMemo.Entry(new SyncMemo.Derived(pod, null, service, type, null, null, null)));
        continue;
      }
      Node node = nodes.apply(pod.spec().nodeName());
      SyncMemo.Derived d = entry == null || !entry.derived.derivedFrom(pod, node, service, type)
          || entry.derived.ports() == null ? null : entry.derived;
      List<EndpointPort> ports = d != null ? d.ports() : SliceRules.endpointPorts(service, pod);
      Map<EndpointKey, Endpoint> set;
      if (lastSet != null && (ports == lastPorts || ports.equals(lastPorts))) {
        set = lastSet;
      } else {
        Set<EndpointPort> key = Set.copyOf(ports);
        set = desired.computeIfAbsent(key, k -> new LinkedHashMap<>(Math.max(16, pods.size() * 2)));
        desiredPorts.putIfAbsent(key, ports);
        lastSet = set;
        lastPorts = ports;
      }
      if (node == null && !service.spec().publishNotReadyAddresses()) {
        errors.add("skipping Pod " + pod.metadata().name() + " for Service " + service.metadata().key() + ": Node "
            + pod.spec().nodeName() + " Not Found");
        continue;
      }
      if (d == null) {
        Endpoint e = SliceRules.podToEndpoint(pod, node, service, type);
        d = e.addresses().isEmpty() ? new SyncMemo.Derived(pod, node, service, type, null, null, ports)
            : new SyncMemo.Derived(pod, node, service, type, e, EndpointKey.of(e), ports);
      }
      nextByPod.put(pod.metadata().name(), new SyncMemo.Entry(d));
      if (d.endpoint() != null) {
        set.put(d.key(), d.endpoint());
      }
    }
    for (Map.Entry<Set<EndpointPort>, Map<EndpointKey, Endpoint>> en : desired.entrySet()) {
      byPortMapping(service, existingByPorts.getOrDefault(en.getKey(), List.of()), en.getValue(),
          desiredPorts.get(en.getKey()), type, creates, updates, deletes);
    }
    for (Map.Entry<Set<EndpointPort>, List<EndpointSlice>> en : existingByPorts.entrySet()) {
      if (!desired.containsKey(en.getKey())) {
        deletes.addAll(en.getValue());
      }
    }
    if (existing.size() == deletes.size() && creates.isEmpty()) {
      Draft placeholder = Draft.create(service, type, List.of(), this);
      if (deletes.size() == 1 && placeholder.samePlaceholder(deletes.get(0))) {
        deletes.clear();
      } else {
        creates.add(placeholder);
      }
    }
    applyHints(service, type, existing, creates, updates, deletes, true, events);
    finalizePlan(service, creates, updates, deletes, triggerTime, createsOut, updatesOut, deletesOut);
  }

  /**
   * Hints on the slices being written: {@code trafficDistribution}'s when usable (and, with {@code checkUnchanged},
   * unchanged slices whose hints differ are updated too), otherwise none (topologycache.RemoveHintsFromSlices);
   * unchanged slices are then left as they are. The topology cache's events go to {@code events}, and a
   * {@value TopologyCache#REASON_DISABLED} Warning when the annotation no longer asks for hints the cache still holds
   * for the Service.
   */
  private void applyHints(Service service, AddressType type, List<EndpointSlice> existing, List<Draft> creates,
      List<Draft> updates, List<EndpointSlice> deletes, boolean checkUnchanged, List<TopologyCache.HintEvent> events) {
    String key = service.metadata().key();
    if (topologyCache != null) {
      if (hintsEnabled(service.metadata().annotations())) {
        autoHints(key, type, existing, creates, updates, deletes, events);
        return;
      }
      if (topologyCache.hasPopulatedHints(key)) {
        LOG.debug("endpointslice: Service {}: topology annotation changed, removing {} hints", key, type);
        events.add(new TopologyCache.HintEvent("Warning", TopologyCache.REASON_DISABLED,
            TopologyCache.withType(TopologyCache.TOPOLOGY_AWARE_HINTS_DISABLED, type)));
      }
      topologyCache.removeHints(key, type);
    }
    boolean canUseTd = validTrafficDistribution(service.spec().trafficDistribution())
        && !hintsEnabled(service.metadata().annotations());
    if (canUseTd) {
      TrafficDistributionHints h = TrafficDistributionHints.of(service.spec().trafficDistribution());
      if (checkUnchanged) {
        Set<String> changed = new java.util.HashSet<>();
        updates.forEach(d -> changed.add(d.name));
        deletes.forEach(s -> changed.add(s.metadata().name()));
        for (EndpointSlice s : existing) {
          if (!changed.contains(s.metadata().name()) && h.needsUpdate(s.endpoints())) {
            updates.add(Draft.of(s));
          }
        }
      }
      creates.forEach(d -> d.endpoints.replaceAll(h::apply));
      updates.forEach(d -> d.endpoints.replaceAll(h::apply));
    } else {
      creates.forEach(d -> d.endpoints.replaceAll(e -> e.hints() == null ? e : e.withHints(null)));
      updates.forEach(d -> d.endpoints.replaceAll(e -> e.hints() == null ? e : e.withHints(null)));
    }
  }

  /** {@code topology-mode: Auto}: the topology cache's hints on the slices written, and on unchanged ones if needed. */
  private void autoHints(String key, AddressType type, List<EndpointSlice> existing, List<Draft> creates,
      List<Draft> updates, List<EndpointSlice> deletes, List<TopologyCache.HintEvent> events) {
    Set<String> changed = new java.util.HashSet<>();
    updates.forEach(d -> changed.add(d.name));
    deletes.forEach(s -> changed.add(s.metadata().name()));
    List<EndpointSlice> unchanged = new ArrayList<>();
    for (EndpointSlice s : existing) {
      if (!changed.contains(s.metadata().name())) {
        unchanged.add(s);
      }
    }
    TopologyCache.Hinted h = Objects.requireNonNull(topologyCache).addHints(key, type,
        creates.stream().map(d -> d.build(null)).toList(), updates.stream().map(d -> d.build(null)).toList(),
        unchanged);
    for (int i = 0; i < creates.size(); i++) {
      creates.get(i).endpoints.clear();
      creates.get(i).endpoints.addAll(h.toCreate().get(i).endpoints());
    }
    int before = updates.size();
    for (int i = 0; i < h.toUpdate().size(); i++) {
      EndpointSlice s = h.toUpdate().get(i);
      if (i < before) {
        updates.get(i).endpoints.clear();
        updates.get(i).endpoints.addAll(s.endpoints());
      } else {
        updates.add(Draft.of(s));
      }
    }
    if (!h.events().isEmpty()) {
      LOG.debug("endpointslice: Service {}: {}", key, h.events());
    }
    events.addAll(h.events());
  }

  private void byPortMapping(Service service, List<EndpointSlice> existing, Map<EndpointKey, Endpoint> desiredSet,
      List<EndpointPort> ports, AddressType type, List<Draft> createsOut, List<Draft> updatesOut,
      List<EndpointSlice> deletesOut) {
    Map<String, EndpointSlice> byName = new HashMap<>();
    Map<String, Draft> toUpdate = new LinkedHashMap<>();
    Set<String> unchanged = new LinkedHashSet<>();
    for (EndpointSlice s : existing) {
      byName.put(s.metadata().name(), s);
      List<Endpoint> kept = new ArrayList<>(s.endpoints().size());
      boolean endpointUpdated = false;
      for (Endpoint e : s.endpoints()) {
        Endpoint got = desiredSet.remove(EndpointKey.of(e));
        if (got != null) {
          kept.add(got);
          if (!SliceRules.equalBeyondHash(got, e)) {
            endpointUpdated = true;
          }
        }
      }
      SliceRules.LabelResult labels = SliceRules.sliceLabels(s.metadata().labels(), service, controllerName);
      if (endpointUpdated || s.endpoints().size() != kept.size()) {
        if (kept.isEmpty()) {
          deletesOut.add(s);
        } else {
          Draft d = Draft.of(s);
          d.endpoints.clear();
          d.endpoints.addAll(kept);
          d.labels = labels.labels();
          toUpdate.put(d.name, d);
        }
      } else if (labels.changed()) {
        Draft d = Draft.of(s);
        d.labels = labels.labels();
        toUpdate.put(d.name, d);
      } else {
        unchanged.add(s.metadata().name());
      }
    }
    placeNew(service, type, ports, desiredSet, toUpdate, unchanged, byName, createsOut);
    updatesOut.addAll(toUpdate.values());
  }

  /**
   * Places the endpoints not found in any slice: first into the slices already being updated (fullest first), then
   * into the unchanged slice that ends closest to full, then into new slices.
   */
  private void placeNew(Service service, AddressType type, List<EndpointPort> ports,
      Map<EndpointKey, Endpoint> desiredSet, Map<String, Draft> toUpdate, Set<String> unchanged,
      Map<String, EndpointSlice> byName, List<Draft> createsOut) {
    if (!desiredSet.isEmpty() && !toUpdate.isEmpty()) {
      List<Draft> fill = new ArrayList<>(toUpdate.values());
      fill.sort(Comparator.comparingInt((Draft d) -> d.endpoints.size()).reversed());
      for (Draft d : fill) {
        while (!desiredSet.isEmpty() && d.endpoints.size() < maxEndpointsPerSlice) {
          d.endpoints.add(popAny(desiredSet));
        }
      }
    }
    while (!desiredSet.isEmpty()) {
      Draft target = null;
      if (desiredSet.size() < maxEndpointsPerSlice && !unchanged.isEmpty()) {
        EndpointSlice s = sliceToFill(unchanged, byName, desiredSet.size());
        if (s != null) {
          target = Draft.of(s);
        }
      }
      if (target == null) {
        target = Draft.create(service, type, ports, this);
      }
      while (!desiredSet.isEmpty() && target.endpoints.size() < maxEndpointsPerSlice) {
        target.endpoints.add(popAny(desiredSet));
      }
      if (target.existing != null) {
        toUpdate.put(target.name, target);
        unchanged.remove(target.name);
      } else {
        createsOut.add(target);
      }
    }
  }

  /**
   * The plan of {@link #byPortMapping} for a Service in the memo's simple shape, computed from the changed pods
   * only; {@code null} when the change needs the full plan (a slice emptied, another port mapping, a pod on an
   * unknown node, a duplicate pod name). Unchanged slices need no hint update: the previous plan left every slice
   * with the hints of this same Service instance.
   */
  private @Nullable SlicePlan planIncrementally(Service service, List<Pod> pods,
      Function<String, @Nullable Node> nodes, List<EndpointSlice> existing, @Nullable Instant triggerTime,
      SyncMemo memo) {
    // a node instance changed: every pod on it may derive another endpoint; rare enough for the full plan
    for (Map.Entry<String, @Nullable Node> n : memo.nodesUsed.entrySet()) {
      if (nodes.apply(n.getKey()) != n.getValue()) {
        return null;
      }
    }
    // walk the pods along the previous plan's list: an identical instance at the expected place is unchanged
    // without a lookup; anything else is found by name
    Pod[] last = memo.lastPods;
    boolean[] matched = new boolean[last.length];
    int matchedCount = 0;
    boolean shifted = pods.size() != last.length;
    List<Pod> changedPods = new ArrayList<>();
    List<@Nullable Node> changedNodes = new ArrayList<>();
    int j = 0;
    for (int i = 0; i < pods.size(); i++) {
      Pod pod = pods.get(i);
      if (j < last.length && last[j] == pod) {
        matched[j++] = true;
        matchedCount++;
        continue;
      }
      SyncMemo.Entry e = memo.byPod.get(pod.metadata().name());
      if (e != null) {
        if (matched[e.index]) {
          return null; // two pods of one name
        }
        matched[e.index] = true;
        matchedCount++;
        shifted |= e.index != i;
        j = Math.max(j, e.index + 1);
        if (e.derived.pod() == pod) {
          continue;
        }
      } else {
        shifted = true;
      }
      changedPods.add(pod);
      changedNodes.add(nodes.apply(pod.spec().nodeName()));
    }
    List<SyncMemo.Entry> removed = new ArrayList<>();
    if (matchedCount < last.length) {
      for (int k = 0; k < last.length; k++) {
        if (!matched[k]) {
          removed.add(java.util.Objects.requireNonNull(memo.byPod.get(last[k].metadata().name())));
        }
      }
    }
    SlicePlan plan = planDelta(service, nodes, existing, triggerTime, memo, changedPods, changedNodes, removed);
    if (plan != null && memo.service != null) {
      memo.rememberPods(pods, shifted, changedPods);
    }
    return plan;
  }

  /** The incremental plan for pods named as changed by the caller ({@link #plan(Service, SortedMap, Set,
   * Function, List, Instant)}); {@code null} when the change needs the full plan. */
  private @Nullable SlicePlan planChanges(Service service, SortedMap<String, Pod> pods, Set<String> changed,
      Function<String, @Nullable Node> nodes, List<EndpointSlice> existing, @Nullable Instant triggerTime,
      SyncMemo memo) {
    for (Map.Entry<String, @Nullable Node> n : memo.nodesUsed.entrySet()) {
      if (nodes.apply(n.getKey()) != n.getValue()) {
        return null;
      }
    }
    List<Pod> changedPods = new ArrayList<>();
    List<@Nullable Node> changedNodes = new ArrayList<>();
    List<SyncMemo.Entry> removed = new ArrayList<>();
    List<String> names = new ArrayList<>(changed);
    names.sort(pods.comparator()); // the full plan's order, in which new endpoints are placed
    for (String name : names) {
      Pod pod = pods.get(name);
      SyncMemo.Entry e = memo.byPod.get(name);
      if (pod == null) {
        if (e != null) {
          removed.add(e);
        }
      } else if (e == null || e.derived.pod() != pod) {
        changedPods.add(pod);
        changedNodes.add(nodes.apply(pod.spec().nodeName()));
      }
    }
    SlicePlan plan = planDelta(service, nodes, existing, triggerTime, memo, changedPods, changedNodes, removed);
    if (plan != null && !(changedPods.isEmpty() && removed.isEmpty())) {
      memo.ordered = false; // the pod order of the last full plan no longer holds
    }
    return plan;
  }

  /**
   * The incremental plan proper: re-derives the changed pods, removes the removed ones, re-examines only the slices
   * that held them, and commits the memo; {@code null} when the change needs the full plan.
   */
  private @Nullable SlicePlan planDelta(Service service, Function<String, @Nullable Node> nodes,
      List<EndpointSlice> existing, @Nullable Instant triggerTime, SyncMemo memo, List<Pod> changedPods,
      List<@Nullable Node> changedNodes, List<SyncMemo.Entry> removed) {
    AddressType type = memo.type;
    if (changedPods.isEmpty() && removed.isEmpty()) {
      return new SlicePlan(List.of(), List.of(), List.of(), List.of());
    }
    // the new derivations, and which slices held the old endpoints
    java.util.IdentityHashMap<SyncMemo.Entry, SyncMemo.@Nullable Derived> changes = new java.util.IdentityHashMap<>();
    List<SyncMemo.Derived> derived = new ArrayList<>(changedPods.size());
    Set<String> affected = new java.util.HashSet<>();
    for (int i = 0; i < changedPods.size(); i++) {
      Pod pod = changedPods.get(i);
      Node node = changedNodes.get(i);
      SyncMemo.Derived d;
      if (!SliceRules.shouldPodBeInEndpoints(pod)) {
        d = new SyncMemo.Derived(pod, null, service, type, null, null, null);
      } else {
        List<EndpointPort> ports = SliceRules.endpointPorts(service, pod);
        if (!ports.equals(memo.ports) || (node == null && !service.spec().publishNotReadyAddresses())) {
          return null;
        }
        Endpoint ep = SliceRules.podToEndpoint(pod, node, service, type);
        d = ep.addresses().isEmpty() ? new SyncMemo.Derived(pod, node, service, type, null, null, ports)
            : new SyncMemo.Derived(pod, node, service, type, ep, EndpointKey.of(ep), ports);
      }
      derived.add(d);
      SyncMemo.Entry old = memo.byPod.get(pod.metadata().name());
      if (old != null) {
        changes.put(old, d);
        if (old.slice != null) {
          affected.add(old.slice);
        }
      }
    }
    for (SyncMemo.Entry e : removed) {
      changes.put(e, null);
      if (e.slice != null) {
        affected.add(e.slice);
      }
    }
    // the affected slices, as byPortMapping examines them
    Map<String, EndpointSlice> byName = new HashMap<>();
    Map<String, Draft> toUpdate = new LinkedHashMap<>();
    Set<String> unchanged = new LinkedHashSet<>();
    Set<EndpointKey> keptInPlace = new java.util.HashSet<>();
    for (EndpointSlice s : existing) {
      String name = s.metadata().name();
      byName.put(name, s);
      if (!affected.contains(name)) {
        unchanged.add(name);
        continue;
      }
      List<Endpoint> kept = new ArrayList<>(s.endpoints().size());
      boolean endpointUpdated = false;
      for (Endpoint x : s.endpoints()) {
        EndpointKey k = EndpointKey.of(x);
        SyncMemo.Entry owner = memo.byKey.get(k);
        if (owner == null) {
          return null;
        }
        Endpoint got;
        if (changes.containsKey(owner)) {
          SyncMemo.Derived d = changes.get(owner);
          got = d != null && k.equals(d.key()) ? d.endpoint() : null;
          if (got != null) {
            keptInPlace.add(k);
          }
        } else {
          got = owner.derived.endpoint();
        }
        if (got != null) {
          kept.add(got);
          if (!SliceRules.equalBeyondHash(got, x)) {
            endpointUpdated = true;
          }
        }
      }
      if (endpointUpdated || s.endpoints().size() != kept.size()) {
        if (kept.isEmpty()) {
          return null;
        }
        Draft d = Draft.of(s);
        d.endpoints.clear();
        d.endpoints.addAll(kept);
        toUpdate.put(name, d);
      } else {
        unchanged.add(name);
      }
    }
    Map<EndpointKey, Endpoint> desiredSet = new LinkedHashMap<>();
    for (SyncMemo.Derived d : derived) {
      if (d.key() != null && !keptInPlace.contains(d.key())) {
        desiredSet.put(d.key(), d.endpoint());
      }
    }
    List<Draft> creates = new ArrayList<>();
    placeNew(service, type, memo.ports, desiredSet, toUpdate, unchanged, byName, creates);
    List<Draft> updates = new ArrayList<>(toUpdate.values());
    List<TopologyCache.HintEvent> events = new ArrayList<>();
    applyHints(service, type, existing, creates, updates, List.of(), false, events);
    List<EndpointSlice> createsOut = new ArrayList<>();
    List<EndpointSlice> updatesOut = new ArrayList<>();
    finalizePlan(service, creates, updates, new ArrayList<>(), triggerTime, createsOut, updatesOut,
        new ArrayList<>());
    // commit the memo: the plan is assumed applied; if it is not, the next plan's input does not match and it runs
    // the full plan
    for (SyncMemo.Entry e : removed) {
      memo.byPod.remove(e.derived.pod().metadata().name());
      if (e.derived.key() != null) {
        memo.byKey.remove(e.derived.key());
      }
    }
    for (SyncMemo.Derived d : derived) {
      String podName = d.pod().metadata().name();
      SyncMemo.Entry e = memo.byPod.get(podName);
      if (e == null) {
        e = new SyncMemo.Entry(d);
        memo.byPod.put(podName, e);
      } else if (e.derived.key() != null) {
        memo.byKey.remove(e.derived.key());
      }
      if (d.key() == null || !keptInPlace.contains(d.key())) {
        e.slice = null;
      }
      e.derived = d;
      if (d.key() != null) {
        memo.byKey.put(d.key(), e);
      }
    }
    for (List<EndpointSlice> written : List.of(updatesOut, createsOut)) {
      for (EndpointSlice s : written) {
        memo.slices.put(s.metadata().name(), SyncMemo.SliceState.of(s));
        for (Endpoint x : s.endpoints()) {
          SyncMemo.Entry e = memo.byKey.get(EndpointKey.of(x));
          if (e == null) {
            memo.invalidate();
            break;
          }
          e.slice = s.metadata().name();
        }
      }
    }
    if (memo.service != null) {
      for (SyncMemo.Derived d : derived) {
        if (d.ports() != null) {
          memo.nodesUsed.put(d.pod().spec().nodeName(), d.node());
        }
      }
    }
    return new SlicePlan(createsOut, updatesOut, List.of(), List.of(), events);
  }

  private static Endpoint popAny(Map<EndpointKey, Endpoint> set) {
    Iterator<Endpoint> it = set.values().iterator();
    Endpoint e = it.next();
    it.remove();
    return e;
  }

  /** The unchanged slice closest to full after taking {@code n} endpoints ({@code getSliceToFill}). */
  private @Nullable EndpointSlice sliceToFill(Set<String> unchanged, Map<String, EndpointSlice> byName, int n) {
    int closestDiff = maxEndpointsPerSlice;
    EndpointSlice closest = null;
    for (String name : unchanged) {
      EndpointSlice s = byName.get(name);
      int diff = maxEndpointsPerSlice - (n + s.endpoints().size());
      if (diff >= 0 && diff < closestDiff) {
        closestDiff = diff;
        closest = s;
        if (diff == 0) {
          return closest;
        }
      }
    }
    return closest;
  }

  private void finalizePlan(Service service, List<Draft> creates, List<Draft> updates, List<EndpointSlice> deletes,
      @Nullable Instant triggerTime, List<EndpointSlice> createsOut, List<EndpointSlice> updatesOut,
      List<EndpointSlice> deletesOut) {
    for (int i = 0; i < deletes.size(); ) {
      if (creates.isEmpty()) {
        break;
      }
      EndpointSlice toDelete = deletes.get(i);
      Draft last = creates.get(creates.size() - 1);
      if (toDelete.addressType() == last.type && SliceRules.ownedBy(toDelete, service)) {
        creates.remove(creates.size() - 1);
        updates.add(last.recycling(toDelete));
        deletes.remove(i);
      } else {
        i++;
      }
    }
    String trigger = triggerTime == null ? null : RFC3339_NANO.format(triggerTime);
    if (service.metadata().deletionTimestamp() == null) {
      for (Draft d : creates) {
        createsOut.add(d.build(trigger));
      }
    }
    for (Draft d : updates) {
      updatesOut.add(d.build(trigger));
    }
    deletesOut.addAll(deletes);
  }

  String newName(Service service) {
    return SliceRules.slicePrefix(service.metadata().name()) + nameSuffixes.get();
  }

  /** Endpoint identity ({@code hashEndpoint}): sorted addresses, hostname, target namespace and name. */
  record EndpointKey(List<String> addresses, String hostname, String namespace, String name) {
    static EndpointKey of(Endpoint e) {
      List<String> a = e.addresses();
      if (a.size() > 1) {
        a = new ArrayList<>(a);
        a.sort(null);
      }
      var ref = e.targetRef();
      return new EndpointKey(a, e.hostname(), ref == null ? "" : ref.namespace(), ref == null ? "" : ref.name());
    }
  }

  /** A slice being planned: mutable, owned by one plan call. */
  private static final class Draft {
    final @Nullable EndpointSlice existing;
    String name;
    ObjectMeta meta;
    Map<String, String> labels;
    final AddressType type;
    List<EndpointPort> ports;
    final List<Endpoint> endpoints;

    private Draft(@Nullable EndpointSlice existing, String name, ObjectMeta meta, AddressType type,
        List<EndpointPort> ports, List<Endpoint> endpoints) {
      this.existing = existing;
      this.name = name;
      this.meta = meta;
      this.labels = meta.labels();
      this.type = type;
      this.ports = ports;
      this.endpoints = new ArrayList<>(endpoints);
    }

    static Draft of(EndpointSlice s) {
      return new Draft(s, s.metadata().name(), s.metadata(), s.addressType(), s.ports(), s.endpoints());
    }

    static Draft create(Service service, AddressType type, List<EndpointPort> ports, EndpointSliceReconciler r) {
      ObjectMeta meta = ObjectMeta.builder().namespace(service.metadata().namespace()).name(r.newName(service))
          .ownerReference(SliceRules.ownerRef(service))
          .labels(SliceRules.sliceLabels(Map.of(), service, r.controllerName).labels()).build();
      return new Draft(null, meta.name(), meta, type, ports, List.of());
    }

    /** This new slice written over {@code old}, which was to be deleted. */
    Draft recycling(EndpointSlice old) {
      ObjectMeta m = old.metadata().toBuilder().labels(labels).ownerReferences(meta.ownerReferences()).build();
      Draft d = new Draft(old, old.metadata().name(), m, type, ports, endpoints);
      d.labels = labels;
      return d;
    }

    /** {@code placeholderSliceCompare}: same namespace, labels, address type, ports and (no) endpoints. */
    boolean samePlaceholder(EndpointSlice s) {
      return s.metadata().namespace().equals(meta.namespace()) && s.metadata().labels().equals(labels)
          && s.addressType() == type && s.endpoints().isEmpty() && s.ports().isEmpty() && ports.isEmpty();
    }

    EndpointSlice build(@Nullable String trigger) {
      Map<String, String> ann = new LinkedHashMap<>(meta.annotations());
      if (trigger != null) {
        ann.put(TRIGGER_TIME_ANNOTATION, trigger);
      } else {
        ann.remove(TRIGGER_TIME_ANNOTATION);
      }
      ObjectMeta m = meta.toBuilder().labels(labels).annotations(ann).build();
      return new EndpointSlice(m, type, endpoints, ports);
    }
  }
}
