package io.fleetkit.api.store;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a caller asks of a deletion, as Kubernetes' {@code DeleteOptions}: preconditions on the stored object and how
 * its dependents are treated. Immutable; {@link #DEFAULT} is the deletion without options.
 *
 * <p>The policy is {@link #propagationPolicy()}, or the deprecated {@link #orphanDependents()} ({@code true} is
 * {@link DeletionPropagation#ORPHAN}; {@code false} removes the {@code orphan} finalizer and adds no other, much as
 * {@link DeletionPropagation#BACKGROUND}), never both. When neither is set the object's kind decides with its
 * default: Jobs ({@code batch/v1}) orphan their dependents, as Kubernetes' job registry does for that version;
 * every other kind deletes them in the background. A {@code orphan} or {@code foregroundDeletion} finalizer the
 * object already carries wins over the kind's default; an explicit policy wins over both. See
 * {@link ObjectStore#delete(Class, String, String, DeleteOptions)}.
 *
 * <p>{@link #gracePeriodSeconds()} is how long an object that supports graceful deletion (a pod) may take to stop
 * before it is removed: {@code null} leaves it to the object (a pod's {@code spec.terminationGracePeriodSeconds}),
 * 0 asks for removal at once, a negative value counts as 1 (the API server's {@code BeforeDelete}). Other kinds
 * ignore it. A later deletion of an object already being deleted gracefully may only shorten it.
 *
 * @param preconditions checked against the stored object ({@link DeletePreconditions#NONE} for none)
 * @param propagationPolicy the policy, or {@code null} for the one the object's finalizers or kind imply
 * @param orphanDependents deprecated in Kubernetes in favour of {@code propagationPolicy}: {@code true} orphans,
 *     {@code false} does not, {@code null} leaves it to the other rules
 * @param gracePeriodSeconds the grace period asked for, or {@code null} for the object's own
 */
public record DeleteOptions(DeletePreconditions preconditions, @Nullable DeletionPropagation propagationPolicy,
    @Nullable Boolean orphanDependents, @Nullable Long gracePeriodSeconds) {

  /**
   * No preconditions, no policy, no grace period: the kind's default (or the object's GC finalizers) decides, and a
   * pod gets its own grace period.
   */
  public static final DeleteOptions DEFAULT = new DeleteOptions(DeletePreconditions.NONE, null, null);

  private static final DeleteOptions ORPHAN = new DeleteOptions(DeletePreconditions.NONE,
      DeletionPropagation.ORPHAN, null);
  private static final DeleteOptions BACKGROUND = new DeleteOptions(DeletePreconditions.NONE,
      DeletionPropagation.BACKGROUND, null);
  private static final DeleteOptions FOREGROUND = new DeleteOptions(DeletePreconditions.NONE,
      DeletionPropagation.FOREGROUND, null);

  /**
   * @throws ValidationException if both {@code propagationPolicy} and {@code orphanDependents} are set (the API
   *     server's {@code ValidateDeleteOptions}: "orphanDependents and deletionPropagation cannot be both set", even
   *     when they agree)
   */
  public DeleteOptions {
    Objects.requireNonNull(preconditions, "preconditions");
    if (propagationPolicy != null && orphanDependents != null) {
      throw new ValidationException(new Violation("DeleteOptions", "propagationPolicy",
          "orphanDependents and deletionPropagation cannot be both set", propagationPolicy.value()));
    }
  }

  /** Options without a grace period. */
  public DeleteOptions(DeletePreconditions preconditions, @Nullable DeletionPropagation propagationPolicy,
      @Nullable Boolean orphanDependents) {
    this(preconditions, propagationPolicy, orphanDependents, null);
  }

  /** Only {@code preconditions}; {@link #DEFAULT} when there are none. */
  public static DeleteOptions of(DeletePreconditions preconditions) {
    return preconditions.equals(DeletePreconditions.NONE) ? DEFAULT
        : new DeleteOptions(preconditions, null, null);
  }

  /** Only a propagation policy. */
  public static DeleteOptions propagation(DeletionPropagation policy) {
    Objects.requireNonNull(policy, "policy");
    return switch (policy) {
      case ORPHAN -> ORPHAN;
      case BACKGROUND -> BACKGROUND;
      case FOREGROUND -> FOREGROUND;
    };
  }

  /** {@code propagationPolicy: Orphan}. */
  public static DeleteOptions orphan() {
    return ORPHAN;
  }

  /** {@code propagationPolicy: Background}, what {@code kubectl delete} sends. */
  public static DeleteOptions background() {
    return BACKGROUND;
  }

  /** {@code propagationPolicy: Foreground}. */
  public static DeleteOptions foreground() {
    return FOREGROUND;
  }

  /**
   * Only a grace period: {@code kubectl delete --grace-period=N}; 0 is the deletion at once that the kubelet and
   * the pod garbage collector send (and {@code --grace-period=0 --force}).
   */
  public static DeleteOptions gracePeriod(long seconds) {
    return new DeleteOptions(DeletePreconditions.NONE, null, null, seconds);
  }

  /** These options with other preconditions. */
  public DeleteOptions withPreconditions(DeletePreconditions newPreconditions) {
    return new DeleteOptions(newPreconditions, propagationPolicy, orphanDependents, gracePeriodSeconds);
  }

  /** These options with another grace period ({@code null}: the object's own). */
  public DeleteOptions withGracePeriodSeconds(@Nullable Long seconds) {
    return new DeleteOptions(preconditions, propagationPolicy, orphanDependents, seconds);
  }

  /**
   * These options with another policy ({@code null}: none).
   *
   * @throws ValidationException if {@code orphanDependents} is set and {@code policy} is not null
   */
  public DeleteOptions withPropagationPolicy(@Nullable DeletionPropagation policy) {
    return new DeleteOptions(preconditions, policy, orphanDependents, gracePeriodSeconds);
  }

  /**
   * These options with the deprecated {@code orphanDependents} ({@code null}: unset).
   *
   * @throws ValidationException if a propagation policy is set and {@code orphan} is not null
   */
  public DeleteOptions withOrphanDependents(@Nullable Boolean orphan) {
    return new DeleteOptions(preconditions, propagationPolicy, orphan, gracePeriodSeconds);
  }

  /** Whether the caller chose how dependents are treated (a policy or {@code orphanDependents}). */
  public boolean choosesPropagation() {
    return propagationPolicy != null || orphanDependents != null;
  }
}
