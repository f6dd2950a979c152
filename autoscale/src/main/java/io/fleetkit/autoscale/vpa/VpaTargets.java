package io.fleetkit.autoscale.vpa;

import io.fleetkit.api.apps.DaemonSet;
import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.autoscaling.CrossVersionObjectReference;
import io.fleetkit.api.batch.CronJob;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.core.ReplicationController;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.autoscale.hpa.TargetScale;
import io.fleetkit.reconcile.controllers.WorkloadLabels;
import java.util.Map;

/**
 * The pods a VPA's {@code targetRef} controls, as upstream's target selector fetcher
 * ({@code vertical-pod-autoscaler/pkg/target/vpa_target_selector_fetcher.go}) finds them: a well-known controller's
 * selector is read from the object (ReplicationController: its equality selector; Deployment, ReplicaSet,
 * StatefulSet, DaemonSet and Job: {@code spec.selector},
 * a Job without one the {@code batch.kubernetes.io/controller-uid} selector Kubernetes generates; CronJob: its job
 * template's pod labels, as an equality selector), any other kind's through its scale subresource
 * ({@link TargetScale}: an Argo Rollout). Stateless.
 */
public final class VpaTargets {
  private VpaTargets() {}

  /**
   * The selector of the pods {@code ref} controls in {@code namespace}.
   *
   * @throws io.fleetkit.api.NotFoundException when the target does not exist
   * @throws IllegalArgumentException when the kind is neither a well-known controller nor scalable here
   */
  public static LabelSelector selector(ObjectStore store, String namespace, CrossVersionObjectReference ref) {
    return switch (ref.kind()) {
      case Deployment.KIND -> store.require(Deployment.class, namespace, ref.name()).spec().selector();
      case ReplicaSet.KIND -> store.require(ReplicaSet.class, namespace, ref.name()).spec().selector();
      case ReplicationController.KIND -> LabelSelector.of(store.require(ReplicationController.class, namespace,
          ref.name()).spec().selector());
      case StatefulSet.KIND -> store.require(StatefulSet.class, namespace, ref.name()).spec().selector();
      case DaemonSet.KIND -> store.require(DaemonSet.class, namespace, ref.name()).spec().selector();
      case Job.KIND -> {
        Job job = store.require(Job.class, namespace, ref.name());
        LabelSelector s = job.spec().selector();
        yield s != null ? s : LabelSelector.of(Map.of(WorkloadLabels.JOB_CONTROLLER_UID, job.metadata().uid()));
      }
      case CronJob.KIND -> LabelSelector.of(store.require(CronJob.class, namespace, ref.name()).spec().jobTemplate()
          .spec().template().metadata().labels());
      default -> TargetScale.read(store, namespace, ref).selector();
    };
  }
}
