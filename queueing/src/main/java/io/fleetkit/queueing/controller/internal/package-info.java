/**
 * Implementation of {@link io.fleetkit.queueing.controller.QueueAdmissionController} (not part of the contract): the
 * reconciler, the controller's book of submitted and evicting workloads, the Job-to-workload mapping, the
 * admission annotation format, the Job edits, and Kueue's topology ungater ({@code TopologyUngater}: the gated pods of
 * a workload admitted with topology assignments given their domains).
 *
 * <p>Threading: {@code AdmissionBook} holds its lock for every engine decision; the other types are stateless.
 */
@NullMarked
package io.fleetkit.queueing.controller.internal;

import org.jspecify.annotations.NullMarked;
