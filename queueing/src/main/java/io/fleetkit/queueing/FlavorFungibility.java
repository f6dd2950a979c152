package io.fleetkit.queueing;

import java.util.Objects;

/**
 * When the flavor assigner stops at a flavor that fits only by borrowing or by preempting (Kueue {@code
 * FlavorFungibility}).
 *
 * @param whenCanBorrow {@link WhenCanBorrow#BORROW} (default) takes the first flavor that fits by borrowing
 * @param whenCanPreempt {@link WhenCanPreempt#TRY_NEXT_FLAVOR} (default) looks for a later flavor that fits without
 *     preemption
 */
public record FlavorFungibility(WhenCanBorrow whenCanBorrow, WhenCanPreempt whenCanPreempt) {
  public static final FlavorFungibility DEFAULT =
      new FlavorFungibility(WhenCanBorrow.BORROW, WhenCanPreempt.TRY_NEXT_FLAVOR);

  public enum WhenCanBorrow {
    BORROW,
    TRY_NEXT_FLAVOR
  }

  public enum WhenCanPreempt {
    PREEMPT,
    TRY_NEXT_FLAVOR
  }

  public FlavorFungibility {
    Objects.requireNonNull(whenCanBorrow, "whenCanBorrow");
    Objects.requireNonNull(whenCanPreempt, "whenCanPreempt");
  }
}
