/**
 * The scheduler's engine, not part of the public contract: the scheduling queue ({@code SchedulingQueue}), the cache
 * of nodes and assumed pods with its incremental snapshot ({@code SchedulerCache}, {@code ClusterSnapshot}), the
 * per-profile framework runtime ({@code Framework}), the scheduling cycle ({@code SchedulerImpl}), and the fixed
 * worker pool that runs Filter and Score over chunks of nodes ({@code ParallelRunner}).
 *
 * <p>Thread safety: everything here is confined to the scheduler's lock, except what Filter and Score read in
 * parallel (snapshot node views and cycle state), which is immutable while a cycle runs.
 */
@NullMarked
package io.fleetkit.scheduler.internal;

import org.jspecify.annotations.NullMarked;
