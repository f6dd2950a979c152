package io.fleetkit.queueing;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Whether a ClusterQueue may preempt workloads of other ClusterQueues in its cohort while it borrows (Kueue {@code
 * BorrowWithinCohort}).
 *
 * @param policy {@link Policy#NEVER} or {@link Policy#LOWER_PRIORITY}
 * @param maxPriorityThreshold only workloads with priority at most this may be preempted while borrowing; {@code null}
 *     means below the preemptor's priority
 */
public record BorrowWithinCohort(Policy policy, @Nullable Integer maxPriorityThreshold) {
  /** Never preempt while borrowing. */
  public static final BorrowWithinCohort NEVER = new BorrowWithinCohort(Policy.NEVER, null);

  public enum Policy {
    NEVER,
    LOWER_PRIORITY
  }

  public BorrowWithinCohort {
    Objects.requireNonNull(policy, "policy");
  }

  public static BorrowWithinCohort lowerPriority(@Nullable Integer maxPriorityThreshold) {
    return new BorrowWithinCohort(Policy.LOWER_PRIORITY, maxPriorityThreshold);
  }
}
