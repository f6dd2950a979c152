package io.fleetkit.autoscale.cluster;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * The nodes a drain simulation found unremovable, each with the time until which scale-down does not simulate it
 * again (upstream {@code core/scaledown/unremovable/nodes.go}; the time is the simulation's plus
 * {@code --unremovable-node-recheck-timeout}, 5 minutes by default). Not thread-safe: owned by one autoscaler.
 */
final class UnremovableNodes {
  private Map<String, Instant> ttls = new HashMap<>();

  /** Forgets the nodes no longer in the cluster ({@code exists} false) and those whose time is not after {@code now}. */
  void update(Predicate<String> exists, Instant now) {
    if (ttls.isEmpty()) {
      return;
    }
    Map<String, Instant> kept = new HashMap<>(ttls.size() * 2);
    for (Map.Entry<String, Instant> e : ttls.entrySet()) {
      if (exists.test(e.getKey()) && e.getValue().isAfter(now)) {
        kept.put(e.getKey(), e.getValue());
      }
    }
    ttls = kept;
  }

  /** Records {@code node} as unremovable until {@code until}. */
  void addTimeout(String node, Instant until) {
    ttls.put(Objects.requireNonNull(node, "node"), Objects.requireNonNull(until, "until"));
  }

  /** Whether {@code node} was found unremovable recently (its time has not passed at the last update). */
  boolean isRecent(String node) {
    return ttls.containsKey(node);
  }

  /** The recently unremovable nodes, by name. */
  Set<String> recent() {
    return ttls.isEmpty() ? Set.of() : new TreeSet<>(ttls.keySet());
  }

  int size() {
    return ttls.size();
  }
}
