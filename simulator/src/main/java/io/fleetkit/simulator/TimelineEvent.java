package io.fleetkit.simulator;

import java.time.Duration;
import java.util.Objects;

/**
 * One entry of a simulation's timeline.
 *
 * @param at simulated time since the start of the run
 * @param kind what happened, e.g. {@code NodeFailed}, {@code PodScheduled}, {@code DeploymentReady}
 * @param object the object it happened to ({@code Node/n1}, {@code Pod/ns/web-abcde}, {@code Deployment/ns/web})
 * @param message details for a reader
 */
public record TimelineEvent(Duration at, String kind, String object, String message) {
  public TimelineEvent {
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(object, "object");
    Objects.requireNonNull(message, "message");
  }

  /** {@code at} as the timeline writes it ({@link #clock(Duration)}). */
  public String clock() {
    return clock(at);
  }

  /** {@code at} as the timeline writes it: {@code MM:SS} in the first hour, {@code H:MM:SS} after. */
  public static String clock(Duration at) {
    long s = at.toSeconds();
    return s >= 3600 ? String.format("%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
        : String.format("%02d:%02d", s / 60, s % 60);
  }

  @Override
  public String toString() {
    return clock() + " " + kind + " " + object + (message.isEmpty() ? "" : " " + message);
  }
}
