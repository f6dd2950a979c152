package io.fleetkit.api.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Go's {@code strconv.ParseFloat(s, 64)}. The tables are golang/go {@code src/strconv/atof_test.go} (as stored in the
 * fork thevilledev/go at 9000edb34c5f17e5f8d0a4b35c996d00db12eaaf), ported as data: {@code atoftests} 261 of 261 (256
 * in the table below, the five built with {@code strings.Repeat} or holding a NUL in {@link #atoftests_built}), each
 * value compared bit for bit with Go's expected text read back, each error by Go's message; {@code roundTripCases} 2
 * of 2; {@code TestAtofRandom} as a jqwik property over every bit pattern. Skipped: {@code atof32tests} (54 cases)
 * and the 32-bit halves of TestAtof, because FleetKit reads no {@code float32} text; {@code TestParseFloatPrefix}
 * (prefix parsing is not offered); {@code TestParseFloatIncorrectBitSize} (no bit size is taken).
 */
final class GoFloatsTest {

  private static void check(String in, String out, String err) {
    if (err == null) {
      double want = switch (out) {
        case "+Inf" -> Double.POSITIVE_INFINITY;
        case "-Inf" -> Double.NEGATIVE_INFINITY;
        default -> Double.parseDouble(out); // Go's shortest text, which Java reads back to the same double
      };
      assertThat(Double.doubleToRawLongBits(GoFloats.parseFloat(in)))
          .as("ParseFloat(%s)", in.length() > 60 ? in.substring(0, 60) + "..." : in)
          .isEqualTo(Double.doubleToRawLongBits(want));
    } else {
      String reason = err.equals("range") ? "value out of range" : "invalid syntax";
      assertThatThrownBy(() -> GoFloats.parseFloat(in)).isInstanceOf(NumberFormatException.class)
          .hasMessage("strconv.ParseFloat: parsing " + GoIntegers.quote(in) + ": " + reason);
    }
  }

  // ---- atof_test.go atoftests
  @ParameterizedTest(name = "\"{0}\"")
  @CsvSource(delimiter = '|', textBlock = """
      ''|0|syntax
      1|1|
      +1|1|
      1x|0|syntax
      1.1.|0|syntax
      1e23|1e+23|
      1E23|1e+23|
      100000000000000000000000|1e+23|
      1e-100|1e-100|
      123456700|1.234567e+08|
      99999999999999974834176|9.999999999999997e+22|
      100000000000000000000001|1.0000000000000001e+23|
      100000000000000008388608|1.0000000000000001e+23|
      100000000000000016777215|1.0000000000000001e+23|
      100000000000000016777216|1.0000000000000003e+23|
      -1|-1|
      -0.1|-0.1|
      -0|-0|
      1e-20|1e-20|
      625e-3|0.625|
      0x1p0|1|
      0x1p1|2|
      0x1p-1|0.5|
      0x1ep-1|15|
      -0x1ep-1|-15|
      -0x1_ep-1|-15|
      0x1p-200|6.223015277861142e-61|
      0x1p200|1.6069380442589903e+60|
      0x1fFe2.p0|131042|
      0x1fFe2.P0|131042|
      -0x2p3|-16|
      0x0.fp4|15|
      0x0.fp0|0.9375|
      0x1e2|0|syntax
      1p2|0|syntax
      0|0|
      0e0|0|
      -0e0|-0|
      +0e0|0|
      0e-0|0|
      -0e-0|-0|
      +0e-0|0|
      0e+0|0|
      -0e+0|-0|
      +0e+0|0|
      0e+01234567890123456789|0|
      0.00e-01234567890123456789|0|
      -0e+01234567890123456789|-0|
      -0.00e-01234567890123456789|-0|
      0x0p+01234567890123456789|0|
      0x0.00p-01234567890123456789|0|
      -0x0p+01234567890123456789|-0|
      -0x0.00p-01234567890123456789|-0|
      0e291|0|
      0e292|0|
      0e347|0|
      0e348|0|
      -0e291|-0|
      -0e292|-0|
      -0e347|-0|
      -0e348|-0|
      0x0p126|0|
      0x0p127|0|
      0x0p128|0|
      0x0p129|0|
      0x0p130|0|
      0x0p1022|0|
      0x0p1023|0|
      0x0p1024|0|
      0x0p1025|0|
      0x0p1026|0|
      -0x0p126|-0|
      -0x0p127|-0|
      -0x0p128|-0|
      -0x0p129|-0|
      -0x0p130|-0|
      -0x0p1022|-0|
      -0x0p1023|-0|
      -0x0p1024|-0|
      -0x0p1025|-0|
      -0x0p1026|-0|
      nan|NaN|
      NaN|NaN|
      NAN|NaN|
      inf|+Inf|
      -Inf|-Inf|
      +INF|+Inf|
      -Infinity|-Inf|
      +INFINITY|+Inf|
      Infinity|+Inf|
      1.7976931348623157e308|1.7976931348623157e+308|
      -1.7976931348623157e308|-1.7976931348623157e+308|
      0x1.fffffffffffffp1023|1.7976931348623157e+308|
      -0x1.fffffffffffffp1023|-1.7976931348623157e+308|
      0x1fffffffffffffp+971|1.7976931348623157e+308|
      -0x1fffffffffffffp+971|-1.7976931348623157e+308|
      0x.1fffffffffffffp1027|1.7976931348623157e+308|
      -0x.1fffffffffffffp1027|-1.7976931348623157e+308|
      1.7976931348623159e308|+Inf|range
      -1.7976931348623159e308|-Inf|range
      0x1p1024|+Inf|range
      -0x1p1024|-Inf|range
      0x2p1023|+Inf|range
      -0x2p1023|-Inf|range
      0x.1p1028|+Inf|range
      -0x.1p1028|-Inf|range
      0x.2p1027|+Inf|range
      -0x.2p1027|-Inf|range
      1.7976931348623158e308|1.7976931348623157e+308|
      -1.7976931348623158e308|-1.7976931348623157e+308|
      0x1.fffffffffffff7fffp1023|1.7976931348623157e+308|
      -0x1.fffffffffffff7fffp1023|-1.7976931348623157e+308|
      1.797693134862315808e308|+Inf|range
      -1.797693134862315808e308|-Inf|range
      0x1.fffffffffffff8p1023|+Inf|range
      -0x1.fffffffffffff8p1023|-Inf|range
      0x1fffffffffffff.8p+971|+Inf|range
      -0x1fffffffffffff8p+967|-Inf|range
      0x.1fffffffffffff8p1027|+Inf|range
      -0x.1fffffffffffff9p1027|-Inf|range
      1e308|1e+308|
      2e308|+Inf|range
      1e309|+Inf|range
      0x1p1025|+Inf|range
      1e310|+Inf|range
      -1e310|-Inf|range
      1e400|+Inf|range
      -1e400|-Inf|range
      1e400000|+Inf|range
      -1e400000|-Inf|range
      0x1p1030|+Inf|range
      0x1p2000|+Inf|range
      0x1p2000000000|+Inf|range
      -0x1p1030|-Inf|range
      -0x1p2000|-Inf|range
      -0x1p2000000000|-Inf|range
      1e-305|1e-305|
      1e-306|1e-306|
      1e-307|1e-307|
      1e-308|1e-308|
      1e-309|1e-309|
      1e-310|1e-310|
      1e-322|1e-322|
      5e-324|5e-324|
      4e-324|5e-324|
      3e-324|5e-324|
      2e-324|0|
      1e-350|0|
      1e-400000|0|
      0x2.00000000000000p-1010|1.8227805048890994e-304|
      0x1.fffffffffffff0p-1010|1.8227805048890992e-304|
      0x1.fffffffffffff7p-1010|1.8227805048890992e-304|
      0x1.fffffffffffff8p-1010|1.8227805048890994e-304|
      0x1.fffffffffffff9p-1010|1.8227805048890994e-304|
      0x2.00000000000000p-1022|4.450147717014403e-308|
      0x1.fffffffffffff0p-1022|4.4501477170144023e-308|
      0x1.fffffffffffff7p-1022|4.4501477170144023e-308|
      0x1.fffffffffffff8p-1022|4.450147717014403e-308|
      0x1.fffffffffffff9p-1022|4.450147717014403e-308|
      0x1.00000000000000p-1022|2.2250738585072014e-308|
      0x0.fffffffffffff0p-1022|2.225073858507201e-308|
      0x0.ffffffffffffe0p-1022|2.2250738585072004e-308|
      0x0.ffffffffffffe7p-1022|2.2250738585072004e-308|
      0x1.ffffffffffffe8p-1023|2.225073858507201e-308|
      0x1.ffffffffffffe9p-1023|2.225073858507201e-308|
      0x0.00000003fffff0p-1022|2.072261e-317|
      0x0.00000003456780p-1022|1.694649e-317|
      0x0.00000003456787p-1022|1.694649e-317|
      0x0.00000003456788p-1022|1.694649e-317|
      0x0.00000003456790p-1022|1.6946496e-317|
      0x0.00000003456789p-1022|1.6946496e-317|
      0x0.0000000345678800000000000000000000000001p-1022|1.6946496e-317|
      0x0.000000000000f0p-1022|7.4e-323|
      0x0.00000000000060p-1022|3e-323|
      0x0.00000000000058p-1022|3e-323|
      0x0.00000000000057p-1022|2.5e-323|
      0x0.00000000000050p-1022|2.5e-323|
      0x0.00000000000010p-1022|5e-324|
      0x0.000000000000081p-1022|5e-324|
      0x0.00000000000008p-1022|0|
      0x0.00000000000007fp-1022|0|
      1e-4294967296|0|
      1e+4294967296|+Inf|range
      1e-18446744073709551616|0|
      1e+18446744073709551616|+Inf|range
      0x1p-4294967296|0|
      0x1p+4294967296|+Inf|range
      0x1p-18446744073709551616|0|
      0x1p+18446744073709551616|+Inf|range
      1e|0|syntax
      1e-|0|syntax
      .e-1|0|syntax
      0x|0|syntax
      0x.|0|syntax
      0x1|0|syntax
      0x.1|0|syntax
      0x1p|0|syntax
      0x.1p|0|syntax
      0x1p+|0|syntax
      0x.1p+|0|syntax
      0x1p-|0|syntax
      0x.1p-|0|syntax
      0x1p+2|4|
      0x.1p+2|0.25|
      0x1p-2|0.25|
      0x.1p-2|0.015625|
      2.2250738585072012e-308|2.2250738585072014e-308|
      2.2250738585072011e-308|2.225073858507201e-308|
      4.630813248087435e+307|4.630813248087435e+307|
      22.222222222222222|22.22222222222222|
      0x1.1111111111111p222|7.18931911124017e+66|
      0x2.2222222222222p221|7.18931911124017e+66|
      1.00000000000000011102230246251565404236316680908203125|1|
      0x1.00000000000008p0|1|
      1.00000000000000011102230246251565404236316680908203124|1|
      0x1.00000000000007Fp0|1|
      1.00000000000000011102230246251565404236316680908203126|1.0000000000000002|
      0x1.000000000000081p0|1.0000000000000002|
      0x1.00000000000009p0|1.0000000000000002|
      1.00000000000000033306690738754696212708950042724609375|1.0000000000000004|
      0x1.00000000000018p0|1.0000000000000004|
      1090544144181609348671888949248|1.0905441441816093e+30|
      1090544144181609348835077142190|1.0905441441816094e+30|
      1_23.50_0_0e+1_2|1.235e+14|
      -_123.5e+12|0|syntax
      +_123.5e+12|0|syntax
      _123.5e+12|0|syntax
      1__23.5e+12|0|syntax
      123_.5e+12|0|syntax
      123._5e+12|0|syntax
      123.5_e+12|0|syntax
      123.5__0e+12|0|syntax
      123.5e_+12|0|syntax
      123.5e+_12|0|syntax
      123.5e_-12|0|syntax
      123.5e-_12|0|syntax
      123.5e+1__2|0|syntax
      123.5e+12_|0|syntax
      0x_1_2.3_4_5p+1_2|74565|
      -_0x12.345p+12|0|syntax
      +_0x12.345p+12|0|syntax
      _0x12.345p+12|0|syntax
      0x__12.345p+12|0|syntax
      0x1__2.345p+12|0|syntax
      0x12_.345p+12|0|syntax
      0x12._345p+12|0|syntax
      0x12.3__45p+12|0|syntax
      0x12.345_p+12|0|syntax
      0x12.345p_+12|0|syntax
      0x12.345p+_12|0|syntax
      0x12.345p_-12|0|syntax
      0x12.345p-_12|0|syntax
      0x12.345p+1__2|0|syntax
      0x12.345p+12_|0|syntax
      1e100x|0|syntax
      1e1000x|0|syntax
      """)
  void atoftests(String in, String out, String err) {
    check(in, out, err);
  }

  @Test
  void atoftests_built() {
    check("1\u0000.2", "0", "syntax");
    check("2." + "2".repeat(4000) + "e+1", "22.22222222222222", null);
    check("0x2." + "2".repeat(4000) + "p221", "7.18931911124017e+66", null);
    check("1.00000000000000011102230246251565404236316680908203125" + "0".repeat(10000) + "1", "1.0000000000000002",
        null);
    check("0x1.00000000000008" + "0".repeat(10000) + "1p0", "1.0000000000000002", null);
  }

  // ---- atof_test.go roundTripCases (issue 2917)
  @Test
  void roundTripCases() {
    assertThat(GoFloats.parseFloat("4.87402195346389e+27")).isEqualTo(Math.scalb(8865794286000691.0, 39));
    assertThat(GoFloats.parseFloat("4.8740219534638903e+27")).isEqualTo(Math.scalb(8865794286000692.0, 39));
  }

  // ---- atof_test.go TestAtofRandom: every double's text reads back to it
  @Property
  void atofRandom_everyDouble_roundTrips(@ForAll long bits) {
    double x = Double.longBitsToDouble(bits);
    double back = GoFloats.parseFloat(Double.toString(x));
    if (Double.isNaN(x)) {
      assertThat(back).isNaN();
    } else {
      assertThat(back).isEqualTo(x);
    }
  }

  /** What Double.parseDouble takes and Go refuses: spaces, a d or f suffix, and (NaN aside) its spellings only. */
  @Test
  void parseFloat_javaOnlyForms_invalidSyntax() {
    for (String s : new String[] {" 1", "1 ", "1d", "1.5f", "1D", "0x1p1d", "+NaN", "-nan", "infin", "Infinityy",
        "\u0663", "1\u0663", "\uff11.5", "0x1.8", "1_", "1__0"}) {
      assertThatThrownBy(() -> GoFloats.parseFloat(s)).as(s).isInstanceOf(NumberFormatException.class)
          .hasMessageEndingWith(": invalid syntax");
    }
    assertThat(GoFloats.parseFloat("1_000.5")).isEqualTo(1000.5);
    assertThat(GoFloats.parseFloat("inf")).isInfinite();
  }

  @ParameterizedTest
  @CsvSource({"0, 0", "0.5, 0.5", "0.125, 0.125", "0.1, 0.1", "1, 1", "0.3333333333333333, 0.3333333333333333",
      "0.0001, 0.0001", "0.00001, 1e-05", "0.000012345, 1.2345e-05", "123456, 123456", "1000000, 1e+06",
      "1500000, 1.5e+06", "2.5, 2.5", "-0.75, -0.75", "1e-300, 1e-300", "1.7976931348623157e308, 1.7976931348623157e+308",
      "100, 100", "0.625, 0.625"})
  void formatFloat_asGoPercentV(double v, String expected) {
    assertThat(GoFloats.formatFloat(v)).isEqualTo(expected);
  }

  @Test
  void formatFloat_specialValues() {
    assertThat(GoFloats.formatFloat(Double.NaN)).isEqualTo("NaN");
    assertThat(GoFloats.formatFloat(Double.POSITIVE_INFINITY)).isEqualTo("+Inf");
    assertThat(GoFloats.formatFloat(Double.NEGATIVE_INFINITY)).isEqualTo("-Inf");
    assertThat(GoFloats.formatFloat(-0.0)).isEqualTo("-0");
    assertThat(GoFloats.formatFloat(2.0 / 3)).isEqualTo("0.6666666666666666");
  }

  /** Go's shortest form reads back as the same double. */
  @Property
  void formatFloat_readsBack(@ForAll double v) {
    String s = GoFloats.formatFloat(v);
    if (Double.isFinite(v)) {
      assertThat(Double.parseDouble(s)).isEqualTo(v);
      assertThat(s).doesNotContain("E");
    }
  }
}
