/**
 * Slurm-style batch scheduling: multifactor job priority and conservative backfill over a timeline of expected job end
 * times (after SchedMD/slurm {@code priority/multifactor} and {@code sched/backfill}).
 *
 * <p>Entry types: {@link io.fleetkit.queueing.backfill.MultifactorPriority} computes a job's priority from its age,
 * fair-share ({@link io.fleetkit.queueing.backfill.FairShareTree}, Slurm's classic algorithm), size, partition and QOS
 * factors with {@link io.fleetkit.queueing.backfill.PriorityWeights}; {@link
 * io.fleetkit.queueing.backfill.BackfillScheduler} decides which pending {@link io.fleetkit.queueing.backfill.BatchJob jobs}
 * start now and when the others are expected to start ({@link io.fleetkit.queueing.backfill.BackfillPlan}), never letting
 * a lower-priority job delay the expected start of a higher-priority one. {@link
 * io.fleetkit.queueing.backfill.BatchSimulator} runs both over time, killing jobs at their time limit ({@link
 * io.fleetkit.queueing.backfill.JobRecord}).
 *
 * <p>Thread safety: records and {@link io.fleetkit.queueing.backfill.FairShareTree} are immutable; {@link
 * io.fleetkit.queueing.backfill.MultifactorPriority} and {@link io.fleetkit.queueing.backfill.BackfillScheduler} hold no
 * mutable state and may be shared; a {@link io.fleetkit.queueing.backfill.BatchSimulator} is not thread-safe.
 */
@NullMarked
package io.fleetkit.queueing.backfill;

import org.jspecify.annotations.NullMarked;
