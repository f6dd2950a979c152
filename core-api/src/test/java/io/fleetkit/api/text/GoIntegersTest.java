package io.fleetkit.api.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Go's {@code strconv} integer parsing. The tables are golang/go {@code src/strconv/atoi_test.go} (a recent golang/go,
 * as stored in its fork thevilledev/go at 9000edb34c5f17e5f8d0a4b35c996d00db12eaaf), ported as data: {@code
 * parseInt64Tests} 25 of 25 (each run as {@code ParseInt(s, 10, 64)}, as {@code ParseInt(s, 10, 0)} and as {@code
 * Atoi}, as Go's TestParseInt64, TestParseInt and TestAtoi do on a 64-bit platform), {@code parseInt32Tests} 25 of 25
 * ({@code ParseInt(s, 10, 32)}), {@code parseBitSizeTests} 4 of 4 and {@code numErrorTests} 3 of 3 (the quoting of
 * the text in the message). Skipped, 172 cases: {@code parseUint64Tests} (17), {@code parseUint32Tests} (14) and
 * {@code parseUint64BaseTests} (75), because no FleetKit input is read with Go's {@code ParseUint}; {@code
 * parseInt64BaseTests} (60) and {@code parseBaseTests} (6), because every input FleetKit reads with these rules is
 * base 10 (Go's base 0, with its {@code 0x}/{@code 0o}/{@code 0b} prefixes and underscores, and bases 2 to 36 are not
 * offered).
 */
final class GoIntegersTest {

  // ---- atoi_test.go parseInt64Tests: ParseInt(s, 10, 64), ParseInt(s, 10, 0) and Atoi
  @ParameterizedTest(name = "\"{0}\"")
  @CsvSource(delimiter = '|', textBlock = """
      ''|0|syntax
      0|0|
      -0|0|
      +0|0|
      1|1|
      -1|-1|
      +1|1|
      12345|12345|
      -12345|-12345|
      012345|12345|
      -012345|-12345|
      98765432100|98765432100|
      -98765432100|-98765432100|
      9223372036854775807|9223372036854775807|
      -9223372036854775807|-9223372036854775807|
      9223372036854775808|9223372036854775807|range
      -9223372036854775808|-9223372036854775808|
      9223372036854775809|9223372036854775807|range
      -9223372036854775809|-9223372036854775808|range
      -1_2_3_4_5|0|syntax
      -_12345|0|syntax
      _12345|0|syntax
      1__2345|0|syntax
      12345_|0|syntax
      123%45|0|syntax
      """)
  void parseInt64Tests(String in, long out, String err) {
    if (err == null) {
      assertThat(GoIntegers.parseInt(in, 64)).isEqualTo(out);
      assertThat(GoIntegers.parseInt(in, 0)).isEqualTo(out);
      assertThat(GoIntegers.atoi(in)).isEqualTo(out);
      assertThat(GoIntegers.isInt(in, 64)).isTrue();
    } else {
      String reason = err.equals("range") ? "value out of range" : "invalid syntax";
      assertThatThrownBy(() -> GoIntegers.parseInt(in, 64)).isInstanceOf(NumberFormatException.class)
          .hasMessage("strconv.ParseInt: parsing \"" + in + "\": " + reason);
      assertThatThrownBy(() -> GoIntegers.parseInt(in, 0)).isInstanceOf(NumberFormatException.class)
          .hasMessage("strconv.ParseInt: parsing \"" + in + "\": " + reason);
      assertThatThrownBy(() -> GoIntegers.atoi(in)).isInstanceOf(NumberFormatException.class)
          .hasMessage("strconv.Atoi: parsing \"" + in + "\": " + reason);
      assertThat(GoIntegers.isInt(in, 64)).isFalse();
    }
  }

  // ---- atoi_test.go parseInt32Tests: ParseInt(s, 10, 32)
  @ParameterizedTest(name = "\"{0}\"")
  @CsvSource(delimiter = '|', textBlock = """
      ''|0|syntax
      0|0|
      -0|0|
      1|1|
      -1|-1|
      12345|12345|
      -12345|-12345|
      012345|12345|
      -012345|-12345|
      12345x|0|syntax
      -12345x|0|syntax
      987654321|987654321|
      -987654321|-987654321|
      2147483647|2147483647|
      -2147483647|-2147483647|
      2147483648|2147483647|range
      -2147483648|-2147483648|
      2147483649|2147483647|range
      -2147483649|-2147483648|range
      -1_2_3_4_5|0|syntax
      -_12345|0|syntax
      _12345|0|syntax
      1__2345|0|syntax
      12345_|0|syntax
      123%45|0|syntax
      """)
  void parseInt32Tests(String in, int out, String err) {
    if (err == null) {
      assertThat(GoIntegers.parseInt(in, 32)).isEqualTo(out);
      assertThat(GoIntegers.parseInt32(in)).isEqualTo(out);
      assertThat(GoIntegers.atoi32(in)).isEqualTo(out);
      assertThat(GoIntegers.isInt(in, 32)).isTrue();
    } else {
      String reason = err.equals("range") ? "value out of range" : "invalid syntax";
      assertThatThrownBy(() -> GoIntegers.parseInt(in, 32)).isInstanceOf(NumberFormatException.class)
          .hasMessage("strconv.ParseInt: parsing \"" + in + "\": " + reason);
      assertThatThrownBy(() -> GoIntegers.parseInt32(in)).isInstanceOf(NumberFormatException.class)
          .hasMessage("strconv.ParseInt: parsing \"" + in + "\": " + reason);
      assertThatThrownBy(() -> GoIntegers.atoi32(in)).isInstanceOf(NumberFormatException.class)
          .hasMessage("strconv.Atoi: parsing \"" + in + "\": " + reason);
      assertThat(GoIntegers.isInt(in, 32)).isFalse();
    }
  }

