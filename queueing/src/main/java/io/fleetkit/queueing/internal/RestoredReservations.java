package io.fleetkit.queueing.internal;

import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceNames;
import io.fleetkit.queueing.DelayedTopologyRequest;
import io.fleetkit.queueing.PodSet;
import io.fleetkit.queueing.PodSetAssignment;
import io.fleetkit.queueing.Workload;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a reservation restored from outside (Kueue's {@code status.admission} of a Workload, or a test's set-up) into
 * the pod set assignments and the quota usage per flavor-resource it holds, as Kueue's cache does when it adds a
 * workload with an admission ({@code pkg/cache/scheduler/cache.go} {@code AddOrUpdateWorkload}, the usage from {@code
 * pkg/workload/workload.go}'s {@code NewInfo}). Checks that every pod set, count and flavor it names exists and is
 * covered by the ClusterQueue; it checks no quota. Not thread-safe; the engine serializes calls.
 */
final class RestoredReservations {
  /** A restored reservation: its ClusterQueue, usage per flavor-resource (milli-units) and pod set assignments. */
  record Reservation(CqState cq, long[] total, List<PodSetAssignment> podSets) {}

  private final QueueRegistry registry;
  private final FlavorResources index;
  private final FlavorAssigner assigner;

  RestoredReservations(QueueRegistry registry, FlavorResources index, FlavorAssigner assigner) {
    this.registry = registry;
    this.index = index;
    this.assigner = assigner;
  }

  /**
   * {@code wl} admitted in {@code clusterQueue} with the given flavor per resource for every pod set, the pod sets
   * named in {@code admittedCounts} with that many pods and those named in {@code topologyAssignments} with that
   * assignment. A flavor given for {@code pods} counts one unit per pod; without one no pods are counted.
   *
   * @throws IllegalArgumentException if a name, count or flavor is not the workload's or not covered by the queue
   */
  Reservation fromFlavors(Workload wl, String clusterQueue, Map<String, String> flavorByResource,
      Map<String, Integer> admittedCounts, Map<String, io.fleetkit.queueing.TopologyAssignment> topologyAssignments) {
    for (String name : topologyAssignments.keySet()) {
      if (wl.podSets().stream().noneMatch(ps -> ps.name().equals(name))) {
        throw new IllegalArgumentException("Workload " + wl.key() + ": topology assignment for pod set " + name
            + ", which the workload does not have");
      }
    }
    CqState cq = registry.requireQueue(clusterQueue);
    long[] total = new long[index.size()];
    List<PodSetAssignment> podSets = new ArrayList<>();
    Workload quota = assigner.quotaView(wl);
    for (String name : admittedCounts.keySet()) {
      if (wl.podSets().stream().noneMatch(ps -> ps.name().equals(name))) {
        throw new IllegalArgumentException("Workload " + wl.key() + ": admitted count for pod set " + name
            + ", which the workload does not have");
      }
    }
    for (PodSet full : quota.podSets()) {
      Integer admittedCount = admittedCounts.get(full.name());
      if (admittedCount != null && (admittedCount < full.minCountOrCount() || admittedCount > full.count())) {
        throw new IllegalArgumentException("Workload " + wl.key() + ": admitted count " + admittedCount
            + " of pod set " + full.name() + " must be from " + full.minCountOrCount() + " to " + full.count());
      }
      PodSet ps = admittedCount == null ? full : full.withCount(admittedCount);
      Map<String, String> fl = new LinkedHashMap<>();
      io.fleetkit.api.resource.ResourceList.Builder usage = io.fleetkit.api.resource.ResourceList.builder();
      for (String r : ps.requests().names()) {
        String flavor = flavorByResource.get(r);
        int fr = flavor == null ? -1 : index.of(flavor, r);
        if (fr < 0 || !cq.covered[fr]) {
          throw new IllegalArgumentException("Workload " + wl.key() + ": resource " + r + " in flavor " + flavor
              + " is not covered by ClusterQueue " + clusterQueue);
        }
        total[fr] += ps.totalMilli(r);
        fl.put(r, flavor);
        usage.put(r, Quantity.ofMilli(ps.totalMilli(r)));
      }
      // Kueue counts the pods an admission records under pods (its assignment adds them when the queue covers pods);
      // an admission recorded without pods uses none
      String podsFlavor = flavorByResource.get(ResourceNames.PODS);
      if (podsFlavor != null) {
        int fr = index.of(podsFlavor, ResourceNames.PODS);
        if (fr < 0 || !cq.covered[fr]) {
          throw new IllegalArgumentException("Workload " + wl.key() + ": resource " + ResourceNames.PODS
              + " in flavor " + podsFlavor + " is not covered by ClusterQueue " + clusterQueue);
        }
        long pods = FlavorAssigner.requestMilli(ps, ResourceNames.PODS);
        total[fr] += pods;
        fl.put(ResourceNames.PODS, podsFlavor);
        usage.put(ResourceNames.PODS, Quantity.ofMilli(pods));
      }
      podSets.add(new PodSetAssignment(ps.name(), ps.count(), fl, usage.build(),
          topologyAssignments.get(ps.name())));
    }
    return new Reservation(cq, total, podSets);
  }

  /**
   * {@code wl} holding quota in {@code clusterQueue} with the given pod set assignments (flavors per pod set, counts,
   * topology assignments and delayed topology requests), one per pod set in order.
   *
   * @throws IllegalArgumentException if an assignment does not match its pod set, names a flavor the queue does not
   *     cover, or gives a resource usage other than count x requests
   */
  Reservation fromAssignments(Workload wl, String clusterQueue, List<PodSetAssignment> assignments) {
    CqState cq = registry.requireQueue(clusterQueue);
    String prefix = "Workload " + wl.key() + ": status.admission.podSetAssignments";
    if (assignments.size() != wl.podSets().size()) {
      throw new IllegalArgumentException(prefix + ": " + assignments.size() + " assignment(s) for "
          + wl.podSets().size() + " pod set(s), one per pod set in order is required");
    }
    long[] total = new long[index.size()];
    List<PodSetAssignment> podSets = new ArrayList<>();
    Workload quota = assigner.quotaView(wl);
    for (int i = 0; i < assignments.size(); i++) {
      PodSetAssignment given = assignments.get(i);
      PodSet full = quota.podSets().get(i);
      String p = prefix + "[" + i + "]";
      if (!given.name().equals(full.name())) {
        throw new IllegalArgumentException(p + ".name \"" + given.name() + "\" must be \"" + full.name() + "\"");
      }
      if (given.count() < full.minCountOrCount() || given.count() > full.count()) {
        throw new IllegalArgumentException(p + ".count " + given.count() + " must be from "
            + full.minCountOrCount() + " to " + full.count());
      }
      if (given.topologyAssignment() != null && given.delayedTopologyRequest() == DelayedTopologyRequest.PENDING) {
        throw new IllegalArgumentException(p + ": a pending delayedTopologyRequest must not have a "
            + "topologyAssignment");
      }
      PodSet ps = full.withCount(given.count());
      io.fleetkit.api.resource.ResourceList.Builder usage = io.fleetkit.api.resource.ResourceList.builder();
      List<String> resources = new ArrayList<>(ps.requests().names());
      if (given.flavors().containsKey(ResourceNames.PODS) && !resources.contains(ResourceNames.PODS)) {
        resources.add(ResourceNames.PODS);
      }
      for (String r : resources) {
        String flavor = given.flavors().get(r);
        int fr = flavor == null ? -1 : index.of(flavor, r);
        if (fr < 0 || !cq.covered[fr]) {
          throw new IllegalArgumentException(p + ".flavors[" + r + "]: flavor " + flavor
              + " is not covered by ClusterQueue " + clusterQueue);
        }
        long milli = FlavorAssigner.requestMilli(ps, r);
        total[fr] += milli;
        usage.put(r, Quantity.ofMilli(milli));
      }
      io.fleetkit.api.resource.ResourceList used = usage.build();
      if (!given.resourceUsage().isEmpty()
          && !(given.resourceUsage().fitsIn(used) && used.fitsIn(given.resourceUsage()))) {
        throw new IllegalArgumentException(p + ".resourceUsage " + given.resourceUsage()
            + " must be empty or count x requests, " + used);
      }
      podSets.add(new PodSetAssignment(ps.name(), ps.count(), given.flavors(), used,
          given.topologyAssignment(), given.delayedTopologyRequest()));
    }
    return new Reservation(cq, total, podSets);
  }
}
