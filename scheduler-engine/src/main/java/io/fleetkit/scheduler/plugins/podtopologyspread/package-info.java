/**
 * The PodTopologySpread plugin ({@link io.fleetkit.scheduler.plugins.podtopologyspread.PodTopologySpreadPlugin}),
 * after kube-scheduler's {@code pkg/scheduler/framework/plugins/podtopologyspread}: hard constraints
 * ({@code DoNotSchedule}) filter nodes by skew, soft ones ({@code ScheduleAnyway}) rank nodes, and cluster default
 * constraints ({@link io.fleetkit.scheduler.plugins.podtopologyspread.PodTopologySpreadArgs}) apply to pods without
 * constraints of their own.
 *
 * <p>Thread-safety: the plugin is immutable after construction. Its per-cycle states are written once in PreFilter
 * and PreScore and only read by the parallel Filter and Score calls; the preemption dry-run hooks
 * ({@code addPod}/{@code removePod}) copy the state they change before writing it back (copy-on-write), so a state
 * shared by {@code CycleState.copy()} is never changed under another reader.
 */
@NullMarked
package io.fleetkit.scheduler.plugins.podtopologyspread;

import org.jspecify.annotations.NullMarked;
