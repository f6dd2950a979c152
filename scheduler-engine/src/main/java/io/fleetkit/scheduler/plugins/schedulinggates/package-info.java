/**
 * kube-scheduler's {@code SchedulingGates} plugin ({@code pkg/scheduler/framework/plugins/schedulinggates}): a pod
 * that still carries {@code spec.schedulingGates} is held out of the scheduling queue.
 */
@NullMarked
package io.fleetkit.scheduler.plugins.schedulinggates;

import org.jspecify.annotations.NullMarked;
