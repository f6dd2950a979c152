package io.fleetkit.networking.endpointslice;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.discovery.AddressType;
import io.fleetkit.api.discovery.Endpoint;
import io.fleetkit.api.discovery.EndpointHints;
import io.fleetkit.api.discovery.EndpointSlice;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Topology-aware hints for Services annotated {@code service.kubernetes.io/topology-mode: Auto}, as Kubernetes'
 * {@code k8s.io/endpointslice/topologycache}: each zone's share of the cluster's allocatable CPU (ready nodes,
 * control-plane nodes excluded; every node must have a zone and CPU, and there must be two zones at least) decides
 * how many of a Service's ready endpoints are hinted for it. A zone gets between {@code ceil(share × n / 1.2)} (no
 * endpoint overloaded by more than 20 %) and that plus what the minimums leave over; endpoints start hinted for their
 * own zone and zones above their share give endpoints to zones below it. When the allocation is impossible (too few
 * endpoints, insufficient node information, an endpoint without zone) hints are removed instead, with an event.
 *
 * <p>Where Go iterates maps (zone order when giving and receiving), zones are taken in name order here, so the
 * result is deterministic.
 *
 * <p>Thread-safe.
 */
public final class TopologyCache {
  /** The most any endpoint should be overloaded ({@code overloadThreshold}). */
  static final double OVERLOAD_THRESHOLD = 0.2;
  public static final String INSUFFICIENT_NODE_INFO = "Insufficient Node information: allocatable CPU or zone not "
      + "specified on one or more nodes";
  public static final String NODES_READY_IN_ONE_ZONE_ONLY = "Nodes only ready in one zone";
  public static final String INSUFFICIENT_NUMBER_OF_ENDPOINTS = "Insufficient number of endpoints";
  public static final String MIN_ALLOCATION_EXCEEDS_OVERLOAD_THRESHOLD = "Unable to allocate minimum required "
      + "endpoints to each zone without exceeding overload threshold";
  public static final String NO_ZONE_SPECIFIED = "One or more endpoints do not have a zone specified";
  public static final String NO_ALLOCATED_HINTS_FOR_ZONES = "No hints allocated for zones";
  public static final String TOPOLOGY_AWARE_HINTS_ENABLED = "Topology Aware Hints has been enabled";
  public static final String TOPOLOGY_AWARE_HINTS_DISABLED = "Topology Aware Hints has been disabled";
  public static final String REASON_DISABLED = "TopologyAwareHintsDisabled";
  public static final String REASON_ENABLED = "TopologyAwareHintsEnabled";

  /** An event the controller would record on the Service. */
  public record HintEvent(String type, String reason, String message) {}

  /**
   * What {@link #addHints} returns: the slices to create and to update (unchanged slices whose hints had to change
   * are appended to the updates), and the events.
   */
  public record Hinted(List<EndpointSlice> toCreate, List<EndpointSlice> toUpdate, List<HintEvent> events) {
    public Hinted {
      toCreate = List.copyOf(toCreate);
      toUpdate = List.copyOf(toUpdate);
      events = List.copyOf(events);
    }
  }

  /** A zone's allocation: endpoints between {@code minimum} and {@code maximum}, ideally {@code desired}. */
  record Allocation(int minimum, int maximum, double desired) {}

  private @Nullable Map<String, Long> cpuByZone;
  private @Nullable Map<String, Double> cpuRatiosByZone;
  private boolean sufficientNodeInfo;
  private final Map<String, Map<AddressType, Map<String, Integer>>> endpointsByService = new HashMap<>();
  private final Set<String> hintsPopulatedByService = new HashSet<>();

