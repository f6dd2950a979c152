package io.fleetkit.api.resource;

import static io.fleetkit.api.resource.Quantity.Format.BINARY_SI;
import static io.fleetkit.api.resource.Quantity.Format.DECIMAL_EXPONENT;
import static io.fleetkit.api.resource.Quantity.Format.DECIMAL_SI;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import io.fleetkit.api.resource.Quantity.Format;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Table cases ported from Kubernetes {@code staging/src/k8s.io/apimachinery/pkg/api/resource/quantity_test.go} and
 * {@code quantity_overflow_test.go}; each group names its upstream test function. Upstream builds its expectations
 * with {@code decQuantity(i, exponent, format)} / {@code intQuantity(...)}: the value {@code i × 10^exponent}; the
 * helper {@link #q} here does the same. Cases that only probe the Go representation (inf.Dec vs int64Amount, nil
 * pointers, the cached string field, JSON/CBOR/proto, pflag) do not apply and are not ported.
 */
final class QuantityTest {

  private static final long MOST_POSITIVE = Long.MAX_VALUE;
  private static final long MOST_NEGATIVE = Long.MIN_VALUE;

  /** Upstream's {@code decQuantity(i, exponent, format)}: the exact value {@code i × 10^exponent}. */
  static Quantity q(long i, int exponent, Format format) {
    return Quantity.of(BigDecimal.valueOf(i).scaleByPowerOfTen(exponent), format);
  }

