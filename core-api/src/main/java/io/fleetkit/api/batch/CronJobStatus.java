package io.fleetkit.api.batch;

import io.fleetkit.api.events.ObjectReference;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The observed part of a CronJob.
 *
 * @param active references to the CronJob's Jobs that are running
 * @param lastScheduleTime the scheduled time of the last Job started, or {@code null}
 * @param lastSuccessfulTime the completion time of the last Job that succeeded, or {@code null}
 */
public record CronJobStatus(List<ObjectReference> active, @Nullable Instant lastScheduleTime,
    @Nullable Instant lastSuccessfulTime) {
  public static final CronJobStatus EMPTY = new CronJobStatus(List.of(), null, null);

  public CronJobStatus {
    active = List.copyOf(active);
  }

  public CronJobStatus withActive(List<ObjectReference> v) {
    return new CronJobStatus(v, lastScheduleTime, lastSuccessfulTime);
  }

  public CronJobStatus withLastScheduleTime(@Nullable Instant v) {
    return new CronJobStatus(active, v, lastSuccessfulTime);
  }

  public CronJobStatus withLastSuccessfulTime(@Nullable Instant v) {
    return new CronJobStatus(active, lastScheduleTime, v);
  }
}
