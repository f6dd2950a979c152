package io.fleetkit.api.store.spi;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.store.DeleteOptions;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The graceful part of a deletion, as the API server's {@code rest.BeforeDelete} with the pod registry's
 * {@code CheckGracefulDelete} ({@code pkg/registry/core/pod/strategy.go}): pods are the one kind deleted
 * gracefully.
 *
 * <ul>
 *   <li>A negative grace period (asked for, or stored in {@code deletionGracePeriodSeconds}) counts as 1.</li>
 *   <li>A pod not yet marked is marked: the grace period is the one asked for, else its
 *       {@code spec.terminationGracePeriodSeconds}; 0 if it is not bound to a node or already Succeeded or Failed;
 *       {@code deletionTimestamp} is now plus the grace period, {@code deletionGracePeriodSeconds} the grace period,
 *       {@code generation} + 1.</li>
 *   <li>A pod already marked with a grace period of 0 (or none) is deleted at once, like an object of another
 *       kind.</li>
 *   <li>A pod already marked with a grace period above 0 waits ({@link Outcome#PENDING}) unless a shorter grace period
 *       is asked for: then its {@code deletionTimestamp} moves back by the difference, never before now (a grace
 *       period above 0 that would end in the past becomes 1 second from now, so the kubelet still removes the
 *       pod).</li>
 * </ul>
 *
 * Stateless.
 */
final class GracefulDeletion {
  private GracefulDeletion() {}

  /** What {@code BeforeDelete} decides. */
  enum Outcome {
    /** Not a graceful deletion: the object is removed, or marked only to wait for its finalizers. */
    NOT_GRACEFUL,
    /** The object is already being deleted gracefully and this deletion does not shorten it: nothing changes. */
    PENDING,
    /** A graceful deletion: the object is marked with {@link Decision#meta()}. */
    GRACEFUL
  }

  /**
   * @param outcome what the deletion does
   * @param gracePeriodSeconds the grace period of the request after the rules (upstream's
   *     {@code options.GracePeriodSeconds} after {@code BeforeDelete}), {@code null} if neither the request nor the
   *     rules set one
   * @param meta the object's metadata after the rules: the mark for {@link Outcome#GRACEFUL}; otherwise the stored
   *     metadata with a negative {@code deletionGracePeriodSeconds} counted as 1
   */
  record Decision(Outcome outcome, @Nullable Long gracePeriodSeconds, ObjectMeta meta) {
    Decision {
      Objects.requireNonNull(outcome, "outcome");
      Objects.requireNonNull(meta, "meta");
    }
  }

  /** Whether objects like {@code object} are deleted gracefully (upstream's {@code RESTGracefulDeleteStrategy}). */
  static boolean supported(ApiObject<?> object) {
    return object instanceof Pod;
  }

  /** {@code rest.BeforeDelete} after the preconditions were checked, at time {@code now}. */
  static Decision beforeDelete(ApiObject<?> stored, DeleteOptions options, Instant now) {
    Long requested = atLeastOne(options.gracePeriodSeconds());
    ObjectMeta meta = stored.metadata();
    Long storedGrace = atLeastOne(meta.deletionGracePeriodSeconds());
    if (!Objects.equals(storedGrace, meta.deletionGracePeriodSeconds())) {
      meta = meta.toBuilder().deletionGracePeriodSeconds(storedGrace).build();
    }
    if (!supported(stored)) {
      return new Decision(Outcome.NOT_GRACEFUL, requested, meta);
    }
    Instant marked = meta.deletionTimestamp();
    if (marked != null) {
      if (storedGrace == null || storedGrace == 0) {
        return new Decision(Outcome.NOT_GRACEFUL, requested, meta);
      }
      if (requested == null) {
        return new Decision(Outcome.PENDING, storedGrace, meta);
      }
      if (requested >= storedGrace) {
        return new Decision(Outcome.PENDING, requested, meta);
      }
      long period = requested;
      Instant deadline = marked.minusSeconds(storedGrace).plusSeconds(requested);
      if (deadline.isBefore(now)) {
        deadline = now;
        if (period != 0) {
          period = 1;
        }
      }
      return new Decision(Outcome.GRACEFUL, requested,
          meta.toBuilder().deletionTimestamp(deadline).deletionGracePeriodSeconds(period).build());
    }
    long period = podGracePeriod((Pod) stored, requested);
    return new Decision(Outcome.GRACEFUL, period, meta.toBuilder().deletionTimestamp(now.plusSeconds(period))
        .deletionGracePeriodSeconds(period).generation(meta.generation() + 1).build());
  }

  /**
   * The pod registry's {@code CheckGracefulDelete}: the grace period of a pod's first deletion. {@code requested},
   * else the pod's {@code spec.terminationGracePeriodSeconds}; 0 for a pod not bound to a node or already Succeeded
   * or Failed; a negative period counts as 1.
   */
  static long podGracePeriod(Pod pod, @Nullable Long requested) {
    long period = requested != null ? requested : pod.spec().terminationGracePeriodSeconds();
    if (!pod.isBound() || pod.isTerminal()) {
      period = 0;
    }
    return period < 0 ? 1 : period;
  }

  private static @Nullable Long atLeastOne(@Nullable Long seconds) {
    return seconds != null && seconds < 0 ? Long.valueOf(1) : seconds;
  }
}
