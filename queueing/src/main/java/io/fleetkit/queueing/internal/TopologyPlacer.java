package io.fleetkit.queueing.internal;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.queueing.DelayedTopologyRequest;
import io.fleetkit.queueing.PodSet;
import io.fleetkit.queueing.PodSetAssignment;
import io.fleetkit.queueing.PodSetTopologyRequest;
import io.fleetkit.queueing.QuotaReservation;
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
  private final FlavorResources index;
  final Map<String, Topology> topologies = new LinkedHashMap<>();
  final Map<String, Node> nodes = new LinkedHashMap<>();
  final Map<String, ResourceList> nodeUsage = new LinkedHashMap<>();

  TopologyPlacer(Map<String, ResourceFlavor> flavors, FlavorResources index) {
    this.flavors = flavors;
    this.index = index;
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
    PodSetTopologyRequest request = ps.placementRequest();
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
   * FindTopologyAssignmentsForWorkload}, as the flavor assigner runs it), against the nodes' room left by {@code
   * others} (the admitted workloads, and those holding room in the current cycle):
   *
   * <ul>
   *   <li>an assignment that fits its quota gets its topology assignments if every pod set fits; if one does not, it
   *       fits only by preemption (mode {@link Assignment#PREEMPT}, with Kueue's reason for that pod set) when its
   *       pods would fit in an empty topology (Kueue's {@code WithSimulateEmpty}), and does not fit otherwise;
   *   <li>an assignment that fits its quota only by preemption stays so if its pods would fit in an empty topology,
   *       and does not fit otherwise.
   * </ul>
   *
   * Either way, an assignment that needs preemption marks every flavor-resource of its pod sets in flavors with a
   * topology as needing it (Kueue's {@code updateModeForTASRequests}): the preemptor then also considers workloads that
   * take the nodes' room, not only the quota ({@link #fits}).
   */
  Assignment place(Workload wl, CqState cq, Assignment a, Collection<AdmittedWorkload> others) {
    if (a.mode() == Assignment.NO_FIT) {
      return a;
    }
    a = delayed(wl, cq, a);
    Placement real = null;
    String reason = null;
    if (a.mode() == Assignment.FIT) {
      real = compute(wl, cq, a, others, false);
      if (real.requests.isEmpty()) {
        return a;
      }
      if (real.fits()) {
        return withAssignments(a, real.found);
      }
      if (real.final_) {
        return noFit(a, real.failedPodSet, real.reason);
      }
      reason = "couldn't assign flavors to pod set " + real.failedPodSet + ": " + real.reason;
    }
    Placement empty = compute(wl, cq, a, others, true);
    if (empty.requests.isEmpty()) {
      return a;
    }
    if (!empty.fits()) {
      return real != null ? noFit(a, real.failedPodSet, real.reason) : noFit(a, empty.failedPodSet, empty.reason);
    }
    boolean[] need = a.needPreemption().clone();
    for (PodSetAssignment pa : a.podSets()) {
      if (empty.requests.contains(pa.name())) {
        for (Map.Entry<String, String> f : pa.flavors().entrySet()) {
          int fr = index.of(f.getValue(), f.getKey());
          if (fr >= 0) {
            need[fr] = true;
          }
        }
      }
    }
    String message = reason == null ? a.message() : reason;
    return new Assignment(Assignment.PREEMPT, a.borrowing(), a.podSets(), a.frs(), a.values(), need, message,
        a.lastTriedFlavorIdx());
  }

  /**
   * Whether every pod set of {@code a} in a flavor with a topology fits against the room {@code others} leave (the
   * preemptor's topology check, Kueue's {@code workloadFits}).
   */
  boolean fits(Workload wl, CqState cq, Assignment a, Collection<AdmittedWorkload> others) {
    return compute(wl, cq, a, others, false).fits();
  }

  /**
   * {@code a} with the topology assignments its pod sets get against the room {@code others} leave, or in an empty
   * topology ({@code simulateEmpty}); {@code a} as it is if they do not fit (Kueue's {@code updateAssignmentForTAS}:
   * the assignment a preemptor reserves in the cycle, with its targets gone, or, without targets, as if the topology
   * were empty).
   */
  Assignment withPlacement(Workload wl, CqState cq, Assignment a, Collection<AdmittedWorkload> others,
      boolean simulateEmpty) {
    if (a.mode() == Assignment.NO_FIT) {
      return a;
    }
    Placement p = compute(wl, cq, a, others, simulateEmpty);
    return p.fits() && !p.requests.isEmpty() ? withAssignments(a, p.found) : a;
  }

  /**
   * The topology assignments of a workload's pod sets in flavors with a topology, or the first pod set that does not
   * fit and why.
   *
   * @param requests the pod sets placed in a topology
   * @param final_ whether the failure does not depend on the nodes' room (more than one TAS flavor, a topology
   *     missing), so that preemption cannot help
   */
  private record Placement(Set<String> requests, Map<String, TopologyAssignment> found, @Nullable String failedPodSet,
      @Nullable String reason, boolean final_) {
    boolean fits() {
      return failedPodSet == null;
    }
  }

  /**
   * {@code a} with its pod sets whose topology placement waits for a ProvisioningRequest check marked {@linkplain
   * DelayedTopologyRequest#PENDING pending} (Kueue's {@code podSetTopologyRequest} for a workload without a quota
   * reservation: a pod set asking for a topology, explicitly or implied, whose one flavor with a topology is one a
   * ProvisioningRequest check of the queue applies to). Queues without such checks pay nothing.
   */
  private Assignment delayed(Workload wl, CqState cq, Assignment a) {
    if (cq.provisioningFlavors.isEmpty()) {
      return a;
    }
    boolean tasOnly = tasOnly(cq);
    List<PodSetAssignment> out = null;
    for (int i = 0; i < a.podSets().size(); i++) {
      PodSetAssignment pa = a.podSets().get(i);
      PodSet ps = podSetOf(wl, pa.name());
      if (ps == null || (ps.placementRequest() == null && !tasOnly) || pa.count() == 0
          || pa.delayedTopologyRequest() != null) {
        continue;
      }
      Set<String> tasFlavors = tasFlavors(pa);
      if (tasFlavors.size() != 1 || !cq.provisioningFlavors.contains(tasFlavors.iterator().next())) {
        continue; // more than one: the placement's MultipleTASFlavorsAssignedError
      }
      if (out == null) {
        out = new ArrayList<>(a.podSets());
      }
      out.set(i, pa.withDelayedTopologyRequest(DelayedTopologyRequest.PENDING));
    }
    return out == null ? a
        : new Assignment(a.mode(), a.borrowing(), out, a.frs(), a.values(), a.needPreemption(), a.message(),
            a.lastTriedFlavorIdx());
  }

  private static @Nullable PodSet podSetOf(Workload wl, String name) {
    for (PodSet ps : wl.podSets()) {
      if (ps.name().equals(name)) {
        return ps;
      }
    }
    return null;
  }

  private Set<String> tasFlavors(PodSetAssignment pa) {
    Set<String> out = new LinkedHashSet<>();
    for (String f : pa.flavors().values()) {
      ResourceFlavor rf = flavors.get(f);
      if (rf != null && rf.topologyName() != null) {
        out.add(f);
      }
    }
    return out;
  }

  /**
   * Kueue's second pass for a reservation whose pod sets wait for their delayed topology assignments (every check
   * Ready): those pod sets placed against the room {@code others} leave (the workload's own placed pod sets among
   * them), the quota not checked again (the reservation holds it). The reservation with their assignments and {@link
   * DelayedTopologyRequest#READY}, or {@code null} and the reason in {@code failure}.
   */
  @Nullable QuotaReservation placeDelayed(Workload wl, CqState cq, QuotaReservation reservation,
      Collection<AdmittedWorkload> others, String[] failure) {
    Assignment a = new Assignment(Assignment.FIT, 0, reservation.podSets(), new int[0], new long[0],
        new boolean[0], "");
    Placement p = compute(wl, cq, a, others, false, PodSetAssignment::topologyPending);
    if (!p.fits()) {
      failure[0] = "couldn't assign flavors to pod set " + p.failedPodSet + ": " + p.reason;
      return null;
    }
    List<PodSetAssignment> out = new ArrayList<>();
    for (PodSetAssignment pa : reservation.podSets()) {
      TopologyAssignment ta = p.found.get(pa.name());
      out.add(pa.topologyPending() && ta != null
          ? pa.withTopologyAssignment(ta).withDelayedTopologyRequest(DelayedTopologyRequest.READY) : pa);
    }
    return new QuotaReservation(reservation.workload(), reservation.clusterQueue(), out, reservation.admittedAt(),
        reservation.borrowing());
  }

  private Placement compute(Workload wl, CqState cq, Assignment a, Collection<AdmittedWorkload> others,
      boolean simulateEmpty) {
    // a pod set whose placement is delayed is placed by the second pass
    return compute(wl, cq, a, others, simulateEmpty, pa -> !pa.topologyPending());
  }

  private Placement compute(Workload wl, CqState cq, Assignment a, Collection<AdmittedWorkload> others,
      boolean simulateEmpty, java.util.function.Predicate<PodSetAssignment> placing) {
    boolean tasOnly = tasOnly(cq);
    Map<String, List<TopologyAssigner.Request>> byFlavor = new LinkedHashMap<>();
    Set<String> requests = new LinkedHashSet<>();
    Map<String, PodSet> podSets = new LinkedHashMap<>();
    for (PodSet ps : wl.podSets()) {
      podSets.put(ps.name(), ps);
    }
    for (PodSetAssignment pa : a.podSets()) {
      PodSet ps = podSets.get(pa.name());
      if (ps == null || (ps.placementRequest() == null && !tasOnly) || pa.count() == 0 || !placing.test(pa)) {
        continue;
      }
      Set<String> tasFlavors = tasFlavors(pa);
      if (tasFlavors.isEmpty()) {
        continue;
      }
      requests.add(pa.name());
      if (tasFlavors.size() > 1) {
        // Kueue's onlyTASFlavor / MultipleTASFlavorsAssignedError: the flavors sorted
        return new Placement(requests, Map.of(), pa.name(), "more than one TAS flavor assigned: "
            + String.join(", ", new java.util.TreeSet<>(tasFlavors)), true);
      }
      byFlavor.computeIfAbsent(tasFlavors.iterator().next(), k -> new ArrayList<>()).add(new TopologyAssigner.Request(
          ps.name(), ps.requests(), pa.count(), ps.placementRequest(), ps.nodeSelector(), ps.requiredNodeAffinity(),
          ps.tolerations()));
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
        return new Placement(requests, found, e.getValue().get(0).podSetName(),
            "Flavor \"" + flavor.name() + "\" information missing in TAS cache", true);
      }
      Map<String, ResourceList> tasUsage = simulateEmpty ? new LinkedHashMap<>() : tasUsage(flavor, topology, others);
      Map<String, ResourceList> before = placedSoFar.get(topology.name());
      if (before != null) {
        before.forEach((domain, u) -> tasUsage.merge(domain, u, ResourceList::add));
      }
      TopologyAssigner assigner = new TopologyAssigner(topology, flavor, nodes.values(), nodeUsage, tasUsage);
      for (Map.Entry<String, TopologyAssigner.Result> r : assigner.assign(e.getValue()).entrySet()) {
        if (!r.getValue().fits()) {
          return new Placement(requests, found, r.getKey(), r.getValue().failureReason(), false);
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
    return new Placement(requests, found, null, null, false);
  }

  /**
   * The outcome of a node replacement: the new topology assignments of the pod sets that had pods on the node, or the
   * first pod set whose pods found no replacement and Kueue's message.
   */
  record Replacement(Map<String, TopologyAssignment> found, @Nullable String failure) {
    boolean fits() {
      return failure == null;
    }

    /** {@code admission} with the new topology assignments (the quota and everything else as it was). */
    QuotaReservation applyTo(QuotaReservation admission) {
      List<PodSetAssignment> out = new ArrayList<>();
      for (PodSetAssignment pa : admission.podSets()) {
        TopologyAssignment ta = found.get(pa.name());
        out.add(ta == null ? pa : pa.withTopologyAssignment(ta));
      }
      return new QuotaReservation(admission.workload(), admission.clusterQueue(), out, admission.admittedAt(),
          admission.borrowing());
    }

    /** {@code admission} reduced to the pods the replacement moved away from {@code node}. */
    QuotaReservation movedAway(QuotaReservation admission, String node) {
      List<PodSetAssignment> out = new ArrayList<>();
      for (PodSetAssignment pa : admission.podSets()) {
        TopologyAssignment ta = pa.topologyAssignment();
        if (ta == null || !found.containsKey(pa.name())) {
          continue;
        }
        List<TopologyAssignment.Domain> there = new ArrayList<>();
        for (TopologyAssignment.Domain d : ta.domains()) {
          if (d.values().get(d.values().size() - 1).equals(node)) {
            there.add(d);
          }
        }
        out.add(pa.withTopologyAssignment(new TopologyAssignment(ta.levels(), there)));
      }
      return new QuotaReservation(admission.workload(), admission.clusterQueue(), out, admission.admittedAt(),
          admission.borrowing());
    }
  }

  /**
   * Where the pods an admitted workload had on {@code unhealthyNode} go, for each pod set whose topology assignment
   * names it (Kueue's second pass, {@code FindTopologyAssignmentsForFlavor} with unhealthy nodes), against the room
   * {@code others} leave (the workload itself among them). A pod set placed first takes its room from the ones after.
   */
  Replacement replace(Workload wl, List<PodSetAssignment> admitted, String unhealthyNode,
      Collection<AdmittedWorkload> others) {
    Map<String, TopologyAssignment> found = new LinkedHashMap<>();
    Map<String, Map<String, ResourceList>> placedSoFar = new LinkedHashMap<>();
    for (PodSetAssignment pa : admitted) {
      TopologyAssignment ta = pa.topologyAssignment();
      if (ta == null || !names(ta, unhealthyNode)) {
        continue;
      }
      PodSet ps = wl.podSets().stream().filter(p -> p.name().equals(pa.name())).findFirst().orElse(null);
      ResourceFlavor flavor = tasFlavor(pa);
      Topology topology = flavor == null ? null : topologies.get(flavor.topologyName());
      if (ps == null || flavor == null || topology == null) {
        return new Replacement(found, "couldn't assign flavors to pod set " + pa.name() + ": no TAS flavor or "
            + "topology information for the pod set");
      }
      // a node's room is shared by the flavors of a hostname-lowest topology, else each flavor has its own domains
      String shared = topology.lowestLevelIsHostname() ? "topology:" + topology.name() : "flavor:" + flavor.name();
      Map<String, ResourceList> usage = tasUsage(flavor, topology, others);
      Map<String, ResourceList> before = placedSoFar.get(shared);
      if (before != null) {
        before.forEach((domain, u) -> usage.merge(domain, u, ResourceList::add));
      }
      TopologyAssigner assigner = new TopologyAssigner(topology, flavor, nodes.values(), nodeUsage, usage);
      TopologyAssigner.Request request = new TopologyAssigner.Request(ps.name(), ps.requests(), pa.count(),
          ps.placementRequest(), ps.nodeSelector(), ps.requiredNodeAffinity(), ps.tolerations());
      TopologyAssigner.Result r = assigner.replace(request, ta, unhealthyNode);
      if (!r.fits()) {
        return new Replacement(found, "couldn't assign flavors to pod set " + pa.name() + ": " + r.failureReason());
      }
      TopologyAssignment merged = java.util.Objects.requireNonNull(r.assignment());
      found.put(pa.name(), merged);
      // the pods moved take their new nodes' room from the pod sets after (Kueue's addAssumedUsage)
      TopologyAssignment moved = moved(merged, ta);
      TopologyAssigner.addUsage(placedSoFar.computeIfAbsent(shared, k -> new LinkedHashMap<>()), moved,
          ps.requests());
    }
    return new Replacement(found, null);
  }

  /** Whether the lowest-level value of a domain of {@code ta} is {@code node}. */
  static boolean names(TopologyAssignment ta, String node) {
    for (TopologyAssignment.Domain d : ta.domains()) {
      if (d.values().get(d.values().size() - 1).equals(node)) {
        return true;
      }
    }
    return false;
  }

  /** The pods of {@code after} that {@code before} did not have in the same domain. */
  private static TopologyAssignment moved(TopologyAssignment after, TopologyAssignment before) {
    Map<List<String>, Integer> had = new LinkedHashMap<>();
    for (TopologyAssignment.Domain d : before.domains()) {
      had.merge(d.values(), d.count(), Integer::sum);
    }
    List<TopologyAssignment.Domain> out = new ArrayList<>();
    for (TopologyAssignment.Domain d : after.domains()) {
      int extra = d.count() - had.getOrDefault(d.values(), 0);
      if (extra > 0) {
        out.add(new TopologyAssignment.Domain(d.values(), extra));
      }
    }
    return new TopologyAssignment(after.levels(), out);
  }

  /** The flavor with a topology among a pod set's flavors, or {@code null}. */
  private @Nullable ResourceFlavor tasFlavor(PodSetAssignment pa) {
    for (String f : pa.flavors().values()) {
      ResourceFlavor rf = flavors.get(f);
      if (rf != null && rf.topologyName() != null) {
        return rf;
      }
    }
    return null;
  }

  private static Assignment withAssignments(Assignment a, Map<String, TopologyAssignment> found) {
    List<PodSetAssignment> out = new ArrayList<>(a.podSets().size());
    for (PodSetAssignment pa : a.podSets()) {
      TopologyAssignment ta = found.get(pa.name());
      out.add(ta == null ? pa : pa.withTopologyAssignment(ta));
    }
    return new Assignment(a.mode(), a.borrowing(), out, a.frs(), a.values(), a.needPreemption(), a.message(),
        a.lastTriedFlavorIdx());
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
        new boolean[a.needPreemption().length], "couldn't assign flavors to pod set " + podSet + ": " + reason,
        a.lastTriedFlavorIdx());
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
