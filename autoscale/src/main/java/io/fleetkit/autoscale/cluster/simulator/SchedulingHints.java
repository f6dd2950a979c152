package io.fleetkit.autoscale.cluster.simulator;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.PodInfo;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Past placements of a simulation, which a later one tries first (cluster-autoscaler
 * {@code simulator/scheduling/hints.go}): a map from a pod to the node it was last placed on, whose entries live for
 * two generations. {@link #dropOld()} ends a generation: what was set before the previous call is forgotten. The
 * autoscaler's scale-down planner ends one after each evaluation, so a pod is first tried on the node the previous
 * evaluation moved it to ({@link SimulatedCluster#placeAll(java.util.List, int[], int, SchedulingHints)}); its
 * scale-up filter, with hints of its own, ends one after each loop ({@link SimulatedCluster#placeOnHint},
 * {@link SimulatedCluster#placeFrom}).
 *
 * <p>A pod is known by its UID, or {@code namespace/name} when it has none ({@code HintKeyFromPod}). Each key has one
 * entry holding its node and the generation that set it (upstream's two maps, current and old, as one with
 * generations); a {@link SimulationPodInfo} keeps its pod's entry, so that a placement of the same pod object finds its
 * hint without hashing its UID. Entries older than the previous generation are dropped every
 * {@value #PURGE_EVERY} generations. Not thread-safe.
 */
public final class SchedulingHints {
  private static final int NONE = Integer.MIN_VALUE / 2;
  private static final int PURGE_EVERY = 16;

  /** One key's hint: its node and the generation that set it, and the node's slot where a simulation found it. */
  static final class Entry {
    final SchedulingHints owner;
    @Nullable String node;
    int generation = NONE;
    boolean dropped;
    /** The {@link SimulatedCluster#id} of the simulation the slot is of (0: none); not the simulation, not to keep it. */
    long simId;
    int slotEpoch;
    int slot = -1;

    Entry(SchedulingHints owner) {
      this.owner = owner;
    }
  }

  private final Map<String, Entry> entries = new HashMap<>();
  private int generation;

  /** The key of {@code pod}: its UID, or {@code namespace/name} without one. */
  public static String key(Pod pod) {
    String uid = pod.metadata().uid();
    return uid != null && !uid.isEmpty() ? uid : pod.metadata().namespace() + "/" + pod.metadata().name();
  }

  /** The node hinted for {@code key}, set in this generation or the previous one; {@code null} when none. */
  public @Nullable String get(String key) {
    Entry e = entries.get(key);
    return e == null ? null : hinted(e);
  }

  /** Hints node {@code node} for {@code key} in this generation. */
  public void set(String key, String node) {
    set(entries.computeIfAbsent(key, k -> new Entry(this)), node, 0, 0, -1);
  }

  /** Ends a generation: the hints set before the previous call are forgotten ({@code DropOld}). */
  public void dropOld() {
    generation++;
    if (generation % PURGE_EVERY == 0) {
      for (Iterator<Entry> it = entries.values().iterator(); it.hasNext(); ) {
        Entry e = it.next();
        if (e.generation < generation - 1) {
          e.dropped = true; // a pod view still keeping it looks its key up again
          it.remove();
        }
      }
    }
  }

  /** The entry of {@code pod}'s key: the one its view keeps, else looked up (and kept on the view). */
  Entry entry(PodInfo pod) {
    SimulationPodInfo s = pod instanceof SimulationPodInfo v ? v : null;
    if (s != null && s.hintNote() instanceof Entry e && e.owner == this && !e.dropped) {
      return e;
    }
    Entry e = entries.computeIfAbsent(key(pod.pod()), k -> new Entry(this));
    if (s != null) {
      s.hintNote(e);
    }
    return e;
  }

  /** {@code e}'s node when it was set in this generation or the previous one, else {@code null}. */
  @Nullable String hinted(Entry e) {
    return e.generation >= generation - 1 ? e.node : null;
  }

  /**
   * Sets {@code e} to {@code node} in this generation, found in slot {@code slot} of the simulation numbered
   * {@code simId} (0: none) while its slots were those of {@code slotEpoch}.
   */
  void set(Entry e, String node, long simId, int slotEpoch, int slot) {
    e.node = node;
    e.generation = generation;
    e.simId = simId;
    e.slotEpoch = slotEpoch;
    e.slot = slot;
  }
}
