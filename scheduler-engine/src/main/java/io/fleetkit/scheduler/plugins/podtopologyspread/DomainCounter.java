package io.fleetkit.scheduler.plugins.podtopologyspread;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.scheduling.NodeInclusionPolicy;
import io.fleetkit.api.scheduling.RequiredNodeAffinity;
import io.fleetkit.scheduler.nodetable.NodeTable;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * Counts matching pods per topology domain for PreFilter (upstream calPreFilterState) and PreScore (upstream
 * PreScore's processAllNode), with the caches that make this cheap across cycles: per-node counts and, when no
 * constraint needs a per-pod eligibility check, running per-domain sums, both kept by the {@link SelectorCounts}, and
 * shared domain indexes ({@link DomainIndexCache}).
 *
 * <p>Thread-safe: the index is used under its monitor, one acquisition per pod.
 */
final class DomainCounter {
  private final SelectorCounts selectorCounts = new SelectorCounts();
  private static final int[] NO_COUNTS = new int[0];
  /**
   * The per-position counts {@link #soft} gives its first hostname constraint, reused from call to call: a pod's
   * Score reads them before the next pod's PreScore (cycles are one at a time), and {@link #softCalls} tells a
   * reader whether a later call has written over them.
   */
  private int[] hostnameScratch = NO_COUNTS;
  private volatile long softCalls;
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
    synchronized (selectorCounts) {
      selectorCounts.sync(nodes, table);
      SelectorCounts.@Nullable Tracked[] counters = counters(cs, ns);
      if (trivialEligibility(cs, affinity, counters)) {
        String[] keys = requiredKeys(cs);
        for (int i = 0; i < cs.length; i++) {
          domains[i] = selectorCounts.sums(counters[i], keys, cs[i].topologyKey()).toCounts();
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
            SelectorCounts.@Nullable Tracked counter = counters[i];
            if (counter != null) {
              domains[i].addRaw(slot, selectorCounts.count(counter, n));
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
   * replay its change log when no constraint needs a per-pod eligibility check. {@code byNode}, when given, receives
   * for each hostname constraint the matching pods of every node of {@code all} by position.
   */
  @Nullable DomainCounts[] soft(Pod pod, SpreadConstraint[] cs, boolean requireAll, List<NodeInfo> feasible,
      List<NodeInfo> all, @Nullable NodeTable table, int[] ignored, int[] @Nullable [] byNode) {
    @Nullable DomainCounts[] counts = new DomainCounts[cs.length];
    for (int i = 0; i < cs.length; i++) {
      counts[i] = cs[i].isHostname() ? null : new DomainCounts(domainIndexes.get(cs[i].topologyKey(), all.size()));
    }
    RequiredNodeAffinity affinity = RequiredNodeAffinity.fromAffinity(pod.spec().nodeSelector(), pod.spec().affinity());
    synchronized (selectorCounts) {
      selectorCounts.sync(all, table);
      SelectorCounts.@Nullable Tracked[] counters = counters(cs, pod.metadata().namespace());
      if (trivialEligibility(cs, affinity, counters)) {
        String[] keys = requireAll ? requiredKeys(cs) : NO_KEYS;
        SelectorCounts.@Nullable DomainSums[] sums = new SelectorCounts.DomainSums[cs.length];
        for (int i = 0; i < cs.length; i++) {
          if (counts[i] != null) {
            sums[i] = selectorCounts.sums(counters[i], keys, cs[i].topologyKey());
          }
        }
        registerFeasible(cs, requireAll, feasible, counts, sums, all.size(), ignored);
        for (int i = 0; i < cs.length; i++) {
          DomainCounts d = counts[i];
          if (d != null) {
            SelectorCounts.DomainSums t = sums[i];
            for (Map.Entry<String, Integer> e : d.index().entrySet()) {
              if (d.slot(e.getKey()) >= 0) {
                d.addRaw(e.getValue(), t.total(e.getKey()));
              }
            }
          }
        }
      } else {
        registerFeasible(cs, requireAll, feasible, counts, null, all.size(), ignored);
        addCounts(pod, cs, requireAll, all, affinity, counts, counters);
      }
      if (byNode != null) {
        boolean scratchTaken = false;
        for (int i = 0; i < cs.length; i++) {
          if (counts[i] == null && counters[i] != null) {
            if (scratchTaken) {
              byNode[i] = selectorCounts.perPosition(counters[i], all.size(), NO_COUNTS);
            } else {
              hostnameScratch = selectorCounts.perPosition(counters[i], all.size(), hostnameScratch);
              byNode[i] = hostnameScratch;
              scratchTaken = true;
            }
          } else if (counts[i] == null) {
            byNode[i] = new int[all.size()];
          }
        }
      }
      softCalls++;
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
   * How many {@link #soft} calls have returned: per-position counts given by the call that left it at {@code n} are
   * as given while it still is {@code n}.
   */
  long softCalls() {
    return softCalls;
  }

  /**
   * Registers in {@code counts} the domain of every feasible node holding the required keys, counting the others in
   * {@code ignored[0]}. With {@code sums} (the running sums over all {@code allSize} nodes, for every non-hostname
   * constraint), the walk stops once every domain of the cluster is registered, when no node can be ignored (every
   * node holds the required keys): the rest of the feasible nodes can add no domain and ignore none.
   */
  private static void registerFeasible(SpreadConstraint[] cs, boolean requireAll, List<NodeInfo> feasible,
      @Nullable DomainCounts[] counts, SelectorCounts.@Nullable DomainSums @Nullable [] sums, int allSize,
      int[] ignored) {
    boolean mayStop = sums != null;
    if (mayStop && requireAll) {
      // every layout here has the same required keys; without one (hostname constraints only), nothing tells
      mayStop = false;
      for (int i = 0; i < cs.length; i++) {
        SelectorCounts.DomainSums t = sums[i];
        if (t != null) {
          mayStop = t.placed() == allSize;
          break;
        }
      }
    }
    for (int n = 0, size = feasible.size(); n < size; n++) {
      Map<String, String> labels = feasible.get(n).labels();
      if (requireAll && !SpreadConstraint.nodeHasAllKeys(labels, cs)) {
        ignored[0]++;
        continue;
      }
      boolean complete = mayStop;
      for (int i = 0; i < cs.length; i++) {
        DomainCounts d = counts[i];
        if (d != null) {
          d.register(labels.getOrDefault(cs[i].topologyKey(), ""));
          if (complete && d.size() < Objects.requireNonNull(sums)[i].domains()) {
            complete = false;
          }
        }
      }
      if (complete) {
        return;
      }
    }
  }

  /**
   * Adds to {@code counts} the matching pods of every node of {@code all} eligible for each constraint (upstream
   * PreScore's processAllNode).
   */
  private void addCounts(Pod pod, SpreadConstraint[] cs, boolean requireAll, List<NodeInfo> all,
      RequiredNodeAffinity affinity, @Nullable DomainCounts[] counts, SelectorCounts.@Nullable Tracked[] counters) {
    for (int n = 0, size = all.size(); n < size; n++) {
      NodeInfo node = all.get(n);
      Map<String, String> labels = node.labels();
      if (requireAll && !SpreadConstraint.nodeHasAllKeys(labels, cs)) {
        continue;
      }
      for (int i = 0; i < cs.length; i++) {
        DomainCounts d = counts[i];
        SelectorCounts.@Nullable Tracked counter = counters[i];
        if (d == null || counter == null || !cs[i].matchNodeInclusionPolicies(pod, node, affinity)) {
          continue;
        }
        int slot = d.slot(labels.getOrDefault(cs[i].topologyKey(), ""));
        if (slot >= 0) {
          d.addRaw(slot, selectorCounts.count(counter, n));
        }
      }
    }
  }

  /** The cached counter of each constraint's selector; {@code null} for selectors matching nothing. */
  private SelectorCounts.@Nullable Tracked[] counters(SpreadConstraint[] cs, String ns) {
    SelectorCounts.@Nullable Tracked[] out = new SelectorCounts.Tracked[cs.length];
    for (int i = 0; i < cs.length; i++) {
      out[i] = cs[i].selector().matchesNothing() ? null : selectorCounts.track(cs[i].selector(), ns);
    }
    return out;
  }

  /**
   * Whether eligibility is just "holds every topology key" for all constraints: no node affinity to honor, no taints
   * to honor, and every selector can match (so running totals exist for it).
   */
  private static boolean trivialEligibility(SpreadConstraint[] cs, RequiredNodeAffinity affinity,
      SelectorCounts.@Nullable Tracked[] counters) {
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
    if (cs.length == 1) {
      return new String[] {cs[0].topologyKey()};
    }
    TreeSet<String> keys = new TreeSet<>();
    for (SpreadConstraint c : cs) {
      keys.add(c.topologyKey());
    }
    return keys.toArray(new String[0]);
  }
}
