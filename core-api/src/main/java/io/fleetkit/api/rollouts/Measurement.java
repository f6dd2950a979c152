package io.fleetkit.api.rollouts;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One measurement of a metric: what the provider returned and how the conditions judged it.
 *
 * @param phase Running while in flight, then Successful, Failed, Inconclusive or Error
 * @param value the measured value as text (a number, a list of numbers, ...); empty when none
 * @param finishedAt {@code null} while in flight
 * @param resumeAt when an in-flight measurement is looked at again; {@code null} when not set
 * @param message why it is Error or Inconclusive, or what the provider said; may be empty
 */
public record Measurement(AnalysisPhase phase, String value, @Nullable Instant startedAt,
    @Nullable Instant finishedAt, @Nullable Instant resumeAt, String message) {
  public Measurement {
    Objects.requireNonNull(phase, "phase");
    Objects.requireNonNull(value, "value");
    Objects.requireNonNull(message, "message");
  }

  /** A finished measurement taken at {@code at}. */
  public static Measurement finished(AnalysisPhase phase, String value, Instant at, String message) {
    return new Measurement(phase, value, at, at, null, message);
  }

  public Measurement withFinishedAt(Instant at) {
    return new Measurement(phase, value, startedAt, at, resumeAt, message);
  }

  public Measurement withMessage(String m) {
    return new Measurement(phase, value, startedAt, finishedAt, resumeAt, m);
  }
}
