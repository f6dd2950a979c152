package io.fleetkit.api.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/** Properties of {@link GoIntegers}: Java's readers on ASCII text, and no digit of another script. */
final class GoIntegersPropertiesTest {

  /** ASCII text near the integer grammar: signs, digits, a few letters, spaces and underscores, up to 22 long. */
  @Provide
  Arbitrary<String> asciiText() {
    Arbitrary<String> near = Arbitraries.strings().withChars("+-0123456789 _xe").ofMaxLength(22);
    Arbitrary<String> digits = Arbitraries.strings().withChars("0123456789").ofMinLength(1).ofMaxLength(21)
        .flatMap(d -> Arbitraries.of("", "+", "-").map(sign -> sign + d));
    Arbitrary<String> anyAscii = Arbitraries.strings().ascii().ofMaxLength(22);
    return Arbitraries.oneOf(near, digits, anyAscii);
  }

  @Property
  void parseInt64_asciiText_agreesWithLongParseLong(@ForAll("asciiText") String s) {
    Long java;
    try {
      java = Long.parseLong(s);
    } catch (NumberFormatException e) {
      java = null;
    }
    if (java == null) {
      assertThatThrownBy(() -> GoIntegers.parseInt(s, 64)).isInstanceOf(NumberFormatException.class);
      assertThat(GoIntegers.isInt(s, 64)).isFalse();
    } else {
      assertThat(GoIntegers.parseInt(s, 64)).isEqualTo(java);
      assertThat(GoIntegers.isInt(s, 64)).isTrue();
    }
  }

  @Property
  void parseInt32_asciiText_agreesWithIntegerParseInt(@ForAll("asciiText") String s) {
    Integer java;
    try {
      java = Integer.parseInt(s);
    } catch (NumberFormatException e) {
      java = null;
    }
    if (java == null) {
      assertThatThrownBy(() -> GoIntegers.parseInt32(s)).isInstanceOf(NumberFormatException.class);
    } else {
      assertThat(GoIntegers.parseInt32(s)).isEqualTo(java);
    }
  }

  /** A decimal digit of a script other than ASCII (Arabic-Indic, Devanagari, fullwidth, N'Ko, ... and beyond). */
  @Provide
  Arbitrary<String> otherScriptDigit() {
    return Arbitraries.chars().range('\u0080', '\uffff').filter(Character::isDigit).map(String::valueOf);
  }

  @Property
  void parseInt_anyNonAsciiDigitAnywhere_refused(@ForAll("otherScriptDigit") String digit,
      @ForAll("asciiText") String text, @ForAll @IntRange(min = 0, max = 22) int at,
      @ForAll @IntRange(min = 1, max = 64) int bitSize) {
    String s = text.substring(0, Math.min(at, text.length())) + digit + text.substring(Math.min(at, text.length()));
    assertThat(GoIntegers.isInt(s, bitSize)).isFalse();
    assertThatThrownBy(() -> GoIntegers.parseInt(s, bitSize)).isInstanceOf(NumberFormatException.class)
        .hasMessageStartingWith("strconv.ParseInt: parsing \"")
        .hasMessageFindingMatch(": (invalid syntax|value out of range)$");
  }

  @Property
  void parseInt_onlyOtherScriptDigits_invalidSyntax(@ForAll("otherScriptDigit") String d1,
      @ForAll("otherScriptDigit") String d2) {
    String s = d1 + d2;
    assertThatThrownBy(() -> GoIntegers.atoi(s)).isInstanceOf(NumberFormatException.class)
        .hasMessage("strconv.Atoi: parsing \"" + s + "\": invalid syntax");
  }

  @Property
  void parseInt_everyLong_roundTrips(@ForAll long v) {
    assertThat(GoIntegers.parseInt(Long.toString(v), 64)).isEqualTo(v);
    assertThat(GoIntegers.atoi(Long.toString(v))).isEqualTo(v);
  }
}
