/**
 * The admission engine's implementation: the scheduling cycles ({@code QueueScheduler}) over the queue configuration
 * ({@code QueueRegistry}: flavors, checks, ClusterQueues, Cohorts, LocalQueues, the flavor-resource index and the
 * cohort tree; {@code QueueStates}, Kueue's rules on stopped and terminating queues; {@code QueueReconciler}, what a
 * change of it does to the workloads), where each workload without quota waits ({@code PendingWorkloads}: queued,
 * waiting for a backoff, unrouted or deactivated), the workloads with quota ({@code AdmittedWorkloads}, Kueue's cache;
 * {@code RestoredReservations}, reading one restored from outside), their admission check states ({@code
 * AdmissionCheckStates}), Kueue's workload controller ({@code WorkloadReconciler}: what check states, stop policies and
 * PodsReady timeouts do to a workload with quota), {@code waitForPodsReady}'s conditions, requeue states and timeouts
 * ({@code PodsReadyTimeouts}), reclaimable pods, priority changes and WorkloadPriorityClasses ({@code
 * WorkloadUpdates}), live quota bookkeeping ({@code CqState}), the flavor assigner (with {@code FlavorScanProgress},
 * how far a pending workload's flavor search got, for the next cycle to resume it), the preemptor with its fair-sharing
 * strategies, the per-ClusterQueue queues, and topology-aware scheduling ({@code TopologyAssigner}, Kueue's assignment
 * algorithm over a {@code TopologyTree}; {@code TopologyPlacer}, its use in the engine; {@code NodeFailures}, {@code
 * NodeReconciler} and {@code TopologyReplacement}, Kueue's node failure controller and node replacement), and admission
 * fair sharing ({@code AfsAccounting} over an {@code AfsUsageLedger}: {@code LocalQueueUsageSampler}, Kueue's
 * LocalQueue controller's decay, {@code AfsMath}, its arithmetic, and {@code AfsOrder}, the queue order it gives). Not
 * part of the public contract. Nothing here is thread-safe; {@link io.fleetkit.queueing.AdmissionEngine} serializes
 * every call.
 */
@NullMarked
package io.fleetkit.queueing.internal;

import org.jspecify.annotations.NullMarked;
