package io.fleetkit.api.meta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

final class IntOrPercentTest {

  @Test
  void parse_percentOnly_likeKubernetes() {
    assertThat(IntOrPercent.parse("25%")).isEqualTo(IntOrPercent.ofPercent(25));
    assertThatThrownBy(() -> IntOrPercent.parse("3")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(IntOrPercent.PERCENT_RULE);
    assertThat(IntOrPercent.parse("25%").toString()).isEqualTo("25%");
    assertThat(IntOrPercent.of(3).toString()).isEqualTo("3");
  }

  /**
   * Error cases of kubernetes/apimachinery {@code pkg/util/intstr/intstr_test.go} TestGetIntFromIntOrPercent ("%",
   * "90#", "#%", "90") and TestGetIntFromIntOrString ("200", "30%0", "%", "a%", "a", "40#", "40%%"), plus "".
   */
  @ParameterizedTest
  @ValueSource(strings = {"%", "90#", "#%", "90", "200", "30%0", "a%", "a", "40#", "40%%", ""})
  void parse_malformed_rejected(String s) {
    assertThatThrownBy(() -> IntOrPercent.parse(s)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"" + s + "\"");
  }

  /**
   * intstr_test.go TestFromInt and TestFromInt32 (93 is a count) and TestGetIntFromIntOrString's two valid cases
   * (FromInt32(200) is the count 200; "40%" the percentage 40).
   */
  @Test
  void of_andParse_upstreamIntOrStringCases() {
    assertThat(IntOrPercent.of(93)).extracting(IntOrPercent::value, IntOrPercent::percent).containsExactly(93, false);
    assertThat(IntOrPercent.of(200)).extracting(IntOrPercent::value, IntOrPercent::percent)
        .containsExactly(200, false);
    assertThat(IntOrPercent.parse("40%")).extracting(IntOrPercent::value, IntOrPercent::percent)
        .containsExactly(40, true);
  }

  /**
   * Ported from kubernetes/apimachinery {@code pkg/util/intstr/intstr_test.go} TestGetIntFromIntOrPercent (the 4
   * valid cases).
   */
  @ParameterizedTest
  @CsvSource({"123,0,true,123", "90%,100,true,90", "90%,95,true,86", "90%,95,false,85"})
  void scaledValue_upstreamCases(String input, int total, boolean roundUp, int expected) {
    // upstream builds "123" with intstr.FromInt: a count, not a string
    IntOrPercent value = input.endsWith("%") ? IntOrPercent.parse(input) : IntOrPercent.of(Integer.parseInt(input));
    assertThat(value.scaledValue(total, roundUp)).isEqualTo(expected);
  }

  @Property
  void scaledValue_roundUpIsCeilingOfRoundDown(@ForAll @IntRange(max = 1000) int pct,
      @ForAll @IntRange(max = 100_000) int total) {
    IntOrPercent p = IntOrPercent.ofPercent(pct);
    int down = p.scaledValue(total, false);
    int up = p.scaledValue(total, true);
    assertThat(down).isEqualTo((int) Math.floor(pct * (double) total / 100));
    assertThat(up).isEqualTo((int) Math.ceil(pct * (double) total / 100));
  }
}
