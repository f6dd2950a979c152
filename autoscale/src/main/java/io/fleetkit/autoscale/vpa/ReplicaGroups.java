package io.fleetkit.autoscale.vpa;

import io.fleetkit.api.apps.DaemonSet;
import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.ReplicationController;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.store.ObjectStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A VPA's live pods grouped by the controller that manages them, each group with its own
 * {@link PodsEvictionRestriction} for one updater pass (upstream's {@code GetCreatorMaps} in
 * {@code pkg/updater/restriction/pods_restriction_factory.go}). A group's configured replicas are its controller's:
 * a ReplicaSet's, ReplicationController's or StatefulSet's {@code spec.replicas}, a DaemonSet's {@code status.numberReady}, a Job's live pods;
 * another kind of controller has none (0). Left out, so that none of their pods is disrupted: pods without a
 * controller, groups with fewer live pods than {@code minReplicas}, and groups whose controller is gone or has no
 * replicas (0 configured, 0 ready). A Deployment's pods are grouped by ReplicaSet, so during a rollout each version
 * has a tolerance of its own, as upstream.
 */
final class ReplicaGroups {
  private static final Logger LOG = LoggerFactory.getLogger(ReplicaGroups.class);

  /** A pod's managing controller, as upstream's {@code podReplicaCreator} (the namespace is the VPA's). */
  private record Creator(String kind, String name) {}

  private final Map<String, PodsEvictionRestriction> byPod;

  private ReplicaGroups(Map<String, PodsEvictionRestriction> byPod) {
    this.byPod = byPod;
  }

  /**
   * The groups of {@code livePods} (pods of one namespace that are not being deleted).
   *
   * @param minReplicas the fewest live pods a group needs to be touched at all
   * @param evictionTolerance the fraction of a group's configured replicas that may be down at once, in [0, 1]
   */
  static ReplicaGroups of(ObjectStore store, List<Pod> livePods, int minReplicas, double evictionTolerance) {
    Map<Creator, List<Pod>> groups = new LinkedHashMap<>();
    for (Pod p : livePods) {
      OwnerReference c = p.metadata().controllerRef();
      if (c == null) {
        LOG.debug("vpa: pod {} is not managed by any controller", p.metadata().key());
        continue;
      }
      groups.computeIfAbsent(new Creator(c.kind(), c.name()), k -> new ArrayList<>()).add(p);
    }
    Map<String, PodsEvictionRestriction> byPod = new HashMap<>();
    groups.forEach((creator, pods) -> {
      String namespace = pods.get(0).metadata().namespace();
      if (pods.size() < minReplicas) {
        LOG.debug("vpa: too few replicas of {} {}/{}: {} live, {} required", creator.kind(), namespace,
            creator.name(), pods.size(), minReplicas);
        return;
      }
      Integer configured = creator.kind().equals(Job.KIND) ? Integer.valueOf(pods.size())
          : configuredReplicas(store, namespace, creator);
      if (configured == null) {
        return;
      }
      PodsEvictionRestriction r = PodsEvictionRestriction.of(configured, pods, minReplicas, evictionTolerance);
      for (Pod p : pods) {
        byPod.put(p.metadata().key(), r);
      }
    });
    return new ReplicaGroups(byPod);
  }

  /** Upstream's {@code getReplicaCount}; null when it fails (the controller is gone or has no replicas). */
  private static @Nullable Integer configuredReplicas(ObjectStore store, String namespace, Creator creator) {
    int n;
    switch (creator.kind()) {
      case ReplicaSet.KIND -> n = store.get(ReplicaSet.class, namespace, creator.name())
          .map(r -> r.spec().replicas()).orElse(0);
      case ReplicationController.KIND -> n = store.get(ReplicationController.class, namespace, creator.name())
          .map(r -> r.spec().replicas()).orElse(0);
      case StatefulSet.KIND -> n = store.get(StatefulSet.class, namespace, creator.name())
          .map(s -> s.spec().replicas()).orElse(0);
      case DaemonSet.KIND -> n = store.get(DaemonSet.class, namespace, creator.name())
          .map(d -> d.status().numberReady()).orElse(0);
      default -> {
        return 0;
      }
    }
    if (n == 0) {
      LOG.debug("vpa: {} {}/{} is gone or has no replicas", creator.kind(), namespace, creator.name());
      return null;
    }
    return n;
  }

  /** The restriction of {@code pod}'s group, or null when no pod of it may be disrupted in this pass. */
  @Nullable PodsEvictionRestriction of(Pod pod) {
    return byPod.get(pod.metadata().key());
  }

  /** Whether no pod may be disrupted in this pass. */
  boolean isEmpty() {
    return byPod.isEmpty();
  }
}
