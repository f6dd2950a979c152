package io.fleetkit.queueing.internal;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.queueing.PodSet;
import io.fleetkit.queueing.PodSetAssignment;
import io.fleetkit.queueing.PodSetTopologyRequest;
import io.fleetkit.queueing.ResourceFlavor;
import io.fleetkit.queueing.Topology;
import io.fleetkit.queueing.TopologyAssignment;
import io.fleetkit.queueing.Workload;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The admission engine's topology-aware scheduling (Kueue's TAS part of the flavor assigner): which flavors a pod set
 * may get, and, once quota is assigned, where its pods go in each flavor's {@link Topology}.
 *
 * <p>Holds the engine's topologies, nodes and the usage of pods the engine did not place (by node); the usage of
 * admitted workloads' topology assignments is read from the admissions. Not thread-safe; the engine serializes calls.
 */
final class TopologyPlacer {
  private final Map<String, ResourceFlavor> flavors;
  final Map<String, Topology> topologies = new LinkedHashMap<>();
  final Map<String, Node> nodes = new LinkedHashMap<>();
  final Map<String, ResourceList> nodeUsage = new LinkedHashMap<>();

  TopologyPlacer(Map<String, ResourceFlavor> flavors) {
    this.flavors = flavors;
  }

  /**
   * Whether every flavor of the queue has a topology (Kueue's {@code IsTASOnly}): a pod set without a topology request
   * is then placed as if unconstrained (Kueue's implied request).
   */
  boolean tasOnly(CqState cq) {
    List<String> names = cq.spec.flavorNames();
    if (names.isEmpty()) {
      return false;
    }
    for (String n : names) {
      ResourceFlavor f = flavors.get(n);
      if (f == null || f.topologyName() == null) {
        return false;
      }
    }
    return true;
  }

  /**
   * Why {@code flavor}, in a resource group covering {@code covered}, cannot serve {@code ps} with respect to topology
   * (Kueue's {@code checkPodSetAndFlavorMatchForTAS}), or {@code null}. A flavor without a topology may still serve a
   * pod set that asks for one when the pods request none of the group's resources (for example a group of {@code
   * pods} alone).
   */
  @Nullable String mismatch(ResourceFlavor flavor, PodSet ps, CqState cq, List<String> covered) {
    boolean tasOnly = tasOnly(cq);
    PodSetTopologyRequest request = ps.topologyRequest();
    if (request != null || tasOnly) {
      if (request == null) {
        return null; // implied
      }
      if (flavor.topologyName() == null) {
        for (String r : ps.requests().names()) {
          if (covered.contains(r)) {
            return "Flavor \"" + flavor.name() + "\" does not support TopologyAwareScheduling";
          }
        }
        return null;
      }
      Topology t = topologies.get(flavor.topologyName());
      if (t == null) {
        return "Flavor \"" + flavor.name() + "\" information missing in TAS cache";
      }
      if (!TopologyAssigner.hasLevel(t.levels(), request)) {
        return "Flavor \"" + flavor.name() + "\" does not contain the requested level";
      }
      return null;
    }
    if (flavor.topologyName() != null) {
      return "Flavor \"" + flavor.name() + "\" supports only TopologyAwareScheduling";
    }
    return null;
  }

