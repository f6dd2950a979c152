/**
 * The PodTopologySpread plugin ({@link io.fleetkit.scheduler.plugins.podtopologyspread.PodTopologySpreadPlugin}),
 * after kube-scheduler's {@code pkg/scheduler/framework/plugins/podtopologyspread}: hard constraints
 * ({@code DoNotSchedule}) filter nodes by skew, soft ones ({@code ScheduleAnyway}) rank nodes, and cluster default
 * constraints ({@link io.fleetkit.scheduler.plugins.podtopologyspread.PodTopologySpreadArgs}) apply to pods without
 * constraints of their own.
 *
 * <p>Performance: PreFilter and PreScore count matching pods from an index kept across cycles (per-node counts and
 * running per-domain sums for every remembered selector, updated from the pods that differ between a node's views;
 * shared domain indexes), so a pod of a workload already seen costs no walk over the cluster's pods. Filter is O(constraints) hash lookups with no
 * allocation; the global minimum is kept exact (upstream's newest {@code DomainsAtCount} semantics rather than the
 * older two "critical paths", which it equals after PreFilter and may only approximate after dry-run updates).
 *
 * <p>Thread-safety: the plugin's configuration is immutable and its cross-cycle caches are guarded by one monitor,
 * taken once per PreFilter/PreScore. Its per-cycle states are written once in PreFilter
 * and PreScore and only read by the parallel Filter and Score calls; the preemption dry-run hooks
 * ({@code addPod}/{@code removePod}) copy the state they change before writing it back (copy-on-write), so a state
 * shared by {@code CycleState.copy()} is never changed under another reader.
 */
@NullMarked
package io.fleetkit.scheduler.plugins.podtopologyspread;

import org.jspecify.annotations.NullMarked;
