/**
 * Batch kinds: Job and CronJob (batch/v1), and {@link io.fleetkit.api.batch.CronSchedule}, the cron schedule parser
 * CronJobs use. Immutable records and values; thread-safe.
 */
@NullMarked
package io.fleetkit.api.batch;

import org.jspecify.annotations.NullMarked;
