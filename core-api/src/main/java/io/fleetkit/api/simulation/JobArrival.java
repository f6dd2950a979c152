package io.fleetkit.api.simulation;

import io.fleetkit.api.resource.ResourceList;
import java.time.Duration;
import java.util.Objects;

/**
 * One job of a {@link JobStream}: at {@code at} a batch/v1 Job of {@code pods} pods (all at once) with
 * {@code requests} each is created; each pod runs {@code runFor} and exits 0.
 *
 * @param name the job's own name (a trace row's), or {@code ""} to number it after the stream
 */
public record JobArrival(Duration at, String name, int pods, ResourceList requests, Duration runFor) {
  public JobArrival {
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(requests, "requests");
    Objects.requireNonNull(runFor, "runFor");
  }

  /** This arrival at another time. */
  public JobArrival at(Duration when) {
    return new JobArrival(when, name, pods, requests, runFor);
  }
}
