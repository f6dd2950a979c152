package io.fleetkit.scheduler.plugins.helper;

import java.util.Objects;
import java.util.function.Predicate;
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

  /**
   * The answer of upstream's node hints that re-queue a pod when an object starts to pass the plugin's check:
   * {@code true} when {@code after} passes {@code test} and {@code before} is absent (an addition) or did not pass;
   * {@code false} when {@code after} fails it or {@code before} passed already (an unrelated change). Objects not of
   * {@code type}, and a deletion, re-queue ({@code true}).
   */
  public static <T> boolean startsToPass(Class<T> type, @Nullable Object before, @Nullable Object after,
      Predicate<? super T> test) {
    ObjectChange<T> change = as(type, before, after);
    if (change == null || change.after() == null) {
      return true;
    }
    return test.test(change.after()) && (change.before() == null || !test.test(change.before()));
  }
}
