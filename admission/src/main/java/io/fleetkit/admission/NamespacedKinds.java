package io.fleetkit.admission;

import io.fleetkit.api.apps.ControllerRevision;
import io.fleetkit.api.apps.DaemonSet;
import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.autoscaling.HorizontalPodAutoscaler;
import io.fleetkit.api.autoscaling.VerticalPodAutoscaler;
import io.fleetkit.api.autoscaling.VerticalPodAutoscalerCheckpoint;
import io.fleetkit.api.batch.CronJob;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.core.ConfigMap;
import io.fleetkit.api.core.Endpoints;
import io.fleetkit.api.core.LimitRange;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.ReplicationController;
import io.fleetkit.api.core.ResourceQuota;
import io.fleetkit.api.core.Secret;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServiceAccount;
import io.fleetkit.api.discovery.EndpointSlice;
import io.fleetkit.api.gateway.Gateway;
import io.fleetkit.api.gateway.HTTPRoute;
import io.fleetkit.api.gateway.ReferenceGrant;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.networking.Ingress;
import io.fleetkit.api.policy.PodDisruptionBudget;
import io.fleetkit.api.resource.dra.ResourceClaim;
import io.fleetkit.api.resource.dra.ResourceClaimTemplate;
import io.fleetkit.api.rollouts.AnalysisRun;
import io.fleetkit.api.rollouts.AnalysisTemplate;
import io.fleetkit.api.rollouts.Rollout;
import io.fleetkit.api.scheduling.PodGroup;
import java.util.List;

/**
 * The namespaced kinds of core-api: what a quota recount lists and what a namespace's deletion removes, unless the
 * caller names others.
 */
public final class NamespacedKinds {
  private NamespacedKinds() {}

  /** Every namespaced core-api kind; Pods first, so that a namespace's workloads go before their pods' owners. */
  public static List<Class<? extends ApiObject<?>>> all() {
    return List.of(Pod.class, Deployment.class, ReplicaSet.class, ReplicationController.class, StatefulSet.class,
        DaemonSet.class,
        ControllerRevision.class,
        Job.class, CronJob.class, Service.class, PersistentVolumeClaim.class, ConfigMap.class, Secret.class,
        ServiceAccount.class, ResourceQuota.class, LimitRange.class, PodDisruptionBudget.class, HorizontalPodAutoscaler.class,
        VerticalPodAutoscaler.class, VerticalPodAutoscalerCheckpoint.class, PodGroup.class, Rollout.class,
        AnalysisRun.class, AnalysisTemplate.class, ResourceClaim.class, ResourceClaimTemplate.class,
        EndpointSlice.class, Endpoints.class, Ingress.class, Gateway.class, HTTPRoute.class, ReferenceGrant.class);
  }
}
