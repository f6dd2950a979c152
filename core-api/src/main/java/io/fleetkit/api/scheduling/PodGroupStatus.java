package io.fleetkit.api.scheduling;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** The observed part of a PodGroup: its phase and member counts. */
public record PodGroupStatus(PodGroupPhase phase, int scheduled, int running, int succeeded, int failed,
    @Nullable Instant scheduleStartTime) {
  public static final PodGroupStatus PENDING = new PodGroupStatus(PodGroupPhase.Pending, 0, 0, 0, 0, null);

  public PodGroupStatus {
    Objects.requireNonNull(phase, "phase");
  }
}
