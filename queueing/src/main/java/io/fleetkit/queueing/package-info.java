/**
 * Kueue's job-queueing model: quota-based, all-or-nothing admission of whole {@link
 * io.fleetkit.queueing.Workload workloads} (after kubernetes-sigs/kueue). Users submit workloads to a
 * namespaced {@link io.fleetkit.queueing.LocalQueue}, which points to a cluster-scoped {@link
 * io.fleetkit.queueing.ClusterQueue} holding quotas per {@link io.fleetkit.queueing.ResourceFlavor};
 * ClusterQueues of one cohort lend unused quota to each other.
 *
 * <p>Entry type: {@link io.fleetkit.queueing.AdmissionEngine} (built by {@link
 * io.fleetkit.queueing.AdmissionEngine#builder()}), which runs Kueue's scheduling cycles: flavor
 * assignment, StrictFIFO/BestEffortFIFO queueing, preemption within the ClusterQueue, reclamation within the cohort
 * and fair sharing by dominant resource share; {@link io.fleetkit.queueing.ResourceTransformation}s (Kueue's
 * {@code resources.transformations}) change how requests count against quota. Its results are {@link io.fleetkit.queueing.CycleResult},
 * {@link io.fleetkit.queueing.QuotaReservation} and {@link io.fleetkit.queueing.Preemption}; given an event recorder
 * ({@link io.fleetkit.queueing.AdmissionEngine.Builder#events}) it also records Kueue's events about the workloads
 * ({@code QuotaReserved}, {@code Admitted}, {@code Pending}, {@code Preempted}, {@code EvictedDueTo...}).
 *
 * <p>Admission fair sharing (Kueue's {@code AdmissionFairSharing}): with an {@link
 * io.fleetkit.queueing.AdmissionFairSharing} configuration, a ClusterQueue whose {@link
 * io.fleetkit.queueing.AdmissionMode} is usage-based orders its workloads by their LocalQueues' decayed usage divided
 * by their weight; a LocalQueue's sampled usage is its {@link io.fleetkit.queueing.LocalQueueFairSharingStatus}.
 *
 * <p>Admission checks (Kueue's two-phase admission): a ClusterQueue may require {@link
 * io.fleetkit.queueing.AdmissionCheck}s, for all its flavors or per flavor ({@link
 * io.fleetkit.queueing.AdmissionCheckStrategyRule}); a workload with reserved quota is admitted only when every check
 * that applies to it is {@link io.fleetkit.queueing.CheckState#READY}. Checks are decided by {@link
 * io.fleetkit.queueing.AdmissionCheckController} plugins (the SPI, answering with a {@link
 * io.fleetkit.queueing.CheckVerdict}) or set from outside; the engine's reactions are {@link
 * io.fleetkit.queueing.CheckOutcome}s. {@link io.fleetkit.queueing.AdmissionChecks} holds Kueue's rules as pure
 * functions, {@link io.fleetkit.queueing.PodSetInfo} the merge of the checks' {@link io.fleetkit.queueing.PodSetUpdate}s.
 *
 * <p>Topology-aware scheduling (Kueue's TAS): a {@link io.fleetkit.queueing.ResourceFlavor} may name a {@link
 * io.fleetkit.queueing.Topology} (node label levels); a {@link io.fleetkit.queueing.PodSet} may carry a {@link
 * io.fleetkit.queueing.PodSetTopologyRequest} (required, preferred or unconstrained level, slices, pod set groups),
 * and the engine admits it in such a flavor only with a {@link io.fleetkit.queueing.TopologyAssignment} (domains
 * with pod counts), carried on its {@link io.fleetkit.queueing.PodSetAssignment}; behind a ProvisioningRequest check
 * the assignment waits for the checks ({@link io.fleetkit.queueing.DelayedTopologyRequest}). When a node of an admitted
 * assignment fails (removed, not Ready for the node failure delay, or, for a workload whose pods there stopped
 * progressing, not Ready or tainted against them), the next cycle moves its pods to a replacement
 * or evicts the workload (Kueue's node replacement, reported as {@link io.fleetkit.queueing.NodeReplacement}s). The
 * Job controller ({@code io.fleetkit.queueing.controller}) pins a workload's pods to the assignment: they are created
 * gated, and Kueue's topology ungater gives each its domain's node labels as it removes the gate.
 *
 * <p>All-or-nothing scheduling with timeouts (Kueue's {@code waitForPodsReady}): an engine built with a {@link
 * io.fleetkit.queueing.WaitForPodsReady} configuration evicts an admitted workload whose pods (reported with {@code
 * AdmissionEngine.setPodsReady}, kept as its {@link io.fleetkit.queueing.PodsReadyCondition}) are not ready in time,
 * queues it again after an exponential backoff ({@link io.fleetkit.queueing.RequeueState}) or deactivates it after
 * {@code backoffLimitCount} requeues ({@link io.fleetkit.queueing.PodsReadyEviction}), and with {@code
 * blockAdmission} admits nothing while a workload with quota is not ready.
 *
 * <p>Queues change at runtime as Kueue's objects do ({@code AdmissionEngine.putClusterQueue}, {@code putLocalQueue},
 * {@code putCohort} and their {@code remove} counterparts); a queue's {@link io.fleetkit.queueing.StopPolicy} holds
 * its workloads, or drains the admitted ones ({@link io.fleetkit.queueing.QueueStopEviction}); the queues' {@code
 * Active} conditions are {@link io.fleetkit.queueing.ActiveCondition}s and a waiting workload's blocker a {@link
 * io.fleetkit.queueing.QueueBlocker}.
 *
 * <p>Thread safety: the records are immutable; an {@link io.fleetkit.queueing.AdmissionEngine} is
 * thread-safe, every operation holds the engine's lock (check controllers and the event recorder are called under
 * it).
 */
@NullMarked
package io.fleetkit.queueing;

import org.jspecify.annotations.NullMarked;
