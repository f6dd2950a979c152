package io.fleetkit.autoscale.cluster;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodResourceClaim;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.dra.AllocationResult;
import io.fleetkit.api.resource.dra.CounterSet;
import io.fleetkit.api.resource.dra.Device;
import io.fleetkit.api.resource.dra.DeviceCounterConsumption;
import io.fleetkit.api.resource.dra.DeviceRequestAllocationResult;
import io.fleetkit.api.resource.dra.ResourceClaim;
import io.fleetkit.api.resource.dra.ResourceSlice;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiFunction;
import org.jspecify.annotations.Nullable;

/**
 * How the DRA devices of one node are used, per driver and pool, for scale-down (upstream's
 * {@code simulator/dynamicresources/utils/utilization.go}, {@code CalculateDynamicResourceUtilization} and
 * {@code HighestDynamicResourceUtilization}). The devices are those of the node's local ResourceSlices
 * ({@code spec.nodeName} names the node) of each pool's newest generation; the used ones are those the ResourceClaims
 * of the node's pods are allocated, but for devices allocated with admin access (those do not reserve the device).
 *
 * <p>A pool's utilization, 0 to 1:
 *
 * <ul>
 *   <li>atomic devices (consuming no shared counters): allocated devices over all atomic devices;
 *   <li>partitionable devices (consuming a counter set): per counter set of the pool, the most used of its counters
 *       (counted in whole units, as upstream's {@code Quantity.Value()}), averaged over the distinct counter sets the
 *       devices consume (one per physical device);
 *   <li>when the allocated devices are all atomic the pool's utilization is the atomic one, when all partitionable the
 *       partitionable one, else the two weighted by the number of atomic devices and of distinct counter sets.
 * </ul>
 *
 * <p>The utilization is unknown ({@link #error()} set, {@link #highest()} {@link Double#NaN}) when a claim of the
 * node's pods is not allocated, or the newest generation of a pool has fewer slices than its
 * {@code resourceSliceCount} (upstream returns an error, and scale-down leaves the node alone).
 *
 * @param byPool utilization by driver, then pool name, both sorted; empty when {@link #error()} is set
 * @param error why the utilization cannot be known, or {@code null}
 */
public record DeviceUtilization(Map<String, Map<String, Double>> byPool, @Nullable String error) {
  public DeviceUtilization {
    Map<String, Map<String, Double>> copy = new TreeMap<>();
    byPool.forEach((driver, pools) -> copy.put(driver, Collections.unmodifiableMap(new TreeMap<>(pools))));
    byPool = Collections.unmodifiableMap(copy);
  }

  /**
   * The utilization of the devices of {@code localSlices} (the node-local slices of one node) used by the allocations
   * of {@code claims} (the claims of the node's pods, each once).
   */
  public static DeviceUtilization of(List<ResourceSlice> localSlices, Collection<ResourceClaim> claims) {
    Map<String, Map<String, Set<String>>> allocated = new HashMap<>();
    for (ResourceClaim c : claims) {
      AllocationResult a = c.status().allocation();
      if (a == null) {
        return failed("claim " + c.metadata().key() + " not allocated");
      }
      for (DeviceRequestAllocationResult r : a.devices()) {
        if (r.adminAccess()) {
          continue; // admin access does not reserve the device
        }
        allocated.computeIfAbsent(r.driver(), k -> new HashMap<>())
            .computeIfAbsent(r.pool(), k -> new HashSet<>()).add(r.device());
      }
    }
    Map<String, Map<String, List<ResourceSlice>>> grouped = new TreeMap<>();
    for (ResourceSlice s : localSlices) {
      grouped.computeIfAbsent(s.spec().driver(), k -> new TreeMap<>())
          .computeIfAbsent(s.spec().pool().name(), k -> new ArrayList<>()).add(s);
    }
    Map<String, Map<String, Double>> out = new TreeMap<>();
    for (Map.Entry<String, Map<String, List<ResourceSlice>>> d : grouped.entrySet()) {
      Map<String, Double> pools = new TreeMap<>();
      for (Map.Entry<String, List<ResourceSlice>> p : d.getValue().entrySet()) {
        List<ResourceSlice> current = newestGeneration(p.getValue());
        long want = current.get(0).spec().pool().resourceSliceCount();
        if (current.size() != want) {
          return failed("pool \"" + p.getKey() + "\" of driver " + d.getKey() + ": newest generation "
              + current.get(0).spec().pool().generation() + " has resourceSliceCount " + want + " but only "
              + current.size() + " slices");
        }
        Set<String> used = allocated.getOrDefault(d.getKey(), Map.of()).getOrDefault(p.getKey(), Set.of());
        pools.put(p.getKey(), poolUtilization(current, used));
      }
      out.put(d.getKey(), pools);
    }
    return new DeviceUtilization(out, null);
  }

