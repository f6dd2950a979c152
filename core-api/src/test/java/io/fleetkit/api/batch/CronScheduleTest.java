package io.fleetkit.api.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Ported from robfig/cron v3 at commit bc59245fe10efaed9d51b56900192527ed733435: {@code parser_test.go}
 * (TestRange, TestField, TestAll, TestBits, TestParseScheduleErrors, TestParseSchedule, TestStandardSpecSchedule),
 * {@code spec_test.go} (TestActivation, TestNext, TestNextWithTz, TestErrors, TestSlash0NoHang) and
 * {@code constantdelay_test.go} (TestConstantDelayNext, through {@code @every}). Kubernetes parses with
 * {@code ParseStandard} (five fields, no seconds): cases written for robfig's seconds parser whose seconds field is
 * {@code 0} are ported with that field dropped; cases that need a seconds field or another parser configuration are
 * listed as skipped in docs/conformance.md. Go's {@code time.Local} is UTC here, and as Go's {@code time.Parse} the
 * weekday of robfig's time strings is not checked against the date.
 */
final class CronScheduleTest {
  private static final long STAR = CronSchedule.STAR;

  // ---- parser_test.go TestRange

  @ParameterizedTest(name = "{0} in {1}-{2}")
  @CsvSource(delimiter = '|', value = {
      "5|0|7|32|",
      "0|0|7|1|",
      "7|0|7|128|",
      "5-5|0|7|32|",
      "5-6|0|7|96|",
      "5-7|0|7|224|",
      "5-6/2|0|7|32|",
      "5-7/2|0|7|160|",
      "5-7/1|0|7|224|",
      "*|1|3|STAR14|",
      "*/2|1|3|10|",
      "5--5|0|0|0|too many hyphens",
      "jan-x|0|0|0|failed to parse int from",
      "2-x|1|5|0|failed to parse int from",
      "*/-12|0|0|0|negative number",
      "*//2|0|0|0|too many slashes",
      "1|3|5|0|below minimum",
      "6|3|5|0|above maximum",
      "5-3|3|5|0|beyond end of range",
      "*/0|0|0|0|should be a positive number",
  })
  void range_robfigTable(String expr, int min, int max, String expected, @Nullable String err) {
    CronSchedule.Bounds b = new CronSchedule.Bounds("test", min, max, null);
    if (err != null) {
      assertThatThrownBy(() -> CronSchedule.range(expr, b)).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(err);
      return;
    }
    long want = expected.equals("STAR14") ? (1L << 1 | 1L << 2 | 1L << 3 | STAR) : Long.parseLong(expected);
    assertThat(CronSchedule.range(expr, b)).isEqualTo(want);
  }

