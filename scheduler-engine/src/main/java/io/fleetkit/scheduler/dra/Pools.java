package io.fleetkit.scheduler.dra;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.dra.CounterSet;
import io.fleetkit.api.resource.dra.Device;
import io.fleetkit.api.resource.dra.DeviceCounterConsumption;
import io.fleetkit.api.resource.dra.ResourceSlice;
import io.fleetkit.api.scheduling.NodeSelector;
import io.fleetkit.api.scheduling.NodeSelectors;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The resource pools a node can reach ({@code GatherPools} of Kubernetes' allocator, pools_stable.go 030880a5 with
 * the multi-node pools of pools_incubating.go 14134e03): slices not reaching the node are left out (a slice with
 * per-device node selection reaches it when one of its devices does; a slice of counter sets always belongs to its
 * pool), slices of an older generation than the newest seen are dropped, and a pool is invalid when a device name
 * repeats, a counter set name repeats, or a device consumes from a counter set or counter the pool does not have. A
 * pool whose slices reaching the node are fewer (or more) than {@code resourceSliceCount} may span nodes: its slices
 * of that generation elsewhere count too ({@code checkSlicesInPool}), their devices' consumption is checked as well
 * and kept for the counter accounting, and when another slice of the pool has a newer generation the pool is being
 * replaced and is left out. A pool still short of slices is incomplete. Pools keep the order in which their first
 * slice was listed.
 */
final class Pools {
  private Pools() {}

  /** One pool: its newest slices, and what is wrong with it. */
  static final class Pool {
    final String driver;
    final String name;
    /** The slices reaching the node, counter-set slices included. */
    final List<ResourceSlice> slices = new ArrayList<>();
    /** Slices of the same generation that do not reach the node (a pool spanning nodes). */
    final List<ResourceSlice> slicesNotTargetingNode = new ArrayList<>();
    /** The pool's counter sets by name. */
    final Map<String, CounterSet> counterSets = new LinkedHashMap<>();
    boolean incomplete;
    String invalidReason = "";

    Pool(String driver, String name) {
      this.driver = driver;
      this.name = name;
    }

    boolean invalid() {
      return !invalidReason.isEmpty();
    }

    String id() {
      return driver + "/" + name;
    }
  }

  static List<Pool> gather(List<ResourceSlice> slices, Node node) {
    Map<String, Pool> pools = new LinkedHashMap<>();
    for (ResourceSlice slice : slices) {
      if (!reaches(slice, node)) {
        continue;
      }
      String driver = slice.spec().driver();
      String poolName = slice.spec().pool().name();
      Pool pool = pools.computeIfAbsent(driver + "/" + poolName, k -> new Pool(driver, poolName));
      if (!pool.slices.isEmpty()) {
        long newest = pool.slices.get(0).spec().pool().generation();
        long generation = slice.spec().pool().generation();
        if (generation < newest) {
          continue; // out-dated
        }
        if (generation > newest) {
          pool.slices.clear(); // newer: replaces all old slices
        }
      }
      pool.slices.add(slice);
    }
    List<Pool> result = new ArrayList<>();
    for (Pool pool : pools.values()) {
      long generation = pool.slices.get(0).spec().pool().generation();
      long wanted = pool.slices.get(0).spec().pool().resourceSliceCount();
      long count = pool.slices.size();
      List<ResourceSlice> all = null;
      if (count != wanted) {
        // The pool may span nodes: count its slices of this generation that do not reach the node too. A newer
        // generation elsewhere means the driver is replacing the pool: ignore it.
        all = new ArrayList<>();
        boolean obsolete = false;
        for (ResourceSlice s : slices) {
          if (!s.spec().driver().equals(pool.driver) || !s.spec().pool().name().equals(pool.name)) {
            continue;
          }
          if (s.spec().pool().generation() == generation) {
            all.add(s);
          } else if (s.spec().pool().generation() > generation) {
            obsolete = true;
            break;
          }
        }
        if (obsolete) {
          continue;
        }
        count = all.size();
      }
      pool.incomplete = count != wanted;
      if (!pool.incomplete && all != null) {
        for (ResourceSlice s : all) {
          if (!pool.slices.contains(s)) {
            pool.slicesNotTargetingNode.add(s);
          }
        }
      }
      if (!pool.incomplete) {
        pool.invalidReason = validate(pool);
      }
      result.add(pool);
    }
    return result;
  }

