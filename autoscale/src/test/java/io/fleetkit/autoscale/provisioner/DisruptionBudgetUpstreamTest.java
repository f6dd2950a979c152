package io.fleetkit.autoscale.provisioner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.batch.CronSchedule;
import io.fleetkit.api.meta.IntOrPercent;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Karpenter's {@code pkg/apis/v1/nodepool_budgets_test.go} (kubernetes-sigs/karpenter 2266468), every case, for
 * {@link DisruptionBudget#isActive}, {@link DisruptionBudget#allowedDisruptions} and
 * {@link ProvisionerOptions#allowedDisruptions}. Schedules are parsed as Karpenter's {@code IsActive} parses them (a
 * {@code TZ=UTC} prefix before robfig/cron's standard parser). Where Karpenter fails closed on a schedule or a nodes
 * value its CRD let through (0 disruptions and an error), FleetKit refuses the value when it is parsed.
 */
final class DisruptionBudgetUpstreamTest {
  /** The middle of the year 2000 (a Thursday), the BeforeEach's fake clock. */
  private static final Instant NOW = Instant.parse("2000-06-15T12:30:30Z");
  private static final Duration HOUR = Duration.ofHours(1);
  private static final List<DisruptionReason> ALL_REASONS = List.of(DisruptionReason.Empty,
      DisruptionReason.Underutilized, DisruptionReason.Drifted);

  private static CronSchedule cron(String schedule) {
    return CronSchedule.parse("TZ=UTC " + schedule);
  }

  private static DisruptionBudget budget(IntOrPercent nodes, String schedule, Duration duration,
      DisruptionReason... reasons) {
    return new DisruptionBudget(nodes, Set.of(reasons), cron(schedule), duration);
  }

  /** The BeforeEach budgets: 0..4 "* * * * *" for 1h (active at {@link #NOW}), 5 "@weekly" for 1h (inactive). */
  private static List<DisruptionBudget> budgets() {
    return new ArrayList<>(List.of(
        budget(IntOrPercent.of(10), "* * * * *", HOUR),
        budget(IntOrPercent.of(100), "* * * * *", HOUR),
        budget(IntOrPercent.ofPercent(100), "* * * * *", HOUR),
        budget(IntOrPercent.of(15), "* * * * *", HOUR, DisruptionReason.Drifted, DisruptionReason.Underutilized),
        budget(IntOrPercent.of(5), "* * * * *", HOUR, DisruptionReason.Drifted),
        budget(IntOrPercent.of(0), "@weekly", HOUR, DisruptionReason.Underutilized, DisruptionReason.Drifted,
            DisruptionReason.Empty)));
  }

  /** Budget {@code i} of {@link #budgets()} with another schedule and duration. */
  private static DisruptionBudget rescheduled(DisruptionBudget b, String schedule, Duration duration) {
    return new DisruptionBudget(b.nodes(), b.reasons(), cron(schedule), duration);
  }

  private static ProvisionerOptions options(List<DisruptionBudget> budgets) {
    return ProvisionerOptions.defaults().withBudgets(budgets);
  }

  // ---- GetAllowedDisruptionsByReason ----

  @Test
  void getAllowedDisruptionsByReason_aBudgetActiveForAllReasons_zeroForAll() {
    // "should return 0 for all reasons if a budget is active for all reasons"
    List<DisruptionBudget> budgets = budgets();
    budgets.set(5, rescheduled(budgets.get(5), "* * * * *", HOUR));
    for (DisruptionReason r : ALL_REASONS) {
      assertThat(options(budgets).allowedDisruptions(100, r, NOW)).as(r.name()).isZero();
    }
  }

  @Test
  void getAllowedDisruptionsByReason_noActiveBudget_maxInt32ForAll() {
    // "should return MaxInt32 for all reasons when there are no active budgets"
    List<DisruptionBudget> budgets = budgets();
    budgets.replaceAll(b -> rescheduled(b, "@yearly", HOUR));
    for (DisruptionReason r : ALL_REASONS) {
      assertThat(options(budgets).allowedDisruptions(100, r, NOW)).as(r.name()).isEqualTo(Integer.MAX_VALUE);
    }
  }

  @Test
  void getAllowedDisruptionsByReason_inactiveReasonBudgets_ignored() {
    // "should ignore reason-defined budgets when inactive": budgets 3 and 4 "@yearly" (budget 5, "@weekly", inactive)
    List<DisruptionBudget> budgets = budgets();
    budgets.set(3, rescheduled(budgets.get(3), "@yearly", HOUR));
    budgets.set(4, rescheduled(budgets.get(4), "@yearly", HOUR));
    for (DisruptionReason r : ALL_REASONS) {
      assertThat(options(budgets).allowedDisruptions(100, r, NOW)).as(r.name()).isEqualTo(10);
    }
  }

  @Test
  void getAllowedDisruptionsByReason_oneBudgetWithoutReasons_appliesToAll() {
    // "should return the budget for all disruption reasons when undefined"
    List<DisruptionBudget> budgets = budgets().subList(0, 1);
    assertThat(budgets.get(0).reasons()).isEmpty();
    for (DisruptionReason r : ALL_REASONS) {
      assertThat(options(budgets).allowedDisruptions(100, r, NOW)).as(r.name()).isEqualTo(10);
    }
  }

  @Test
  void getAllowedDisruptionsByReason_theMinimumForEachReason() {
    // "should get the minimum budget for each reason" (budget 5, "@weekly", is inactive and so limits nothing)
    List<DisruptionBudget> budgets = budgets();
    budgets.add(budget(IntOrPercent.of(4), "* * * * *", HOUR, DisruptionReason.Empty));
    assertThat(options(budgets).allowedDisruptions(100, DisruptionReason.Empty, NOW)).isEqualTo(4);
    assertThat(options(budgets).allowedDisruptions(100, DisruptionReason.Drifted, NOW)).isEqualTo(5);
    // the budget without reasons overrides the budget with a specified reason
    assertThat(options(budgets).allowedDisruptions(100, DisruptionReason.Underutilized, NOW)).isEqualTo(10);
  }

  // ---- AllowedDisruptions ----

  @Test
  void allowedDisruptions_invalidSchedule_refusedWhenParsed() {
    // "should return zero values if a schedule is invalid" ("@wrongly"): Karpenter fails closed at 0; here such a
    // schedule never makes a budget
    assertThatThrownBy(() -> cron("@wrongly"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unrecognized descriptor: @wrongly");
    // "should return zero values if a nodes value is invalid" ("1000a%"): refused by ScenarioProvisioner.Budget
    // (ScenarioProvisionerTest); IntOrPercent cannot hold it
    assertThatThrownBy(() -> IntOrPercent.parse("1000a%")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void allowedDisruptions_inactiveBudget_maxInt32() {
    // "should return MaxInt32 when a budget is inactive"
    assertThat(rescheduled(budgets().get(0), "@yearly", HOUR).allowedDisruptions(100, NOW))
        .isEqualTo(Integer.MAX_VALUE);
  }

  @Test
  void allowedDisruptions_activeBudget_intAndPercentValues() {
    // "should return the int value when a budget is active", "should return the string value when a budget is active"
    assertThat(budgets().get(0).allowedDisruptions(100, NOW)).isEqualTo(10);
    assertThat(budgets().get(2).allowedDisruptions(100, NOW)).isEqualTo(100);
    // rounded up, as GetScaledValueFromIntOrPercent(..., true)
    assertThat(DisruptionBudget.of(IntOrPercent.ofPercent(10)).allowedDisruptions(5, NOW)).isEqualTo(1);
    assertThat(DisruptionBudget.of(IntOrPercent.ofPercent(10)).allowedDisruptions(0, NOW)).isZero();
  }

  // ---- IsActive ----

  @Test
  void isActive_scheduleInUtc_whateverTheClocksZone() {
    // "should always consider a schedule and time in UTC": 2000-06-00 (May 31) 00:00 at UTC+1, "@daily" for 30m
    Instant now = OffsetDateTime.of(2000, 5, 31, 0, 0, 0, 0, ZoneOffset.ofHours(1)).toInstant();
    assertThat(rescheduled(budgets().get(0), "@daily", Duration.ofMinutes(30)).isActive(now)).isFalse();
    // one hour later it is midnight in UTC: active
    assertThat(rescheduled(budgets().get(0), "@daily", Duration.ofMinutes(30)).isActive(now.plus(HOUR))).isTrue();
  }

  @Test
  void isActive_noScheduleNorDuration_active() {
    // "should return that a schedule is active when schedule and duration are nil"
    DisruptionBudget b = new DisruptionBudget(IntOrPercent.of(10), Set.of());
    assertThat(b.isActive(NOW)).isTrue();
    assertThat(b.schedule()).isNull();
    assertThat(b.duration()).isNull();
  }

  @Test
  void isActive_activeAndInactive() {
    // "should return that a schedule is active"; "should return that a schedule is inactive" ("@yearly")
    assertThat(budgets().get(0).isActive(NOW)).isTrue();
    assertThat(rescheduled(budgets().get(0), "@yearly", HOUR).isActive(NOW)).isFalse();
  }

  @Test
  void isActive_hitInTheMiddleOfTheDuration_active() {
    // "should return that a schedule is active when the schedule hit is in the middle of the duration": 1000-01-01
    // 12:00, "@yearly" for 24h
    Instant now = Instant.parse("1000-01-01T12:00:00Z");
    assertThat(rescheduled(budgets().get(0), "@yearly", Duration.ofHours(24)).isActive(now)).isTrue();
  }

  @Test
  void isActive_durationLongerThanTheRecurrence_active() {
    // "should return that a schedule is active when the duration is longer than the recurrence": "@daily" for 48h
    Instant now = Instant.parse("2024-01-07T00:00:00Z");
    assertThat(rescheduled(budgets().get(0), "@daily", Duration.ofHours(48)).isActive(now)).isTrue();
  }

  @Test
  void isActive_hitAfterTheDuration_inactive() {
    // "should return that a schedule is inactive when the schedule hit is after the duration": "30 6 * * SUN" for 6h
    // at Sunday 2024-01-07 00:00 (the hit of that Sunday is still ahead; the last one is a week old)
    Instant now = Instant.parse("2024-01-07T00:00:00Z");
    DisruptionBudget b = rescheduled(budgets().get(0), "30 6 * * SUN", Duration.ofHours(6));
    assertThat(b.isActive(now)).isFalse();
    // the window: from the hit, up to six hours after it (robfig's Next is strictly after the checkpoint, so a hit
    // exactly six hours ago no longer counts)
    assertThat(b.isActive(Instant.parse("2024-01-07T06:29:59Z"))).isFalse();
    assertThat(b.isActive(Instant.parse("2024-01-07T06:30:00Z"))).isTrue();
    assertThat(b.isActive(Instant.parse("2024-01-07T12:29:59.999Z"))).isTrue();
    assertThat(b.isActive(Instant.parse("2024-01-07T12:30:00Z"))).isFalse();
  }

  @Test
  void isActive_unparsableCron_errorSaysWhy() {
    // "should return an error indicating why the cron fails to parse": "0 0 * * tue-mon"
    assertThatThrownBy(() -> cron("0 0 * * tue-mon"))
        .hasMessageContaining("beginning of range (2) beyond end of range (1)");
  }

  @Test
  void budget_scheduleWithoutDurationOrZoned_refused() {
    assertThatThrownBy(() -> new DisruptionBudget(IntOrPercent.of(1), Set.of(), cron("@daily"), null))
        .hasMessageContaining("must be set together or not at all");
    assertThatThrownBy(() -> new DisruptionBudget(IntOrPercent.of(1), Set.of(), null, HOUR))
        .hasMessageContaining("must be set together or not at all");
    assertThatThrownBy(() -> new DisruptionBudget(IntOrPercent.of(1), Set.of(), cron("@daily"), HOUR.negated()))
        .hasMessageContaining("duration PT-1H must not be negative");
    assertThatThrownBy(() -> new DisruptionBudget(IntOrPercent.of(1), Set.of(),
        CronSchedule.parse("TZ=Europe/Paris 0 9 * * *"), HOUR))
        .hasMessageContaining("must be cron fields or a descriptor in UTC");
    assertThatThrownBy(() -> new DisruptionBudget(IntOrPercent.of(1), Set.of(), CronSchedule.parse("@every 1h"),
        HOUR))
        .hasMessageContaining("no @every");
    // a zone-less schedule is computed in UTC, as with Karpenter's prefix
    assertThat(new DisruptionBudget(IntOrPercent.of(1), Set.of(), CronSchedule.parse("0 12 * * *"), HOUR)
        .isActive(NOW)).isTrue();
  }
}
