package io.fleetkit.scheduler.plugins.podtopologyspread;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Value-to-slot indexes of topology domains, one per topology key, shared by the cycle states of successive pods so
 * that PreFilter does not rebuild a hash map of every domain (one per node for {@code kubernetes.io/hostname}) for
 * each pod. A published index is never changed: {@link DomainCounts} copies it before adding a value, and the grown
 * copy is published back here. Values of vanished nodes linger harmlessly (they are only domains when an eligible
 * node has them); an index grown past four times the cluster size is dropped and rebuilt. Thread-safe.
 */
final class DomainIndexCache {
  private static final int MAX_KEYS = 64;

  private final Map<String, HashMap<String, Integer>> byKey = new ConcurrentHashMap<>();

  /** The current index for {@code topologyKey} (never changed by anyone; copy before adding). */
  HashMap<String, Integer> get(String topologyKey, int clusterSize) {
    HashMap<String, Integer> index = byKey.get(topologyKey);
    if (index == null || index.size() > 4 * Math.max(16, clusterSize)) {
      index = new HashMap<>();
    }
    return index;
  }

  /** Publishes the index a build ended with (possibly grown from the one {@link #get} returned). */
  void publish(String topologyKey, HashMap<String, Integer> index) {
    if (byKey.get(topologyKey) == index) {
      return; // unchanged: most pods add no domain value
    }
    if (byKey.size() >= MAX_KEYS && !byKey.containsKey(topologyKey)) {
      byKey.clear();
    }
    byKey.put(topologyKey, index);
  }
}
