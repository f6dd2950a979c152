package io.fleetkit.scheduler.plugins.podtopologyspread;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.scheduling.NodeInclusionPolicy;
import io.fleetkit.api.scheduling.RequiredNodeAffinity;
import io.fleetkit.scheduler.nodetable.NodeTable;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * Counts matching pods per topology domain for PreFilter (upstream calPreFilterState) and PreScore (upstream
 * PreScore's processAllNode), with the caches that make this cheap across cycles: per-node counts
 * ({@link MatchCountCache}), shared domain indexes ({@link DomainIndexCache}) and, when no constraint needs a per-pod
 * eligibility check, running per-domain totals ({@link DomainTotals}) refreshed only where nodes changed.
 *
 * <p>Thread-safe: the caches are used under the {@link MatchCountCache} monitor, one acquisition per pod.
 */
final class DomainCounter {
  private final MatchCountCache matchCounts = new MatchCountCache();
  private final DomainIndexCache domainIndexes = new DomainIndexCache();

  /**
   * The eligible domains of every constraint with their matching-pod counts: a node is eligible when it holds all
   * topology keys and passes the constraint's node inclusion policies. {@code table}, when {@code nodes} are its,
   * lets the running totals replay its change log instead of walking every node.
   */
  DomainCounts[] hard(Pod pod, SpreadConstraint[] cs, RequiredNodeAffinity affinity, List<NodeInfo> nodes,
      @Nullable NodeTable table) {
    String ns = pod.metadata().namespace();
    DomainCounts[] domains = new DomainCounts[cs.length];
    synchronized (matchCounts) {
      MatchCountCache.@Nullable PerSelector[] counters = counters(cs, ns);
      if (trivialEligibility(cs, affinity, counters)) {
        String[] keys = requiredKeys(cs);
        for (int i = 0; i < cs.length; i++) {
          domains[i] = counters[i].totals(keys, cs[i].topologyKey(), nodes, table).toCounts();
        }
        return domains;
      }
      for (int i = 0; i < cs.length; i++) {
        domains[i] = new DomainCounts(domainIndexes.get(cs[i].topologyKey(), nodes.size()));
      }
      for (int n = 0, size = nodes.size(); n < size; n++) {
        NodeInfo node = nodes.get(n);
        Map<String, String> labels = node.labels();
        if (!SpreadConstraint.nodeHasAllKeys(labels, cs)) {
          continue;
        }
        for (int i = 0; i < cs.length; i++) {
          if (cs[i].matchNodeInclusionPolicies(pod, node, affinity)) {
            int slot = domains[i].register(labels.get(cs[i].topologyKey()));
            MatchCountCache.@Nullable PerSelector counter = counters[i];
            if (counter != null) {
              domains[i].addRaw(slot, counter.count(n, node));
            }
          }
        }
      }
    }
    for (int i = 0; i < cs.length; i++) {
      domains[i].recomputeMin();
      domainIndexes.publish(cs[i].topologyKey(), domains[i].index());
    }
    return domains;
  }

  /**
   * For scoring: per non-hostname constraint, the domains of the non-ignored feasible nodes (a missing key counts as
   * the value "" when not every key is required), with the matching pods of all eligible nodes in those domains;
   * {@code null} for hostname constraints (counted per node in Score). {@code ignored[0]} receives the number of
   * feasible nodes lacking a required key. {@code table}, when {@code all} are its nodes, lets the running totals
   * replay its change log when no constraint needs a per-pod eligibility check.
   */
  @Nullable DomainCounts[] soft(Pod pod, SpreadConstraint[] cs, boolean requireAll, List<NodeInfo> feasible,
      List<NodeInfo> all, @Nullable NodeTable table, int[] ignored) {
    @Nullable DomainCounts[] counts = new DomainCounts[cs.length];
    for (int i = 0; i < cs.length; i++) {
      counts[i] = cs[i].isHostname() ? null : new DomainCounts(domainIndexes.get(cs[i].topologyKey(), all.size()));
    }
    for (NodeInfo node : feasible) {
      Map<String, String> labels = node.labels();
      if (requireAll && !SpreadConstraint.nodeHasAllKeys(labels, cs)) {
        ignored[0]++;
        continue;
      }
      for (int i = 0; i < cs.length; i++) {
        DomainCounts d = counts[i];
        if (d != null) {
          d.register(labels.getOrDefault(cs[i].topologyKey(), ""));
        }
      }
    }
    RequiredNodeAffinity affinity = RequiredNodeAffinity.fromAffinity(pod.spec().nodeSelector(), pod.spec().affinity());
    synchronized (matchCounts) {
      MatchCountCache.@Nullable PerSelector[] counters = counters(cs, pod.metadata().namespace());
      if (trivialEligibility(cs, affinity, counters)) {
        String[] keys = requireAll ? requiredKeys(cs) : NO_KEYS;
        for (int i = 0; i < cs.length; i++) {
          DomainCounts d = counts[i];
          if (d != null) {
            DomainTotals t = counters[i].totals(keys, cs[i].topologyKey(), all, table);
            for (Map.Entry<String, Integer> e : d.index().entrySet()) {
              if (d.slot(e.getKey()) >= 0) {
                d.addRaw(e.getValue(), t.total(e.getKey()));
              }
            }
          }
        }
      } else {
        addCounts(pod, cs, requireAll, all, affinity, counts, counters);
      }
    }
    for (int i = 0; i < cs.length; i++) {
      DomainCounts d = counts[i];
      if (d != null) {
        domainIndexes.publish(cs[i].topologyKey(), d.index());
      }
    }
    return counts;
  }

  /**
   * Adds to {@code counts} the matching pods of every node of {@code all} eligible for each constraint (upstream
   * PreScore's processAllNode).
   */
  private static void addCounts(Pod pod, SpreadConstraint[] cs, boolean requireAll, List<NodeInfo> all,
      RequiredNodeAffinity affinity, @Nullable DomainCounts[] counts,
      MatchCountCache.@Nullable PerSelector[] counters) {
    for (int n = 0, size = all.size(); n < size; n++) {
      NodeInfo node = all.get(n);
      Map<String, String> labels = node.labels();
      if (requireAll && !SpreadConstraint.nodeHasAllKeys(labels, cs)) {
        continue;
      }
      for (int i = 0; i < cs.length; i++) {
        DomainCounts d = counts[i];
        MatchCountCache.@Nullable PerSelector counter = counters[i];
        if (d == null || counter == null || !cs[i].matchNodeInclusionPolicies(pod, node, affinity)) {
          continue;
        }
        int slot = d.slot(labels.getOrDefault(cs[i].topologyKey(), ""));
        if (slot >= 0) {
          d.addRaw(slot, counter.count(n, node));
        }
      }
    }
  }

  /** The cached counter of each constraint's selector; {@code null} for selectors matching nothing. */
  private MatchCountCache.@Nullable PerSelector[] counters(SpreadConstraint[] cs, String ns) {
    MatchCountCache.@Nullable PerSelector[] out = new MatchCountCache.PerSelector[cs.length];
    for (int i = 0; i < cs.length; i++) {
      out[i] = cs[i].selector().matchesNothing() ? null : matchCounts.forSelector(cs[i].selector(), ns);
    }
    return out;
  }

  /**
   * Whether eligibility is just "holds every topology key" for all constraints: no node affinity to honor, no taints
   * to honor, and every selector can match (so running totals exist for it).
   */
  private static boolean trivialEligibility(SpreadConstraint[] cs, RequiredNodeAffinity affinity,
      MatchCountCache.@Nullable PerSelector[] counters) {
    for (int i = 0; i < cs.length; i++) {
      if (counters[i] == null || cs[i].nodeTaintsPolicy() == NodeInclusionPolicy.Honor
          || (cs[i].nodeAffinityPolicy() == NodeInclusionPolicy.Honor && !affinity.isEmpty())) {
        return false;
      }
    }
    return true;
  }

  private static final String[] NO_KEYS = new String[0];

  private static String[] requiredKeys(SpreadConstraint[] cs) {
    TreeSet<String> keys = new TreeSet<>();
    for (SpreadConstraint c : cs) {
      keys.add(c.topologyKey());
    }
    return keys.toArray(new String[0]);
  }
}
