/**
 * Implementation of the workload controllers: reconcilers, expectations, the rolling-update arithmetic of
 * Kubernetes' {@code deployment_util.go} and {@code rolling.go}, and template hashing. Not part of the contract.
 *
 * <p>Threading: {@link io.fleetkit.reconcile.controllers.internal.ControllerExpectations} is thread-safe; the
 * arithmetic is pure; a reconciler is called for one key at a time by the runtime.
 */
@NullMarked
package io.fleetkit.reconcile.controllers.internal;

import org.jspecify.annotations.NullMarked;
