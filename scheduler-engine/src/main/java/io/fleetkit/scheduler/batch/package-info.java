/**
 * Slurm-style batch scheduling: multifactor job priority and conservative backfill over a timeline of expected job end
 * times (after SchedMD/slurm {@code priority/multifactor} and {@code sched/backfill}).
 *
 * <p>Entry types: {@link io.fleetkit.scheduler.batch.MultifactorPriority} computes a job's priority from its age,
 * fair-share ({@link io.fleetkit.scheduler.batch.FairShareTree}, Slurm's classic algorithm), size, partition and QOS
 * factors with {@link io.fleetkit.scheduler.batch.PriorityWeights}; {@link
 * io.fleetkit.scheduler.batch.BackfillScheduler} decides which pending {@link io.fleetkit.scheduler.batch.BatchJob jobs}
 * start now and when the others are expected to start ({@link io.fleetkit.scheduler.batch.BackfillPlan}), never letting
 * a lower-priority job delay the expected start of a higher-priority one. {@link
 * io.fleetkit.scheduler.batch.BatchSimulator} runs both over time, killing jobs at their time limit ({@link
 * io.fleetkit.scheduler.batch.JobRecord}).
 *
 * <p>Thread safety: records and {@link io.fleetkit.scheduler.batch.FairShareTree} are immutable; {@link
 * io.fleetkit.scheduler.batch.MultifactorPriority} and {@link io.fleetkit.scheduler.batch.BackfillScheduler} hold no
 * mutable state and may be shared; a {@link io.fleetkit.scheduler.batch.BatchSimulator} is not thread-safe.
 */
@NullMarked
package io.fleetkit.scheduler.batch;

import org.jspecify.annotations.NullMarked;
