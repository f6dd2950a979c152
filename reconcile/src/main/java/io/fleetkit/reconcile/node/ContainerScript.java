package io.fleetkit.reconcile.node;

import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What one run of a simulated container does, measured from the moment it starts: when its readiness probe starts
 * to succeed, whether and when its process exits and with which code, and whether and when its liveness probe
 * starts to fail (the kubelet then kills it with exit code 137). A {@link HealthSource} hands one out per start.
 *
 * @param readyAfter when the readiness probe first succeeds; {@code null} means never ready
 * @param exitAfter when the process exits by itself; {@code null} means it runs until stopped
 * @param exitCode the exit code when it exits by itself
 * @param livenessFailsAfter when the liveness probe fails; {@code null} means it never does
 */
public record ContainerScript(@Nullable Duration readyAfter, @Nullable Duration exitAfter, int exitCode,
    @Nullable Duration livenessFailsAfter) {
  /** The exit code of a container the kubelet killed (SIGKILL). */
  public static final int KILLED_EXIT_CODE = 137;

  private static final ContainerScript HEALTHY = new ContainerScript(Duration.ZERO, null, 0, null);

  /**
   * @throws IllegalArgumentException if a duration is negative
   */
  public ContainerScript {
    nonNegative("readyAfter", readyAfter);
    nonNegative("exitAfter", exitAfter);
    nonNegative("livenessFailsAfter", livenessFailsAfter);
  }

  private static void nonNegative(String field, @Nullable Duration d) {
    if (d != null && d.isNegative()) {
      throw new IllegalArgumentException("container script: " + field + " " + d + " must not be negative");
    }
  }

  /** Ready at once, runs forever. */
  public static ContainerScript healthy() {
    return HEALTHY;
  }

  /** Ready after {@code d}, runs forever. */
  public static ContainerScript readyAfter(Duration d) {
    return new ContainerScript(Objects.requireNonNull(d, "d"), null, 0, null);
  }

  /** Ready at once, exits with {@code code} after {@code d} (a batch task, or a crash when the code is not 0). */
  public static ContainerScript exitsAfter(Duration d, int code) {
    return new ContainerScript(Duration.ZERO, Objects.requireNonNull(d, "d"), code, null);
  }

  /** Never ready, exits with code 1 the moment it starts: a crash loop. */
  public static ContainerScript crashes() {
    return new ContainerScript(null, Duration.ZERO, 1, null);
  }

  /** This script with the liveness probe failing after {@code d}. */
  public ContainerScript withLivenessFailureAfter(Duration d) {
    return new ContainerScript(readyAfter, exitAfter, exitCode, Objects.requireNonNull(d, "d"));
  }
}
