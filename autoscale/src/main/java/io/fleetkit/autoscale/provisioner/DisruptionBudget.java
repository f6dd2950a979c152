package io.fleetkit.autoscale.provisioner;

import io.fleetkit.api.batch.CronSchedule;
import io.fleetkit.api.meta.IntOrPercent;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * One of Karpenter's disruption budgets ({@code NodePool.spec.disruption.budgets[]}, {@code pkg/apis/v1/nodepool.go}):
 * while it is active, at most {@code nodes} of the provisioner's nodes may be disrupted at once for the reasons it
 * applies to. A percentage is of the provisioner's nodes, rounded up (Karpenter's {@code GetAllowedDisruptions});
 * nodes already being replaced count against it. Without a schedule a budget is always active; with one, it is active
 * from each hit of the schedule (in UTC) for {@code duration} ({@link #isActive}). Immutable.
 *
 * @param nodes how many nodes, or what share of them, may be disrupted at once ({@code 0}: none)
 * @param reasons the reasons it applies to; empty: all of them
 * @param schedule when the budget becomes active, a cron schedule computed in UTC (no {@code @every}); {@code null}:
 *     always active
 * @param duration how long the budget stays active after each hit of {@code schedule}; set exactly when
 *     {@code schedule} is
 */
public record DisruptionBudget(IntOrPercent nodes, Set<DisruptionReason> reasons, @Nullable CronSchedule schedule,
    @Nullable Duration duration) {
  /** Karpenter's default budget, {@code {nodes: "10%"}} for every reason. */
  public static final DisruptionBudget DEFAULT = of(IntOrPercent.ofPercent(10));

  /**
   * @throws IllegalArgumentException when {@code nodes} is negative, {@code schedule} is set without {@code duration}
   *     or the reverse, {@code duration} is negative, or {@code schedule} is an {@code @every} schedule or has a zone
   *     other than UTC
   */
  public DisruptionBudget {
    Objects.requireNonNull(nodes, "nodes");
    if (nodes.value() < 0) {
      throw new IllegalArgumentException("disruption budget: nodes " + nodes + " must not be negative");
    }
    reasons = Set.copyOf(reasons);
    if ((schedule == null) != (duration == null)) {
      throw new IllegalArgumentException("disruption budget: schedule " + schedule + " and duration " + duration
          + " must be set together or not at all");
    }
    if (duration != null && duration.isNegative()) {
      throw new IllegalArgumentException("disruption budget: duration " + duration + " must not be negative");
    }
    if (schedule != null && (schedule.every() != null
        || (schedule.zone() != null && !ZoneOffset.UTC.equals(schedule.zone())))) {
      throw new IllegalArgumentException("disruption budget: schedule \"" + schedule
          + "\" must be cron fields or a descriptor in UTC (no @every, no other zone)");
    }
  }

  /** An always active budget. */
  public DisruptionBudget(IntOrPercent nodes, Set<DisruptionReason> reasons) {
    this(nodes, reasons, null, null);
  }

  /** An always active budget of {@code nodes} for every reason. */
  public static DisruptionBudget of(IntOrPercent nodes) {
    return new DisruptionBudget(nodes, Set.of());
  }

  /** Whether this budget limits disruptions for {@code reason} (when active). */
  public boolean appliesTo(DisruptionReason reason) {
    return reasons.isEmpty() || reasons.contains(reason);
  }

  /**
   * Whether this budget is active at {@code now} (Karpenter's {@code Budget.IsActive}): always without a schedule;
   * else when the schedule's first hit strictly after {@code now - duration} is not after {@code now}: from each hit
   * up to, not including, {@code duration} after it; a later hit within the window extends it.
   */
  public boolean isActive(Instant now) {
    if (schedule == null || duration == null) {
      return true;
    }
    Instant next = schedule.next(now.minus(duration));
    return next != null && !next.isAfter(now);
  }

  /**
   * How many of {@code nodes} nodes this budget lets be disrupted at {@code now} (Karpenter's
   * {@code Budget.GetAllowedDisruptions}): its value, a percentage rounded up, while active; {@link Integer#MAX_VALUE}
   * while inactive.
   */
  public int allowedDisruptions(int nodes, Instant now) {
    return isActive(now) ? this.nodes.scaledValue(nodes, true) : Integer.MAX_VALUE;
  }
}
