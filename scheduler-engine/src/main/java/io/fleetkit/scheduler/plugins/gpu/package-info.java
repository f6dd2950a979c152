/**
 * GPU devices in the scheduler: whole and shared ({@code fleetkit.io/gpu-milli}) requests, accepted models,
 * interconnect/NUMA topology, and the device ids recorded at bind (see {@link io.fleetkit.api.core.GpuRequests}).
 *
 * <p>Entry type: {@link io.fleetkit.scheduler.plugins.gpu.GpuPlugins}, which creates the plugins of one scheduler
 * around one shared {@link io.fleetkit.scheduler.plugins.gpu.GpuAssignments}, a profile that adds them to the
 * default one, and the binder wrapper that records device ids. Plugins Skip pods without GPU requests, so adding them
 * changes nothing for other pods.
 *
 * <p>Placement policies are {@link io.fleetkit.scheduler.plugins.gpu.GpuScorer}s, one class each, created only by
 * their {@link io.fleetkit.scheduler.plugins.gpu.GpuPolicy} constant; the engine runs them as score plugins (and as a
 * PreFilter and Filter that make a pod unschedulable on the nodes a policy holds for other pods, ReservingGapFill's
 * free devices) and the trace replay of {@code fleetkit-lab} runs the same classes. All types here are thread-safe unless stated.
 */
@NullMarked
package io.fleetkit.scheduler.plugins.gpu;

import org.jspecify.annotations.NullMarked;
