package io.fleetkit.reconcile.controllers.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.batch.SuccessPolicy;
import io.fleetkit.api.batch.SuccessPolicyRule;
import java.util.List;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ported from upstream {@code pkg/controller/job/success_policy_test.go} (kubernetes commit
 * 46f9e4b41f6e4d06564009b9dfcf85da1d2fa5be; {@code success_policy.go} cb6ff2d8ce3595f88570f82c7d0e6d98910afd3c),
 * {@code TestMatchSuccessPolicy}: 31 of its 32 cases (message and whether the policy is met). "rules.succeededIndexes
 * is specified; succeededIndexes are nothing" runs upstream with the gate off; its outcome (not met, no index
 * succeeded) is the same with it on. Not ported: "JobSuccessPolicy is disabled" (FleetKit has no feature gates; the
 * case has no policy, which "successPolicy is null" covers).
 */
final class SuccessPoliciesTest {

  record Case(String name, @Nullable SuccessPolicy policy, int completions, IndexIntervals succeeded,
      @Nullable String want) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static final String M0 = "Matched rules at index 0";

  private static SuccessPolicy rule(@Nullable String indexes, @Nullable Integer count) {
    return SuccessPolicy.of(new SuccessPolicyRule(indexes, count));
  }

  private static IndexIntervals iv(int... pairs) {
    return IndexIntervals.of(pairs);
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case("successPolicy is null", null, 10, iv(0, 0), null),
        new Case("any rules are nothing", new SuccessPolicy(List.of()), 10, iv(0, 0), null),
        new Case("rules.succeededIndexes is invalid format", rule("invalid-form", null), 10, iv(0, 0), null),
        new Case("rules.succeededIndexes is specified; succeededIndexes matched rules", rule("0-2", null), 10,
            iv(0, 2, 4, 7), M0),
        new Case("rules.succeededIndexes is specified; succeededIndexes didn't match rules", rule("3", null), 10,
            iv(0, 2), null),
        new Case("rules.succeededCount is specified; succeededIndexes matched rules", rule(null, 2), 10, iv(0, 2),
            M0),
        new Case("rules.succeededCount is specified; succeededIndexes didn't match rules", rule(null, 4), 10,
            iv(0, 2), null),
        new Case("multiple rules; rules.succeededIndexes is specified; succeededIndexes met one of rules",
            SuccessPolicy.of(SuccessPolicyRule.indexes("9"), SuccessPolicyRule.indexes("4,6")), 10, iv(0, 2, 4, 7),
            "Matched rules at index 1"),
        new Case("multiple rules; rules.succeededIndexes is specified; succeededIndexes met all rules",
            SuccessPolicy.of(SuccessPolicyRule.indexes("0,1"), SuccessPolicyRule.indexes("5")), 10, iv(0, 2, 4, 7),
            M0),
        new Case("rules.succeededIndexes and rules.succeededCount are specified; succeededIndexes met all rules",
            rule("3-6", 2), 10, iv(0, 2, 4, 7), M0),
        new Case("rules.succeededIndexes and rules.succeededCount are specified; succeededIndexes didn't match "
            + "rules", rule("3-6", 2), 10, iv(0, 2, 6, 7), null),
        new Case("rules.succeededIndexes is specified; succeededIndexes are nothing", rule(null, 4), 10, iv(),
            null),
        new Case("rules.succeededIndexes is specified; succeededIndexes matched rules; rules is proper subset of "
            + "succeededIndexes", rule("2-4,6-8", null), 10, iv(1, 5, 6, 9), M0),
        new Case("rules.succeededIndexes is specified; succeededIndexes matched rules; rules equals "
            + "succeededIndexes", rule("2-4,6-9", null), 10, iv(2, 4, 6, 9), M0),
        new Case("rules.succeededIndexes is specified; succeededIndexes matched rules; rules is subset of "
            + "succeededIndexes", rule("2-4,8-12", null), 10, iv(2, 5, 7, 15), M0),
        new Case("rules.succeededIndexes is specified; succeededIndexes didn't match rules; rules is an empty set",
            rule("", null), 10, iv(1, 3), null),
        new Case("rules.succeededIndexes is specified; succeededIndexes didn't match rules; succeededIndexes is an "
            + "empty set", rule("", null), 10, iv(), null),
        new Case("rules.succeededIndexes is specified; succeededIndexes didn't match rules; rules and "
            + "succeededIndexes are empty set", rule("", null), 10, iv(), null),
        new Case("rules.succeededIndexes is specified; succeededIndexes didn't match rules; all elements of "
            + "rules.succeededIndexes aren't included in succeededIndexes", rule("10-12,14-16", null), 10,
            iv(1, 3, 5, 7), null),
        new Case("rules.succeededIndexes is specified; succeededIndexes didn't match rules; rules overlaps "
            + "succeededIndexes at first", rule("1-3,5-7", null), 10, iv(2, 4, 6, 8), null),
        new Case("rules.succeededIndexes and rules.succeededCount are specified; succeededIndexes matched rules; "
            + "rules overlaps succeededIndexes at first", rule("1-3,5-7", 4), 10, iv(2, 4, 6, 8), M0),
        new Case("rules.succeededIndexes is specified; succeededIndexes didn't match rules; rules overlaps "
            + "succeededIndexes at last", rule("2-4,6-9", null), 10, iv(1, 3, 5, 7), null),
        new Case("rules.succeededIndexes and rules.succeededCount are specified; succeededIndexes matched rules; "
            + "rules overlaps succeededIndexes at last", rule("2-4,6-9", 4), 10, iv(1, 3, 5, 7), M0),
        new Case("rules.succeededIndexes is specified; succeededIndexes didn't match rules; rules completely "
            + "overlaps succeededIndexes", rule("0-4,6-9", null), 10, iv(1, 3, 7, 8), null),
        new Case("rules.succeededIndexes and rules.succeededCount are specified; succeededIndexes matched rules; "
            + "rules completely overlaps succeededIndexes", rule("0-4,6-9", 5), 10, iv(1, 3, 7, 8), M0),
        new Case("rules.succeededIndexes is specified; succeededIndexes didn't match rules; rules overlaps multiple "
            + "succeededIndexes at last", rule("0-6,8-9", null), 10, iv(1, 3, 5, 9), null),
        new Case("rules.succeededIndexes and rules.succeededCount are specified; succeededIndexes matched rules; "
            + "rules overlaps multiple succeededIndexes at last", rule("0-6,8-9", 7), 10, iv(1, 3, 5, 9), M0),
        new Case("rules.succeededIndexes is specified; succeededIndexes didn't match rules; rules overlaps "
            + "succeededIndexes at first, and rules equals succeededIndexes at last", rule("0-5,7-9", null), 10,
            iv(1, 5, 7, 10), null),
        new Case("rules.succeededIndexes and rules.succeededCount are specified; succeededIndexes matched rules; "
            + "rules overlaps succeededIndexes at first, and rules equals succeededIndexes at last",
            rule("0-5,7-9", 8), 10, iv(1, 5, 7, 10), M0),
        new Case("rules.succeededIndexes is specified; succeededIndexes didn't match rules; the first rules "
            + "overlaps succeededIndexes at first", rule("0-3,6-9", null), 10, iv(1, 10), null),
        new Case("rules.succeededIndexes and rules.succeededCount are specified; succeededIndexes matched rules; "
            + "the first rules overlaps succeededIndexes at first", rule("0-3,6-9", 7), 10, iv(1, 10), M0));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void matchSuccessPolicy_upstreamTable(Case tc) {
    assertThat(SuccessPolicies.match(tc.policy(), tc.completions(), tc.succeeded())).isEqualTo(tc.want());
  }
}
