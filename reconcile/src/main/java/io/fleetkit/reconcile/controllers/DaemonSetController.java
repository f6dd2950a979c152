package io.fleetkit.reconcile.controllers;

import io.fleetkit.api.apps.DaemonSet;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.reconcile.ControllerHandle;
import io.fleetkit.reconcile.controllers.internal.DaemonSetNodeEvents;
import io.fleetkit.reconcile.controllers.internal.DaemonSetReconciler;
import io.fleetkit.reconcile.controllers.internal.FailedPodsBackoff;
import io.fleetkit.reconcile.controllers.internal.OrphanEvents;
import java.util.List;

/**
 * Keeps one pod of every {@link DaemonSet} on each node that should run it, as Kubernetes' DaemonSet controller. A
 * node should run the pod when the template's {@code nodeName} (if set), node selector and required node affinity
 * match it and the template's tolerations, with those every daemon pod gets (not-ready and unreachable NoExecute
 * without {@code tolerationSeconds}; disk-, memory-, pid-pressure and unschedulable NoSchedule), tolerate its
 * NoSchedule and NoExecute taints; a pod already there stays while no NoExecute taint is untolerated. Resources and
 * ports are left to the scheduler: pods are created unbound, pinned by the node affinity
 * {@code matchFields metadata.name In [node]}, with a generated name ({@code NAME-xxxxx}), a controller owner
 * reference, the daemon tolerations, and labels {@value WorkloadLabels#CONTROLLER_REVISION_HASH} (and
 * {@value WorkloadLabels#POD_TEMPLATE_GENERATION} when the set carries annotation
 * {@value WorkloadLabels#DEPRECATED_TEMPLATE_GENERATION}).
 *
 * <p>Pods on nodes that must not keep them are deleted; failed pods are deleted with a per-node exponential backoff
 * (1 s to 15 min) and a {@code FailedDaemonPod} warning, succeeded ones at once; of several pods on a node the
 * oldest stays. RollingUpdate replaces old pods so that at most {@code maxUnavailable} nodes lack an available pod,
 * or with {@code maxSurge} starts a new pod beside the old one on at most that many nodes and deletes the old one
 * once the new one has been ready for {@code minReadySeconds}; OnDelete replaces a pod only when it is deleted.
 * Revisions are {@link io.fleetkit.api.apps.ControllerRevision} objects owned by the set, one per template, the
 * others truncated to {@code spec.revisionHistoryLimit} (those a pod still runs are kept). Matching orphan pods and
 * revisions are adopted through the shared claim logic (an orphan pod appearing wakes every set whose selector
 * matches it), controlled pods that stop matching released. Node changes that alter where a set should run wake it.
 * Status counts nodes: desired, current, misscheduled, ready, updated, available and unavailable.
 *
 * <p>Thread-safe. In stepping mode drive it with {@link #runUntilIdle()} on one thread.
 */
public final class DaemonSetController extends ControllerHandle<DaemonSet> {
  private final DaemonSetReconciler reconciler;

  private DaemonSetController(Builder b) {
    this(b, new DaemonSetReconciler(b.burstReplicas, PodNameSuffixes.seeded(b.seed, "daemonset"),
            new FailedPodsBackoff(FailedPodsBackoff.DEFAULT_INITIAL, FailedPodsBackoff.DEFAULT_MAX,
                b.effectiveClock()::now)),
        new OrphanEvents<DaemonSet, Pod>(ds -> OrphanEvents.nonEmpty(ds.spec().selector())),
        new DaemonSetNodeEvents());
  }

  private DaemonSetController(Builder b, DaemonSetReconciler reconciler, OrphanEvents<DaemonSet, Pod> orphans,
      DaemonSetNodeEvents nodes) {
    super(b.buildController(DaemonSet.class, cb -> cb.reconciler(reconciler).owns(Pod.class)
        .handler(Pod.class, orphans).watches(Node.class, n -> List.of()).handler(Node.class, nodes)));
    this.reconciler = reconciler;
    orphans.bind(controller());
    nodes.bind(controller());
  }

  /** A builder for a DaemonSet controller over {@code store}. */
  public static Builder builder(ObjectStore store) {
    return new Builder(store);
  }

  /** How long the deletion of failed daemon pods on {@code nodeName} is held back for {@code ds} (zero: not). */
  public java.time.Duration failedPodBackoff(DaemonSet ds, String nodeName) {
    return reconciler.failedPodsBackoff().get(FailedPodsBackoff.key(ds.metadata().uid(), nodeName));
  }

  /**
   * Configures a {@link DaemonSetController}: default name {@code daemonset}; the clock drives queue delays,
   * minReadySeconds and the failed-pod backoff. Not thread-safe.
   */
  public static final class Builder extends WorkloadControllerBuilder<Builder, DaemonSetController> {
    private int burstReplicas = DaemonSetReconciler.DEFAULT_BURST_REPLICAS;
    private long seed = 1;

    private Builder(ObjectStore store) {
      super(store, "DaemonSetController", "daemonset");
    }

    /**
     * Most pods created, and most deleted, per sync (upstream's burstReplicas, default 250).
     *
     * @throws IllegalArgumentException if {@code n < 1}
     */
    public Builder burstReplicas(int n) {
      if (n < 1) {
        throw new IllegalArgumentException("DaemonSetController: burstReplicas must be at least 1 but was " + n);
      }
      burstReplicas = n;
      return this;
    }

    /** Seed of the generated pod-name suffixes (default 1), for reproducible simulations. */
    public Builder seed(long v) {
      seed = v;
      return this;
    }

    @Override
    public DaemonSetController build() {
      return new DaemonSetController(this);
    }
  }
}
