package io.fleetkit.autoscale.hpa;

import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.core.ReplicationController;
import io.fleetkit.api.rollouts.Rollout;
import io.fleetkit.api.autoscaling.CrossVersionObjectReference;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.store.ObjectStore;
import java.util.Objects;

/**
 * The {@code scale} subresource of a workload, as the HPA sees it: the wanted replicas, the observed replicas and
 * the pod selector. Deployments, ReplicaSets, StatefulSets and Argo Rollouts (whose {@code scale} subresource is
 * {@code spec.replicas}, {@code status.replicas} and the rollout's selector, as Argo's CRD declares it) of an
 * {@link ObjectStore} are supported.
 *
 * @param specReplicas {@code spec.replicas}
 * @param statusReplicas {@code status.replicas}
 */
public record TargetScale(int specReplicas, int statusReplicas, LabelSelector selector) {
  /** The kinds with a scale subresource here, as the refusal names them. */
  private static final String SCALABLE = "(Deployment, ReplicaSet, ReplicationController, StatefulSet, Rollout)";

  public TargetScale {
    Objects.requireNonNull(selector, "selector");
  }

  /**
   * Reads the scale of {@code ref}.
   *
   * @throws NotFoundException when the object does not exist
   * @throws IllegalArgumentException when the kind has no scale subresource here
   */
  public static TargetScale read(ObjectStore store, String namespace, CrossVersionObjectReference ref) {
    return of(target(store, namespace, ref));
  }

  /**
   * The object {@code ref} names: a Deployment, ReplicaSet, ReplicationController, StatefulSet or Rollout.
   *
   * @throws NotFoundException when the object does not exist
   * @throws IllegalArgumentException when the kind has no scale subresource here
   */
  static Object target(ObjectStore store, String namespace, CrossVersionObjectReference ref) {
    return switch (ref.kind()) {
      case Deployment.KIND -> store.require(Deployment.class, namespace, ref.name());
      case ReplicaSet.KIND -> store.require(ReplicaSet.class, namespace, ref.name());
      case ReplicationController.KIND -> store.require(ReplicationController.class, namespace, ref.name());
      case StatefulSet.KIND -> store.require(StatefulSet.class, namespace, ref.name());
      case Rollout.KIND -> store.require(Rollout.class, namespace, ref.name());
      default -> throw new IllegalArgumentException("scale target " + namespace + "/" + ref
          + ": kind \"" + ref.kind() + "\" has no scale subresource " + SCALABLE);
    };
  }

  /** The scale of a {@link #target}. */
  static TargetScale of(Object target) {
    if (target instanceof Deployment d) {
      return new TargetScale(d.spec().replicas(), d.status().replicas(), d.spec().selector());
    }
    if (target instanceof ReplicaSet r) {
      return new TargetScale(r.spec().replicas(), r.status().replicas(), r.spec().selector());
    }
    if (target instanceof Rollout r) {
      return new TargetScale(r.spec().replicas(), r.status().replicas(), r.spec().selector());
    }
    if (target instanceof ReplicationController rc) {
      // upstream's scale subresource of a replication controller: its equality selector as a label selector
      return new TargetScale(rc.spec().replicas(), rc.status().replicas(), LabelSelector.of(rc.spec().selector()));
    }
    StatefulSet s = (StatefulSet) target;
    return new TargetScale(s.spec().replicas(), s.status().replicas(), s.spec().selector());
  }

  /**
   * Sets {@code spec.replicas} of {@code ref} (an optimistic update of the object last read).
   *
   * @throws io.fleetkit.api.ConflictException when the object changed concurrently
   * @throws NotFoundException when the object does not exist
   */
  public static void write(ObjectStore store, String namespace, CrossVersionObjectReference ref, int replicas) {
    switch (ref.kind()) {
      case Deployment.KIND -> {
        Deployment d = store.require(Deployment.class, namespace, ref.name());
        store.update(d.withSpec(d.spec().withReplicas(replicas)));
      }
      case ReplicaSet.KIND -> {
        ReplicaSet r = store.require(ReplicaSet.class, namespace, ref.name());
        store.update(r.withSpec(r.spec().withReplicas(replicas)));
      }
      case ReplicationController.KIND -> {
        ReplicationController rc = store.require(ReplicationController.class, namespace, ref.name());
        store.update(rc.withSpec(rc.spec().withReplicas(replicas)));
      }
      case StatefulSet.KIND -> {
        StatefulSet s = store.require(StatefulSet.class, namespace, ref.name());
        store.update(s.withSpec(s.spec().withReplicas(replicas)));
      }
      case Rollout.KIND -> {
        Rollout r = store.require(Rollout.class, namespace, ref.name());
        store.update(r.withSpec(r.spec().withReplicas(replicas)));
      }
      default -> throw new IllegalArgumentException("scale target " + namespace + "/" + ref
          + ": kind \"" + ref.kind() + "\" has no scale subresource " + SCALABLE);
    }
  }
}
