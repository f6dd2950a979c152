package io.fleetkit.api.store.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

final class ResourceVersionsTest {
  @Test
  void parse_decimalAndEmpty_theirNumbers() {
    assertThat(ResourceVersions.parse("")).isZero();
    assertThat(ResourceVersions.parse("0")).isZero();
    assertThat(ResourceVersions.parse("42")).isEqualTo(42);
  }

  /** Long.parseLong reads the digits of every script: "\u0663" was resourceVersion 3. */
  @Test
  void parse_digitsOfOtherScriptsOrNegative_refused() {
    assertThatThrownBy(() -> ResourceVersions.parse("\u0663")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("resourceVersion must be a decimal number but was \"\u0663\"");
    assertThatThrownBy(() -> ResourceVersions.parse("-1")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("resourceVersion must not be negative but was -1");
  }
}
