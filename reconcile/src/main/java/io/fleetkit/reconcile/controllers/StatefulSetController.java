package io.fleetkit.reconcile.controllers;

import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.reconcile.ControllerHandle;
import io.fleetkit.reconcile.controllers.internal.OrphanEvents;
import io.fleetkit.reconcile.controllers.internal.StatefulSetReconciler;

/**
 * Keeps the pods of every {@link StatefulSet}, as Kubernetes' StatefulSet controller: pods with stable names
 * {@code NAME-<start>..NAME-<start+N-1>} ({@code spec.ordinals.start}, 0 by default; pods of other ordinals are
 * deleted) (labels {@value WorkloadLabels#STATEFULSET_POD_NAME} and {@value WorkloadLabels#POD_INDEX};
 * hostname and subdomain in annotations {@value WorkloadLabels#HOSTNAME} and {@value WorkloadLabels#SUBDOMAIN}), a
 * claim {@code <template>-NAME-<ordinal>} per volumeClaimTemplate created before the pod, kept or handed to the
 * garbage collector as {@code spec.persistentVolumeClaimRetentionPolicy} says (the set, or a scaled-away pod, as the
 * claim's controller; the collector must watch PersistentVolumeClaim, Pod and StatefulSet), OrderedReady or Parallel
 * pod management, RollingUpdate with partition or OnDelete, revisions as
 * {@link io.fleetkit.api.apps.ControllerRevision} objects owned by the set (named in label
 * {@value WorkloadLabels#CONTROLLER_REVISION_HASH} and {@code status.currentRevision/updateRevision}; reused on
 * rollback; all but {@code spec.revisionHistoryLimit} non-live ones deleted). A garbage collector that watches
 * ControllerRevision deletes them with the set. Its pods are those its selector matches, named as its members, that
 * it controls: orphans among them are adopted (one appearing wakes every set whose selector matches it), and
 * controlled pods that stop matching are released.
 *
 * <p>RollingUpdate keeps at most {@code spec.updateStrategy.rollingUpdate.maxUnavailable} replicas unavailable
 * (default 1), as upstream since {@code MaxUnavailableStatefulSet} went on by default (Kubernetes 1.35). Metrics
 * ({@link #builder}{@code .metrics(registry)}): {@link io.fleetkit.reconcile.metrics.StatefulSetMetrics}.
 *
 * <p>Thread-safe. In stepping mode drive it with {@link #runUntilIdle()} on one thread.
 */
public final class StatefulSetController extends ControllerHandle<StatefulSet> {
  private StatefulSetController(Builder b) {
    this(b, new OrphanEvents<StatefulSet, Pod>(set -> OrphanEvents.nonEmpty(set.spec().selector())));
  }

  private StatefulSetController(Builder b, OrphanEvents<StatefulSet, Pod> orphans) {
    super(b.buildController(StatefulSet.class, cb -> cb.reconciler(new StatefulSetReconciler(b.metricsRegistry()))
        .owns(Pod.class)
        .handler(Pod.class, orphans)));
    orphans.bind(controller());
  }

  /** A builder for a StatefulSet controller over {@code store}. */
  public static Builder builder(ObjectStore store) {
    return new Builder(store);
  }

  /**
   * Configures a {@link StatefulSetController}: default name {@code statefulset}; the clock drives queue delays and
   * minReadySeconds. Not thread-safe.
   */
  public static final class Builder extends WorkloadControllerBuilder<Builder, StatefulSetController> {
    private Builder(ObjectStore store) {
      super(store, "StatefulSetController", "statefulset");
    }

    @Override
    public StatefulSetController build() {
      return new StatefulSetController(this);
    }
  }
}
