/**
 * The scheduler's engine, not part of the public contract: the scheduling cycle ({@code SchedulerImpl}); the
 * per-profile framework runtime that runs each extension point and names the plugin behind every outcome
 * ({@code Framework}); the Filter fan-out over a rotating node sample ({@code FeasibleNodes}) on a fixed worker pool
 * ({@code ParallelRunner}); the scheduling queue ({@code SchedulingQueue}); the cache of nodes and assumed pods with its
 * incremental snapshot ({@code SchedulerCache}, {@code ClusterSnapshot}); cluster event handling
 * ({@code EventHandlers}); pods held by Permit ({@code WaitingPodsImpl}); kube's messages ({@code Diagnosis}); and
 * the scheduler's lock with its inbox ({@code EngineLock}).
 *
 * <p>Thread safety: everything here is confined to the scheduler's {@code EngineLock}, except what Filter and Score
 * read in parallel (snapshot node views, cycle state, nominated pods), which only the lock holder writes and never
 * while a fan-out runs. Events from other threads reach the engine through the lock's inbox; {@code SchedulerImpl}'s
 * class comment says which state each lock guards.
 */
@NullMarked
package io.fleetkit.scheduler.internal;

import org.jspecify.annotations.NullMarked;
