/**
 * A fast standalone replay of the openb GPU trace under the FGD paper's protocol (USENIX ATC'23; see
 * {@code hkust-adsl/kubernetes-scheduler-simulator}), and upper bounds on what any policy can allocate.
 * {@link io.fleetkit.lab.gpu.OpenbCsv} loads nodes and pods, {@link io.fleetkit.lab.gpu.TraceReplay} replays them
 * with one {@link io.fleetkit.scheduler.plugins.gpu.GpuPolicy} (the scheduler's own scoring kernels, not copies) and
 * returns a {@link io.fleetkit.lab.gpu.ReplayResult} (GPU allocation per arrival percentage, fragmentation);
 * {@link io.fleetkit.lab.gpu.AllocationBound} and {@link io.fleetkit.lab.gpu.ConfigurationBound} bound the
 * allocation from above.
 *
 * <p>The replay keeps the cluster in flat arrays and one read view per node, replaced when the node changes, so that
 * one replay of the default trace takes about a second. Loaded records are immutable; a replay is single-threaded
 * and shares no state with other replays.
 */
@NullMarked
package io.fleetkit.lab.gpu;

import org.jspecify.annotations.NullMarked;
