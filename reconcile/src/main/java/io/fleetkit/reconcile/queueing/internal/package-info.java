/**
 * Implementation of {@link io.fleetkit.reconcile.queueing.QueueAdmissionController} (not part of the contract): the
 * reconciler, the controller's book of submitted and evicting workloads, the Job-to-workload mapping, the
 * admission annotation format and the Job edits.
 *
 * <p>Threading: {@code AdmissionBook} holds its lock for every engine decision; the other types are stateless.
 */
@NullMarked
package io.fleetkit.reconcile.queueing.internal;

import org.jspecify.annotations.NullMarked;