  /**
   * {@code a} with the topology assignments of its pod sets in flavors with a topology (Kueue's {@code
   * FindTopologyAssignmentsForWorkload}), or a {@link Assignment#NO_FIT} one naming the pod set and Kueue's reason. An
   * assignment that fits only by preemption is checked as if no admitted workload used the topology (Kueue's {@code
   * WithSimulateEmpty}): it stays as it is when its pods would fit then, and does not fit otherwise (the engine's
   * preemption does not make room in a topology).
   */
  Assignment place(Workload wl, CqState cq, Assignment a, Collection<AdmittedWorkload> admitted) {
    if (a.mode() == Assignment.NO_FIT) {
      return a;
    }
    boolean simulateEmpty = a.mode() != Assignment.FIT;
    boolean tasOnly = tasOnly(cq);
    Map<String, List<TopologyAssigner.Request>> byFlavor = new LinkedHashMap<>();
    Map<String, PodSet> podSets = new LinkedHashMap<>();
    for (PodSet ps : wl.podSets()) {
      podSets.put(ps.name(), ps);
    }
    for (PodSetAssignment pa : a.podSets()) {
      PodSet ps = podSets.get(pa.name());
      if (ps == null || (ps.topologyRequest() == null && !tasOnly) || pa.count() == 0) {
        continue;
      }
      Set<String> tasFlavors = new LinkedHashSet<>();
      for (String f : pa.flavors().values()) {
        ResourceFlavor rf = flavors.get(f);
        if (rf != null && rf.topologyName() != null) {
          tasFlavors.add(f);
        }
      }
      if (tasFlavors.isEmpty()) {
        continue;
      }
      if (tasFlavors.size() > 1) {
        // Kueue's onlyTASFlavor / MultipleTASFlavorsAssignedError: the flavors sorted
        return noFit(a, pa.name(), "more than one TAS flavor assigned: "
            + String.join(", ", new java.util.TreeSet<>(tasFlavors)));
      }
      byFlavor.computeIfAbsent(tasFlavors.iterator().next(), k -> new ArrayList<>()).add(new TopologyAssigner.Request(
          ps.name(), ps.requests(), pa.count(), ps.topologyRequest(), ps.nodeSelector(), ps.requiredNodeAffinity(),
          ps.tolerations()));
    }
    if (byFlavor.isEmpty()) {
      return a;
    }
    Map<String, TopologyAssignment> found = new LinkedHashMap<>();
    // What the pod sets placed so far take, per topology with hostname leaves: a node's room is shared by the flavors
    // of one topology, so a later pod set of this workload in a sibling flavor must not count it again (Kueue's
    // WithAggregatedDomainUsages)
    Map<String, Map<String, ResourceList>> placedSoFar = new LinkedHashMap<>();
    for (Map.Entry<String, List<TopologyAssigner.Request>> e : byFlavor.entrySet()) {
      ResourceFlavor flavor = flavors.get(e.getKey());
      Topology topology = topologies.get(flavor.topologyName());
      if (topology == null) {
        return noFit(a, e.getValue().get(0).podSetName(),
            "Flavor \"" + flavor.name() + "\" information missing in TAS cache");
      }
      Map<String, ResourceList> tasUsage = simulateEmpty ? new LinkedHashMap<>() : tasUsage(flavor, topology, admitted);
      Map<String, ResourceList> before = placedSoFar.get(topology.name());
      if (before != null) {
        before.forEach((domain, u) -> tasUsage.merge(domain, u, ResourceList::add));
      }
      TopologyAssigner assigner = new TopologyAssigner(topology, flavor, nodes.values(), nodeUsage, tasUsage);
      for (Map.Entry<String, TopologyAssigner.Result> r : assigner.assign(e.getValue()).entrySet()) {
        if (!r.getValue().fits()) {
          return noFit(a, r.getKey(), r.getValue().failureReason());
        }
        found.put(r.getKey(), r.getValue().assignment());
        if (topology.lowestLevelIsHostname()) {
          for (TopologyAssigner.Request req : e.getValue()) {
            if (req.podSetName().equals(r.getKey())) {
              TopologyAssigner.addUsage(placedSoFar.computeIfAbsent(topology.name(), k -> new LinkedHashMap<>()),
                  r.getValue().assignment(), req.singlePodRequests());
            }
          }
        }
      }
    }
    if (simulateEmpty) {
      return a;
    }
    List<PodSetAssignment> out = new ArrayList<>(a.podSets().size());
    for (PodSetAssignment pa : a.podSets()) {
      TopologyAssignment ta = found.get(pa.name());
      out.add(ta == null ? pa : pa.withTopologyAssignment(ta));
    }
    return new Assignment(a.mode(), a.borrowing(), out, a.frs(), a.values(), a.needPreemption(), a.message());
  }

  /** Whether any pod set of {@code a} got a topology assignment. */
  static boolean placed(Assignment a) {
    for (PodSetAssignment pa : a.podSets()) {
      if (pa.topologyAssignment() != null) {
        return true;
      }
    }
    return false;
  }

  private static Assignment noFit(Assignment a, String podSet, String reason) {
    return new Assignment(Assignment.NO_FIT, a.borrowing(), List.of(), new int[0], new long[0],
        new boolean[a.needPreemption().length], "couldn't assign flavors to pod set " + podSet + ": " + reason);
  }

  /**
   * What admitted workloads' topology assignments use in {@code topology}, per leaf domain. With a hostname-lowest
   * topology a node's usage is shared by every flavor of the topology (Kueue's {@code TASHandleOverlappingFlavors});
   * otherwise each flavor counts its own.
   */
  private Map<String, ResourceList> tasUsage(ResourceFlavor flavor, Topology topology,
      Collection<AdmittedWorkload> admitted) {
    Map<String, ResourceList> usage = new LinkedHashMap<>();
    for (AdmittedWorkload w : admitted) {
      for (PodSetAssignment pa : w.admission.podSets()) {
        TopologyAssignment ta = pa.topologyAssignment();
        if (ta == null) {
          continue;
        }
        String used = null;
        for (String f : pa.flavors().values()) {
          ResourceFlavor rf = flavors.get(f);
          if (rf != null && rf.topologyName() != null) {
            used = f;
          }
        }
        ResourceFlavor rf = used == null ? null : flavors.get(used);
        if (rf == null || !topology.name().equals(rf.topologyName())
            || (!topology.lowestLevelIsHostname() && !rf.name().equals(flavor.name()))) {
          continue;
        }
        for (PodSet ps : w.workload.podSets()) {
          if (ps.name().equals(pa.name())) {
            TopologyAssigner.addUsage(usage, ta, ps.requests());
          }
        }
      }
    }
    return usage;
  }
}
