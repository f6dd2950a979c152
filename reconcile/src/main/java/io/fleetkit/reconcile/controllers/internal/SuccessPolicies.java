package io.fleetkit.reconcile.controllers.internal;

import io.fleetkit.api.batch.SuccessPolicy;
import io.fleetkit.api.batch.SuccessPolicyRule;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Upstream's {@code pkg/controller/job/success_policy.go}: whether an Indexed Job's succeeded indexes meet its
 * {@link SuccessPolicy}. Stateless and thread-safe.
 */
public final class SuccessPolicies {
  private SuccessPolicies() {}

  /**
   * Upstream's {@code matchSuccessPolicy}: the message of the first rule (in order) the succeeded indexes meet,
   * {@code "Matched rules at index <i>"}, or {@code null} when no rule is met, there is no policy or no index
   * succeeded. A rule whose {@code succeededIndexes} parse to nothing is skipped.
   */
  public static @Nullable String match(@Nullable SuccessPolicy policy, int completions, IndexIntervals succeeded) {
    if (policy == null || succeeded.total() == 0) {
      return null;
    }
    List<SuccessPolicyRule> rules = policy.rules();
    for (int index = 0; index < rules.size(); index++) {
      SuccessPolicyRule rule = rules.get(index);
      String indexes = rule.succeededIndexes();
      Integer count = rule.succeededCount();
      if (indexes != null) {
        IndexIntervals required = IndexIntervals.parse(indexes, completions);
        if (required.total() == 0) {
          continue; // the rule's indexes failed to parse
        }
        if (matchSucceededIndexesRule(required, succeeded, count)) {
          return "Matched rules at index " + index;
        }
      } else if (count != null && succeeded.total() >= count) {
        return "Matched rules at index " + index;
      }
    }
    return null;
  }

  /**
   * Upstream's {@code matchSucceededIndexesRule}: whether all of {@code ruleIndexes} succeeded, or, with
   * {@code succeededCount}, at least that many of them.
   */
  static boolean matchSucceededIndexesRule(IndexIntervals ruleIndexes, IndexIntervals succeeded,
      @Nullable Integer succeededCount) {
    List<IndexIntervals.Interval> rule = ruleIndexes.intervals();
    List<IndexIntervals.Interval> done = succeeded.intervals();
    int contains = 0;
    int s = 0;
    int r = 0;
    while (r < rule.size() && s < done.size()) {
      int overlap = Math.min(rule.get(r).last(), done.get(s).last())
          - Math.max(rule.get(r).first(), done.get(s).first()) + 1;
      if (overlap > 0) {
        contains += overlap;
      }
      if (done.get(s).last() < rule.get(r).last()) {
        s++; // the succeeded interval is behind
      } else if (done.get(s).last() > rule.get(r).last()) {
        r++; // the rule interval is behind
      } else {
        s++;
        r++;
      }
    }
    return contains == ruleIndexes.total() || (succeededCount != null && contains >= succeededCount);
  }
}
