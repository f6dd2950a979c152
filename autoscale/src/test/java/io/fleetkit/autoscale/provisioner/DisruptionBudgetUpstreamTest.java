package io.fleetkit.autoscale.provisioner;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.meta.IntOrPercent;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Karpenter's {@code pkg/apis/v1/nodepool_budgets_test.go} (kubernetes-sigs/karpenter 2266468) for
 * {@link ProvisionerOptions#allowedDisruptions}: the cases whose budgets are active at the test's time, as every
 * FleetKit budget always is. Cases that turn on a schedule being inactive, or on cron parsing, are not ported (budget
 * schedules are not modelled); docs/conformance.md lists them.
 */
final class DisruptionBudgetUpstreamTest {
  private static final List<DisruptionReason> ALL_REASONS = List.of(DisruptionReason.Empty,
      DisruptionReason.Underutilized, DisruptionReason.Drifted);

  private static DisruptionBudget budget(IntOrPercent nodes, DisruptionReason... reasons) {
    return new DisruptionBudget(nodes, Set.of(reasons));
  }

  /** The BeforeEach budgets 0..4 ("* * * * *" for 1h: active at the test's time). */
  private static List<DisruptionBudget> activeBudgets() {
    return new ArrayList<>(List.of(
        budget(IntOrPercent.of(10)),
        budget(IntOrPercent.of(100)),
        budget(IntOrPercent.ofPercent(100)),
        budget(IntOrPercent.of(15), DisruptionReason.Drifted, DisruptionReason.Underutilized),
        budget(IntOrPercent.of(5), DisruptionReason.Drifted)));
  }

  private static ProvisionerOptions options(List<DisruptionBudget> budgets) {
    return ProvisionerOptions.defaults().withBudgets(budgets);
  }

  @Test
  void getAllowedDisruptionsByReason_aBudgetActiveForAllReasons_zeroForAll() {
    // "should return 0 for all reasons if a budget is active for all reasons": budget 5 made active
    List<DisruptionBudget> budgets = activeBudgets();
    budgets.add(budget(IntOrPercent.of(0), DisruptionReason.Underutilized, DisruptionReason.Drifted,
        DisruptionReason.Empty));
    for (DisruptionReason r : ALL_REASONS) {
      assertThat(options(budgets).allowedDisruptions(100, r)).as(r.name()).isZero();
    }
  }

  @Test
  void getAllowedDisruptionsByReason_oneBudgetWithoutReasons_appliesToAll() {
    // "should return the budget for all disruption reasons when undefined"
    List<DisruptionBudget> budgets = activeBudgets().subList(0, 1);
    assertThat(budgets.get(0).reasons()).isEmpty();
    for (DisruptionReason r : ALL_REASONS) {
      assertThat(options(budgets).allowedDisruptions(100, r)).as(r.name()).isEqualTo(10);
    }
  }

  @Test
  void getAllowedDisruptionsByReason_theMinimumForEachReason() {
    // "should get the minimum budget for each reason" (budget 5, "@weekly", is inactive at the test's time and left
    // out here; a FleetKit budget is always active)
    List<DisruptionBudget> budgets = activeBudgets();
    budgets.add(budget(IntOrPercent.of(4), DisruptionReason.Empty));
    assertThat(options(budgets).allowedDisruptions(100, DisruptionReason.Empty)).isEqualTo(4);
    assertThat(options(budgets).allowedDisruptions(100, DisruptionReason.Drifted)).isEqualTo(5);
    // the budget without reasons overrides the budget with a specified reason
    assertThat(options(budgets).allowedDisruptions(100, DisruptionReason.Underutilized)).isEqualTo(10);
  }

  @Test
  void allowedDisruptions_activeBudget_intAndPercentValues() {
    // "should return the int value when a budget is active", "should return the string value when a budget is
    // active"; "should return that a schedule is active when schedule and duration are nil"
    assertThat(options(activeBudgets().subList(0, 1)).allowedDisruptions(100, DisruptionReason.Empty)).isEqualTo(10);
    assertThat(options(activeBudgets().subList(2, 3)).allowedDisruptions(100, DisruptionReason.Empty))
        .isEqualTo(100);
    // rounded up, as GetScaledValueFromIntOrPercent(..., true)
    assertThat(options(List.of(budget(IntOrPercent.ofPercent(10)))).allowedDisruptions(5, DisruptionReason.Empty))
        .isEqualTo(1);
    assertThat(options(List.of(budget(IntOrPercent.ofPercent(10)))).allowedDisruptions(0, DisruptionReason.Empty))
        .isZero();
  }
}
