/**
 * The cluster autoscaler: grows and shrinks {@link io.fleetkit.api.autoscaling.NodePool}s with upstream
 * (kubernetes/autoscaler) semantics. Entry point {@link io.fleetkit.autoscale.cluster.ClusterAutoscaler}; its parts are
 * public for reuse and tests: {@link io.fleetkit.autoscale.cluster.BinpackingEstimator},
 * {@link io.fleetkit.autoscale.cluster.Expanders}, {@link io.fleetkit.autoscale.cluster.Drainability},
 * {@link io.fleetkit.autoscale.cluster.NodeUtilization} (with {@link io.fleetkit.autoscale.cluster.DeviceUtilization}
 * for DRA devices), {@link io.fleetkit.autoscale.cluster.TerminatingPods} (when a
 * pod being deleted counts as gone), {@link io.fleetkit.autoscale.cluster.TemplateNodes} (the
 * DaemonSet pods on a new node). Scale-down actuation (taint, drain, delete, across loops on the
 * autoscaler's clock) reports through {@link io.fleetkit.autoscale.cluster.LoopResult} with
 * {@link io.fleetkit.autoscale.cluster.NodeDeleteResult}s and {@link io.fleetkit.autoscale.cluster.AutoscalerError}s.
 * {@link io.fleetkit.autoscale.cluster.InstanceCreation} is the cloud both autoscalers ask for each machine (this one
 * and the {@link io.fleetkit.autoscale.provisioner.Provisioner}); a refusal is an
 * {@link io.fleetkit.autoscale.cluster.InstanceErrorInfo}, reported as a
 * {@link io.fleetkit.autoscale.cluster.ScaleUpFailure}. A scale-up decision is a
 * {@link io.fleetkit.autoscale.cluster.ScaleUpPlan} whose {@link io.fleetkit.autoscale.cluster.PoolScaleUp}s are the
 * chosen option capped by the cluster-wide resource limits ({@code ClusterResourceLimits}) and, with balancing,
 * split over similar pools ({@code NodeGroupSimilarity}, {@code ScaleUpBalancing}). The events a loop records on its
 * status ConfigMap are {@link io.fleetkit.autoscale.cluster.StatusEvents}' (with upstream's spam-filter key).
 *
 * <p>Thread-safety: the autoscaler serializes its loops; expanders are immutable; {@code Drainability} is confined to
 * one loop.
 */
@NullMarked
package io.fleetkit.autoscale.cluster;

import org.jspecify.annotations.NullMarked;
