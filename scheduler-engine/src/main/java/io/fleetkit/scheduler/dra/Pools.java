package io.fleetkit.scheduler.dra;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.resource.dra.Device;
import io.fleetkit.api.resource.dra.ResourceSlice;
import io.fleetkit.api.scheduling.NodeSelectors;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The resource pools a node can reach ({@code GatherPools} of Kubernetes' allocator, pools_stable.go 030880a5 with
 * the multi-node pools of pools_incubating.go 14134e03): slices not reaching the node are left out, slices of an older
 * generation than the newest seen are dropped, and a pool is invalid when a device name repeats. A pool whose slices
 * reaching the node are fewer (or more) than {@code resourceSliceCount} may span nodes: its slices of that generation
 * elsewhere count too ({@code checkSlicesInPool}), and when another slice of the pool has a newer generation the pool
 * is being replaced and is left out. A pool still short of slices is incomplete. Pools keep the order in which their
 * first slice was listed.
 */
final class Pools {
  private Pools() {}

  /** One pool: its newest slices, and what is wrong with it. */
  static final class Pool {
    final String driver;
    final String name;
    final List<ResourceSlice> slices = new ArrayList<>();
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
      if (count != wanted) {
        // The pool may span nodes: count its slices of this generation that do not reach the node too. A newer
        // generation elsewhere means the driver is replacing the pool: ignore it.
        count = 0;
        boolean obsolete = false;
        for (ResourceSlice s : slices) {
          if (!s.spec().driver().equals(pool.driver) || !s.spec().pool().name().equals(pool.name)) {
            continue;
          }
          if (s.spec().pool().generation() == generation) {
            count++;
          } else if (s.spec().pool().generation() > generation) {
            obsolete = true;
            break;
          }
        }
        if (obsolete) {
          continue;
        }
      }
      pool.incomplete = count != wanted;
      Set<String> names = new HashSet<>();
      outer:
      for (ResourceSlice s : pool.slices) {
        for (Device d : s.spec().devices()) {
          if (!names.add(d.name())) {
            pool.invalidReason = "duplicate device name " + d.name();
            break outer;
          }
        }
      }
      result.add(pool);
    }
    return result;
  }

  private static boolean reaches(ResourceSlice slice, Node node) {
    var spec = slice.spec();
    if (spec.nodeName() != null) {
      return spec.nodeName().equals(node.name());
    }
    if (spec.allNodes()) {
      return true;
    }
    return spec.nodeSelector() != null
        && NodeSelectors.matches(spec.nodeSelector(), node.name(), node.metadata().labels());
  }
}
