package io.fleetkit.reconcile.node;

import io.fleetkit.reconcile.probe.ProbeResult;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * What a simulated application answers to one kind of probe, as a function of how long its container has run:
 * failure before {@code passFrom}, success from {@code passFrom} until {@code failFrom}, failure from
 * {@code failFrom} on. "Healthy after 20 s" is {@code passFrom = 20s}; "fails from minute 5" is
 * {@code failFrom = 5m}; "never healthy" is {@link #NEVER}.
 *
 * @param passFrom when the answers turn to success; {@code null} means never
 * @param failFrom when they turn to failure for good; {@code null} means never
 */
public record ProbeAnswer(@Nullable Duration passFrom, @Nullable Duration failFrom) {
  /** Success from the first moment on. */
  public static final ProbeAnswer ALWAYS = new ProbeAnswer(Duration.ZERO, null);
  /** Failure forever. */
  public static final ProbeAnswer NEVER = new ProbeAnswer(null, null);

  /**
   * @throws IllegalArgumentException if a duration is negative
   */
  public ProbeAnswer {
    if ((passFrom != null && passFrom.isNegative()) || (failFrom != null && failFrom.isNegative())) {
      throw new IllegalArgumentException("probe answer: passFrom " + passFrom + " and failFrom " + failFrom
          + " must not be negative");
    }
  }

  /** Success from {@code d} on. */
  public static ProbeAnswer passesAfter(Duration d) {
    return new ProbeAnswer(d, null);
  }

  /** Success until {@code d}, failure from then on. */
  public static ProbeAnswer failsAfter(Duration d) {
    return new ProbeAnswer(Duration.ZERO, d);
  }

  /** This answer, failing from {@code d} on. */
  public ProbeAnswer withFailFrom(@Nullable Duration d) {
    return new ProbeAnswer(passFrom, d);
  }

  /** The answer after the container has run for {@code since}. */
  public ProbeResult at(Duration since) {
    boolean passing = passFrom != null && since.compareTo(passFrom) >= 0
        && (failFrom == null || since.compareTo(failFrom) < 0);
    return passing ? ProbeResult.Success : ProbeResult.Failure;
  }

  /** The first moment after {@code since} at which the answer changes; {@code null} when it never does. */
  public @Nullable Duration nextChange(Duration since) {
    Duration next = null;
    for (Duration d : new Duration[] {passFrom, failFrom}) {
      if (d != null && d.compareTo(since) > 0 && (next == null || d.compareTo(next) < 0)) {
        next = d;
      }
    }
    return next;
  }
}