  /** {@code buildPool}'s checks: device names, counter set names, then every device's consumption; "" if valid. */
  private static String validate(Pool pool) {
    Set<String> names = new HashSet<>();
    for (ResourceSlice s : pool.slices) {
      for (Device d : s.spec().devices()) {
        if (!names.add(d.name())) {
          return "duplicate device name " + d.name();
        }
      }
    }
    for (ResourceSlice s : pool.slices) {
      for (CounterSet cs : s.spec().sharedCounters()) {
        if (pool.counterSets.putIfAbsent(cs.name(), cs) != null) {
          return "duplicate counter set name " + cs.name();
        }
      }
    }
    String reason = validateConsumption(pool, pool.slices);
    return reason.isEmpty() ? validateConsumption(pool, pool.slicesNotTargetingNode) : reason;
  }

  private static String validateConsumption(Pool pool, List<ResourceSlice> slices) {
    for (ResourceSlice s : slices) {
      for (Device d : s.spec().devices()) {
        for (DeviceCounterConsumption c : d.consumesCounters()) {
          CounterSet set = pool.counterSets.get(c.counterSet());
          if (set == null) {
            return "counter set " + c.counterSet() + " not found";
          }
          for (String counter : c.counters().keySet()) {
            if (!set.counters().containsKey(counter)) {
              return "counter " + counter + " not found in counter set " + set.name();
            }
          }
        }
      }
    }
    return "";
  }

  /** The amounts each counter set of the pool holds, less what its {@code allocated} devices consume. */
  static Map<String, Map<String, Quantity>> availableCounters(Pool pool, Set<DeviceId> allocated) {
    Map<String, Map<String, Quantity>> out = new LinkedHashMap<>();
    pool.counterSets.forEach((name, set) -> out.put(name, new LinkedHashMap<>(set.counters())));
    for (List<ResourceSlice> group : List.of(pool.slices, pool.slicesNotTargetingNode)) {
      for (ResourceSlice s : group) {
        for (Device d : s.spec().devices()) {
          if (d.consumesCounters().isEmpty() || !allocated.contains(new DeviceId(pool.driver, pool.name, d.name()))) {
            continue;
          }
          for (DeviceCounterConsumption c : d.consumesCounters()) {
            Map<String, Quantity> set = out.get(c.counterSet());
            if (set == null) {
              continue; // the pool's validation refuses this
            }
            // Can go negative: then nothing is left.
            c.counters().forEach((counter, q) -> set.computeIfPresent(counter, (k, have) -> have.subtract(q)));
          }
        }
      }
    }
    return out;
  }

  private static boolean reaches(ResourceSlice slice, Node node) {
    var spec = slice.spec();
    if (!spec.sharedCounters().isEmpty()) {
      return true; // counter sets belong to the pool wherever its devices are
    }
    if (spec.nodeName() != null || spec.allNodes() || spec.nodeSelector() != null) {
      return matches(node, spec.nodeName(), spec.allNodes(), spec.nodeSelector());
    }
    if (spec.perDeviceNodeSelection()) {
      for (Device d : spec.devices()) {
        if (matches(node, d.nodeName(), d.allNodes(), d.nodeSelector())) {
          return true;
        }
      }
    }
    return false;
  }

  /** {@code NodeMatches}: the node named, all nodes, or the nodes the selector selects. */
  static boolean matches(Node node, @Nullable String nodeName, boolean allNodes, @Nullable NodeSelector selector) {
    if (nodeName != null) {
      return nodeName.equals(node.name());
    }
    if (allNodes) {
      return true;
    }
    return selector != null && NodeSelectors.matches(selector, node.name(), node.metadata().labels());
  }
}
