/**
 * Workload controllers built on the controller runtime of {@link io.fleetkit.reconcile}: the
 * {@link io.fleetkit.reconcile.controllers.ReplicaSetController} (pods to match replicas, with expectations and
 * upstream's scale-down victim ranking, {@link io.fleetkit.reconcile.controllers.ActivePods}) and the
 * {@link io.fleetkit.reconcile.controllers.DeploymentController} (RollingUpdate and Recreate, revisions, rollback,
 * pause, progress deadline). Label and annotation names are in
 * {@link io.fleetkit.reconcile.controllers.WorkloadLabels}.
 *
 * <p>Threading: the controllers are thread-safe and run their reconcilers on the runtime's workers (or on the
 * caller's thread in stepping mode); {@link io.fleetkit.reconcile.controllers.ActivePods} is stateless.
 * Implementations live in {@code io.fleetkit.reconcile.controllers.internal}, which is not part of the contract.
 */
@NullMarked
package io.fleetkit.reconcile.controllers;

import org.jspecify.annotations.NullMarked;
