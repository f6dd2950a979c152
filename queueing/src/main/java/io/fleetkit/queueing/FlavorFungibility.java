package io.fleetkit.queueing;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * When the flavor assigner stops at a flavor that fits only by borrowing or by preempting, and which flavor it prefers
 * when it tries them all (Kueue {@code FlavorFungibility}).
 *
 * @param whenCanBorrow {@link WhenCanBorrow#BORROW} (default; Kueue's {@code MayStopSearch}) takes the first flavor
 *     that fits by borrowing
 * @param whenCanPreempt {@link WhenCanPreempt#TRY_NEXT_FLAVOR} (default) looks for a later flavor that fits without
 *     preemption
 * @param preference which of the tried flavors wins when none stops the search, or {@code null} for Kueue's default
 *     ({@link Preference#BORROWING_OVER_PREEMPTION}); a ClusterQueue accepts it only with both policies
 *     {@code TRY_NEXT_FLAVOR}, as Kueue's API does
 */
public record FlavorFungibility(
    WhenCanBorrow whenCanBorrow, WhenCanPreempt whenCanPreempt, @Nullable Preference preference) {
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

  /**
   * Kueue's {@code flavorFungibility.preference}: how two flavors that both need borrowing, preemption or both are
   * ranked. A flavor where the preemptor finds nothing to preempt ranks below every flavor that fits or can preempt,
   * and a flavor that does not fit below all others, whatever the preference.
   */
  public enum Preference {
    /**
     * The better preemption mode first (fits without preemption, then only reclaims quota lent to the cohort, then
     * preempts in the queue), then the lower borrowing level: a flavor that borrows beats one that preempts.
     */
    BORROWING_OVER_PREEMPTION("BorrowingOverPreemption"),
    /**
     * The lower borrowing level first (0 for none, else the height of the lowest cohort subtree that covers the
     * request once the preemptions are done), then the better preemption mode: a flavor that preempts within the
     * queue's quota beats one that borrows.
     */
    PREEMPTION_OVER_BORROWING("PreemptionOverBorrowing");

    private final String apiName;

    Preference(String apiName) {
      this.apiName = apiName;
    }

    /** The value in Kueue's API ({@code BorrowingOverPreemption}, {@code PreemptionOverBorrowing}). */
    public String apiName() {
      return apiName;
    }
  }

  public FlavorFungibility {
    Objects.requireNonNull(whenCanBorrow, "whenCanBorrow");
    Objects.requireNonNull(whenCanPreempt, "whenCanPreempt");
  }

  /** Without a preference (Kueue's default, {@link Preference#BORROWING_OVER_PREEMPTION}). */
  public FlavorFungibility(WhenCanBorrow whenCanBorrow, WhenCanPreempt whenCanPreempt) {
    this(whenCanBorrow, whenCanPreempt, null);
  }

  /** Both policies {@code TRY_NEXT_FLAVOR} and {@code preference}: every flavor is tried and the preferred one wins. */
  public static FlavorFungibility tryEveryFlavor(Preference preference) {
    return new FlavorFungibility(WhenCanBorrow.TRY_NEXT_FLAVOR, WhenCanPreempt.TRY_NEXT_FLAVOR,
        Objects.requireNonNull(preference, "preference"));
  }

  /** The preference in effect: the one set, else {@link Preference#BORROWING_OVER_PREEMPTION}. */
  public Preference effectivePreference() {
    return preference == null ? Preference.BORROWING_OVER_PREEMPTION : preference;
  }
}
