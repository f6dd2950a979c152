/**
 * Implementation of the workload controllers: reconcilers (ReplicaSet, ReplicationController through a conversion to
 * it, Deployment, StatefulSet, DaemonSet, Job, CronJob,
 * TTL-after-finished, PodDisruptionBudget), the Job's pod-failure backoff records ({@link
 * io.fleetkit.reconcile.controllers.internal.JobBackoffStore}, Kubernetes' {@code backoff_utils.go}), its pod failure
 * policy, per-index backoff and success policy
 * ({@link io.fleetkit.reconcile.controllers.internal.PodFailurePolicies},
 * {@link io.fleetkit.reconcile.controllers.internal.IndexFailures},
 * {@link io.fleetkit.reconcile.controllers.internal.SuccessPolicies}, over
 * {@link io.fleetkit.reconcile.controllers.internal.IndexIntervals}, Kubernetes' {@code indexed_job_utils.go} and
 * {@code success_policy.go}), the CronJob sync and schedule arithmetic of Kubernetes' {@code cronjob_controllerv2.go} and
 * {@code utils.go} ({@link io.fleetkit.reconcile.controllers.internal.CronJobSync},
 * {@link io.fleetkit.reconcile.controllers.internal.CronJobSchedules}), the TTL arithmetic of Kubernetes'
 * {@code ttlafterfinished_controller.go} ({@link io.fleetkit.reconcile.controllers.internal.TtlAfterFinished}) and
 * its reconciler, the claim of the first five ({@link
 * io.fleetkit.reconcile.controllers.internal.ControllerRefManager}, Kubernetes' {@code controller_ref_manager.go})
 * and the handler that wakes the controllers an orphan matches ({@link
 * io.fleetkit.reconcile.controllers.internal.OrphanEvents}), expectations, the rolling-update arithmetic of
 * Kubernetes' {@code deployment_util.go} and {@code rolling.go}, StatefulSet pod identity ({@code
 * stateful_set_utils.go}) and the claim owner references of its retention policy ({@link
 * io.fleetkit.reconcile.controllers.internal.StatefulSetClaimOwnership}), DaemonSet placement and revisions ({@code daemonset_util.go}, {@code update.go}) with its
 * node event handler, template hashing, and the device taint eviction arithmetic and rule conditions of Kubernetes'
 * {@code device_taint_eviction.go} ({@link io.fleetkit.reconcile.controllers.internal.DeviceTaintEvictions},
 * {@link io.fleetkit.reconcile.controllers.internal.DeviceTaintRuleConditions}). Not part of the contract.
 *
 * <p>Threading: {@link io.fleetkit.reconcile.controllers.internal.ControllerExpectations}, {@link
 * io.fleetkit.reconcile.controllers.internal.JobBackoffStore} and {@link
 * io.fleetkit.reconcile.controllers.internal.OrphanEvents} are thread-safe; a {@code ControllerRefManager} serves
 * one sync on one thread, as does a {@code CronJobSync}; the arithmetic is pure; a reconciler is called for one key at a time by the runtime (the
 * StatefulSet reconciler's revision history is a concurrent map, as different keys may run on different workers;
 * the DaemonSet reconciler's failed-pod backoff is synchronized).
 */
@NullMarked
package io.fleetkit.reconcile.controllers.internal;

import org.jspecify.annotations.NullMarked;