  /** Recomputes the CPU share of every zone from {@code nodes} ({@code SetNodes}). */
  public synchronized void setNodes(Collection<Node> nodes) {
    Map<String, Long> byZone = new TreeMap<>();
    boolean sufficient = true;
    long total = 0;
    for (Node node : nodes) {
      Map<String, String> labels = node.metadata().labels();
      if (labels.containsKey("node-role.kubernetes.io/control-plane")
          || labels.containsKey("node-role.kubernetes.io/master")) {
        continue;
      }
      if (!node.isReady()) {
        continue;
      }
      long cpu = node.status().allocatable().milliCpu();
      String zone = labels.get(SliceRules.LABEL_ZONE);
      if (zone == null || zone.isEmpty() || cpu == 0) {
        byZone.clear();
        sufficient = false;
        break;
      }
      total += cpu;
      byZone.merge(zone, cpu, Long::sum);
    }
    if (total == 0 || !sufficient || byZone.size() < 2) {
      sufficientNodeInfo = false;
      cpuByZone = null;
      cpuRatiosByZone = null;
    } else {
      sufficientNodeInfo = true;
      cpuByZone = Map.copyOf(byZone);
      Map<String, Double> ratios = new TreeMap<>();
      for (Map.Entry<String, Long> e : byZone.entrySet()) {
        ratios.put(e.getKey(), (double) e.getValue() / (double) total);
      }
      cpuRatiosByZone = ratios;
    }
  }

  /** Sets the zone shares directly (tests and embedders that know them). */
  synchronized void setCpuRatios(@Nullable Map<String, Double> ratios) {
    cpuRatiosByZone = ratios == null ? null : new TreeMap<>(ratios);
  }

  synchronized boolean sufficientNodeInfo() {
    return sufficientNodeInfo;
  }

  synchronized @Nullable Map<String, Double> cpuRatiosByZone() {
    return cpuRatiosByZone == null ? null : Map.copyOf(cpuRatiosByZone);
  }

  synchronized @Nullable Map<String, Long> cpuByZone() {
    return cpuByZone;
  }

  /** The hints per zone last set for a Service and address type, or {@code null}. */
  public synchronized @Nullable Map<String, Integer> endpointsByZone(String serviceKey, AddressType type) {
    Map<AddressType, Map<String, Integer>> m = endpointsByService.get(serviceKey);
    return m == null ? null : m.get(type);
  }

  public synchronized boolean hasPopulatedHints(String serviceKey) {
    return hintsPopulatedByService.contains(serviceKey);
  }

  /** Forgets a Service's hints for one address type ({@code RemoveHints}). */
  public synchronized void removeHints(String serviceKey, AddressType type) {
    Map<AddressType, Map<String, Integer>> m = endpointsByService.get(serviceKey);
    if (m != null) {
      m.remove(type);
      if (m.isEmpty()) {
        endpointsByService.remove(serviceKey);
      }
    }
    hintsPopulatedByService.remove(serviceKey);
  }