  static Quantity big(BigInteger i, int exponent, Format format) {
    return Quantity.of(new BigDecimal(i).scaleByPowerOfTen(exponent), format);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // TestQuantityParse (table): input, expected value and format. 96 cases.

  static Stream<Arguments> parseCases() {
    return Stream.of(
        arguments("0", q(0, 0, DECIMAL_SI)),
        arguments("0n", q(0, 0, DECIMAL_SI)),
        arguments("0u", q(0, 0, DECIMAL_SI)),
        arguments("0m", q(0, 0, DECIMAL_SI)),
        arguments("0Ki", q(0, 0, BINARY_SI)),
        arguments("0k", q(0, 0, DECIMAL_SI)),
        arguments("0Mi", q(0, 0, BINARY_SI)),
        arguments("0M", q(0, 0, DECIMAL_SI)),
        arguments("0Gi", q(0, 0, BINARY_SI)),
        arguments("0G", q(0, 0, DECIMAL_SI)),
        arguments("0Ti", q(0, 0, BINARY_SI)),
        arguments("0T", q(0, 0, DECIMAL_SI)),
        // Quantity less numbers are allowed
        arguments("1", q(1, 0, DECIMAL_SI)),
        // Binary suffixes
        arguments("1Ki", q(1024, 0, BINARY_SI)),
        arguments("8Ki", q(8 * 1024, 0, BINARY_SI)),
        arguments("7Mi", q(7 * 1024 * 1024, 0, BINARY_SI)),
        arguments("6Gi", q(6L * 1024 * 1024 * 1024, 0, BINARY_SI)),
        arguments("5Ti", q(5L * 1024 * 1024 * 1024 * 1024, 0, BINARY_SI)),
        arguments("4Pi", q(4L * 1024 * 1024 * 1024 * 1024 * 1024, 0, BINARY_SI)),
        arguments("3Ei", q(3L * 1024 * 1024 * 1024 * 1024 * 1024 * 1024, 0, BINARY_SI)),
        arguments("10Ti", q(10L * 1024 * 1024 * 1024 * 1024, 0, BINARY_SI)),
        arguments("100Ti", q(100L * 1024 * 1024 * 1024 * 1024, 0, BINARY_SI)),
        // Decimal suffixes
        arguments("5n", q(5, -9, DECIMAL_SI)),
        arguments("4u", q(4, -6, DECIMAL_SI)),
        arguments("3m", q(3, -3, DECIMAL_SI)),
        arguments("9", q(9, 0, DECIMAL_SI)),
        arguments("8k", q(8, 3, DECIMAL_SI)),
        arguments("50k", q(5, 4, DECIMAL_SI)),
        arguments("7M", q(7, 6, DECIMAL_SI)),
        arguments("6G", q(6, 9, DECIMAL_SI)),
        arguments("5T", q(5, 12, DECIMAL_SI)),
        arguments("40T", q(4, 13, DECIMAL_SI)),
        arguments("300T", q(3, 14, DECIMAL_SI)),
        arguments("2P", q(2, 15, DECIMAL_SI)),
        arguments("1E", q(1, 18, DECIMAL_SI)),
        // Decimal exponents
        arguments("1E-3", q(1, -3, DECIMAL_EXPONENT)),
        arguments("1e3", q(1, 3, DECIMAL_EXPONENT)),
        arguments("1E6", q(1, 6, DECIMAL_EXPONENT)),
        arguments("1e9", q(1, 9, DECIMAL_EXPONENT)),
        arguments("1E12", q(1, 12, DECIMAL_EXPONENT)),
        arguments("1e15", q(1, 15, DECIMAL_EXPONENT)),
        arguments("1E18", q(1, 18, DECIMAL_EXPONENT)),
        // Nonstandard but still parsable
        arguments("1e14", q(1, 14, DECIMAL_EXPONENT)),
        arguments("1e13", q(1, 13, DECIMAL_EXPONENT)),
        arguments("1e3", q(1, 3, DECIMAL_EXPONENT)),
        arguments("100.035k", q(100035, 0, DECIMAL_SI)),
        // Things that look like floating point
        arguments("0.001", q(1, -3, DECIMAL_SI)),
        arguments("0.0005k", q(5, -1, DECIMAL_SI)),
        arguments("0.005", q(5, -3, DECIMAL_SI)),
        arguments("0.05", q(5, -2, DECIMAL_SI)),
        arguments("0.5", q(5, -1, DECIMAL_SI)),
        arguments("0.00050k", q(5, -1, DECIMAL_SI)),
        arguments("0.00500", q(5, -3, DECIMAL_SI)),
        arguments("0.05000", q(5, -2, DECIMAL_SI)),
        arguments("0.50000", q(5, -1, DECIMAL_SI)),
        arguments("0.5e0", q(5, -1, DECIMAL_EXPONENT)),
        arguments("0.5e-1", q(5, -2, DECIMAL_EXPONENT)),
        arguments("0.5e-2", q(5, -3, DECIMAL_EXPONENT)),
        arguments("0.5e0", q(5, -1, DECIMAL_EXPONENT)),
        arguments("10.035M", q(10035, 3, DECIMAL_SI)),
        arguments("1.2e3", q(12, 2, DECIMAL_EXPONENT)),
        arguments("1.3E+6", q(13, 5, DECIMAL_EXPONENT)),
        arguments("1.40e9", q(14, 8, DECIMAL_EXPONENT)),
        arguments("1.53E12", q(153, 10, DECIMAL_EXPONENT)),
        arguments("1.6e15", q(16, 14, DECIMAL_EXPONENT)),
        arguments("1.7E18", q(17, 17, DECIMAL_EXPONENT)),
        arguments("9.01", q(901, -2, DECIMAL_SI)),
        arguments("8.1k", q(81, 2, DECIMAL_SI)),
        arguments("7.123456M", q(7123456, 0, DECIMAL_SI)),
        arguments("6.987654321G", q(6987654321L, 0, DECIMAL_SI)),
        arguments("5.444T", q(5444, 9, DECIMAL_SI)),
        arguments("40.1T", q(401, 11, DECIMAL_SI)),
        arguments("300.2T", q(3002, 11, DECIMAL_SI)),
        arguments("2.5P", q(25, 14, DECIMAL_SI)),
        arguments("1.01E", q(101, 16, DECIMAL_SI)),
        // Things that saturate/round
        arguments("3.001n", q(4, -9, DECIMAL_SI)),
        arguments("1.1E-9", q(2, -9, DECIMAL_EXPONENT)),
        arguments("0.0000000001", q(1, -9, DECIMAL_SI)),
        arguments("0.0000000005", q(1, -9, DECIMAL_SI)),
        arguments("0.00000000050", q(1, -9, DECIMAL_SI)),
        arguments("0.5e-9", q(1, -9, DECIMAL_EXPONENT)),
        arguments("0.9n", q(1, -9, DECIMAL_SI)),
        arguments("0.00000012345", q(124, -9, DECIMAL_SI)),
        arguments("0.00000012354", q(124, -9, DECIMAL_SI)),
        arguments("9Ei", q(MOST_POSITIVE, 0, BINARY_SI)),
        arguments("9223372036854775807Ki", q(MOST_POSITIVE, 0, BINARY_SI)),
        arguments("12E", q(12, 18, DECIMAL_SI)),
        // We'll accept fractional binary stuff, too.
        arguments("100.035Ki", q(10243584, -2, BINARY_SI)),
        arguments("0.5Mi", q(512 * 1024, 0, BINARY_SI)),
        arguments("0.05Gi", q(536870912, -1, BINARY_SI)),
        arguments("0.025Ti", q(274877906944L, -1, BINARY_SI)),
        // Things written by trolls
        arguments("0.000000000001Ki", q(2, -9, DECIMAL_SI)), // rounds up, changes format
        arguments(".001", q(1, -3, DECIMAL_SI)),
        arguments(".0001k", q(100, -3, DECIMAL_SI)),
        arguments("1.", q(1, 0, DECIMAL_SI)),
        arguments("1.G", q(1, 9, DECIMAL_SI)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("parseCases")
  void parse_upstreamTable_valueAndFormat(String input, Quantity expected) {
    Quantity got = Quantity.parse(input);

    assertThat(got.compareTo(expected)).as(input).isZero();
    assertThat(got).isEqualTo(expected).hasSameHashCodeAs(expected);
    assertThat(got.format()).as(input).isEqualTo(expected.format());
  }

  @ParameterizedTest(name = "-{0}")
  @MethodSource("parseCases")
  void parse_upstreamTableNegated_negatedValueSameFormat(String input, Quantity expected) {
    Quantity got = Quantity.parse("-" + input);

    assertThat(got).isEqualTo(expected.negate());
    assertThat(got.format()).isEqualTo(expected.format());
  }

  @ParameterizedTest(name = "+{0}")
  @MethodSource("parseCases")
  void parse_upstreamTableWithPlus_sameValueAndFormat(String input, Quantity expected) {
    Quantity got = Quantity.parse("+" + input);

    assertThat(got).isEqualTo(expected);
    assertThat(got.format()).isEqualTo(expected.format());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("parseCases")
  void parse_ofCanonicalString_returnsEqualQuantity(String input, Quantity expected) {
    Quantity got = Quantity.parse(input);

    assertThat(Quantity.parse(got.toString())).isEqualTo(got);
  }

  // TestQuantityParse (invalid list, plus the empty string checked first): 12 cases.
  @ParameterizedTest(name = "\"{0}\"")
  @ValueSource(strings = {"", "1.1.M", "1+1.0M", "0.1mi", "0.1am", "aoeu", ".5i", "1i", "-3.01i", "-3.01e-", " 1", "1 "})
  void parse_upstreamInvalidInput_throwsNamingInput(String input) {
    assertThatThrownBy(() -> Quantity.parse(input))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"" + input + "\"");
  }

  // Not upstream table cases: the documented grammar needs a digit (Go's scanner reads these as zero), and the
  // quantity_overflow_test.go parseErrorCases row "exponent-over-int32" (#141203).
  @ParameterizedTest(name = "\"{0}\"")
  @ValueSource(strings = {".", "+", "-", "-.", "+.", "1e4294967297", "1e-4294967297", "1e", "1E+", "1e1k", "1Kii"})
  void parse_outsideDocumentedGrammar_throws(String input) {
    assertThatThrownBy(() -> Quantity.parse(input)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void parse_malformed_messageQuotesUpstreamRegularExpression() {
    assertThatThrownBy(() -> Quantity.parse("1.1.M"))
        .hasMessage("quantity \"1.1.M\": quantities must match the regular expression "
            + "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
  }

  @Test
  void parse_unknownSuffix_messageNamesSuffix() {
    assertThatThrownBy(() -> Quantity.parse("0.1mi")).hasMessageContaining("suffix \"mi\"");
  }

  @Test
  void parse_magnitudeBeyondDomain_throws() {
    assertThatThrownBy(() -> Quantity.parse("1e10000")).hasMessageContaining("\"1e10000\"");
    assertThat(Quantity.parse("1e9999").toString()).isEqualTo("1e9999");
    assertThat(Quantity.parse("0e99999")).isEqualTo(Quantity.ZERO);
    assertThat(Quantity.parse("5e-99999")).isEqualTo(q(1, -9, DECIMAL_SI));
  }

  @Test
  void parse_null_throwsNullPointerException() {
    assertThatThrownBy(() -> Quantity.parse(null)).isInstanceOf(NullPointerException.class);
  }

  // TestQuantityParseZero: 1 case.
  @Test
  void parse_zero_printsZero() {
    assertThat(Quantity.parse("0").toString()).isEqualTo("0");
  }

  // TestQuantityParseNonNumericPanic: 1 case.
  @Test
  void parse_nonNumeric_throws() {
    assertThatThrownBy(() -> Quantity.parse("Non-Numeric")).isInstanceOf(IllegalArgumentException.class);
  }

  // TestQuantityAddZeroPreservesSuffix / TestQuantitySubZeroPreservesSuffix: 2 + 2 cases.
  @ParameterizedTest
  @ValueSource(strings = {"100m", "1Gi"})
  void add_zeroEitherSide_preservesSuffix(String text) {
    Quantity value = Quantity.parse(text);
    Quantity zero = Quantity.parse("0");

    assertThat(value.add(zero).toString()).isEqualTo(text);
    assertThat(zero.add(value).toString()).isEqualTo(text);
  }

  @ParameterizedTest
  @ValueSource(strings = {"100m", "1Gi"})
  void subtract_zeroEitherSide_preservesSuffix(String text) {
    Quantity value = Quantity.parse(text);
    Quantity zero = Quantity.parse("0");

    assertThat(value.subtract(zero).toString()).isEqualTo(text);
    assertThat(zero.subtract(value).toString()).isEqualTo(value.negate().toString()).isEqualTo("-" + text);
  }

  // TestQuantityCanocicalizeZero: 1 case.
  @Test
  void toString_valueReducedToZero_printsZeroWithoutSuffix() {
    assertThat(Quantity.parse("1000m").subtract(Quantity.of(1)).toString()).isEqualTo("0");
  }

  // TestQuantityCmp: 4 parsed cases + 8 zero/non-zero cases (upstream's nil inf.Dec is zero).
  static Stream<Arguments> cmpCases() {
    Quantity zero = Quantity.ZERO;
    return Stream.of(
        arguments(Quantity.parse("0"), Quantity.parse("0"), 0),
        arguments(Quantity.parse("100m"), Quantity.parse("50m"), 1),
        arguments(Quantity.parse("50m"), Quantity.parse("100m"), -1),
        arguments(Quantity.parse("10000T"), Quantity.parse("100Gi"), 1),
        arguments(q(0, 0, DECIMAL_SI), q(0, 0, DECIMAL_SI), 0),
        arguments(zero, q(0, 0, DECIMAL_SI), 0),
        arguments(q(0, 0, DECIMAL_SI), zero, 0),
        arguments(zero, zero, 0),
        arguments(zero, q(10, 0, DECIMAL_SI), -1),
        arguments(zero, q(-10, 0, DECIMAL_SI), 1),
        arguments(q(10, 0, DECIMAL_SI), zero, 1),
        arguments(q(-10, 0, DECIMAL_SI), zero, -1));
  }

  @ParameterizedTest(name = "{0} vs {1}")
  @MethodSource("cmpCases")
  void compareTo_upstreamCmpTable_expectedSign(Quantity x, Quantity y, int expected) {
    assertThat(Integer.signum(x.compareTo(y))).isEqualTo(expected);
    assertThat(x.equals(y)).isEqualTo(expected == 0);
  }

  // TestQuantityRoundUp: 12 cases (input, scale, expected, exact).
  static Stream<Arguments> roundUpCases() {
    return Stream.of(
        arguments("9.01", -3, q(901, -2, DECIMAL_SI), true),
        arguments("9.01", -2, q(901, -2, DECIMAL_SI), true),
        arguments("9.01", -1, q(91, -1, DECIMAL_SI), false),
        arguments("9.01", 0, q(10, 0, DECIMAL_SI), false),
        arguments("9.01", 1, q(10, 0, DECIMAL_SI), false),
        arguments("9.01", 2, q(100, 0, DECIMAL_SI), false),
        arguments("-9.01", -3, q(-901, -2, DECIMAL_SI), true),
        arguments("-9.01", -2, q(-901, -2, DECIMAL_SI), true),
        arguments("-9.01", -1, q(-91, -1, DECIMAL_SI), false),
        arguments("-9.01", 0, q(-10, 0, DECIMAL_SI), false),
        arguments("-9.01", 1, q(-10, 0, DECIMAL_SI), false),
        arguments("-9.01", 2, q(-100, 0, DECIMAL_SI), false));
  }

  @ParameterizedTest(name = "{0} to scale {1}")
  @MethodSource("roundUpCases")
  void roundUp_upstreamTable_roundsAwayFromZero(String input, int scale, Quantity expected, boolean exact) {
    Quantity original = Quantity.parse(input);

    Quantity rounded = original.roundUp(scale);

    assertThat(rounded).isEqualTo(expected);
    assertThat(rounded.equals(original)).isEqualTo(exact);
    // the same on the BigDecimal representation
    Quantity viaBig = Quantity.of(original.toBigDecimal().setScale(30), DECIMAL_SI).roundUp(scale);
    assertThat(viaBig).isEqualTo(expected);
  }

  // TestQuantityCmpInt64AndDec: 22 cases, each also checked inverted.
  static Stream<Arguments> cmpInt64AndDecCases() {
    long e18 = 1_000_000L * 1_000_000L * 1_000_000L;
    return Stream.of(
        arguments(Quantity.ofScaled(901, -2), Quantity.ofScaled(901, -2), 0),
        arguments(Quantity.ofScaled(90, -1), Quantity.ofScaled(901, -2), -1),
        arguments(Quantity.ofScaled(901, -2), Quantity.ofScaled(900, -2), 1),
        arguments(Quantity.ofScaled(0, 0), Quantity.ofScaled(0, 0), 0),
        arguments(Quantity.ofScaled(0, 1), Quantity.ofScaled(0, -1), 0),
        arguments(Quantity.ofScaled(0, -1), Quantity.ofScaled(0, 1), 0),
        arguments(Quantity.ofScaled(800, -3), Quantity.ofScaled(1, 0), -1),
        arguments(Quantity.ofScaled(800, -3), Quantity.ofScaled(79, -2), 1),
        arguments(Quantity.ofScaled(MOST_POSITIVE, 0), Quantity.ofScaled(1, -1), 1),
        arguments(Quantity.ofScaled(MOST_POSITIVE, 1), Quantity.ofScaled(1, 0), 1),
        arguments(Quantity.ofScaled(MOST_POSITIVE, 1), Quantity.ofScaled(1, 1), 1),
        arguments(Quantity.ofScaled(MOST_POSITIVE, 1), Quantity.ofScaled(0, 1), 1),
        arguments(Quantity.ofScaled(MOST_POSITIVE, -16), Quantity.ofScaled(1, 3), -1),
        arguments(Quantity.ofScaled(MOST_NEGATIVE, 0), Quantity.ofScaled(0, 0), -1),
        arguments(Quantity.ofScaled(MOST_NEGATIVE, -18), Quantity.ofScaled(-1, 0), -1),
        arguments(Quantity.ofScaled(MOST_NEGATIVE, -19), Quantity.ofScaled(-1, 0), 1),
        arguments(Quantity.ofScaled(e18, -17), Quantity.ofScaled(1, 1), 0),
        arguments(Quantity.ofScaled(e18, -17), Quantity.ofScaled(-10, 0), 1),
        arguments(Quantity.ofScaled(-e18, -17), Quantity.ofScaled(-10, 0), 0),
        arguments(Quantity.ofScaled(e18, -17), Quantity.ofScaled(1, 0), 1),
        arguments(Quantity.ofScaled(e18 + 1, -17), Quantity.ofScaled(1, 1), 1),
        arguments(Quantity.ofScaled(e18 - 1, -17), Quantity.ofScaled(1, 1), -1));
  }

  @ParameterizedTest(name = "{0} vs {1}")
  @MethodSource("cmpInt64AndDecCases")
  void compareTo_acrossScales_matchesExactComparison(Quantity a, Quantity b, int expected) {
    assertThat(Integer.signum(a.compareTo(b))).isEqualTo(expected);
    assertThat(Integer.signum(b.compareTo(a))).isEqualTo(-expected);
    assertThat(a.toBigDecimal().compareTo(b.toBigDecimal())).isEqualTo(expected);
    assertThat(a.equals(b)).isEqualTo(expected == 0);
    if (expected == 0) {
      assertThat(a.hashCode()).isEqualTo(b.hashCode());
    }
  }

  // TestQuantityNeg: 2 cases.
  @Test
  void negate_upstreamTable_printsNegated() {
    Quantity a = Quantity.ofScaled(901, -2);
    Quantity b = q(901, -2, DECIMAL_SI);

    assertThat(a.negate().toString()).isEqualTo("-9010m");
    assertThat(b.negate().toString()).isEqualTo("-9010m");
    assertThat(a.negate()).isNotEqualTo(a);
  }

  // TestQuantityString: 42 cases (value, canonical string, an alternate spelling that must canonicalize to it).
  static Stream<Arguments> stringCases() {
    return Stream.of(
        arguments(q(1024 * 1024 * 1024, 0, BINARY_SI), "1Gi", "1024Mi"),
        arguments(q(300 * 1024 * 1024, 0, BINARY_SI), "300Mi", "307200Ki"),
        arguments(q(6 * 1024, 0, BINARY_SI), "6Ki", ""),
        arguments(q(1001L * 1024 * 1024 * 1024, 0, BINARY_SI), "1001Gi", "1025024Mi"),
        arguments(q(1024L * 1024 * 1024 * 1024, 0, BINARY_SI), "1Ti", "1024Gi"),
        arguments(q(5, 0, BINARY_SI), "5", "5000m"),
        arguments(q(500, -3, BINARY_SI), "500m", "0.5"),
        arguments(q(1, 9, DECIMAL_SI), "1G", "1000M"),
        arguments(q(1000, 6, DECIMAL_SI), "1G", "0.001T"),
        arguments(q(1000000, 3, DECIMAL_SI), "1G", ""),
        arguments(q(1000000000, 0, DECIMAL_SI), "1G", ""),
        arguments(q(1, -3, DECIMAL_SI), "1m", "1000u"),
        arguments(q(80, -3, DECIMAL_SI), "80m", ""),
        arguments(q(1080, -3, DECIMAL_SI), "1080m", "1.08"),
        arguments(q(108, -2, DECIMAL_SI), "1080m", "1080000000n"),
        arguments(q(10800, -4, DECIMAL_SI), "1080m", ""),
        arguments(q(300, 6, DECIMAL_SI), "300M", ""),
        arguments(q(1, 12, DECIMAL_SI), "1T", ""),
        arguments(q(1234567, 6, DECIMAL_SI), "1234567M", ""),
        arguments(q(1234567, -3, BINARY_SI), "1234567m", ""),
        arguments(q(3, 3, DECIMAL_SI), "3k", ""),
        arguments(q(1025, 0, BINARY_SI), "1025", ""),
        arguments(q(0, 0, DECIMAL_SI), "0", ""),
        arguments(q(0, 0, BINARY_SI), "0", ""),
        arguments(q(1, 9, DECIMAL_EXPONENT), "1e9", ".001e12"),
        arguments(q(1, -3, DECIMAL_EXPONENT), "1e-3", "0.001e0"),
        arguments(q(1, -9, DECIMAL_EXPONENT), "1e-9", "1000e-12"),
        arguments(q(80, -3, DECIMAL_EXPONENT), "80e-3", ""),
        arguments(q(300, 6, DECIMAL_EXPONENT), "300e6", ""),
        arguments(q(1, 12, DECIMAL_EXPONENT), "1e12", ""),
        arguments(q(1, 3, DECIMAL_EXPONENT), "1e3", ""),
        arguments(q(3, 3, DECIMAL_EXPONENT), "3e3", ""),
        arguments(q(3, 3, DECIMAL_SI), "3k", ""),
        arguments(q(0, 0, DECIMAL_EXPONENT), "0", "00"),
        arguments(q(1, -9, DECIMAL_SI), "1n", ""),
        arguments(q(80, -9, DECIMAL_SI), "80n", ""),
        arguments(q(1080, -9, DECIMAL_SI), "1080n", ""),
        arguments(q(108, -8, DECIMAL_SI), "1080n", ""),
        arguments(q(10800, -10, DECIMAL_SI), "1080n", ""),
        arguments(q(1, -6, DECIMAL_SI), "1u", ""),
        arguments(q(80, -6, DECIMAL_SI), "80u", ""),
        arguments(q(1080, -6, DECIMAL_SI), "1080u", ""));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("stringCases")
  void toString_upstreamTable_canonicalForm(Quantity in, String expected, String alternate) {
    assertThat(in.toString()).isEqualTo(expected);
    assertThat(Quantity.parse(expected).toString()).isEqualTo(expected);
    if (!alternate.isEmpty()) {
      assertThat(Quantity.parse(alternate).toString()).isEqualTo(expected);
    }
    if (!in.isZero()) {
      assertThat(in.negate().toString()).isEqualTo("-" + expected);
    }
  }

  // TestQuantityParseEmit: 9 cases, each also negated.
  static Stream<Arguments> parseEmitCases() {
    return Stream.of(
        arguments("1Ki", "1Ki"),
        arguments("1Mi", "1Mi"),
        arguments("1Gi", "1Gi"),
        arguments("1024Mi", "1Gi"),
        arguments("1000M", "1G"),
        arguments(".001Ki", "1024m"),
        arguments(".000001Ki", "1024u"),
        arguments(".000000001Ki", "1024n"),
        arguments(".000000000001Ki", "2n"));
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @MethodSource("parseEmitCases")
  void toString_parsedInput_emitsCanonical(String input, String expected) {
    assertThat(Quantity.parse(input).toString()).isEqualTo(expected);
    assertThat(Quantity.parse("-" + input).toString()).isEqualTo("-" + expected);
  }

  // TestMilliNewSet: 6 cases (upstream's invalid format defaults to DecimalExponent, ported as DECIMAL_EXPONENT).
  static Stream<Arguments> milliNewSetCases() {
    return Stream.of(
        arguments(1L, DECIMAL_SI, "1m", true),
        arguments(1000L, DECIMAL_SI, "1", true),
        arguments(1234000L, DECIMAL_SI, "1234", true),
        arguments(1024L, BINARY_SI, "1024m", false), // Format changes
        arguments(1000000L, DECIMAL_EXPONENT, "1e3", true),
        arguments(1024L * 1024, BINARY_SI, "1048576m", false)); // Format changes
  }

  @ParameterizedTest(name = "{0}m {1}")
  @MethodSource("milliNewSetCases")
  void ofMilli_upstreamTable_printsAndRoundTrips(long milli, Format format, String expected, boolean exact) {
    Quantity q = Quantity.ofMilli(milli, format);

    assertThat(q.toString()).isEqualTo(expected);
    assertThat(q.milliValue()).isEqualTo(milli);
    if (exact) {
      assertThat(Quantity.parse(q.toString()).milliValue()).isEqualTo(milli);
    }
  }

  // TestNewSet: 6 cases.
  static Stream<Arguments> newSetCases() {
    return Stream.of(
        arguments(1L, DECIMAL_SI, "1"),
        arguments(1000L, DECIMAL_SI, "1k"),
        arguments(1234000L, DECIMAL_SI, "1234k"),
        arguments(1024L, BINARY_SI, "1Ki"),
        arguments(1000000L, DECIMAL_EXPONENT, "1e6"),
        arguments(1024L * 1024, BINARY_SI, "1Mi"));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("newSetCases")
  void of_upstreamTable_printsAndRoundTrips(long value, Format format, String expected) {
    Quantity q = Quantity.of(value, format);

    assertThat(q.toString()).isEqualTo(expected);
    assertThat(Quantity.parse(q.toString()).value()).isEqualTo(value);
    assertThat(Quantity.of(BigDecimal.valueOf(value), format).toString()).isEqualTo(expected);
  }

  // TestNewScaledSet: 11 cases.
  static Stream<Arguments> newScaledSetCases() {
    return Stream.of(
        arguments(1L, -9, "1n"),
        arguments(1000L, -9, "1u"),
        arguments(1L, -6, "1u"),
        arguments(1000L, -6, "1m"),
        arguments(1L, -3, "1m"),
        arguments(1000L, -3, "1"),
        arguments(1L, 0, "1"),
        arguments(0L, -9, "0"),
        arguments(0L, -6, "0"),
        arguments(0L, -3, "0"),
        arguments(0L, 0, "0"));
  }

  @ParameterizedTest(name = "{0}e{1}")
  @MethodSource("newScaledSetCases")
  void ofScaled_upstreamTable_printsAndRoundTrips(long value, int scale, String expected) {
    Quantity q = Quantity.ofScaled(value, scale);

    assertThat(q.toString()).isEqualTo(expected);
    assertThat(Quantity.parse(q.toString()).scaledValue(scale)).isEqualTo(value);
  }

  // TestScaledValue: 17 cases.
  static Stream<Arguments> scaledValueCases() {
    return Stream.of(
        arguments(-9, -9, 1L),
        arguments(-9, -6, 1L),
        arguments(-9, -3, 1L),
        arguments(-9, 0, 1L),
        arguments(-6, -9, 1000L),
        arguments(-6, -6, 1L),
        arguments(-6, -3, 1L),
        arguments(-6, 0, 1L),
        arguments(-3, -9, 1000L * 1000),
        arguments(-3, -6, 1000L),
        arguments(-3, -3, 1L),
        arguments(-3, 0, 1L),
        arguments(0, -9, 1000L * 1000 * 1000),
        arguments(0, -6, 1000L * 1000),
        arguments(0, -3, 1000L),
        arguments(0, 0, 1L),
        arguments(2, -2, 100L * 100));
  }

  @ParameterizedTest(name = "1e{0} in units of 1e{1}")
  @MethodSource("scaledValueCases")
  void scaledValue_upstreamTable_roundsUp(int fromScale, int toScale, long expected) {
    assertThat(Quantity.ofScaled(1, fromScale).scaledValue(toScale)).isEqualTo(expected);
    assertThat(Quantity.of(BigDecimal.ONE.scaleByPowerOfTen(fromScale).setScale(40), DECIMAL_SI).scaledValue(toScale))
        .isEqualTo(expected);
  }

  // TestSub (6 cases) and TestAdd (6 cases): upstream's zero-value Quantity{Format: DecimalSI} is ZERO.
  static Stream<Arguments> subCases() {
    Quantity zero = Quantity.ZERO;
    return Stream.of(
        arguments(q(10, 0, DECIMAL_SI), q(1, 1, DECIMAL_SI), q(0, 0, DECIMAL_SI)),
        arguments(q(10, 0, DECIMAL_SI), q(1, 0, BINARY_SI), q(9, 0, DECIMAL_SI)),
        arguments(q(10, 0, BINARY_SI), q(1, 0, DECIMAL_SI), q(9, 0, BINARY_SI)),
        arguments(zero, q(50, 0, DECIMAL_SI), q(-50, 0, DECIMAL_SI)),
        arguments(q(50, 0, DECIMAL_SI), zero, q(50, 0, DECIMAL_SI)),
        arguments(zero, zero, q(0, 0, DECIMAL_SI)));
  }

  @ParameterizedTest(name = "{0} - {1}")
  @MethodSource("subCases")
  void subtract_upstreamTable_exactDifference(Quantity a, Quantity b, Quantity expected) {
    assertThat(a.subtract(b)).isEqualTo(expected);
  }

  static Stream<Arguments> addCases() {
    Quantity zero = Quantity.ZERO;
    return Stream.of(
        arguments(q(10, 0, DECIMAL_SI), q(1, 1, DECIMAL_SI), q(20, 0, DECIMAL_SI)),
        arguments(q(10, 0, DECIMAL_SI), q(1, 0, BINARY_SI), q(11, 0, DECIMAL_SI)),
        arguments(q(10, 0, BINARY_SI), q(1, 0, DECIMAL_SI), q(11, 0, BINARY_SI)),
        arguments(zero, q(50, 0, DECIMAL_SI), q(50, 0, DECIMAL_SI)),
        arguments(q(50, 0, DECIMAL_SI), zero, q(50, 0, DECIMAL_SI)),
        arguments(zero, zero, q(0, 0, DECIMAL_SI)));
  }

  @ParameterizedTest(name = "{0} + {1}")
  @MethodSource("addCases")
  void add_upstreamTable_exactSum(Quantity a, Quantity b, Quantity expected) {
    assertThat(a.add(b)).isEqualTo(expected);
    assertThat(b.add(a)).isEqualTo(expected);
  }

  @Test
  void add_nonZeroReceiver_keepsReceiverFormat() {
    assertThat(q(10, 0, BINARY_SI).add(q(1, 0, DECIMAL_SI)).format()).isEqualTo(BINARY_SI);
    assertThat(q(10, 0, DECIMAL_SI).add(q(1, 0, BINARY_SI)).format()).isEqualTo(DECIMAL_SI);
    assertThat(Quantity.ZERO.add(Quantity.parse("1Gi")).format()).isEqualTo(BINARY_SI);
  }

  // TestNeg: 7 cases (upstream's empty Quantity{} is ZERO).
  static Stream<Arguments> negCases() {
    return Stream.of(
        arguments(Quantity.ofScaled(0, 0), Quantity.ofScaled(0, 0)),
        arguments(Quantity.ZERO, Quantity.ZERO),
        arguments(Quantity.of(10, BINARY_SI), Quantity.of(-10, BINARY_SI)),
        arguments(Quantity.of(-10, BINARY_SI), Quantity.of(10, BINARY_SI)),
        arguments(q(0, 0, DECIMAL_SI), Quantity.ofScaled(0, 0)),
        arguments(q(10, 0, BINARY_SI), Quantity.of(-10, BINARY_SI)),
        arguments(q(-10, 0, BINARY_SI), Quantity.of(10, BINARY_SI)));
  }

  @ParameterizedTest(name = "-({0})")
  @MethodSource("negCases")
  void negate_upstreamTable_negatedValueSameFormat(Quantity a, Quantity expected) {
    assertThat(a.negate()).isEqualTo(expected);
    assertThat(a.negate().format()).isEqualTo(a.format());
    assertThat(a.negate().negate()).isEqualTo(a);
  }

  // TestMul: 28 cases (value, factor, expected); upstream's "ok" is whether the result still fits an int64.
  static Stream<Arguments> mulCases() {
    BigInteger bigMostPositive = BigInteger.valueOf(MOST_POSITIVE);
    BigInteger bigMostNegative = BigInteger.valueOf(MOST_NEGATIVE);
    Quantity zero = Quantity.ZERO;
    return Stream.of(
        arguments(q(10, 0, DECIMAL_SI), 10L, q(100, 0, DECIMAL_SI)),
        arguments(q(10, 0, DECIMAL_SI), 1L, q(10, 0, DECIMAL_SI)),
        arguments(q(10, 0, BINARY_SI), 1L, q(10, 0, BINARY_SI)),
        arguments(zero, 50L, q(0, 0, DECIMAL_SI)),
        arguments(q(50, 0, DECIMAL_SI), 0L, q(0, 0, DECIMAL_SI)),
        arguments(zero, 0L, q(0, 0, DECIMAL_SI)),
        arguments(q(10, 0, DECIMAL_SI), -10L, q(-100, 0, DECIMAL_SI)),
        arguments(q(-10, 0, DECIMAL_SI), 1L, q(-10, 0, DECIMAL_SI)),
        arguments(q(10, 0, BINARY_SI), -1L, q(-10, 0, BINARY_SI)),
        arguments(q(-50, 0, DECIMAL_SI), 0L, q(0, 0, DECIMAL_SI)),
        arguments(q(-50, 0, DECIMAL_SI), -50L, q(2500, 0, DECIMAL_SI)),
        arguments(zero, -50L, q(0, 0, DECIMAL_SI)),
        arguments(q(MOST_POSITIVE, 0, DECIMAL_SI), 0L, q(0, 1, DECIMAL_SI)),
        arguments(q(MOST_POSITIVE, 0, DECIMAL_SI), 1L, q(MOST_POSITIVE, 0, DECIMAL_SI)),
        arguments(q(MOST_POSITIVE, 0, DECIMAL_SI), -1L, q(-MOST_POSITIVE, 0, DECIMAL_SI)),
        arguments(q(MOST_POSITIVE / 2, 0, DECIMAL_SI), 2L, q((MOST_POSITIVE / 2) * 2, 0, DECIMAL_SI)),
        arguments(q(MOST_POSITIVE / -2, 0, DECIMAL_SI), -2L, q((MOST_POSITIVE / 2) * 2, 0, DECIMAL_SI)),
        arguments(q(MOST_POSITIVE, 0, DECIMAL_SI), 2L, big(bigMostPositive.multiply(BigInteger.TWO), 0, DECIMAL_SI)),
        arguments(q(MOST_POSITIVE, 0, DECIMAL_SI), 10L, q(MOST_POSITIVE, 1, DECIMAL_SI)),
        arguments(q(MOST_POSITIVE, 0, DECIMAL_SI), -10L, q(-MOST_POSITIVE, 1, DECIMAL_SI)),
        arguments(q(MOST_NEGATIVE, 0, DECIMAL_SI), 0L, q(0, 1, DECIMAL_SI)),
        arguments(q(MOST_NEGATIVE, 0, DECIMAL_SI), 1L, q(MOST_NEGATIVE, 0, DECIMAL_SI)),
        arguments(q(MOST_NEGATIVE, 0, DECIMAL_SI), -1L, big(bigMostPositive.add(BigInteger.ONE), 0, DECIMAL_SI)),
        arguments(q(MOST_NEGATIVE / 2, 0, DECIMAL_SI), 2L, q(MOST_NEGATIVE, 0, DECIMAL_SI)),
        arguments(q(MOST_NEGATIVE / -2, 0, DECIMAL_SI), -2L, q(MOST_NEGATIVE, 0, DECIMAL_SI)),
        arguments(q(MOST_NEGATIVE, 0, DECIMAL_SI), 2L, big(bigMostNegative.multiply(BigInteger.TWO), 0, DECIMAL_SI)),
        arguments(q(MOST_NEGATIVE, 0, DECIMAL_SI), 10L, q(MOST_NEGATIVE, 1, DECIMAL_SI)),
        arguments(q(MOST_NEGATIVE, 0, DECIMAL_SI), -10L, big(bigMostPositive.add(BigInteger.ONE), 1, DECIMAL_SI)));
  }

  @ParameterizedTest(name = "{0} * {1}")
  @MethodSource("mulCases")
  void multiply_upstreamTable_exactProduct(Quantity a, long factor, Quantity expected) {
    Quantity product = a.multiply(factor);

    assertThat(product).isEqualTo(expected).hasSameHashCodeAs(expected);
    assertThat(product.toBigDecimal().compareTo(a.toBigDecimal().multiply(BigDecimal.valueOf(factor)))).isZero();
    assertThat(product.format()).isEqualTo(a.format());
  }

  // quantity_overflow_test.go quantityAccessorCases: 28 of 31 rows (the 3 "via-dec" rows duplicate others here,
  // since this class has no representation the caller can pick). Sign, Value, MilliValue, ScaledValue(Kilo),
  // ScaledValue(0), ScaledValue(Milli), String; not AsInt64's ok flag (which Go representation holds the value) nor
  // AsApproximateFloat64 (no float accessor).
  static Stream<Arguments> accessorCases() {
    long max = Long.MAX_VALUE;
    long min = Long.MIN_VALUE;
    return Stream.of(
        accessor("int64-max-parsed", () -> Quantity.parse("9223372036854775807"),
            1, max, max, 9223372036854776L, "9223372036854775807"),
        accessor("int64-max-constructed", () -> Quantity.of(max),
            1, max, max, 9223372036854776L, "9223372036854775807"),
        accessor("int64-min-constructed", () -> Quantity.of(min),
            -1, min, min, -9223372036854776L, "-9223372036854775808"),
        accessor("ten-to-18-parsed", () -> Quantity.parse("1E"),
            1, 1000000000000000000L, max, 1000000000000000L, "1E"),
        accessor("binary-8Ei-caps-at-max", () -> Quantity.parse("8Ei"),
            1, max, max, 9223372036854776L, "9223372036854775807"),
        accessor("binary-negative-8Ei-caps-at-negative-max", () -> Quantity.parse("-8Ei"),
            -1, -max, min, -9223372036854776L, "-9223372036854775807"),
        accessor("binary-20Ei-caps-at-max", () -> Quantity.parse("20Ei"),
            1, max, max, 9223372036854776L, "9223372036854775807"),
        accessor("binary-negative-20Ei-caps-at-negative-max", () -> Quantity.parse("-20Ei"),
            -1, -max, min, -9223372036854776L, "-9223372036854775807"),
        accessor("two-to-63-parsed", () -> Quantity.parse("9223372036854775808"),
            1, max, max, 9223372036854776L, "9223372036854775808"),
        accessor("two-to-64-parsed", () -> Quantity.parse("18446744073709551616"),
            1, max, max, 18446744073709552L, "18446744073709551616"),
        accessor("ten-to-20-parsed", () -> Quantity.parse("100E"),
            1, max, max, 100000000000000000L, "100E"),
        accessor("ten-to-21-parsed", () -> Quantity.parse("1000E"),
            1, max, max, 1000000000000000000L, "1e21"),
        accessor("five-times-ten-to-21-parsed", () -> Quantity.parse("5000E"),
            1, max, max, 5000000000000000000L, "5e21"),
        accessor("ten-to-100-parsed", () -> Quantity.parse("1e100"),
            1, max, max, max, "10e99"),
        accessor("scaled-one-times-ten-to-21", () -> Quantity.ofScaled(1, 21),
            1, max, max, 1000000000000000000L, "1e21"),
        accessor("scaled-max-times-ten", () -> Quantity.ofScaled(max, 1),
            1, max, max, 92233720368547759L, "92233720368547758070"),
        accessor("int64-min-parsed", () -> Quantity.parse("-9223372036854775808"),
            -1, min, min, -9223372036854776L, "-9223372036854775808"),
        accessor("int64-min-plus-one-parsed", () -> Quantity.parse("-9223372036854775807"),
            -1, min + 1, min, -9223372036854776L, "-9223372036854775807"),
        accessor("negative-ten-to-30-parsed", () -> Quantity.parse("-1e30"),
            -1, min, min, min, "-1e30"),
        accessor("negative-ten-to-20-parsed", () -> Quantity.parse("-100E"),
            -1, min, min, -100000000000000000L, "-100E"),
        accessor("negative-ten-to-21-parsed", () -> Quantity.parse("-1000E"),
            -1, min, min, -1000000000000000000L, "-1e21"),
        accessor("negative-9_5Gi", () -> Quantity.parse("-9.5Gi"),
            -1, -10200547328L, -10200547328000L, -10200548L, "-9728Mi"),
        accessor("negative-9_5000000001Gi", () -> Quantity.parse("-9.5000000001Gi"),
            -1, -10200547329L, -10200547328108L, -10200548L, "-10200547328107374183n"),
        accessor("new-milli-max", () -> Quantity.ofMilli(max),
            1, 9223372036854776L, max, 9223372036855L, "9223372036854775807m"),
        accessor("new-milli-min", () -> Quantity.ofMilli(min),
            -1, -9223372036854776L, min, -9223372036855L, "-9223372036854775808m"),
        accessor("zero-at-large-scale", () -> Quantity.ofScaled(0, 500), 0, 0, 0, 0, "0"),
        accessor("zero-at-large-negative-scale", () -> Quantity.ofScaled(0, -500), 0, 0, 0, 0, "0"),
        accessor("max-plus-max", () -> Quantity.of(max).add(Quantity.of(max)),
            1, max, max, 18446744073709552L, "18446744073709551614"));
  }

  private static Arguments accessor(String name, Supplier<Quantity> load, int sign, long value, long milli,
      long scaledKilo, String string) {
    return arguments(name, load, sign, value, milli, scaledKilo, string);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("accessorCases")
  void accessors_nearInt64Limits_saturateAndPrintExactly(String name, Supplier<Quantity> load, int sign, long value,
      long milli, long scaledKilo, String string) {
    Quantity q = load.get();

    assertThat(q.signum()).isEqualTo(sign);
    assertThat(q.value()).isEqualTo(value);
    assertThat(q.milliValue()).isEqualTo(milli);
    assertThat(q.scaledValue(3)).isEqualTo(scaledKilo);
    assertThat(q.scaledValue(0)).isEqualTo(value);
    assertThat(q.scaledValue(-3)).isEqualTo(milli);
    assertThat(q.toString()).isEqualTo(string);
  }

  // TestParseQuantity: 72 cases around the 18/19/20-digit and int64 boundaries: the exact value (upstream's AsDec) and
  // the re-serialized string (the input itself where no canonical form is given). Upstream's AsInt64 column asks
  // which Go representation the parser picked, and this class has only one.
  @ParameterizedTest(name = "{0}")
  @CsvSource({
      "-999999999999999999, -999999999999999999, ",
      "999999999999999999, 999999999999999999, ",
      "-999999999999999999.0, -999999999999999999, -999999999999999999",
      "999999999999999999.0, 999999999999999999, 999999999999999999",
      "-999999999999999999.1, -999999999999999999.1, -999999999999999999100m",
      "999999999999999999.1, 999999999999999999.1, 999999999999999999100m",
      "-9999999999999999999, -9999999999999999999, ",
      "9999999999999999999, 9999999999999999999, ",
      "-1E, -1000000000000000000, ",
      "1E, 1000000000000000000, ",
      "-1000000000000000000, -1000000000000000000, -1E",
      "1000000000000000000, 1000000000000000000, 1E",
      "-9999999999999999999.0, -9999999999999999999, -9999999999999999999",
      "9999999999999999999.0, 9999999999999999999, 9999999999999999999",
      "-1.0E, -1000000000000000000, -1E",
      "1.0E, 1000000000000000000, 1E",
      "-1000000000000000000.0, -1000000000000000000, -1E",
      "1000000000000000000.0, 1000000000000000000, 1E",
      "-9999999999999999999000m, -9999999999999999999, -9999999999999999999",
      "9999999999999999999000m, 9999999999999999999, 9999999999999999999",
      "-9999999999999999999.1, -9999999999999999999.1, -9999999999999999999100m",
      "9999999999999999999.1, 9999999999999999999.1, 9999999999999999999100m",
      "-1.0000000000000000001E, -1000000000000000000.1, -1000000000000000000100m",
      "1.0000000000000000001E, 1000000000000000000.1, 1000000000000000000100m",
      "-1000000000000000000.1, -1000000000000000000.1, -1000000000000000000100m",
      "1000000000000000000.1, 1000000000000000000.1, 1000000000000000000100m",
      "-1.000000000000000001E, -1000000000000000001, -1000000000000000001",
      "1.000000000000000001E, 1000000000000000001, 1000000000000000001",
      "-1000000000000000001, -1000000000000000001, ",
      "1000000000000000001, 1000000000000000001, ",
      "-10E, -10000000000000000000, ",
      "10E, 10000000000000000000, ",
      "-10000000000000000000, -10000000000000000000, -10E",
      "10000000000000000000, 10000000000000000000, 10E",
      "-10.0E, -10000000000000000000, -10E",
      "10.0E, 10000000000000000000, 10E",
      "-10000000000000000000.0, -10000000000000000000, -10E",
      "10000000000000000000.0, 10000000000000000000, 10E",
      "-10000000000000000000000m, -10000000000000000000, -10E",
      "10000000000000000000000m, 10000000000000000000, 10E",
      "-10.0000000000000000001E, -10000000000000000000.1, -10000000000000000000100m",
      "10.0000000000000000001E, 10000000000000000000.1, 10000000000000000000100m",
      "-10000000000000000000.1, -10000000000000000000.1, -10000000000000000000100m",
      "10000000000000000000.1, 10000000000000000000.1, 10000000000000000000100m",
      "-10.000000000000000001E, -10000000000000000001, -10000000000000000001",
      "10.000000000000000001E, 10000000000000000001, 10000000000000000001",
      "-10000000000000000001, -10000000000000000001, ",
      "10000000000000000001, 10000000000000000001, ",
      "-9223372036854775809, -9223372036854775809, ",
      "9223372036854775806, 9223372036854775806, ",
      "-9223372036854775809.0, -9223372036854775809, -9223372036854775809",
      "9223372036854775806.0, 9223372036854775806, 9223372036854775806",
      "-9223372036854775809000m, -9223372036854775809, -9223372036854775809",
      "9223372036854775806000m, 9223372036854775806, 9223372036854775806",
      "-9223372036854775809.1, -9223372036854775809.1, -9223372036854775809100m",
      "9223372036854775806.1, 9223372036854775806.1, 9223372036854775806100m",
      "-9223372036854775808, -9223372036854775808, ",
      "9223372036854775807, 9223372036854775807, ",
      "-9223372036854775808.0, -9223372036854775808, -9223372036854775808",
      "9223372036854775807.0, 9223372036854775807, 9223372036854775807",
      "-9223372036854775808000m, -9223372036854775808, -9223372036854775808",
      "9223372036854775807000m, 9223372036854775807, 9223372036854775807",
      "-9223372036854775808.1, -9223372036854775808.1, -9223372036854775808100m",
      "9223372036854775807.1, 9223372036854775807.1, 9223372036854775807100m",
      "-9223372036854775807, -9223372036854775807, ",
      "9223372036854775808, 9223372036854775808, ",
      "-9223372036854775807.0, -9223372036854775807, -9223372036854775807",
      "9223372036854775808.0, 9223372036854775808, 9223372036854775808",
      "-9223372036854775807000m, -9223372036854775807, -9223372036854775807",
      "9223372036854775808000m, 9223372036854775808, 9223372036854775808",
      "-9223372036854775807.1, -9223372036854775807.1, -9223372036854775807100m",
      "9223372036854775808.1, 9223372036854775808.1, 9223372036854775808100m"
  })
  void parse_nearInt64Boundaries_exactValueAndCanonicalString(String input, BigDecimal value, String canonical) {
    Quantity q = Quantity.parse(input);

    assertThat(q.toBigDecimal()).isEqualByComparingTo(value);
    assertThat(q.toString()).isEqualTo(canonical == null ? input : canonical);
  }

  // TestQuantityValueSet: 1 case (pflag plumbing aside).
  @Test
  void parse_oneMi_valueIsTwoToTheTwenty() {
    assertThat(Quantity.parse("1Mi").value()).isEqualTo(1024 * 1024);
    assertThat(Quantity.parse("1Mi").toString()).isEqualTo("1Mi");
    assertThatThrownBy(() -> Quantity.parse("invalid")).isInstanceOf(IllegalArgumentException.class);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // FleetKit-specific behaviour (not upstream tables).

  @Test
  void toString_examplesFromDocumentation_canonical() {
    assertThat(Quantity.parse("1.5").toString()).isEqualTo("1500m");
    assertThat(Quantity.parse("1.5Gi").toString()).isEqualTo("1536Mi");
    assertThat(Quantity.parse("2e3").toString()).isEqualTo("2e3");
    assertThat(Quantity.parse("0.5Ki").toString()).isEqualTo("512");
    assertThat(Quantity.parse("1.1Ki").toString()).isEqualTo("1126400m");
    assertThat(Quantity.parse("0.1Gi").toString()).isEqualTo("107374182400m");
    assertThat(Quantity.parse("+1").toString()).isEqualTo("1");
    assertThat(Quantity.parse("1.500").toString()).isEqualTo("1500m");
    assertThat(Quantity.parse("001").toString()).isEqualTo("1");
    assertThat(Quantity.parse("1E3").toString()).isEqualTo("1e3");
  }

  @Test
  void toString_binaryWithMoreThanSixFactorsOf1024_printsDecimalExponent() {
    Quantity twoTo70 = Quantity.of(new BigDecimal(BigInteger.ONE.shiftLeft(70)), BINARY_SI);
    Quantity threeTimesTwoTo60 = Quantity.of(new BigDecimal(BigInteger.valueOf(3).shiftLeft(60)), BINARY_SI);

    assertThat(twoTo70.toString()).isEqualTo("1180591620717411303424");
    assertThat(Quantity.parse(twoTo70.toString())).isEqualTo(twoTo70);
    assertThat(threeTimesTwoTo60.toString()).isEqualTo("3Ei");
  }

  @Test
  void toString_decimalBelowNano_printsExponent() {
    assertThat(Quantity.ofScaled(1, -12).toString()).isEqualTo("1e-12");
    assertThat(Quantity.ofScaled(15, -13).toString()).isEqualTo("1500e-15");
  }

  @Test
  void factories_contract_valuesAndFormats() {
    assertThat(Quantity.ofMilli(1500).toString()).isEqualTo("1500m");
    assertThat(Quantity.ofMilli(1500).value()).isEqualTo(2);
    assertThat(Quantity.ofMilli(-1500).value()).isEqualTo(-2);
    assertThat(Quantity.of(3).toString()).isEqualTo("3");
    assertThat(Quantity.ofBytes(1L << 30).toString()).isEqualTo("1Gi");
    assertThat(Quantity.ofBytes(1L << 30).format()).isEqualTo(BINARY_SI);
    assertThat(Quantity.ofBytes(1000).toString()).isEqualTo("1k"); // below 1024: printed as decimal SI
    assertThat(Quantity.ofBytes(1025).toString()).isEqualTo("1025");
    assertThat(Quantity.ZERO.toString()).isEqualTo("0");
    assertThat(Quantity.ZERO.isZero()).isTrue();
    assertThat(Quantity.ofMilli(-1).isNegative()).isTrue();
    assertThat(Quantity.parse("100m").toBigDecimal()).isEqualByComparingTo("0.1");
    assertThat(Quantity.parse("1Gi").withFormat(DECIMAL_SI).toString()).isEqualTo("1073741824");
    assertThatThrownBy(() -> Quantity.ofScaled(1, Integer.MIN_VALUE)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void equals_differentFormatsSameValue_equalWithSameHash() {
    Quantity a = Quantity.parse("1Ki");
    Quantity b = Quantity.parse("1024");
    Quantity c = Quantity.parse("1.024k");

    assertThat(a).isEqualTo(b).isEqualTo(c).hasSameHashCodeAs(b).hasSameHashCodeAs(c);
    assertThat(a).isNotEqualTo(Quantity.parse("1025"));
  }

  @Test
  void minMax_pickByValue() {
    Quantity small = Quantity.parse("100m");
    Quantity large = Quantity.parse("1");

    assertThat(Quantity.max(small, large)).isSameAs(large);
    assertThat(Quantity.min(small, large)).isSameAs(small);
  }
}
