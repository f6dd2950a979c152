package io.fleetkit.optimizer.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The construction: gang-aware first-fit-decreasing with best fit. Units (a gang's unplaced members, or one pod)
 * go largest GPU demand first; a gang places all the members it can (inside one domain of its topology label when it
 * has one: the first domain, by name, that holds enough; a preferred topology falls back to any node) and keeps them
 * only if enough to run; each pod goes to the feasible node with the least GPU then CPU left afterwards. Feasibility
 * is exactly the constraints' (the same {@link DevicePacker}), so the result is a feasible starting point for the
 * local search. Pods that already have a node (defragmentation) are left where they are.
 */
final class Greedy {
  private final List<NodeFact> nodes;
  private final long[] cpuUsed;
  private final long[] memUsed;
  private final long[] gpuUsed;
  private final List<List<PodSlot>> onNode;

  private Greedy(PlacementSolution s) {
    nodes = s.getNodes();
    cpuUsed = new long[nodes.size()];
    memUsed = new long[nodes.size()];
    gpuUsed = new long[nodes.size()];
    onNode = new ArrayList<>();
    for (int i = 0; i < nodes.size(); i++) {
      onNode.add(new ArrayList<>());
    }
    for (PodSlot p : s.getPods()) {
      NodeFact n = p.getNode();
      if (n != null) {
        add(p, n);
      }
    }
  }

  /** Assigns nodes to the unassigned slots of {@code s} in place. */
  static void construct(PlacementSolution s) {
    Greedy g = new Greedy(s);
    Map<Object, List<PodSlot>> units = new LinkedHashMap<>();
    for (PodSlot p : s.getPods()) {
      if (p.getNode() == null) {
        units.computeIfAbsent(p.gang != null ? p.gang : p, k -> new ArrayList<>()).add(p);
      }
    }
    List<List<PodSlot>> order = new ArrayList<>(units.values());
    Comparator<PodSlot> bySize = Comparator.comparingLong(PodSlot::gpuMilli).thenComparingLong(p -> p.cpu).reversed();
    order.forEach(u -> u.sort(bySize.thenComparing(p -> p.key)));
    order.sort(Comparator.<List<PodSlot>>comparingLong(u -> u.stream().mapToLong(PodSlot::gpuMilli).sum())
        .thenComparingLong(u -> u.stream().mapToLong(p -> p.cpu).sum()).reversed()
        .thenComparing(u -> u.get(0).key));
    for (List<PodSlot> unit : order) {
      GangFact gang = unit.get(0).gang;
      if (gang == null) {
        g.placeBest(unit.get(0), g.nodes);
      } else {
        g.placeGang(gang, unit);
      }
    }
  }

  private void placeGang(GangFact gang, List<PodSlot> members) {
    if (gang.topologyKey != null) {
      Map<String, List<NodeFact>> domains = new TreeMap<>();
      for (NodeFact n : nodes) {
        domains.computeIfAbsent(gang.domainOf(n), k -> new ArrayList<>()).add(n);
      }
      for (List<NodeFact> domain : domains.values()) {
        if (tryGang(gang, members, domain)) {
          return;
        }
      }
      if (gang.topologyRequired) {
        return;
      }
    }
    tryGang(gang, members, nodes);
  }

  private boolean tryGang(GangFact gang, List<PodSlot> members, List<NodeFact> candidates) {
    List<PodSlot> placed = new ArrayList<>();
    for (PodSlot p : members) {
      if (placeBest(p, candidates)) {
        placed.add(p);
      }
    }
    if (placed.size() >= gang.needed()) {
      return true;
    }
    for (PodSlot p : placed) {
      remove(p);
    }
    return false;
  }

  private boolean placeBest(PodSlot p, List<NodeFact> candidates) {
    NodeFact best = null;
    long bestGpu = 0;
    long bestCpu = 0;
    for (NodeFact n : candidates) {
      if (!fits(p, n)) {
        continue;
      }
      long gpuLeft = n.freeGpuMilli() - gpuUsed[n.index] - p.gpuMilli();
      long cpuLeft = n.cpuFree - cpuUsed[n.index] - p.cpu;
      if (best == null || gpuLeft < bestGpu || (gpuLeft == bestGpu && cpuLeft < bestCpu)) {
        best = n;
        bestGpu = gpuLeft;
        bestCpu = cpuLeft;
      }
    }
    if (best == null) {
      return false;
    }
    p.setNode(best);
    add(p, best);
    return true;
  }

  private boolean fits(PodSlot p, NodeFact n) {
    int i = n.index;
    if (!p.allowedOn(n) || cpuUsed[i] + p.cpu > n.cpuFree || memUsed[i] + p.mem > n.memFree) {
      return false;
    }
    if (p.gpuMilli() == 0) {
      return true;
    }
    if (gpuUsed[i] + p.gpuMilli() > n.freeGpuMilli()) {
      return false;
    }
    List<PodSlot> with = new ArrayList<>(onNode.get(i));
    with.add(p);
    return DevicePacker.pack(n, with).overflow() == 0;
  }

  private void add(PodSlot p, NodeFact n) {
    cpuUsed[n.index] += p.cpu;
    memUsed[n.index] += p.mem;
    gpuUsed[n.index] += p.gpuMilli();
    onNode.get(n.index).add(p);
  }

  private void remove(PodSlot p) {
    @Nullable NodeFact n = p.getNode();
    if (n == null) {
      return;
    }
    cpuUsed[n.index] -= p.cpu;
    memUsed[n.index] -= p.mem;
    gpuUsed[n.index] -= p.gpuMilli();
    onNode.get(n.index).remove(p);
    p.setNode(null);
  }
}
