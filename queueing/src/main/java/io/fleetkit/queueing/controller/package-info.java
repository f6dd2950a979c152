/**
 * Kueue's job integration: {@link io.fleetkit.queueing.controller.QueueAdmissionController} connects batch/v1 Jobs
 * labelled {@code kueue.x-k8s.io/queue-name} to an {@link io.fleetkit.queueing.AdmissionEngine}. Jobs wait
 * suspended until the engine reserves quota for them, run pinned to their flavors' nodes, are suspended again when
 * preempted, and release their quota when they finish or are deleted. The label, annotations and condition are
 * named in {@link io.fleetkit.queueing.controller.QueueLabels}.
 *
 * <p>Threading: the controller is thread-safe and runs its reconciler on the controller runtime's workers (or on the
 * caller's thread in stepping mode); engine decisions are serialized by one lock. Implementations live in
 * {@code io.fleetkit.queueing.controller.internal}, which is not part of the contract.
 */
@NullMarked
package io.fleetkit.queueing.controller;

import org.jspecify.annotations.NullMarked;
