package io.fleetkit.queueing.internal;

import io.fleetkit.queueing.PodSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How far a pending workload's flavor search got in its ClusterQueue, so that a later cycle resumes it after the last
 * flavor tried instead of at the first (Kueue's {@code workload.AssignmentClusterQueueState}, kept as {@code
 * Info.LastAssignment}; {@code pkg/workload/workload.go}).
 *
 * <p>{@code lastTriedFlavorIdx} holds, per pod set in the order the assigner reached them, the index within its
 * resource group of the flavor the scan stopped on for each resource that got a flavor; {@value #START_OVER} when the
 * scan reached the group's last flavor (the next scan starts at the first). A pod set the assigner gave no flavors has
 * an empty map, and the pod sets after one that did not fit are not listed. The scan records the index before the
 * topology is placed, so a flavor whose quota fits is recorded even when its topology then does not.
 *
 * <p>The progress is only as good as the state it was computed against: {@link #outdated} discards it (Kueue's
 * {@code scheduler.go} {@code lastAssignmentOutdated}, with {@code FlavorFungibilityPreserveScanProgress} on, its
 * default).
 *
 * @param lastTriedFlavorIdx per pod set, resource name to the index of the last flavor tried, or {@value #START_OVER}
 * @param clusterQueueGeneration the queue's {@link CqState#allocatableGeneration} when the scan ran
 * @param schedulingCycle the scheduling cycle the scan ran in
 * @param shape the workload's pod sets (Kueue's scheduling equivalence hash: the indices only mean something for the
 *     requests they were computed for)
 */
record FlavorScanProgress(
    List<Map<String, Integer>> lastTriedFlavorIdx, long clusterQueueGeneration, long schedulingCycle,
    List<PodSet> shape) {
  /** The recorded index of a scan that reached its group's last flavor: the next scan starts at the first. */
  static final int START_OVER = -1;

  FlavorScanProgress {
    List<Map<String, Integer>> copy = new ArrayList<>(lastTriedFlavorIdx.size());
    for (Map<String, Integer> m : lastTriedFlavorIdx) {
      copy.add(Map.copyOf(m));
    }
    lastTriedFlavorIdx = List.copyOf(copy);
    shape = List.copyOf(shape);
  }

  /**
   * Whether a flavor after the last tried one is left for some pod set and resource (Kueue's {@code PendingFlavors}):
   * a workload that is requeued with flavors left goes back to the active queue at once, not to the inadmissible
   * workloads ({@code pkg/cache/queue/cluster_queue.go} {@code requeueIfNotPresent}).
   */
  boolean pendingFlavors() {
    for (Map<String, Integer> podSet : lastTriedFlavorIdx) {
      for (int idx : podSet.values()) {
        if (idx != START_OVER) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * The index of the first flavor to try for {@code resource} of the pod set at {@code podSet} (Kueue's {@code
   * NextFlavorToTryForPodSetResource}): the one after the last tried, 0 if none was recorded or the scan reached the
   * last flavor. The index may be past the group's flavors if the queue's spec changed since; then none is tried.
   */
  int nextFlavorToTry(int podSet, String resource) {
    if (podSet >= lastTriedFlavorIdx.size()) {
      return 0;
    }
    Integer idx = lastTriedFlavorIdx.get(podSet).get(resource);
    return idx == null ? 0 : idx + 1;
  }

  /**
   * Whether the progress no longer describes the current state and the search must start over (Kueue's {@code
   * lastAssignmentOutdated} with {@code FlavorFungibilityPreserveScanProgress}, which is on by default): the workload's
   * pod sets changed (checked first: even progress from the preceding cycle is then discarded); else progress from the
   * current or the immediately preceding cycle is kept whatever the generation (a busy cohort advances it on every
   * eviction, which would otherwise discard progress before it is used); else the queue's generation advanced since.
   */
  boolean outdated(long currentGeneration, long currentCycle, List<PodSet> currentShape) {
    if (!shape.equals(currentShape)) {
      return true;
    }
    if (currentCycle - schedulingCycle <= 1) {
      return false;
    }
    return currentGeneration > clusterQueueGeneration;
  }
}
