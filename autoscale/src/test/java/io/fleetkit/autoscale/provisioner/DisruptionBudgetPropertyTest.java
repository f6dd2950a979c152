package io.fleetkit.autoscale.provisioner;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.batch.CronSchedule;
import io.fleetkit.api.meta.IntOrPercent;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * A scheduled budget is active exactly when one of its schedule's minutes lies in {@code (now - duration, now]}
 * (Karpenter's {@code IsActive}), checked against a walk over every minute of that window, for daily and weekly
 * schedules, windows up to two days long and instants anywhere in a year.
 */
final class DisruptionBudgetPropertyTest {
  private static final Instant YEAR_START = Instant.parse("2026-01-01T00:00:00Z");

  @Property(tries = 300)
  void isActive_iffAHitLiesInTheWindowEndingNow(@ForAll @IntRange(min = 0, max = 59) int minute,
      @ForAll @IntRange(min = 0, max = 23) int hour, @ForAll @IntRange(min = -1, max = 6) int dayOfWeek,
      @ForAll @IntRange(min = 0, max = 2880) int durationMinutes,
      @ForAll @IntRange(min = 0, max = 365 * 24 * 3600) int secondsIntoTheYear) {
    String spec = minute + " " + hour + " * * " + (dayOfWeek < 0 ? "*" : String.valueOf(dayOfWeek));
    CronSchedule cron = CronSchedule.parse("TZ=UTC " + spec);
    Duration duration = Duration.ofMinutes(durationMinutes);
    Instant now = YEAR_START.plusSeconds(secondsIntoTheYear);
    DisruptionBudget b = new DisruptionBudget(IntOrPercent.of(0), Set.of(), cron, duration);

    boolean hit = false;
    Instant from = now.minus(duration);
    for (Instant t = now.truncatedTo(ChronoUnit.MINUTES); t.isAfter(from); t = t.minus(Duration.ofMinutes(1))) {
      if (cron.matches(t)) {
        hit = true;
        break;
      }
    }
    assertThat(b.isActive(now)).as("%s for %s at %s", spec, duration, now).isEqualTo(hit);
    assertThat(b.allowedDisruptions(10, now)).isEqualTo(hit ? 0 : Integer.MAX_VALUE);
  }
}
