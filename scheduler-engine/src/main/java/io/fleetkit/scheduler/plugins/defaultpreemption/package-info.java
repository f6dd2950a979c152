/**
 * The DefaultPreemption PostFilter plugin, after kube-scheduler's {@code defaultpreemption} plugin and
 * {@code framework/preemption} evaluator: when no node passes Filter, find the node where evicting the fewest and
 * least important lower-priority pods (respecting PodDisruptionBudgets) lets the pod fit.
 *
 * <p>Entry type: {@link io.fleetkit.scheduler.plugins.defaultpreemption.DefaultPreemptionPlugin} (register it with
 * {@link io.fleetkit.scheduler.plugins.defaultpreemption.DefaultPreemptionPlugin#FACTORY}); its arguments are
 * {@link io.fleetkit.scheduler.plugins.defaultpreemption.PreemptionArgs}. The other types are package-private stages
 * of the algorithm: candidate nodes and the dry run, victim selection on one node, PDB accounting, the choice among
 * candidates and the unschedulable message.
 *
 * <p>Threading: the plugin is thread-safe; PostFilter runs on the scheduling thread of one pod and evaluates candidate
 * nodes sequentially (deterministic for a fixed seed), each on its own copy of the cycle state.
 */
@NullMarked
package io.fleetkit.scheduler.plugins.defaultpreemption;

import org.jspecify.annotations.NullMarked;
