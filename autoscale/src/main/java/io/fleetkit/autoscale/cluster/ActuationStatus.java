package io.fleetkit.autoscale.cluster;

import io.fleetkit.api.core.Pod;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What scale-down actuation is doing, as the planner reads it (upstream's {@code scaledown.ActuationStatus}, kept by
 * its {@code NodeDeletionTracker}): the nodes whose deletion is in progress and the pods evicted recently. The
 * planner leaves the nodes being deleted out of the candidates and of the pods' destinations, and first places their
 * pods and the recently evicted ones in its simulation (upstream's {@code injectRecentlyEvictedPods}), so that the
 * capacity those pods will need again is not counted as free.
 *
 * <p>The autoscaler's {@link ScaleDownActuator} reports the nodes whose drain or deletion is in progress (a drain
 * waiting for its pods spans loops); it keeps no recent evictions, as upstream's autoscaler, whose tracker it builds
 * with a zero eviction TTL. Other values come from tests (upstream's {@code fakeActuationStatus}).
 *
 * @param deletionsInProgress the names of the nodes being deleted (upstream's empty and drained ones together)
 * @param recentEvictions the pods evicted recently, as they were on their node
 */
record ActuationStatus(Set<String> deletionsInProgress, List<Pod> recentEvictions) {
  /** Nothing in progress and nothing evicted recently. */
  static final ActuationStatus NONE = new ActuationStatus(Set.of(), List.of());

  /** The annotation naming the source of a static pod (anything but {@code api}), as upstream's {@code IsStaticPod}. */
  static final String CONFIG_SOURCE_ANNOTATION = "kubernetes.io/config.source";

  ActuationStatus {
    deletionsInProgress = Set.copyOf(deletionsInProgress);
    recentEvictions = List.copyOf(recentEvictions);
  }

  /**
   * The pods of {@code pods} that a controller recreates elsewhere: not static, mirror or DaemonSet pods (upstream's
   * {@code FilterRecreatablePods}), in order.
   */
  static List<Pod> recreatable(List<Pod> pods) {
    List<Pod> out = new ArrayList<>(pods.size());
    for (Pod p : pods) {
      String source = p.metadata().annotations().get(CONFIG_SOURCE_ANNOTATION);
      boolean isStatic = source != null && !source.equals("api");
      boolean mirror = p.metadata().annotations().containsKey(Drainability.MIRROR_ANNOTATION);
      boolean daemon = TemplateNodes.isDaemonSetPod(p);
      if (!isStatic && !mirror && !daemon) {
        out.add(p);
      }
    }
    return out;
  }

  /** Whether this status holds nothing to inject or leave out. */
  boolean isEmpty() {
    return deletionsInProgress.isEmpty() && recentEvictions.isEmpty();
  }
}
