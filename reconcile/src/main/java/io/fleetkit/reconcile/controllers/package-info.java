/**
 * Workload controllers built on the controller runtime of {@link io.fleetkit.reconcile}: the
 * {@link io.fleetkit.reconcile.controllers.ReplicaSetController} (pods to match replicas, with expectations and
 * upstream's scale-down victim ranking, {@link io.fleetkit.reconcile.controllers.ActivePods}), the
 * {@link io.fleetkit.reconcile.controllers.ReplicationManager} (the same reconciler over v1 ReplicationControllers), the
 * {@link io.fleetkit.reconcile.controllers.DeploymentController} (RollingUpdate and Recreate, revisions, rollback,
 * pause, progress deadline), the {@link io.fleetkit.reconcile.controllers.StatefulSetController} (ordinal identity,
 * OrderedReady and Parallel, RollingUpdate with partition, OnDelete, claims from templates), the
 * {@link io.fleetkit.reconcile.controllers.DaemonSetController} (one pod per eligible node by node name, selector,
 * affinity and taints; RollingUpdate with maxUnavailable or maxSurge, OnDelete), the
 * {@link io.fleetkit.reconcile.controllers.JobController} (parallelism, completions, Indexed, backoff, deadlines),
 * the {@link io.fleetkit.reconcile.controllers.CronJobController} (Jobs on a cron schedule, missed runs, starting
 * deadline, concurrency policies, history limits), the
 * {@link io.fleetkit.reconcile.controllers.TtlAfterFinishedController} (deletes finished Jobs once their
 * {@code ttlSecondsAfterFinished} has passed) and the {@link io.fleetkit.reconcile.controllers.DisruptionController}
 * (PodDisruptionBudget status), the {@link io.fleetkit.reconcile.controllers.ResourceClaimController} (one
 * ResourceClaim per template entry of a pod's {@code spec.resourceClaims}, reservations of pods that are gone removed,
 * unused claims deallocated or deleted), the {@link io.fleetkit.reconcile.controllers.DeviceTaintEvictionController}
 * (deletes pods whose allocated devices carry a NoExecute taint, of their ResourceSlice or of a DeviceTaintRule,
 * that their claim does not tolerate; maintains the rules' {@code EvictionInProgress} condition; single-threaded,
 * driven by {@code sync()} like the node taint eviction controller), and the eviction subresource
 * {@link io.fleetkit.reconcile.controllers.Evictions} (the budgets' verdict, then DisruptionTarget and the pod's
 * deletion). Beside them, the {@link io.fleetkit.reconcile.controllers.RootCACertPublisher} keeps every namespace's
 * {@code kube-root-ca.crt} ConfigMap with the cluster's CA bundle. Label and annotation names are in
 * {@link io.fleetkit.reconcile.controllers.WorkloadLabels}. {@link io.fleetkit.reconcile.controllers.DaemonSetPlacement}
 * answers where a DaemonSet runs a pod and what pod (the DaemonSet controller's decision, also used by the cluster
 * autoscaler for its template nodes).
 *
 * <p>Every controller is built the same way: {@code XController.builder(store).clock(clock).stepping().build()}
 * (or {@code .workers(n)}; the shared settings are those of
 * {@link io.fleetkit.reconcile.controllers.WorkloadControllerBuilder}), then {@code start()}, then
 * {@code runUntilIdle()} in stepping mode.
 *
 * <p>Threading: the controllers are thread-safe and run their reconcilers on the runtime's workers (or on the
 * caller's thread in stepping mode); {@link io.fleetkit.reconcile.controllers.ActivePods},
 * {@link io.fleetkit.reconcile.controllers.DaemonSetPlacement} and {@link io.fleetkit.reconcile.controllers.Evictions}
 * are stateless. Implementations live in
 * {@code io.fleetkit.reconcile.controllers.internal}, which is not part of the contract.
 */
@NullMarked
package io.fleetkit.reconcile.controllers;

import org.jspecify.annotations.NullMarked;