  // ---- parser_test.go TestField

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {"5|32", "5,6|96", "5,6,7|224", "1,5-7/2,3|170"})
  void field_robfigTable(String expr, long expected) {
    assertThat(CronSchedule.field(expr, new CronSchedule.Bounds("test", 1, 7, null))).isEqualTo(expected);
  }

  /**
   * Go's strconv.Atoi and time.ParseDuration read ASCII digits only; Integer.parseInt and BigDecimal took the digits
   * of every script, so "\u0663 * * * *" ran at minute 3 and "@every \u0663s" every 3 s (the class of bug
   * IpAddressFuzzTest found in the networking module).
   */
  @Test
  void parse_digitsOfOtherScripts_refusedAsRobfigDoes() {
    assertThatThrownBy(() -> CronSchedule.parse("\u0663 * * * *")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("failed to parse int from \u0663: invalid syntax");
    assertThatThrownBy(() -> CronSchedule.parse("@every \u0663s")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("failed to parse duration @every \u0663s: time: invalid duration");
    assertThat(CronSchedule.parse("+3 * * * *").matches(java.time.Instant.parse("2026-01-01T00:03:00Z"))).isTrue();
    assertThat(CronSchedule.parse("@every 3s").every()).isEqualTo(Duration.ofSeconds(3));
  }

  // ---- parser_test.go TestAll

  @Test
  void all_everyFieldHasItsBitsAndTheStar() {
    assertThat(CronSchedule.all(CronSchedule.MINUTES)).isEqualTo(0xfffffffffffffffL | STAR);
    assertThat(CronSchedule.all(CronSchedule.HOURS)).isEqualTo(0xffffffL | STAR);
    assertThat(CronSchedule.all(CronSchedule.DOM)).isEqualTo(0xfffffffeL | STAR);
    assertThat(CronSchedule.all(CronSchedule.MONTH)).isEqualTo(0x1ffeL | STAR);
    assertThat(CronSchedule.all(CronSchedule.DOW)).isEqualTo(0x7fL | STAR);
  }

  // ---- parser_test.go TestBits

  @Test
  void bits_robfigTable() {
    assertThat(CronSchedule.bits(0, 0, 1)).isEqualTo(0x1);
    assertThat(CronSchedule.bits(1, 1, 1)).isEqualTo(0x2);
    assertThat(CronSchedule.bits(1, 5, 2)).isEqualTo(0x2a);
    assertThat(CronSchedule.bits(1, 4, 2)).isEqualTo(0xa);
  }

  // ---- parser_test.go TestParseScheduleErrors (the standard parser's wording for the field counts)

  @ParameterizedTest(name = "\"{0}\"")
  @CsvSource(delimiter = '|', value = {
      "5 j * * *|failed to parse int from",
      "@every Xm|failed to parse duration",
      "@unrecognized|unrecognized descriptor",
      "* * * *|expected exactly 5 fields",
      "''|empty spec string",
  })
  void parse_robfigErrors_rejected(String expr, String err) {
    assertThatThrownBy(() -> CronSchedule.parse(expr)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(err);
  }

  // ---- parser_test.go TestParseSchedule (seconds field 0 dropped)

  @Test
  void parse_robfigSchedules_fieldsAndZone() {
    long hours = CronSchedule.all(CronSchedule.HOURS);
    long dom = CronSchedule.all(CronSchedule.DOM);
    long months = CronSchedule.all(CronSchedule.MONTH);
    long dow = CronSchedule.all(CronSchedule.DOW);
    long[] every5min = {1L << 5, hours, dom, months, dow};
    long[] midnight = {1, 1, dom, months, dow};
    long[] annual = {1, 1, 1L << 1, 1L << 1, dow};
    ZoneId tokyo = ZoneId.of("Asia/Tokyo");
    assertSchedule("5 * * * *", every5min, null);
    assertSchedule("CRON_TZ=UTC  5 * * * *", every5min, ZoneOffset.UTC);
    assertSchedule("CRON_TZ=Asia/Tokyo 5 * * * *", every5min, tokyo);
    assertThat(CronSchedule.parse("@every 5m").every()).isEqualTo(Duration.ofMinutes(5));
    assertSchedule("@midnight", midnight, null);
    assertSchedule("TZ=UTC  @midnight", midnight, ZoneOffset.UTC);
    assertSchedule("TZ=Asia/Tokyo @midnight", midnight, tokyo);
    assertSchedule("@yearly", annual, null);
    assertSchedule("@annually", annual, null);
  }

  // ---- parser_test.go TestStandardSpecSchedule

  @Test
  void parseStandard_robfigTable() {
    assertSchedule("5 * * * *", new long[] {1L << 5, CronSchedule.all(CronSchedule.HOURS),
        CronSchedule.all(CronSchedule.DOM), CronSchedule.all(CronSchedule.MONTH), CronSchedule.all(CronSchedule.DOW)},
        null);
    assertThat(CronSchedule.parse("@every 5m").every()).isEqualTo(Duration.ofMinutes(5));
    assertThatThrownBy(() -> CronSchedule.parse("5 j * * *")).hasMessageContaining("failed to parse int from");
    assertThatThrownBy(() -> CronSchedule.parse("* * * *")).hasMessageContaining("expected exactly 5 fields");
  }

  private static void assertSchedule(String spec, long[] bits, @Nullable ZoneId zone) {
    CronSchedule s = CronSchedule.parse(spec);
    assertThat(s.fieldBits()).as(spec).containsExactly(bits);
    assertThat(s.zone()).as(spec).isEqualTo(zone);
    assertThat(s.every()).isNull();
  }

  // ---- spec_test.go TestActivation

  @ParameterizedTest(name = "{1} at {0}: {2}")
  @CsvSource(delimiter = '|', value = {
      "Mon Jul 9 15:00 2012|0/15 * * * *|true",
      "Mon Jul 9 15:45 2012|0/15 * * * *|true",
      "Mon Jul 9 15:40 2012|0/15 * * * *|false",
      "Mon Jul 9 15:05 2012|5/15 * * * *|true",
      "Mon Jul 9 15:20 2012|5/15 * * * *|true",
      "Mon Jul 9 15:50 2012|5/15 * * * *|true",
      "Sun Jul 15 15:00 2012|0/15 * * Jul *|true",
      "Sun Jul 15 15:00 2012|0/15 * * Jun *|false",
      "Sun Jul 15 08:30 2012|30 08 ? Jul Sun|true",
      "Sun Jul 15 08:30 2012|30 08 15 Jul ?|true",
      "Mon Jul 16 08:30 2012|30 08 ? Jul Sun|false",
      "Mon Jul 16 08:30 2012|30 08 15 Jul ?|false",
      "Mon Jul 9 15:00 2012|@hourly|true",
      "Mon Jul 9 15:04 2012|@hourly|false",
      "Mon Jul 9 15:00 2012|@daily|false",
      "Mon Jul 9 00:00 2012|@daily|true",
      "Mon Jul 9 00:00 2012|@weekly|false",
      "Sun Jul 8 00:00 2012|@weekly|true",
      "Sun Jul 8 01:00 2012|@weekly|false",
      "Sun Jul 8 00:00 2012|@monthly|false",
      "Sun Jul 1 00:00 2012|@monthly|true",
      "Sun Jul 15 00:00 2012|* * 1,15 * Sun|true",
      "Fri Jun 15 00:00 2012|* * 1,15 * Sun|true",
      "Wed Aug 1 00:00 2012|* * 1,15 * Sun|true",
      "Sun Jul 15 00:00 2012|* * */10 * Sun|true",
      "Sun Jul 15 00:00 2012|* * * * Mon|false",
      "Mon Jul 9 00:00 2012|* * 1,15 * *|false",
      "Sun Jul 15 00:00 2012|* * 1,15 * *|true",
      "Sun Jul 15 00:00 2012|* * */2 * Sun|true",
  })
  void activation_robfigTable(String time, String spec, boolean expected) {
    ZonedDateTime t = time(time);
    ZonedDateTime actual = CronSchedule.parse(spec).next(t.minusSeconds(1));
    assertThat(t.isEqual(actual)).as("%s at %s", spec, time).isEqualTo(expected);
    assertThat(CronSchedule.parse(spec).matches(t.toInstant())).isEqualTo(expected);
  }

  // ---- spec_test.go TestNext (robfig's seconds parser; the leading seconds field "0" dropped)

  @ParameterizedTest(name = "{1} after {0}")
  @CsvSource(delimiter = '|', value = {
      "Mon Jul 9 14:45 2012|0/15 * * * *|Mon Jul 9 15:00 2012",
      "Mon Jul 9 14:59 2012|0/15 * * * *|Mon Jul 9 15:00 2012",
      "Mon Jul 9 14:59:59 2012|0/15 * * * *|Mon Jul 9 15:00 2012",
      "Mon Jul 9 15:45 2012|20-35/15 * * * *|Mon Jul 9 16:20 2012",
      "Mon Jul 9 23:46 2012|*/15 * * * *|Tue Jul 10 00:00 2012",
      "Mon Jul 9 23:45 2012|20-35/15 * * * *|Tue Jul 10 00:20 2012",
      "Mon Jul 9 23:35 2012|0 0 9 Apr-Oct ?|Thu Aug 9 00:00 2012",
      "Mon Jul 9 23:35 2012|0 0 */5 Apr,Aug,Oct Mon|Tue Aug 1 00:00 2012",
      "Mon Jul 9 23:35 2012|0 0 */5 Oct Mon|Mon Oct 1 00:00 2012",
      "Mon Jul 9 23:35 2012|0 0 * Feb Mon|Mon Feb 4 00:00 2013",
      "Mon Jul 9 23:35 2012|0 0 * Feb Mon/2|Fri Feb 1 00:00 2013",
      "Mon Dec 31 23:59:45 2012|* * * * *|Tue Jan 1 00:00:00 2013",
      "Mon Jul 9 23:35 2012|0 0 29 Feb ?|Mon Feb 29 00:00 2016",
      "2012-03-11T00:00:00-0500|TZ=America/New_York 30 2 11 Mar ?|2013-03-11T02:30:00-0400",
      "2012-03-11T00:00:00-0500|TZ=America/New_York 0 * * * ?|2012-03-11T01:00:00-0500",
      "2012-03-11T01:00:00-0500|TZ=America/New_York 0 * * * ?|2012-03-11T03:00:00-0400",
      "2012-03-11T03:00:00-0400|TZ=America/New_York 0 * * * ?|2012-03-11T04:00:00-0400",
      "2012-03-11T04:00:00-0400|TZ=America/New_York 0 * * * ?|2012-03-11T05:00:00-0400",
      "2012-03-11T00:00:00-0500|CRON_TZ=America/New_York 0 * * * ?|2012-03-11T01:00:00-0500",
      "2012-03-11T01:00:00-0500|CRON_TZ=America/New_York 0 * * * ?|2012-03-11T03:00:00-0400",
      "2012-03-11T03:00:00-0400|CRON_TZ=America/New_York 0 * * * ?|2012-03-11T04:00:00-0400",
      "2012-03-11T04:00:00-0400|CRON_TZ=America/New_York 0 * * * ?|2012-03-11T05:00:00-0400",
      "2012-03-11T00:00:00-0500|TZ=America/New_York 0 1 * * ?|2012-03-11T01:00:00-0500",
      "2012-03-11T01:00:00-0500|TZ=America/New_York 0 1 * * ?|2012-03-12T01:00:00-0400",
      "2012-03-11T00:00:00-0500|TZ=America/New_York 0 2 * * ?|2012-03-12T02:00:00-0400",
      "2012-11-04T00:00:00-0400|TZ=America/New_York 30 2 04 Nov ?|2012-11-04T02:30:00-0500",
      "2012-11-04T01:45:00-0400|TZ=America/New_York 30 1 04 Nov ?|2012-11-04T01:30:00-0500",
      "2012-11-04T00:00:00-0400|TZ=America/New_York 0 * * * ?|2012-11-04T01:00:00-0400",
      "2012-11-04T01:00:00-0400|TZ=America/New_York 0 * * * ?|2012-11-04T01:00:00-0500",
      "2012-11-04T01:00:00-0500|TZ=America/New_York 0 * * * ?|2012-11-04T02:00:00-0500",
      "2012-11-04T00:00:00-0400|TZ=America/New_York 0 1 * * ?|2012-11-04T01:00:00-0400",
      "2012-11-04T01:00:00-0400|TZ=America/New_York 0 1 * * ?|2012-11-04T01:00:00-0500",
      "2012-11-04T01:00:00-0500|TZ=America/New_York 0 1 * * ?|2012-11-05T01:00:00-0500",
      "2012-11-04T00:00:00-0400|TZ=America/New_York 0 2 * * ?|2012-11-04T02:00:00-0500",
      "2012-11-04T02:00:00-0500|TZ=America/New_York 0 2 * * ?|2012-11-05T02:00:00-0500",
      "2012-11-04T00:00:00-0400|TZ=America/New_York 0 3 * * ?|2012-11-04T03:00:00-0500",
      "2012-11-04T03:00:00-0500|TZ=America/New_York 0 3 * * ?|2012-11-05T03:00:00-0500",
      "TZ=America/New_York 2012-11-04T00:00:00-0400|0 * * * ?|2012-11-04T01:00:00-0400",
      "TZ=America/New_York 2012-11-04T01:00:00-0400|0 * * * ?|2012-11-04T01:00:00-0500",
      "TZ=America/New_York 2012-11-04T01:00:00-0500|0 * * * ?|2012-11-04T02:00:00-0500",
      "TZ=America/New_York 2012-11-04T00:00:00-0400|0 1 * * ?|2012-11-04T01:00:00-0400",
      "TZ=America/New_York 2012-11-04T01:00:00-0400|0 1 * * ?|2012-11-04T01:00:00-0500",
      "TZ=America/New_York 2012-11-04T01:00:00-0500|0 1 * * ?|2012-11-05T01:00:00-0500",
      "TZ=America/New_York 2012-11-04T00:00:00-0400|0 2 * * ?|2012-11-04T02:00:00-0500",
      "TZ=America/New_York 2012-11-04T02:00:00-0500|0 2 * * ?|2012-11-05T02:00:00-0500",
      "TZ=America/New_York 2012-11-04T00:00:00-0400|0 3 * * ?|2012-11-04T03:00:00-0500",
      "TZ=America/New_York 2012-11-04T03:00:00-0500|0 3 * * ?|2012-11-05T03:00:00-0500",
      "Mon Jul 9 23:35 2012|0 0 30 Feb ?|",
      "Mon Jul 9 23:35 2012|0 0 31 Apr ?|",
      "TZ=America/New_York 2012-11-04T00:00:00-0400|0 3 3 * ?|2012-12-03T03:00:00-0500",
      "2018-10-17T05:00:00-0400|TZ=America/Sao_Paulo 0 9 10 * ?|2018-11-10T06:00:00-0500",
      "2018-02-14T05:00:00-0500|TZ=America/Sao_Paulo 0 9 22 * ?|2018-02-22T07:00:00-0500",
  })
  void next_robfigTable(String time, String spec, @Nullable String expected) {
    ZonedDateTime actual = CronSchedule.parse(spec).next(time(time));
    if (expected == null) {
      assertThat(actual).as("%s after %s", spec, time).isNull();
    } else {
      assertThat(actual).as("%s after %s", spec, time).isNotNull();
      assertThat(actual.toInstant()).as("%s after %s", spec, time).isEqualTo(time(expected).toInstant());
    }
  }

  // ---- spec_test.go TestNextWithTz: a schedule without a zone runs in the zone of the time given

  @ParameterizedTest(name = "{1} after {0}")
  @CsvSource(delimiter = '|', value = {
      "2016-01-03T13:09:03+0530|14 14 * * *|2016-01-03T14:14:00+0530",
      "2016-01-03T04:09:03+0530|14 14 * * ?|2016-01-03T14:14:00+0530",
      "2016-01-03T14:09:03+0530|14 14 * * *|2016-01-03T14:14:00+0530",
      "2016-01-03T14:00:00+0530|14 14 * * ?|2016-01-03T14:14:00+0530",
  })
  void nextWithTz_robfigTable(String time, String spec, String expected) {
    ZonedDateTime actual = CronSchedule.parse(spec).next(time(time));
    assertThat(actual.toInstant()).isEqualTo(time(expected).toInstant());
    assertThat(actual.getOffset()).isEqualTo(ZoneOffset.ofHoursMinutes(5, 30));
  }

  // ---- spec_test.go TestErrors and TestSlash0NoHang

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {"xyz", "60 0 * * *", "0 60 * * *", "0 0 * * XYZ",
      "TZ=America/New_York 15/0 * * * *"})
  void parse_invalid_rejected(String spec) {
    assertThatThrownBy(() -> CronSchedule.parse(spec)).isInstanceOf(IllegalArgumentException.class);
  }

  // ---- constantdelay_test.go TestConstantDelayNext, through @every

  @ParameterizedTest(name = "@every {1} after {0}")
  @CsvSource(delimiter = '|', value = {
      "Mon Jul 9 14:45 2012|15m50ns|Mon Jul 9 15:00 2012",
      "Mon Jul 9 14:59 2012|15m|Mon Jul 9 15:14 2012",
      "Mon Jul 9 14:59:59 2012|15m|Mon Jul 9 15:14:59 2012",
      "Mon Jul 9 15:45 2012|35m|Mon Jul 9 16:20 2012",
      "Mon Jul 9 23:46 2012|14m|Tue Jul 10 00:00 2012",
      "Mon Jul 9 23:45 2012|35m|Tue Jul 10 00:20 2012",
      "Mon Jul 9 23:35:51 2012|44m24s|Tue Jul 10 00:20:15 2012",
      "Mon Jul 9 23:35:51 2012|25h44m24s|Thu Jul 11 01:20:15 2012",
      "Mon Jul 9 23:35 2012|2184h25m|Thu Oct 9 00:00 2012",
      "Mon Dec 31 23:59:45 2012|15s|Tue Jan 1 00:00:00 2013",
      "Mon Jul 9 14:45 2012|15m50ns|Mon Jul 9 15:00 2012",
      "Mon Jul 9 14:45:00 2012|15ms|Mon Jul 9 14:45:01 2012",
      "Mon Jul 9 14:45:00.005 2012|15m|Mon Jul 9 15:00 2012",
      "Mon Jul 9 14:45:00.005 2012|15m50ns|Mon Jul 9 15:00 2012",
  })
  void every_robfigConstantDelayTable(String time, String delay, String expected) {
    ZonedDateTime actual = CronSchedule.parse("@every " + delay).next(time(time));
    assertThat(actual.toInstant()).isEqualTo(time(expected).toInstant());
  }

  // ---- FleetKit's own cases

  @Test
  void parse_namesAreCaseInsensitive_andQuestionMarkIsStar() {
    assertThat(CronSchedule.parse("0 0 * JAN-mar mon-FRI").fieldBits())
        .isEqualTo(CronSchedule.parse("0 0 * 1-3 1-5").fieldBits());
    assertThat(CronSchedule.parse("0 0 ? * *").fieldBits()).isEqualTo(CronSchedule.parse("0 0 * * *").fieldBits());
  }

  @Test
  void parse_badZone_namesTheZone() {
    assertThatThrownBy(() -> CronSchedule.parse("TZ=Mars/Olympus 0 * * * *"))
        .hasMessage("provided bad location Mars/Olympus: unknown time zone Mars/Olympus");
    assertThat(CronSchedule.zone("+01:00")).isNull();
    assertThat(CronSchedule.zone("Europe/Rome")).isEqualTo(ZoneId.of("Europe/Rome"));
  }

  @Test
  void parse_dayOfWeekSevenIsOutOfRange_asRobfig() {
    assertThatThrownBy(() -> CronSchedule.parse("0 0 * * 7"))
        .hasMessage("end of range (7) above maximum (6): 7");
  }

  /** robfig's getTime: the layouts of spec_test.go, in UTC (Go's time.Local) unless a TZ= prefix names a zone. */
  static ZonedDateTime time(String value) {
    ZoneId zone = ZoneOffset.UTC;
    if (value.startsWith("TZ=")) {
      String[] parts = value.split("\\s+");
      zone = ZoneId.of(parts[0].substring(3));
      value = parts[1];
    }
    if (Character.isDigit(value.charAt(0))) {
      OffsetDateTime odt = OffsetDateTime.parse(value, DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssxx"));
      return odt.atZoneSameInstant(zone.equals(ZoneOffset.UTC) ? odt.getOffset() : zone);
    }
    // Go's time.Parse checks the weekday's spelling only (robfig writes "Thu Jul 11 2012", a Wednesday): drop it
    String noWeekday = value.substring(value.indexOf(' ') + 1);
    for (String layout : new String[] {"MMM d HH:mm yyyy", "MMM d HH:mm:ss yyyy", "MMM d HH:mm:ss.SSS yyyy"}) {
      try {
        return LocalDateTime.parse(noWeekday, DateTimeFormatter.ofPattern(layout, Locale.ENGLISH)).atZone(zone);
      } catch (java.time.format.DateTimeParseException e) {
        // next layout
      }
    }
    throw new IllegalArgumentException("could not parse time value " + value);
  }
}
