package io.fleetkit.api.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Go's duration text. The tables are Go's {@code src/time/time_test.go} ({@code parseDurationTests},
 * {@code parseDurationErrorTests}, {@code durationTests}, {@code TestParseDurationRoundTrip}, Go 1.22 and later;
 * the parser is {@code src/time/format.go} at golang/go 08d2403576737c5735d0c1d356490e03a774dff6), ported as data:
 * 43 of 43 parse cases, 18 of 21 error cases (skipped: {@code "\x85\x85"}, {@code "\xffff"} and
 * {@code "hello \xffff world"}, which are invalid UTF-8 bytes that a Java string cannot hold), 11 of 11 format cases.
 */
final class GoDurationsTest {

  // ---- time_test.go parseDurationTests
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', textBlock = """
      0|0
      5s|5000000000
      30s|30000000000
      1478s|1478000000000
      -5s|-5000000000
      +5s|5000000000
      -0|0
      +0|0
      5.0s|5000000000
      5.6s|5600000000
      5.s|5000000000
      .5s|500000000
      1.0s|1000000000
      1.00s|1000000000
      1.004s|1004000000
      1.0040s|1004000000
      100.00100s|100001000000
      10ns|10
      11us|11000
      12µs|12000
      12μs|12000
      13ms|13000000
      14s|14000000000
      15m|900000000000
      16h|57600000000000
      3h30m|12600000000000
      10.5s4m|250500000000
      -2m3.4s|-123400000000
      1h2m3s4ms5us6ns|3723004005006
      39h9m14.425s|140954425000000
      52763797000ns|52763797000
      0.3333333333333333333h|1200000000000
      9007199254740993ns|9007199254740993
      9223372036854775807ns|9223372036854775807
      9223372036854775.807us|9223372036854775807
      9223372036s854ms775us807ns|9223372036854775807
      -9223372036854775808ns|-9223372036854775808
      -9223372036854775.808us|-9223372036854775808
      -9223372036s854ms775us808ns|-9223372036854775808
      -9223372036854775808ns|-9223372036854775808
      -2562047h47m16.854775808s|-9223372036854775808
      0.100000000000000000000h|360000000000
      0.830103483285477580700h|2988372539827
      """)
  void parse_goTable_readsToTheNanosecond(String in, long nanos) {
    assertThat(GoDurations.parse(in)).isEqualTo(Duration.ofNanos(nanos));
  }

  // ---- time_test.go parseDurationErrorTests: the error names the text as Go quotes it
  static Stream<Arguments> goErrors() {
    return Stream.of(
        Arguments.of("", "\"\""),
        Arguments.of("3", "\"3\""),
        Arguments.of("-", "\"-\""),
        Arguments.of("s", "\"s\""),
        Arguments.of(".", "\".\""),
        Arguments.of("-.", "\"-.\""),
        Arguments.of(".s", "\".s\""),
        Arguments.of("+.s", "\"+.s\""),
        Arguments.of("1d", "\"1d\""),
        Arguments.of("\uFFFD", "\"\\xef\\xbf\\xbd\""),
        Arguments.of("\uFFFD hello \uFFFD world", "\"\\xef\\xbf\\xbd hello \\xef\\xbf\\xbd world\""),
        Arguments.of("9223372036854775810ns", "\"9223372036854775810ns\""),
        Arguments.of("9223372036854775808ns", "\"9223372036854775808ns\""),
        Arguments.of("-9223372036854775809ns", "\"-9223372036854775809ns\""),
        Arguments.of("9223372036854776us", "\"9223372036854776us\""),
        Arguments.of("3000000h", "\"3000000h\""),
        Arguments.of("9223372036854775.808us", "\"9223372036854775.808us\""),
        Arguments.of("9223372036854ms775us808ns", "\"9223372036854ms775us808ns\""));
  }

  @ParameterizedTest(name = "[{index}] {1}")
  @MethodSource("goErrors")
  void parse_goErrorTable_rejectedNamingTheText(String in, String quoted) {
    assertThatThrownBy(() -> GoDurations.parse(in)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("time: ").hasMessageContaining(quoted);
  }

  // ---- time_test.go durationTests: String(), and the negation of each positive one
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', textBlock = """
      0s|0
      1ns|1
      1.1µs|1100
      2.2ms|2200000
      3.3s|3300000000
      4m5s|245000000000
      4m5.001s|245001000000
      5h6m7.001s|18367001000000
      8m0.000000001s|480000000001
      2562047h47m16.854775807s|9223372036854775807
      -2562047h47m16.854775808s|-9223372036854775808
      """)
  void format_goTable_writesGosString(String str, long nanos) {
    assertThat(GoDurations.format(Duration.ofNanos(nanos))).isEqualTo(str);
    if (nanos > 0) {
      assertThat(GoDurations.format(Duration.ofNanos(-nanos))).isEqualTo("-" + str);
    }
  }

  // ---- time_test.go TestParseDurationRoundTrip: the extremes, then any duration in range
  @Test
  void formatThenParse_extremes_roundTrip() {
    assertThat(GoDurations.parse(GoDurations.format(GoDurations.MAX))).isEqualTo(GoDurations.MAX);
    assertThat(GoDurations.parse(GoDurations.format(GoDurations.MIN))).isEqualTo(GoDurations.MIN);
    assertThat(GoDurations.format(GoDurations.MAX)).isEqualTo(GoDurations.MAX_TEXT);
    assertThat(GoDurations.format(GoDurations.MIN)).isEqualTo(GoDurations.MIN_TEXT);
  }

  @Property
  void formatThenParse_anyDurationInRange_isIdentity(@ForAll long nanos) {
    Duration d = Duration.ofNanos(nanos);
    assertThat(GoDurations.parse(GoDurations.format(d))).isEqualTo(d);
  }

  @Property
  void formatThenParse_wholeMilliseconds_isIdentity(@ForAll int millis) {
    Duration d = Duration.ofMillis(millis);
    assertThat(GoDurations.parse(GoDurations.format(d))).isEqualTo(d);
  }

  @Test
  void format_wholeUnits_writesZeroPartsAsGoDoes() {
    assertThat(GoDurations.format(Duration.ofHours(1))).isEqualTo("1h0m0s");
    assertThat(GoDurations.format(Duration.ofSeconds(90))).isEqualTo("1m30s");
    assertThat(GoDurations.format(Duration.ofMillis(1500))).isEqualTo("1.5s");
    assertThat(GoDurations.format(Duration.ofNanos(500))).isEqualTo("500ns");
    assertThat(GoDurations.format(Duration.ofNanos(1_000_500))).isEqualTo("1.0005ms");
    assertThat(GoDurations.format(Duration.ofMinutes(3))).isEqualTo("3m0s");
    assertThat(GoDurations.format(Duration.ofSeconds(121))).isEqualTo("2m1s");
    assertThat(GoDurations.format(Duration.ofMillis(250))).isEqualTo("250ms");
    assertThat(GoDurations.format(Duration.ofNanos(1500))).isEqualTo("1.5µs");
    assertThat(GoDurations.format(Duration.parse("PT26H3M0.5S"))).isEqualTo("26h3m0.5s");
    assertThat(GoDurations.format(Duration.ofSeconds(-90))).isEqualTo("-1m30s");
  }

  @Test
  void format_outsideGosRange_rejectedNamingTheRange() {
    assertThatThrownBy(() -> GoDurations.format(GoDurations.MAX.plusNanos(1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(GoDurations.MAX_TEXT);
    assertThatThrownBy(() -> GoDurations.format(GoDurations.MIN.minusNanos(1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(GoDurations.MIN_TEXT);
  }

  @Test
  void parse_errors_nameTheRuleAndClassifyRange() {
    assertThatThrownBy(() -> GoDurations.parse("1d")).isInstanceOf(InvalidGoDurationException.class)
        .hasMessage("time: unknown unit \"d\" in duration \"1d\": the units are ns, us (or µs), ms, s, m, h");
    assertThatThrownBy(() -> GoDurations.parse("3")).hasMessageStartingWith("time: missing unit in duration \"3\"")
        .hasMessageContaining("every number needs a unit");
    InvalidGoDurationException range = (InvalidGoDurationException) org.assertj.core.api.Assertions
        .catchThrowable(() -> GoDurations.parse("2562047h47m16.854775808s"));
    assertThat(range.outOfRange()).isTrue();
    assertThat(range.text()).isEqualTo("2562047h47m16.854775808s");
    assertThat(range.rule()).contains(GoDurations.MAX_TEXT);
    InvalidGoDurationException syntax = (InvalidGoDurationException) org.assertj.core.api.Assertions
        .catchThrowable(() -> GoDurations.parse("1h 30m"));
    assertThat(syntax.outOfRange()).isFalse();
  }

  /** Go's uint64 sum wraps round to 0 here; this class reports it out of range instead. */
  @Test
  void parse_partsAddingUpPastTwoToThe64_outOfRangeNotWrapped() {
    assertThatThrownBy(() -> GoDurations.parse("9223372036854775808ns9223372036854775808ns"))
        .isInstanceOf(InvalidGoDurationException.class).hasMessageContaining("Go's range");
    assertThatThrownBy(() -> GoDurations.parse("2562047h2562047h")).hasMessageContaining("Go's range");
  }

  /** Only ASCII digits: other scripts' digits (Arabic-Indic three, NKo one, fullwidth five) are not numbers. */
  @Test
  void parse_nonAsciiDigits_rejected() {
    for (String s : new String[] {"\u0663s", "\u07c1m", "\uff15s", "1\u0663s"}) {
      assertThatThrownBy(() -> GoDurations.parse(s)).as(s).isInstanceOf(InvalidGoDurationException.class);
    }
  }

  /** A million digits cost one linear scan: no big-number arithmetic on them. */
  @Test
  void parse_hugeDigitRuns_fastAndExact() {
    String zeros = "0".repeat(1_000_000);
    long start = System.nanoTime();
    assertThat(GoDurations.parse(zeros + "1s")).isEqualTo(Duration.ofSeconds(1));
    assertThat(GoDurations.parse("1." + "3".repeat(1_000_000) + "s")).isEqualTo(Duration.ofNanos(1_333_333_333));
    assertThatThrownBy(() -> GoDurations.parse("9".repeat(1_000_000) + "s")).hasMessageContaining("Go's range");
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
  }
}