  /**
   * {@link #of} for node {@code nodeName} with {@code pods} on it: the slices of {@code slices} local to the node, and
   * the claims the pods use (named ones, and those made from a template once the pod's status names them), each once,
   * found by {@code claim} (namespace, name; a claim not found is passed over); {@code null} when the node has no local
   * slice (then its utilization is not the devices').
   */
  public static @Nullable DeviceUtilization ofNode(String nodeName, List<ResourceSlice> slices, List<Pod> pods,
      BiFunction<String, String, @Nullable ResourceClaim> claim) {
    List<ResourceSlice> local = new ArrayList<>();
    for (ResourceSlice s : slices) {
      if (nodeName.equals(s.spec().nodeName())) {
        local.add(s);
      }
    }
    if (local.isEmpty()) {
      return null;
    }
    Map<String, ResourceClaim> claims = new LinkedHashMap<>();
    for (Pod p : pods) {
      for (PodResourceClaim pc : p.spec().resourceClaims()) {
        String name = p.resourceClaimName(pc);
        String ns = p.metadata().namespace();
        if (name == null || name.isEmpty() || claims.containsKey(ns + "/" + name)) {
          continue;
        }
        ResourceClaim c = claim.apply(ns, name);
        if (c != null) {
          claims.put(ns + "/" + name, c);
        }
      }
    }
    return of(local, claims.values());
  }

  private static DeviceUtilization failed(String why) {
    return new DeviceUtilization(Map.of(), why);
  }

  /** Whether the utilization could be computed. */
  public boolean known() {
    return error == null;
  }

  /**
   * The highest utilization of any pool ({@link Double#NaN} when not {@linkplain #known() known}, 0 without pools):
   * what scale-down compares to its threshold for a node with devices.
   */
  public double highest() {
    if (error != null) {
      return Double.NaN;
    }
    double max = 0;
    for (Map<String, Double> pools : byPool.values()) {
      for (double u : pools.values()) {
        max = Math.max(max, u);
      }
    }
    return max;
  }

  /**
   * {@code <driver>/<pool>} of the pool with the {@linkplain #highest() highest} utilization, upstream's resource name
   * of a node with devices (of equally used pools the first by driver, then pool name); empty when not known or
   * without pools.
   */
  public String highestPool() {
    String name = "";
    double max = -1;
    if (error == null) {
      for (Map.Entry<String, Map<String, Double>> d : byPool.entrySet()) {
        for (Map.Entry<String, Double> p : d.getValue().entrySet()) {
          if (p.getValue() > max) {
            max = p.getValue();
            name = d.getKey() + "/" + p.getKey();
          }
        }
      }
    }
    return name;
  }

  /** The slices of the newest pool generation among {@code slices} (not empty), in order. */
  private static List<ResourceSlice> newestGeneration(List<ResourceSlice> slices) {
    long max = Long.MIN_VALUE;
    List<ResourceSlice> out = new ArrayList<>();
    for (ResourceSlice s : slices) {
      long gen = s.spec().pool().generation();
      if (gen > max) {
        max = gen;
        out.clear();
      }
      if (gen == max) {
        out.add(s);
      }
    }
    return out;
  }

