/**
 * Batch kinds: Job and CronJob (batch/v1), a Job's {@link io.fleetkit.api.batch.PodFailurePolicy},
 * {@link io.fleetkit.api.batch.PodReplacementPolicy} and {@link io.fleetkit.api.batch.SuccessPolicy}, and {@link io.fleetkit.api.batch.CronSchedule}, the cron
 * schedule parser CronJobs use. Immutable records and values; thread-safe.
 */
@NullMarked
package io.fleetkit.api.batch;

import org.jspecify.annotations.NullMarked;
