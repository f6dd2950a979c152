package io.fleetkit.api.core;

import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A container health probe (Kubernetes' {@code core/v1 Probe}). Zero for {@code timeoutSeconds},
 * {@code periodSeconds}, {@code successThreshold} or {@code failureThreshold} means "unset" and is replaced by
 * Kubernetes' default, as the API server's defaulting does; negative values are kept so that pod validation can
 * report them. The remaining rules (liveness and startup probes need {@code successThreshold} 1, readiness probes
 * take no {@code terminationGracePeriodSeconds}, ...) are checked with the pod.
 *
 * @param handler what the probe does
 * @param initialDelaySeconds seconds after the container started before the first probe (default 0)
 * @param periodSeconds seconds between probes (default {@value #DEFAULT_PERIOD_SECONDS})
 * @param timeoutSeconds seconds one attempt may take (default {@value #DEFAULT_TIMEOUT_SECONDS})
 * @param successThreshold consecutive successes that make the result Success (default 1)
 * @param failureThreshold consecutive failures that make the result Failure (default
 *     {@value #DEFAULT_FAILURE_THRESHOLD})
 * @param terminationGracePeriodSeconds grace period when this probe's failure kills the container (liveness and
 *     startup only); {@code null} means the pod's
 */
public record Probe(ProbeHandler handler, int initialDelaySeconds, int periodSeconds, int timeoutSeconds,
    int successThreshold, int failureThreshold, @Nullable Long terminationGracePeriodSeconds) {
  public static final int DEFAULT_PERIOD_SECONDS = 10;
  public static final int DEFAULT_TIMEOUT_SECONDS = 1;
  public static final int DEFAULT_SUCCESS_THRESHOLD = 1;
  public static final int DEFAULT_FAILURE_THRESHOLD = 3;

  public Probe {
    Objects.requireNonNull(handler, "handler");
    timeoutSeconds = timeoutSeconds == 0 ? DEFAULT_TIMEOUT_SECONDS : timeoutSeconds;
    periodSeconds = periodSeconds == 0 ? DEFAULT_PERIOD_SECONDS : periodSeconds;
    successThreshold = successThreshold == 0 ? DEFAULT_SUCCESS_THRESHOLD : successThreshold;
    failureThreshold = failureThreshold == 0 ? DEFAULT_FAILURE_THRESHOLD : failureThreshold;
  }

  /** A probe with every timing field at its default. */
  public static Probe of(ProbeHandler handler) {
    return new Probe(handler, 0, 0, 0, 0, 0, null);
  }

  /** A builder starting from the defaults. */
  public static Builder builder(ProbeHandler handler) {
    return new Builder(handler);
  }

  /** {@code periodSeconds} as a duration (a non-positive value, which validation rejects, reads as 1 s). */
  public Duration period() {
    return Duration.ofSeconds(Math.max(1, periodSeconds));
  }

  /** {@code timeoutSeconds} as a duration (a non-positive value, which validation rejects, reads as 1 s). */
  public Duration timeout() {
    return Duration.ofSeconds(Math.max(1, timeoutSeconds));
  }

  /** Builder; not thread-safe. */
  public static final class Builder {
    private final ProbeHandler handler;
    private int initialDelaySeconds;
    private int periodSeconds;
    private int timeoutSeconds;
    private int successThreshold;
    private int failureThreshold;
    private @Nullable Long terminationGracePeriodSeconds;

    private Builder(ProbeHandler handler) {
      this.handler = Objects.requireNonNull(handler, "handler");
    }

    public Builder initialDelaySeconds(int v) {
      initialDelaySeconds = v;
      return this;
    }

    public Builder periodSeconds(int v) {
      periodSeconds = v;
      return this;
    }

    public Builder timeoutSeconds(int v) {
      timeoutSeconds = v;
      return this;
    }

    public Builder successThreshold(int v) {
      successThreshold = v;
      return this;
    }

    public Builder failureThreshold(int v) {
      failureThreshold = v;
      return this;
    }

    public Builder terminationGracePeriodSeconds(@Nullable Long v) {
      terminationGracePeriodSeconds = v;
      return this;
    }

    public Probe build() {
      return new Probe(handler, initialDelaySeconds, periodSeconds, timeoutSeconds, successThreshold,
          failureThreshold, terminationGracePeriodSeconds);
    }
  }
}