  /** The utilization of the pool made of {@code slices}, {@code used} naming its allocated devices. */
  private static double poolUtilization(List<ResourceSlice> slices, Set<String> used) {
    List<CounterSet> counterSets = new ArrayList<>();
    List<Device> atomic = new ArrayList<>();
    List<Device> partitionable = new ArrayList<>();
    int allocatedAtomic = 0;
    List<Device> allocatedPartitionable = new ArrayList<>();
    for (ResourceSlice s : slices) {
      counterSets.addAll(s.spec().sharedCounters());
      for (Device d : s.spec().devices()) {
        boolean allocated = used.contains(d.name());
        if (d.consumesCounters().isEmpty()) {
          atomic.add(d);
          allocatedAtomic += allocated ? 1 : 0;
        } else {
          partitionable.add(d);
          if (allocated) {
            allocatedPartitionable.add(d);
          }
        }
      }
    }
    int allocated = allocatedAtomic + allocatedPartitionable.size();
    double atomicUtilization = atomicUtilization(allocatedAtomic, atomic.size());
    if (allocatedAtomic == allocated) {
      return atomicUtilization;
    }
    double partitionableUtilization = partitionableUtilization(allocatedPartitionable, partitionable, counterSets);
    if (allocatedPartitionable.size() == allocated) {
      return partitionableUtilization;
    }
    double physical = uniquePartitionableDevices(partitionable);
    double total = physical + atomic.size();
    return partitionableUtilization * (physical / total) + atomicUtilization * (atomic.size() / total);
  }

  /** Allocated over all atomic devices; 0 without any (upstream's {@code calculateAtomicDevicesPoolUtilization}). */
  static double atomicUtilization(int allocated, int total) {
    return total == 0 ? 0 : (double) allocated / total;
  }

  /**
   * Upstream's {@code calculatePartitionableDevicesPoolUtilization}: for each counter set of {@code counterSets}
   * (amounts of sets of one name added up), the highest ratio of the amount the {@code allocated} devices consume to
   * the set's amount over its non-zero counters, in whole units; the sum of those over the number of distinct counter
   * sets the {@code total} devices consume. 0 when those consume none.
   */
  static double partitionableUtilization(List<Device> allocated, List<Device> total, List<CounterSet> counterSets) {
    int physical = uniquePartitionableDevices(total);
    if (physical == 0) {
      return 0;
    }
    Map<String, Map<String, Quantity>> available = new LinkedHashMap<>();
    for (CounterSet s : counterSets) {
      add(available, s.name(), s.counters());
    }
    Map<String, Map<String, Quantity>> consumed = new HashMap<>();
    for (Device d : allocated) {
      for (DeviceCounterConsumption c : d.consumesCounters()) {
        add(consumed, c.counterSet(), c.counters());
      }
    }
    double sum = 0;
    for (Map.Entry<String, Map<String, Quantity>> set : available.entrySet()) {
      double highest = 0;
      Map<String, Quantity> used = consumed.getOrDefault(set.getKey(), Map.of());
      for (Map.Entry<String, Quantity> counter : set.getValue().entrySet()) {
        Quantity u = used.get(counter.getKey());
        if (counter.getValue().isZero() || u == null) {
          continue;
        }
        highest = Math.max(highest, (double) u.value() / counter.getValue().value());
      }
      sum += highest / physical;
    }
    return sum;
  }

  /**
   * The number of distinct counter sets {@code devices} consume from: the physical devices behind partitionable ones
   * (upstream's {@code getUniquePartitionableDevicesCount}).
   */
  static int uniquePartitionableDevices(List<Device> devices) {
    Set<String> sets = new HashSet<>();
    for (Device d : devices) {
      for (DeviceCounterConsumption c : d.consumesCounters()) {
        sets.add(c.counterSet());
      }
    }
    return sets.size();
  }

  private static void add(Map<String, Map<String, Quantity>> into, String set, Map<String, Quantity> counters) {
    Map<String, Quantity> m = into.computeIfAbsent(set, k -> new HashMap<>());
    counters.forEach((name, q) -> m.merge(name, Objects.requireNonNull(q, "counter " + name), Quantity::add));
  }
}
