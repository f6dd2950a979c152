package io.fleetkit.autoscale.cluster;

import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.ReplicationController;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.store.ObjectStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Which recently evicted pods their controller has not recreated yet (upstream's {@code filterOutRecreatedPods} and
 * {@code controllerReplicasCalculator}, {@code core/scaledown/planner/controller.go}): for a pod of a ReplicaSet,
 * ReplicationController, StatefulSet or Job found in the store, at most {@code target - current} pods of that
 * controller are kept (target and current: a ReplicaSet's or ReplicationController's {@code spec.replicas} and
 * {@code status.replicas}, a StatefulSet's {@code spec.replicas}
 * and {@code status.currentReplicas}, a Job's {@code parallelism}, capped by the completions not yet succeeded, and
 * {@code status.active}); a pod of another controller, of one not found, or with none is kept, to be safe.
 */
final class ControllerReplicas {
  private ControllerReplicas() {}

  /** The pods of {@code pods} not yet recreated, in order. */
  static List<Pod> notRecreated(List<Pod> pods, ObjectStore store) {
    List<Pod> out = new ArrayList<>();
    Map<String, Integer> added = new HashMap<>();
    for (Pod pod : pods) {
      OwnerReference owner = knownOwner(pod);
      int[] replicas = owner == null ? null : replicas(owner, pod.metadata().namespace(), store);
      if (replicas == null) {
        out.add(pod);
        continue;
      }
      int missing = replicas[0] - replicas[1];
      if (missing > 0 && added.getOrDefault(owner.uid(), 0) < missing) {
        out.add(pod);
        added.merge(owner.uid(), 1, Integer::sum);
      }
    }
    return out;
  }

  /** The first owner of a kind whose recreation upstream knows (upstream's {@code getKnownOwnerRef}), or null. */
  private static @Nullable OwnerReference knownOwner(Pod pod) {
    for (OwnerReference o : pod.metadata().ownerReferences()) {
      switch (o.kind()) {
        case "StatefulSet", "Job", "ReplicaSet", "ReplicationController" -> {
          return o;
        }
        default -> { }
      }
    }
    return null;
  }

  /** {target, current} of {@code owner} in {@code namespace}, or null when it is not found or not handled. */
  private static int @Nullable [] replicas(OwnerReference owner, String namespace, ObjectStore store) {
    switch (owner.kind()) {
      case "ReplicaSet" -> {
        return store.get(ReplicaSet.class, namespace, owner.name())
            .map(rs -> new int[] {rs.spec().replicas(), rs.status().replicas()}).orElse(null);
      }
      case "ReplicationController" -> {
        return store.get(ReplicationController.class, namespace, owner.name())
            .map(rc -> new int[] {rc.spec().replicas(), rc.status().replicas()}).orElse(null);
      }
      case "StatefulSet" -> {
        return store.get(StatefulSet.class, namespace, owner.name())
            .map(s -> new int[] {s.spec().replicas(), s.status().currentReplicas()}).orElse(null);
      }
      case "Job" -> {
        return store.get(Job.class, namespace, owner.name()).map(j -> {
          int target = j.spec().parallelism();
          Integer completions = j.spec().completions();
          if (completions != null && completions - j.status().succeeded() < target) {
            target = completions - j.status().succeeded();
          }
          return new int[] {target, j.status().active()};
        }).orElse(null);
      }
      default -> {
        return null; // as upstream for a controller it cannot read
      }
    }
  }
}
