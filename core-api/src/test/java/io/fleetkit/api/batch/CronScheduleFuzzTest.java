package io.fleetkit.api.batch;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;

/**
 * Fuzzes {@link CronSchedule#parse} (a CronJob's {@code spec.schedule}) and the next activation of what it gives: any
 * string gives a schedule or an {@link IllegalArgumentException} with a message; a schedule's next activation after a
 * day with a daylight-saving change, in UTC and in Berlin, is {@code null} (none within five years) or a later whole
 * second, and the one after it later still; never another exception, never a hang. The corpus holds robfig's syntax:
 * steps, ranges, names, descriptors, {@code @every}, time zones, impossible dates, broken fields, digits of another
 * script (refused, see {@code CronScheduleTest}) and robfig's own leniency ({@code *}{@code -anything} is a star:
 * {@code star-range-ignores-the-rest}).
 */
final class CronScheduleFuzzTest {
  private static final Instant SPRING_FORWARD = Instant.parse("2026-03-29T00:30:00Z");

  @FuzzTest(maxDuration = "30s")
  void parse_anySpec_scheduleOrError(byte[] data) {
    String spec = new String(data, StandardCharsets.UTF_8);
    CronSchedule c;
    try {
      c = CronSchedule.parse(spec);
    } catch (IllegalArgumentException e) {
      assertThat(e.getMessage()).isNotBlank();
      return;
    }
    assertThat(c.spec()).isEqualTo(spec);
    Instant next = c.next(SPRING_FORWARD);
    if (next != null) {
      assertThat(next).isAfter(SPRING_FORWARD);
      assertThat(next.getNano()).isZero();
      Instant after = c.next(next);
      assertThat(after == null || after.isAfter(next)).as("after %s: %s", next, after).isTrue();
    }
    ZonedDateTime berlin = SPRING_FORWARD.atZone(ZoneId.of("Europe/Berlin"));
    ZonedDateTime local = c.next(berlin);
    assertThat(local == null || local.isAfter(berlin)).as("after %s: %s", berlin, local).isTrue();
  }
}
