package io.fleetkit.reconcile.controllers;

import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.apps.DeploymentStrategyType;
import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.WatchEventType;
import io.fleetkit.reconcile.ControllerHandle;
import io.fleetkit.reconcile.Lister;
import io.fleetkit.reconcile.ObjectKey;
import io.fleetkit.reconcile.controllers.internal.DeploymentReconciler;
import io.fleetkit.reconcile.controllers.internal.OrphanEvents;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Rolls Deployments out through ReplicaSets, as Kubernetes' Deployment controller: one ReplicaSet per template
 * ({@code NAME-HASH}, label {@value WorkloadLabels#POD_TEMPLATE_HASH}), revision annotations
 * ({@value WorkloadLabels#REVISION}), RollingUpdate within maxSurge/maxUnavailable or Recreate, history trimmed to
 * {@code revisionHistoryLimit}, {@code paused}, and {@code progressDeadlineSeconds} (Progressing=False, reason
 * {@value WorkloadLabels#REASON_PROGRESS_DEADLINE_EXCEEDED}). Pods are made by a {@link ReplicaSetController},
 * which must run beside it. ReplicaSets are claimed as pods are by a ReplicaSet: orphans the selector matches are
 * adopted (one appearing wakes every Deployment whose selector matches it), controlled ones that stop matching are
 * released. {@link #rollback} is {@code kubectl rollout undo}.
 *
 * <p>Thread-safe. In stepping mode drive it with {@link #runUntilIdle()} on one thread.
 */
public final class DeploymentController extends ControllerHandle<Deployment> {
  private DeploymentController(Builder b) {
    this(b, new OrphanEvents<Deployment, ReplicaSet>(d -> OrphanEvents.nonEmpty(d.spec().selector())));
  }

  private DeploymentController(Builder b, OrphanEvents<Deployment, ReplicaSet> orphans) {
    super(b.buildController(Deployment.class, cb -> {
      ObjectStore store = b.store();
      cb.reconciler(new DeploymentReconciler()).owns(ReplicaSet.class).handler(ReplicaSet.class, orphans)
          .watches(Pod.class, Set.of(WatchEventType.DELETED), (pod, pods) -> deletedPod(store, pod, pods));
    }));
    orphans.bind(controller());
  }

  /**
   * Upstream's {@code deletePod}: a deleted pod wakes its Deployment (through its ReplicaSet, both matched by uid)
   * only if the Deployment's strategy is Recreate and none of its pods is left, which is what a Recreate rollout
   * waits for before it scales the new ReplicaSet up. Other pod changes reach the Deployment through its
   * ReplicaSets' status.
   *
   * @param pods the pod cache, which no longer holds {@code pod}
   */
  static List<ObjectKey> deletedPod(ObjectStore store, Pod pod, Lister<Pod> pods) {
    Deployment d = deploymentOf(store, pod);
    if (d == null || d.spec().strategy().type() != DeploymentStrategyType.Recreate) {
      return List.of();
    }
    String ns = d.metadata().namespace();
    // upstream's getPodMapForDeployment over its ReplicaSets: pods of the selector each one controls
    LabelSelector selector = d.spec().selector();
    for (ReplicaSet rs : store.list(ReplicaSet.class, ns, selector).items()) {
      if (!rs.metadata().isControlledBy(d.metadata().uid())) {
        continue;
      }
      for (Pod p : pods.byIndex(Lister.CONTROLLER_INDEX, rs.metadata().uid())) {
        if (p.metadata().namespace().equals(ns) && selector.matches(p.metadata().labels())) {
          return List.of();
        }
      }
    }
    return List.of(ObjectKey.of(d));
  }

  /** Upstream's {@code getDeploymentForPod}: the pod's controlling ReplicaSet's controlling Deployment. */
  private static @Nullable Deployment deploymentOf(ObjectStore store, Pod pod) {
    OwnerReference ref = pod.metadata().controllerRef();
    if (ref == null || !ref.kind().equals(ReplicaSet.KIND)) {
      return null;
    }
    String ns = pod.metadata().namespace();
    ReplicaSet rs = store.get(ReplicaSet.class, ns, ref.name()).orElse(null);
    if (rs == null || !rs.metadata().uid().equals(ref.uid())) {
      return null;
    }
    OwnerReference owner = rs.metadata().controllerRef();
    if (owner == null || !owner.kind().equals(Deployment.KIND)) {
      return null;
    }
    Deployment d = store.get(Deployment.class, ns, owner.name()).orElse(null);
    return d != null && d.metadata().uid().equals(owner.uid()) ? d : null;
  }

  /** A builder for a Deployment controller over {@code store}. */
  public static Builder builder(ObjectStore store) {
    return new Builder(store);
  }

  /**
   * Rolls {@code namespace/name} back to the template of revision {@code toRevision}, as {@code kubectl rollout
   * undo --to-revision}: the template of the ReplicaSet with that revision is copied into the Deployment, whose
   * controller then makes that ReplicaSet the new one with the next revision number.
   *
   * @param toRevision the revision, or 0 for the one before the current
   * @return the updated Deployment (unchanged if that revision's template is already current)
   * @throws NotFoundException if the Deployment or the revision does not exist
   * @throws IllegalArgumentException if {@code toRevision} is negative
   * @throws io.fleetkit.api.ConflictException if the Deployment changed concurrently; read again and retry
   */
  public static Deployment rollback(ObjectStore store, String namespace, String name, long toRevision) {
    if (toRevision < 0) {
      throw new IllegalArgumentException("deployment " + namespace + "/" + name
          + ": rollback revision must not be negative but was " + toRevision);
    }
    Deployment d = store.require(Deployment.class, namespace, name);
    List<ReplicaSet> owned = new ArrayList<>();
    for (ReplicaSet rs : store.list(ReplicaSet.class, namespace).items()) {
      if (rs.metadata().isControlledBy(d.metadata().uid())) {
        owned.add(rs);
      }
    }
    Map<Long, ReplicaSet> byRevision = DeploymentReconciler.revisions(owned);
    long target = toRevision;
    if (target == 0) {
      List<Long> revs = new ArrayList<>(byRevision.keySet());
      if (revs.size() < 2) {
        throw new NotFoundException("deployment " + namespace + "/" + name
            + ": no rollout history found to roll back to");
      }
      target = revs.get(revs.size() - 2);
    }
    ReplicaSet rs = byRevision.get(target);
    if (rs == null) {
      throw new NotFoundException("deployment " + namespace + "/" + name + ": unable to find specified revision "
          + target + " in history " + byRevision.keySet());
    }
    return store.update(d.withSpec(DeploymentReconciler.specWithTemplateOf(d, rs)));
  }

  /**
   * Configures a {@link DeploymentController}: default name {@code deployment}; the clock drives queue delays and
   * progress deadlines. Not thread-safe.
   */
  public static final class Builder extends WorkloadControllerBuilder<Builder, DeploymentController> {
    private Builder(ObjectStore store) {
      super(store, "DeploymentController", "deployment");
    }

    @Override
    public DeploymentController build() {
      return new DeploymentController(this);
    }
  }
}