  // ---- atoi_test.go parseBitSizeTests (TestParseIntBitSize): -1 and 65 are Go's "invalid bit size"
  @ParameterizedTest(name = "bitSize {0}")
  @CsvSource({"-1,true", "0,false", "64,false", "65,true"})
  void parseBitSizeTests(int bitSize, boolean error) {
    if (error) {
      assertThatThrownBy(() -> GoIntegers.parseInt("0", bitSize)).isInstanceOf(IllegalArgumentException.class)
          .isNotInstanceOf(NumberFormatException.class)
          .hasMessage("strconv.ParseInt: parsing \"0\": invalid bit size " + bitSize);
    } else {
      assertThat(GoIntegers.parseInt("0", bitSize)).isZero();
    }
  }

  // ---- atoi_test.go numErrorTests: the text in a NumError's message is quoted as strconv.Quote does
  @Test
  void numErrorTests_quoteTheText() {
    assertThat(GoIntegers.quote("0")).isEqualTo("\"0\"");
    assertThat(GoIntegers.quote("`")).isEqualTo("\"`\"");
    assertThat(GoIntegers.quote("1\u0000.2")).isEqualTo("\"1\\x00.2\"");
  }

  @Test
  void parseInt_digitsOfOtherScripts_invalidSyntax() {
    // Arabic-Indic three, fullwidth three, N'Ko three, Devanagari three: Integer.parseInt reads each as 3
    for (String s : new String[] {"\u0663", "\uff13", "\u07c3", "\u0969", "1\u0663", "-\uff13", "+\u0663"}) {
      assertThat(Integer.parseInt(s)).as("Java's reading of %s", s).isIn(3, 13, -3);
      assertThatThrownBy(() -> GoIntegers.atoi(s)).isInstanceOf(NumberFormatException.class)
          .hasMessage("strconv.Atoi: parsing \"" + s + "\": invalid syntax");
      assertThat(GoIntegers.isInt(s, 64)).isFalse();
    }
  }

  @Test
  void parseInt_overflowBeforeASyntaxError_outOfRangeAsInGo() {
    // Go's ParseUint stops at the digit that overflows: the 'x' after it is never read
    assertThatThrownBy(() -> GoIntegers.parseInt("99999999999999999999x", 64))
        .hasMessage("strconv.ParseInt: parsing \"99999999999999999999x\": value out of range");
    // below 2^32 the unsigned reading goes on to the 'x' even at 32 bits
    assertThatThrownBy(() -> GoIntegers.parseInt("3000000000x", 32))
        .hasMessage("strconv.ParseInt: parsing \"3000000000x\": invalid syntax");
    assertThatThrownBy(() -> GoIntegers.parseInt("5000000000x", 32))
        .hasMessage("strconv.ParseInt: parsing \"5000000000x\": value out of range");
  }

  @Test
  void parseInt_smallBitSizes_signedRange() {
    assertThat(GoIntegers.parseInt("127", 8)).isEqualTo(127);
    assertThat(GoIntegers.parseInt("-128", 8)).isEqualTo(-128);
    assertThatThrownBy(() -> GoIntegers.parseInt("128", 8)).hasMessageEndingWith("value out of range");
    assertThatThrownBy(() -> GoIntegers.parseInt("-129", 8)).hasMessageEndingWith("value out of range");
    assertThat(GoIntegers.parseInt("-1", 1)).isEqualTo(-1);
    assertThatThrownBy(() -> GoIntegers.parseInt("1", 1)).hasMessageEndingWith("value out of range");
  }

  @Test
  void parseInt_spacesAndControls_invalidSyntaxQuotedAsGo() {
    assertThatThrownBy(() -> GoIntegers.atoi(" 1")).hasMessage("strconv.Atoi: parsing \" 1\": invalid syntax");
    assertThatThrownBy(() -> GoIntegers.atoi("1\n")).hasMessage("strconv.Atoi: parsing \"1\\n\": invalid syntax");
    assertThatThrownBy(() -> GoIntegers.atoi("1\u00a0"))
        .hasMessage("strconv.Atoi: parsing \"1\\u00a0\": invalid syntax");
    assertThatThrownBy(() -> GoIntegers.atoi("\"1\""))
        .hasMessage("strconv.Atoi: parsing \"\\\"1\\\"\": invalid syntax");
  }

  @Test
  void parseInt_null_npe() {
    assertThatThrownBy(() -> GoIntegers.atoi(null)).isInstanceOf(NullPointerException.class);
  }
}
