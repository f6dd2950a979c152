package io.fleetkit.scheduler.plugins.coscheduling;

import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.Snapshot;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Preemption for a whole gang: the fewest, least important lower-priority "units" whose eviction lets every member
 * still to be placed fit at once, or nothing. A unit is a pod, or all pods of another gang (a victim in a gang is
 * evicted with its whole gang, since a gang missing a member cannot run). Greedy, as kube's victim selection: units
 * in ascending priority (smaller first, then by key) are added until the gang fits, then each chosen unit, most
 * important first, is given back if the gang still fits without it (upstream's "reprieve").
 */
final class GangPreemption {
  /** The plan: the node to nominate the failing member to, and every pod to evict. */
  record Plan(String nominatedNode, List<String> victims) {}

  private record Unit(String key, int priority, List<PodInfo> pods) {}

  private GangPreemption() {}

  /**
   * @param member the member that failed (the gang's priority is its priority)
   * @param need members still to place
   * @param ownReserved keys of the gang's members whose reservations are being released (their room counts)
   */
  static @Nullable Plan plan(PodInfo member, int need, Set<String> ownReserved, Snapshot snapshot) {
    return plan(member, need, ownReserved, snapshot, n -> true);
  }

  /**
   * A plan for a gang that must run in one topology domain (node label {@code labelKey}): the domain whose plan
   * evicts the fewest pods (ties by domain name), or {@code null}.
   */
  static @Nullable Plan planInOneDomain(PodInfo member, int need, Set<String> ownReserved, Snapshot snapshot,
      String labelKey) {
    java.util.TreeSet<String> domains = new java.util.TreeSet<>();
    for (NodeInfo ni : snapshot.nodes()) {
      String d = ni.labels().get(labelKey);
      if (d != null) {
        domains.add(d);
      }
    }
    Plan best = null;
    for (String d : domains) {
      Plan p = plan(member, need, ownReserved, snapshot, ni -> d.equals(ni.labels().get(labelKey)));
      if (p != null && (best == null || p.victims().size() < best.victims().size())) {
        best = p;
      }
    }
    return best;
  }

  /** As {@link #plan(PodInfo, int, Set, Snapshot)}, the gang placed only on nodes {@code within} accepts. */
  static @Nullable Plan plan(PodInfo member, int need, Set<String> ownReserved, Snapshot snapshot,
      java.util.function.Predicate<NodeInfo> within) {
    if (need <= 0) {
      return null;
    }
    String ns = member.pod().metadata().namespace();
    String group = member.pod().podGroupName();
    int priority = member.priority();
    MemberFit fit = new MemberFit(member);
    List<NodeInfo> nodes = snapshot.nodes().stream().filter(n -> within.test(n) && fit.eligible(n)).toList();
    Map<String, long[]> free = new HashMap<>();
    Map<String, NodeInfo> nodeOfPod = new HashMap<>();
    Map<String, Unit> units = new LinkedHashMap<>();
    Map<String, Integer> unitMax = new HashMap<>();
    for (NodeInfo ni : snapshot.nodes()) {
      long[] f = fit.free(ni);
      for (PodInfo p : ni.pods()) {
        if (ownReserved.contains(p.key())) {
          fit.giveBack(f, p);
        }
      }
      free.put(ni.name(), f);
      for (PodInfo p : ni.pods()) {
        String g = p.pod().podGroupName();
        boolean own = g != null && g.equals(group) && p.pod().metadata().namespace().equals(ns);
        if (own) {
          continue;
        }
        nodeOfPod.put(p.key(), ni);
        String unitKey = g == null ? p.key() : p.pod().metadata().namespace() + "/" + g + " (gang)";
        units.computeIfAbsent(unitKey, k -> new Unit(k, Integer.MIN_VALUE, new ArrayList<>())).pods().add(p);
        unitMax.merge(unitKey, p.priority(), Math::max);
      }
    }
    List<Unit> candidates = new ArrayList<>();
    for (Unit u : units.values()) {
      int max = unitMax.get(u.key());
      if (max < priority) {
        candidates.add(new Unit(u.key(), max, u.pods()));
      }
    }
    candidates.sort(Comparator.comparingInt(Unit::priority).thenComparingInt((Unit u) -> u.pods().size())
        .thenComparing(Unit::key));
    if (copies(fit, nodes, free) >= need) {
      return null; // it fits without evictions: fragmentation or a filter stops it, not capacity
    }
    List<Unit> chosen = new ArrayList<>();
    java.util.Set<String> inScope = new java.util.HashSet<>();
    nodes.forEach(n -> inScope.add(n.name()));
    for (Unit u : candidates) {
      if (u.pods().stream().noneMatch(p -> inScope.contains(nodeOfPod.get(p.key()).name()))) {
        continue; // evicting it frees nothing the gang can use
      }
      chosen.add(u);
      apply(fit, u, free, nodeOfPod, +1);
      if (copies(fit, nodes, free) >= need) {
        break;
      }
    }
    if (copies(fit, nodes, free) < need) {
      return null;
    }
    for (int i = chosen.size() - 1; i >= 0; i--) {
      Unit u = chosen.get(i);
      apply(fit, u, free, nodeOfPod, -1);
      if (copies(fit, nodes, free) >= need) {
        chosen.remove(i);
      } else {
        apply(fit, u, free, nodeOfPod, +1);
      }
    }
    List<String> victims = new ArrayList<>();
    for (Unit u : chosen) {
      u.pods().forEach(p -> victims.add(p.key()));
    }
    String nominated = nodes.stream().filter(n -> fit.copies(free.get(n.name())) > 0).map(NodeInfo::name).sorted()
        .findFirst().orElseThrow();
    return new Plan(nominated, victims);
  }

  /** Frees ({@code sign} +1) or takes back (-1) what the unit's pods hold on their nodes. */
  private static void apply(MemberFit fit, Unit u, Map<String, long[]> free, Map<String, NodeInfo> nodeOfPod,
      int sign) {
    for (PodInfo p : u.pods()) {
      long[] f = free.get(nodeOfPod.get(p.key()).name());
      if (sign > 0) {
        fit.giveBack(f, p);
      } else {
        fit.takeAgain(f, p);
      }
    }
  }

  private static long copies(MemberFit fit, List<NodeInfo> nodes, Map<String, long[]> free) {
    long n = 0;
    for (NodeInfo ni : nodes) {
      n += fit.copies(free.get(ni.name()));
    }
    return n;
  }
}