  /**
   * The keys of the Services whose hinted endpoints no longer fit the zones' CPU shares
   * ({@code GetOverloadedServices}): for some address type, a zone has fewer hinted endpoints than
   * {@code ceil(total × share / 1.2)}, or no hints at all, or the node information no longer gives shares. Sorted.
   * The EndpointSlice controller re-syncs them after node changes, which re-evaluates (or removes) their hints.
   */
  public synchronized List<String> overloadedServices() {
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, Map<AddressType, Map<String, Integer>>> e : endpointsByService.entrySet()) {
      for (Map<String, Integer> byZone : e.getValue().values()) {
        if (serviceOverloaded(byZone, cpuRatiosByZone)) {
          out.add(e.getKey());
          break;
        }
      }
    }
    out.sort(null);
    return out;
  }

  /** {@code serviceOverloaded}: whether a zone has fewer hinted endpoints than its share allows. */
  static boolean serviceOverloaded(Map<String, Integer> hintsByZone, @Nullable Map<String, Double> zoneRatios) {
    if (hintsByZone.isEmpty()) {
      return false;
    }
    if (zoneRatios == null || zoneRatios.isEmpty()) {
      return true;
    }
    double total = 0;
    for (int n : hintsByZone.values()) {
      total += n;
    }
    for (Map.Entry<String, Double> z : zoneRatios.entrySet()) {
      Integer n = hintsByZone.get(z.getKey());
      if (n == null) {
        return true;
      }
      double min = Math.ceil(total * z.getValue() * (1 / (1 + OVERLOAD_THRESHOLD)));
      if (n < (int) min) {
        return true;
      }
    }
    return false;
  }

  /** Records a Service's hints per zone for one address type ({@code SetHints}). */
  public synchronized void setHints(String serviceKey, AddressType type, Map<String, Integer> byZone) {
    endpointsByService.computeIfAbsent(serviceKey, k -> new HashMap<>()).put(type, Map.copyOf(byZone));
    hintsPopulatedByService.add(serviceKey);
  }

  private static boolean ready(Endpoint e) {
    return Boolean.TRUE.equals(e.conditions().ready());
  }

  /** A slice being hinted: its endpoints, replaced in place. */
  private static final class Work {
    final EndpointSlice slice;
    final List<Endpoint> endpoints;

    Work(EndpointSlice slice) {
      this.slice = slice;
      this.endpoints = new ArrayList<>(slice.endpoints());
    }

    EndpointSlice build() {
      return slice.withEndpoints(endpoints);
    }
  }

  /**
   * Adds or updates the hints of a Service's slices of one address type ({@code AddHints}).
   *
   * @param toCreate slices the reconciler will create
   * @param toUpdate slices it will update
   * @param unchanged its other existing slices
   */
  public Hinted addHints(String serviceKey, AddressType type, List<EndpointSlice> toCreate,
      List<EndpointSlice> toUpdate, List<EndpointSlice> unchanged) {
    Objects.requireNonNull(serviceKey, "serviceKey");
    int total = 0;
    for (List<EndpointSlice> l : List.of(toCreate, toUpdate, unchanged)) {
      for (EndpointSlice s : l) {
        for (Endpoint e : s.endpoints()) {
          total += ready(e) ? 1 : 0;
        }
      }
    }
    List<HintEvent> events = new ArrayList<>();
    String[] problem = new String[1];
    Map<String, Allocation> allocations = allocations(total, problem);
    if (allocations == null) {
      events.add(new HintEvent("Warning", REASON_DISABLED, withType(problem[0], type)));
      removeHints(serviceKey, type);
      return removeHintsFromSlices(toCreate, toUpdate, unchanged, events);
    }
    List<Work> create = new ArrayList<>();
    toCreate.forEach(s -> create.add(new Work(s)));
    List<Work> update = new ArrayList<>();
    toUpdate.forEach(s -> update.add(new Work(s)));
    // getAllocatedHintsByZone: unchanged slices keep their hints when still valid, else they are updated
    Map<String, Integer> allocated = new TreeMap<>();
    List<EndpointSlice> stillUnchanged = new ArrayList<>();
    for (EndpointSlice s : unchanged) {
      Map<String, Integer> byZone = hintsByZone(s, allocated, allocations);
      if (byZone == null) {
        update.add(new Work(s));
      } else {
        stillUnchanged.add(s);
        byZone.forEach((z, n) -> allocated.merge(z, n, Integer::sum));
      }
    }
    List<Work> allocatable = new ArrayList<>(create);
    allocatable.addAll(update);
    // step 1: every ready endpoint hinted for its own zone
    for (Work w : allocatable) {
      for (int i = 0; i < w.endpoints.size(); i++) {
        Endpoint e = w.endpoints.get(i);
        if (!ready(e)) {
          continue; // upstream clears a copy here: a not-ready endpoint keeps whatever hints it has
        }
        if (e.zone().isEmpty()) {
          events.add(new HintEvent("Warning", REASON_DISABLED, withType(NO_ZONE_SPECIFIED, type)));
          removeHints(serviceKey, type);
          return removeHintsFromSlices(toCreate, toUpdate, unchanged, events);
        }
        allocated.merge(e.zone(), 1, Integer::sum);
        w.endpoints.set(i, e.withHints(EndpointHints.forZone(e.zone())));
      }
    }
    // step 2: which zones give and which receive; step 3: redistribute
    Map<String, Integer>[] giveReceive = givingAndReceivingZones(allocations, allocated);
    Map<String, Integer> redistributions = redistributeHints(allocatable, giveReceive[0], giveReceive[1]);
    redistributions.forEach((z, d) -> allocated.merge(z, d, Integer::sum));
    if (allocated.isEmpty()) {
      events.add(new HintEvent("Warning", REASON_DISABLED, withType(NO_ALLOCATED_HINTS_FOR_ZONES, type)));
      removeHints(serviceKey, type);
      return removeHintsFromSlices(toCreate, toUpdate, unchanged, events);
    }
    boolean wasEnabled;
    synchronized (this) {
      wasEnabled = hasPopulatedHints(serviceKey);
      setHints(serviceKey, type, allocated);
    }
    if (!wasEnabled) {
      events.add(new HintEvent("Normal", REASON_ENABLED, withType(TOPOLOGY_AWARE_HINTS_ENABLED, type)));
    }
    return new Hinted(create.stream().map(Work::build).toList(), update.stream().map(Work::build).toList(),
        events);
  }

  static String withType(String message, AddressType type) {
    return message + ", addressType: " + type;
  }

  /**
   * Removes hints from the slices being written, and updates the unchanged slices that have any
   * ({@code RemoveHintsFromSlices}).
   */
  static Hinted removeHintsFromSlices(List<EndpointSlice> toCreate, List<EndpointSlice> toUpdate,
      List<EndpointSlice> unchanged, List<HintEvent> events) {
    List<EndpointSlice> create = new ArrayList<>();
    toCreate.forEach(s -> create.add(withoutHints(s)));
    List<EndpointSlice> update = new ArrayList<>();
    toUpdate.forEach(s -> update.add(withoutHints(s)));
    for (EndpointSlice s : unchanged) {
      if (s.endpoints().stream().anyMatch(e -> e.hints() != null)) {
        update.add(withoutHints(s));
      }
    }
    return new Hinted(create, update, events);
  }

  private static EndpointSlice withoutHints(EndpointSlice s) {
    if (s.endpoints().stream().noneMatch(e -> e.hints() != null)) {
      return s;
    }
    return s.withEndpoints(s.endpoints().stream().map(e -> e.hints() == null ? e : e.withHints(null)).toList());
  }

  /**
   * Minimum and maximum endpoints per zone for {@code n} ready endpoints ({@code getAllocations}); {@code null}
   * with the reason in {@code problem[0]} when hints cannot be allocated.
   */
  synchronized @Nullable Map<String, Allocation> allocations(int n, String[] problem) {
    Map<String, Double> ratios = cpuRatiosByZone;
    if (ratios == null) {
      problem[0] = INSUFFICIENT_NODE_INFO;
      return null;
    }
    if (ratios.size() < 2) {
      problem[0] = NODES_READY_IN_ONE_ZONE_ONLY;
      return null;
    }
    if (ratios.size() > n) {
      problem[0] = INSUFFICIENT_NUMBER_OF_ENDPOINTS + " (" + n + " endpoints, " + ratios.size() + " zones)";
      return null;
    }
    int remaining = n;
    int minTotal = 0;
    Map<String, Allocation> out = new TreeMap<>();
    for (Map.Entry<String, Double> e : ratios.entrySet()) {
      double desired = e.getValue() * n;
      int minimum = (int) Math.ceil(desired * (1 / (1 + OVERLOAD_THRESHOLD)));
      out.put(e.getKey(), new Allocation(minimum, 0, Math.max(desired, minimum)));
      minTotal += minimum;
      remaining -= minimum;
      if (remaining < 0) {
        problem[0] = MIN_ALLOCATION_EXCEEDS_OVERLOAD_THRESHOLD + " (" + n + " endpoints, " + ratios.size()
            + " zones)";
        return null;
      }
    }
    int spare = n - minTotal;
    out.replaceAll((z, a) -> new Allocation(a.minimum(), a.minimum() + spare, a.desired()));
    return out;
  }

  /**
   * The hints per zone an unchanged slice holds, or {@code null} when it must be rewritten: a ready endpoint
   * without zone hints, a hint for a zone without allocation, or more hints than a zone's maximum
   * ({@code getHintsByZone}).
   */
  static @Nullable Map<String, Integer> hintsByZone(EndpointSlice slice, Map<String, Integer> allocated,
      Map<String, Allocation> allocations) {
    Map<String, Integer> byZone = new TreeMap<>();
    for (Endpoint e : slice.endpoints()) {
      if (!ready(e)) {
        continue;
      }
      if (e.hints() == null || e.hints().forZones().isEmpty()) {
        return null;
      }
      for (String z : e.hints().forZones()) {
        if (!allocations.containsKey(z)) {
          return null;
        }
        byZone.merge(z, 1, Integer::sum);
      }
    }
    for (Map.Entry<String, Integer> e : byZone.entrySet()) {
      Allocation a = allocations.get(e.getKey());
      if (a == null || e.getValue() + allocated.getOrDefault(e.getKey(), 0) > a.maximum()) {
        return null;
      }
    }
    return byZone;
  }

  /**
   * How many endpoints each zone gives and each receives, from the allocations (desired) and the hints allocated
   * so far ({@code getGivingAndReceivingZones}).
   */
  @SuppressWarnings("unchecked")
  static Map<String, Integer>[] givingAndReceivingZones(Map<String, Allocation> allocations,
      Map<String, Integer> allocated) {
    Map<String, Double> givingDesired = new TreeMap<>();
    Map<String, Double> receivingDesired = new TreeMap<>();
    for (Map.Entry<String, Allocation> e : allocations.entrySet()) {
      int hints = allocated.getOrDefault(e.getKey(), 0);
      double target = e.getValue().desired();
      if (hints > target) {
        givingDesired.put(e.getKey(), hints - target);
      } else if (hints < target) {
        receivingDesired.put(e.getKey(), target - hints);
      }
    }
    Map<String, Integer> giving = new TreeMap<>();
    Map<String, Integer> receiving = new TreeMap<>();
    while (true) {
      String give = most(givingDesired);
      String receive = most(receivingDesired);
      double numToGive = give == null ? 0 : givingDesired.get(give);
      double numToReceive = receive == null ? 0 : receivingDesired.get(receive);
      if (give == null || receive == null || (numToGive < 1.0 && numToReceive < 1.0) || numToGive < 0.5
          || numToReceive < 0.5) {
        break;
      }
      giving.merge(give, 1, Integer::sum);
      givingDesired.merge(give, -1.0, Double::sum);
      receiving.merge(receive, 1, Integer::sum);
      receivingDesired.merge(receive, -1.0, Double::sum);
    }
    return new Map[] {giving, receiving};
  }

  /** The zone with the greatest value above zero (the first by name on a tie), or {@code null} ({@code getMost}). */
  private static @Nullable String most(Map<String, Double> zones) {
    String zone = null;
    double num = 0;
    for (Map.Entry<String, Double> e : zones.entrySet()) {
      if (e.getValue() > num) {
        zone = e.getKey();
        num = e.getValue();
      }
    }
    return zone;
  }

  /**
   * Re-hints endpoints of giving zones for receiving zones, in slice and endpoint order; returns the change of
   * hints per zone ({@code redistributeHints}).
   */
  private static Map<String, Integer> redistributeHints(List<Work> slices, Map<String, Integer> giving,
      Map<String, Integer> receiving) {
    Map<String, Integer> changes = new TreeMap<>();
    for (Work w : slices) {
      for (int i = 0; i < w.endpoints.size(); i++) {
        Endpoint e = w.endpoints.get(i);
        if (!ready(e)) {
          continue;
        }
        if (giving.isEmpty() || receiving.isEmpty()) {
          return changes;
        }
        if (e.zone().isEmpty()) {
          continue;
        }
        String from = e.zone();
        Integer toGive = giving.get(from);
        if (toGive != null && toGive > 0) {
          for (Map.Entry<String, Integer> r : receiving.entrySet()) {
            if (r.getValue() > 0) {
              String to = r.getKey();
              w.endpoints.set(i, e.withHints(EndpointHints.forZone(to)));
              if (toGive == 1) {
                giving.remove(from);
              } else {
                giving.put(from, toGive - 1);
              }
              if (r.getValue() == 1) {
                receiving.remove(to);
              } else {
                receiving.put(to, r.getValue() - 1);
              }
              changes.merge(to, 1, Integer::sum);
              changes.merge(from, -1, Integer::sum);
              break;
            }
          }
        }
      }
    }
    return changes;
  }
}
