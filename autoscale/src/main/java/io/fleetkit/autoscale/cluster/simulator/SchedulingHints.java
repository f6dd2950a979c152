package io.fleetkit.autoscale.cluster.simulator;

import io.fleetkit.api.core.Pod;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Past placements of a simulation, which a later one tries first (cluster-autoscaler
 * {@code simulator/scheduling/hints.go}): a map from a pod to the node it was last placed on, whose entries live for
 * two generations. {@link #dropOld()} ends a generation: what was set before the previous call is forgotten. The
 * autoscaler's scale-down planner ends one after each evaluation, so a pod is first tried on the node the previous
 * evaluation moved it to ({@link SimulatedCluster#placeAll(java.util.List, int[], int, SchedulingHints)}).
 *
 * <p>A pod is known by its UID, or {@code namespace/name} when it has none ({@code HintKeyFromPod}). Not
 * thread-safe.
 */
public final class SchedulingHints {
  private Map<String, String> current = new HashMap<>();
  private Map<String, String> old = new HashMap<>();

  /** The key of {@code pod}: its UID, or {@code namespace/name} without one. */
  public static String key(Pod pod) {
    String uid = pod.metadata().uid();
    return uid != null && !uid.isEmpty() ? uid : pod.metadata().namespace() + "/" + pod.metadata().name();
  }

  /** The node hinted for {@code key}, set in this generation or the previous one; {@code null} when none. */
  public @Nullable String get(String key) {
    String v = current.get(key);
    return v != null ? v : old.get(key);
  }

  /** Hints node {@code node} for {@code key} in this generation. */
  public void set(String key, String node) {
    current.put(key, node);
  }

  /** Ends a generation: the hints set before the previous call are forgotten ({@code DropOld}). */
  public void dropOld() {
    int size = old.size();
    old = current;
    current = new HashMap<>(Math.max(16, size * 4 / 3 + 1));
  }
}
