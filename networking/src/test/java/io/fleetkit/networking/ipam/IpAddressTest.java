package io.fleetkit.networking.ipam;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** IP and CIDR literals as Go's {@code net.ParseIP} and {@code ParseCIDR} read them: ASCII only. */
final class IpAddressTest {
  /**
   * Fuzz finding (IpAddressFuzzTestInputs/v6-nko-digit, "::\u07c22"): {@link Character#digit} and
   * {@link Character#isDigit} take the digits of every script, so "::٣" was ::3.
   */
  @Test
  void parse_digitsOfOtherScripts_refused() {
    assertThat(IpAddress.tryParse("::\u0663")).isNull(); // ARABIC-INDIC DIGIT THREE
    assertThat(IpAddress.tryParse("::\u07c22")).isNull(); // NKO DIGIT TWO, then 2
    assertThat(IpAddress.tryParse("fe80::\uff21")).isNull(); // FULLWIDTH LATIN CAPITAL LETTER A
    assertThatThrownBy(() -> IpPrefix.parse("10.0.0.0/\u0662\u0664")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is not a valid CIDR");
    assertThat(IpAddress.parse("::3")).isEqualTo(IpAddress.parse("0:0:0:0:0:0:0:3"));
    assertThat(IpPrefix.parse("10.0.0.0/24").prefixLength()).isEqualTo(24);
  }
}
