package io.fleetkit.autoscale.cluster;

import io.fleetkit.api.core.Pod;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * When a pod being deleted counts as gone for the cluster autoscaler (upstream's {@code drain.IsPodLongTerminating}):
 * once it has been terminating longer than its {@code spec.terminationGracePeriodSeconds} plus
 * {@link #EXTRA_THRESHOLD}. Such a pod is left out of a node's {@linkplain NodeUtilization utilization} and is
 * skipped when the node is {@linkplain Drainability drained}; a pod deleted more recently still counts and, if it
 * must move, still has to find another node.
 *
 * <p>The answer depends on the time only through one instant per pod, {@link #longTerminatingAfter}: a pod is
 * long-terminating at every time after it and at none before. Whoever caches an answer for a set of pods can keep it
 * while no pod's instant is passed.
 *
 * <p>Stateless; thread-safe.
 */
public final class TerminatingPods {
  /** Upstream's {@code PodLongTerminatingExtraThreshold}: how long past its grace period a deleted pod may run. */
  public static final Duration EXTRA_THRESHOLD = Duration.ofSeconds(30);

  private TerminatingPods() {}

  /**
   * The instant after which {@code pod} is long-terminating: its {@code metadata.deletionTimestamp} plus its
   * {@code spec.terminationGracePeriodSeconds} (a negative value taken as it is, as upstream's arithmetic does) plus
   * {@link #EXTRA_THRESHOLD}, saturated at {@link Instant#MIN} and {@link Instant#MAX}; {@code null} when the pod is
   * not being deleted.
   */
  public static @Nullable Instant longTerminatingAfter(Pod pod) {
    Instant deleted = pod.metadata().deletionTimestamp();
    if (deleted == null) {
      return null;
    }
    long grace = pod.spec().terminationGracePeriodSeconds();
    long seconds = grace > Long.MAX_VALUE - EXTRA_THRESHOLD.getSeconds() ? Long.MAX_VALUE
        : grace + EXTRA_THRESHOLD.getSeconds();
    long epoch = deleted.getEpochSecond();
    if (seconds > 0 && epoch > Instant.MAX.getEpochSecond() - seconds) {
      return Instant.MAX;
    }
    if (seconds < 0 && epoch < Instant.MIN.getEpochSecond() - seconds) {
      return Instant.MIN;
    }
    return deleted.plusSeconds(seconds);
  }

  /**
   * Whether {@code pod} has been terminating longer than its grace period plus {@link #EXTRA_THRESHOLD} at
   * {@code now} (strictly: a pod whose {@link #longTerminatingAfter} instant is {@code now} is not yet).
   */
  public static boolean isLongTerminating(Pod pod, Instant now) {
    Objects.requireNonNull(now, "now");
    Instant after = longTerminatingAfter(pod);
    return after != null && after.isBefore(now);
  }
}
