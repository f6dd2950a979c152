package io.fleetkit.scheduler.plugins.helper;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The two objects a queueing hint is handed ({@code EnqueueExtensions.isSchedulableAfter}), typed: kube-scheduler's
 * {@code util.As} ({@code pkg/scheduler/util/utils.go}). {@code before} is {@code null} for an addition and
 * {@code after} for a deletion. Immutable.
 *
 * @param <T> the object type the hint expects (a {@code Node}, a {@code Pod})
 */
public record ObjectChange<T>(@Nullable T before, @Nullable T after) {
  /**
   * Both objects cast to {@code type}, or {@code null} when either is present but of another type (upstream's error,
   * whose hint answer is {@code Queue}: a hint handed something it cannot read re-queues the pod).
   */
  public static <T> @Nullable ObjectChange<T> as(Class<T> type, @Nullable Object before, @Nullable Object after) {
    Objects.requireNonNull(type, "type");
    if ((before != null && !type.isInstance(before)) || (after != null && !type.isInstance(after))) {
      return null;
    }
    return new ObjectChange<>(type.cast(before), type.cast(after));
  }
}
