package io.fleetkit.autoscale.cluster;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.autoscale.cluster.simulator.SchedulingHints;
import io.fleetkit.autoscale.cluster.simulator.SimulatedCluster;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The scale-up step that keeps, of the pending pods, those that fit no existing or upcoming node (cluster-autoscaler's
 * {@code filterOutSchedulablePodListProcessor}, {@code filterOutSchedulableByPacking}). The pods are placed in a
 * simulation one by one, highest priority first, as upstream's {@code HintingSimulator.TrySchedulePods} places them
 * without {@code breakOnFailure}. The pods of one priority are placed in two passes:
 *
 * <ol>
 *   <li>each pod, in order, on the node it was placed on by one of the last two calls (its hint, by UID:
 *       {@link SimulatedCluster#placeOnHint});
 *   <li>then each pod that did not fit on its hint (or had none), in order, unless a similar pod
 *       ({@link SimilarPods}: same controller, labels and spec but for projected volumes, hostname and {@code env})
 *       fitted nowhere earlier in the same call (upstream's {@code SimilarPodsScheduling}), on the first node that
 *       fits, searched round-robin
 *       ({@link SimulatedCluster#placeFrom}): each search starts past the node the previous search found, in this
 *       call or before it (the position is the caller's, shared with its scale-down simulations and kept across
 *       loops, as upstream's plugin runner keeps its {@code lastIndex}).
 * </ol>
 *
 * <p>So the pods with a hint that still fits take their nodes before a pod of their priority is searched for. A pod
 * placed stays in the simulation for the pods after it, and the node it went to becomes its hint. Each call
 * ends a generation of hints ({@code DropOldHints}), so a pod keeps the node the previous loop put it on while it
 * still fits there, even where a search would find another. The filter keeps its own hints, as upstream's processor
 * has its own simulator. Not thread-safe.
 */
final class SchedulablePodsFilter {
  /** Highest priority first (upstream sorts by priority only); then oldest, then by key, for a stable order. */
  static final Comparator<Pod> ORDER = Comparator.comparingInt(Pod::priority).reversed()
      .thenComparing(p -> p.metadata().creationTimestamp(), Comparator.nullsFirst(Comparator.naturalOrder()))
      .thenComparing(p -> p.metadata().key());

  private final SchedulingHints hints = new SchedulingHints();

  /**
   * Places the pods of {@code candidates} that fit in {@code sim} (in {@link #ORDER}) and returns the others in that
   * order; ends a generation of hints.
   *
   * @param cursor the slot the next search starts at ({@link SimulatedCluster#placeFrom}), moved past each node a
   *     search finds: the autoscaler's round-robin position, which its scale-down simulations share and which outlives
   *     the call (upstream's plugin runner keeps one for the autoscaler's lifetime)
   */
  List<Pod> unschedulable(SimulatedCluster sim, List<Pod> candidates, int[] cursor) {
    return unschedulable(sim, candidates, cursor, null);
  }

  /**
   * {@link #unschedulable(SimulatedCluster, List, int[])}, telling {@code placed} where each pod that fits went: the
   * node's name and the pods placed on it, in placement order (upstream's filter leaves them on those nodes in the
   * autoscaler's cluster snapshot, where scale-down's simulations find them).
   *
   * @param placed the map to add the placements to; {@code null}: none kept
   */
  List<Pod> unschedulable(SimulatedCluster sim, List<Pod> candidates, int[] cursor,
      @Nullable Map<String, List<Pod>> placed) {
    List<Pod> pods = new ArrayList<>(candidates);
    pods.sort(ORDER);
    // upstream's SimilarPodsScheduling: the kinds of pods that fitted nowhere in this call
    SimilarPods<Boolean> similarFailed = new SimilarPods<>();
    List<Pod> unschedulable = new ArrayList<>();
    List<PodInfo> withoutHint = new ArrayList<>();
    for (int g = 0, n = pods.size(); g < n; ) {
      int end = g + 1;
      while (end < n && pods.get(end).priority() == pods.get(g).priority()) {
        end++;
      }
      // the group's hints first (upstream's tryScheduleWithHints), then the searches (tryScheduleWithoutHints)
      withoutHint.clear();
      for (Pod p : pods.subList(g, end)) {
        PodInfo pi = PodInfos.of(p);
        int at = sim.placeOnHint(pi, hints);
        if (at < 0) {
          withoutHint.add(pi);
        } else {
          record(sim, at, p, placed);
        }
      }
      for (PodInfo pi : withoutHint) {
        Pod p = pi.pod();
        if (similarFailed.find(p) != null) {
          unschedulable.add(p); // the search is skipped, not the hint (upstream's trySchedule)
        } else {
          int at = sim.placeFrom(pi, cursor, hints);
          if (at < 0) {
            unschedulable.add(p);
            similarFailed.remember(p, Boolean.TRUE);
          } else {
            record(sim, at, p, placed);
          }
        }
      }
      g = end;
    }
    hints.dropOld();
    return unschedulable;
  }

  private static void record(SimulatedCluster sim, int slot, Pod p, @Nullable Map<String, List<Pod>> placed) {
    if (placed != null) {
      String node = java.util.Objects.requireNonNull(sim.nodeInfoAt(slot)).name();
      placed.computeIfAbsent(node, k -> new ArrayList<>()).add(p);
    }
  }

  /** The filter's hints (tests set them as upstream's tests set its simulator's). */
  SchedulingHints hints() {
    return hints;
  }

  /** A call without candidates: ends a generation of hints, as upstream's filter run on an empty list does. */
  void noCandidates() {
    hints.dropOld();
  }
}
