package io.fleetkit.queueing;

import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.ResourceNames;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Where a pod set's pods go (Kueue {@code PodSetAssignment.topologyAssignment}): domains of the lowest levels of the
 * flavor's {@link Topology} with a pod count each. When the topology's lowest level is {@code kubernetes.io/hostname},
 * {@code levels} is that level alone and each domain names one node; otherwise {@code levels} is every level and a
 * domain's values are its full path from the top.
 *
 * @param levels the node label keys the domains' values are for
 * @param domains the domains with their pod counts (the algorithm gives them sorted by their values)
 */
public record TopologyAssignment(List<String> levels, List<Domain> domains) {
  public TopologyAssignment {
    levels = List.copyOf(Objects.requireNonNull(levels, "levels"));
    domains = List.copyOf(Objects.requireNonNull(domains, "domains"));
    for (Domain d : domains) {
      if (d.values().size() != levels.size()) {
        throw new IllegalArgumentException("topology assignment: domain " + d.values() + " has "
            + d.values().size() + " values for " + levels.size() + " levels " + levels);
      }
    }
  }

  /**
   * One domain and how many pods it gets.
   *
   * @param values the domain's value of each of the assignment's levels
   * @param count how many pods, at least 0
   */
  public record Domain(List<String> values, int count) {
    public Domain {
      values = List.copyOf(Objects.requireNonNull(values, "values"));
      if (count < 0) {
        throw new IllegalArgumentException("topology domain " + values + ": count " + count + " must not be negative");
      }
    }

    public static Domain of(int count, String... values) {
      return new Domain(List.of(values), count);
    }
  }

  /** How many pods the assignment places (Kueue's {@code CountPodsInAssignment}). */
  public int podCount() {
    int n = 0;
    for (Domain d : domains) {
      n += d.count();
    }
    return n;
  }

  /**
   * The usage per domain of pods that each request {@code singlePodRequests}: {@code count × requests} plus {@code
   * pods: count} (Kueue's {@code ComputeUsagePerDomain}), keyed by the domain's values joined with commas.
   */
  public java.util.Map<String, ResourceList> usagePerDomain(ResourceList singlePodRequests) {
    java.util.Map<String, ResourceList> out = new java.util.LinkedHashMap<>();
    for (Domain d : domains) {
      ResourceList.Builder b = ResourceList.builder();
      for (String r : singlePodRequests.names()) {
        b.put(r, io.fleetkit.api.resource.Quantity.ofMilli(
            Math.multiplyExact(singlePodRequests.milliValue(r), (long) d.count())));
      }
      b.put(ResourceNames.PODS, io.fleetkit.api.resource.Quantity.of(d.count()));
      out.put(String.join(",", d.values()), b.build());
    }
    return out;
  }

  /** The first {@code newCount} pods of this assignment, in its domain order (Kueue's {@code TruncateAssignment}). */
  public TopologyAssignment truncate(int newCount) {
    List<Domain> out = new ArrayList<>();
    int left = newCount;
    for (Domain d : domains) {
      if (left <= 0) {
        break;
      }
      int c = Math.min(left, d.count());
      out.add(new Domain(d.values(), c));
      left -= c;
    }
    return new TopologyAssignment(levels, out);
  }
}
