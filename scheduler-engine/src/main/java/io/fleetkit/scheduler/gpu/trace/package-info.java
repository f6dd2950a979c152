/**
 * A fast standalone replay of the openb GPU trace under the FGD paper's protocol (USENIX ATC'23; see
 * {@code hkust-adsl/kubernetes-scheduler-simulator}): {@link io.fleetkit.scheduler.gpu.trace.OpenbCsv} loads nodes and pods,
 * {@link io.fleetkit.scheduler.gpu.trace.TraceReplay} replays them with one
 * {@link io.fleetkit.scheduler.gpu.trace.TracePolicy} and returns a
 * {@link io.fleetkit.scheduler.gpu.trace.ReplayResult} (GPU allocation per arrival percentage, fragmentation).
 *
 * <p>The replay keeps the cluster in flat arrays and caches scores per (pod shape, node version), so that one
 * replay of the default trace takes about a second. Loaded records are immutable; a replay is single-threaded and
 * shares no state with other replays.
 */
@NullMarked
package io.fleetkit.scheduler.gpu.trace;

import org.jspecify.annotations.NullMarked;
