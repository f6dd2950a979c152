package io.fleetkit.api.framework;

import java.time.Duration;
import java.util.Objects;

/** Permit's answer: allow, reject (a rejected status) or wait up to {@code timeout}. */
public record PermitResult(Status status, Duration timeout) {
  private static final PermitResult ALLOW = new PermitResult(Status.success(), Duration.ZERO);

  public PermitResult {
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(timeout, "timeout");
  }

  public static PermitResult allow() {
    return ALLOW;
  }

  public static PermitResult waitFor(Duration timeout) {
    return new PermitResult(Status.waiting(), timeout);
  }

  public static PermitResult reject(Status status) {
    return new PermitResult(status, Duration.ZERO);
  }
}
