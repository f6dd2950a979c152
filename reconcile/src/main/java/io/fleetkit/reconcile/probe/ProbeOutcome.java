package io.fleetkit.reconcile.probe;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What one probe attempt gave (kubelet's {@code probe.Result} plus the prober error). A {@link Kind#Warning} counts
 * as a success and {@link Kind#Unknown} as a failure; an {@link Kind#Error} means the prober itself could not run
 * the attempt, and the worker throws it away.
 *
 * @param output what the check saw (status code, connection error, ...), for events and logs; may be empty
 */
public record ProbeOutcome(Kind kind, String output) {
  /** The kinds of outcome. */
  public enum Kind {
    Success,
    Warning,
    Failure,
    Unknown,
    Error
  }

  private static final ProbeOutcome SUCCESS = new ProbeOutcome(Kind.Success, "");
  private static final ProbeOutcome FAILURE = new ProbeOutcome(Kind.Failure, "");

  public ProbeOutcome {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(output, "output");
  }

  public static ProbeOutcome success() {
    return SUCCESS;
  }

  public static ProbeOutcome failure() {
    return FAILURE;
  }

  public static ProbeOutcome failure(String output) {
    return new ProbeOutcome(Kind.Failure, output);
  }

  public static ProbeOutcome warning(String output) {
    return new ProbeOutcome(Kind.Warning, output);
  }

  public static ProbeOutcome error(String output) {
    return new ProbeOutcome(Kind.Error, output);
  }

  /** The verdict this attempt contributes, or {@code null} for a prober error (the attempt is discarded). */
  public @Nullable ProbeResult result() {
    return switch (kind) {
      case Success, Warning -> ProbeResult.Success;
      case Failure, Unknown -> ProbeResult.Failure;
      case Error -> null;
    };
  }
}
