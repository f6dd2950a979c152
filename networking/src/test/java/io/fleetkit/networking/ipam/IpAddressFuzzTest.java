package io.fleetkit.networking.ipam;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;

/**
 * Fuzzes {@link IpAddress#parse} and {@link IpPrefix#parse} (Service cluster IPs, endpoint addresses, CIDRs in
 * manifests): any text gives an address or a CIDR written only with the characters the literal forms use, whose
 * canonical form parses back equal (a CIDR contains its first and last address), or an
 * {@link IllegalArgumentException} quoting the text; never another exception. The corpus holds IPv4, IPv6 (with
 * {@code ::} and a trailing dotted quad) and CIDR literals, valid and not (leading zeros, a zone, two {@code ::}).
 */
final class IpAddressFuzzTest {
  @FuzzTest(maxDuration = "30s")
  void parse_anyText_addressOrError(byte[] data) {
    String text = new String(data, StandardCharsets.UTF_8);
    IpAddress a = IpAddress.tryParse(text);
    if (a == null) {
      assertThatThrownBy(() -> IpAddress.parse(text)).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(text);
    } else {
      assertThat(text).matches("[0-9A-Fa-f:.]+");
      assertThat(IpAddress.parse(a.toString())).isEqualTo(a);
      assertThat(IpAddress.parse(text)).isEqualTo(a);
    }
    IpPrefix p;
    try {
      p = IpPrefix.parse(text);
    } catch (IllegalArgumentException e) {
      assertThat(e.getMessage()).contains(text);
      return;
    }
    assertThat(text).matches("[0-9A-Fa-f:.]+/[0-9]+");
    assertThat(IpPrefix.parse(p.toString())).isEqualTo(p);
    assertThat(p.contains(p.network())).isTrue();
    assertThat(p.contains(p.last())).isTrue();
  }
}
