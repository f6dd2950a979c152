package io.fleetkit.api.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The legacy CIDR fields' rule and warnings: ported from apimachinery {@code pkg/util/validation/ip_test.go}
 * (kubernetes {@code staging/src/k8s.io/apimachinery}, commit 73ac13864314), {@code TestIsValidCIDR} in its
 * {@code legacyErr} column ({@code IsValidCIDRForLegacyField} with strict validation off, what
 * {@link IpText#isCidrSloppy} is) and {@code TestGetWarningsForCIDR} ({@link IpText#cidrLegacyWarnings}, which leaves
 * the field path to its caller: upstream's {@code spec.loadBalancerSourceRanges[0]: } prefix is not part of the
 * text here).
 */
final class IpTextLegacyCidrTest {

  /** TestIsValidCIDR: the case, the value and the legacy column's error (empty: accepted). */
  static Stream<Arguments> testIsValidCIDR() {
    String bad = IpText.INVALID_CIDR;
    return Stream.of(
        // GOOD VALUES
        Arguments.of("ipv4", "1.0.0.0/8", ""),
        Arguments.of("ipv4, all IPs", "0.0.0.0/0", ""),
        Arguments.of("ipv4, single IP", "1.1.1.1/32", ""),
        Arguments.of("ipv6", "2001:4860:4860::/48", ""),
        Arguments.of("ipv6, all IPs", "::/0", ""),
        Arguments.of("ipv6, single IP", "::1/128", ""),
        // NON-CANONICAL VALUES
        Arguments.of("ipv6, extra 0s (non-canonical)", "2a00:79e0:2:0::/64", ""),
        Arguments.of("ipv6, capital letters (non-canonical)", "2001:DB8::/64", ""),
        // GOOD WITH LEGACY VALIDATION, BAD WITH STRICT VALIDATION
        Arguments.of("ipv4 with leading 0s", "1.1.01.0/24", ""),
        Arguments.of("ipv4-in-ipv6 with ipv4-sized prefix", "::ffff:1.1.1.0/24", ""),
        Arguments.of("ipv4-in-ipv6 with ipv6-sized prefix", "::ffff:1.1.1.0/120", ""),
        Arguments.of("ipv4 ifaddr", "1.2.3.4/24", ""),
        Arguments.of("ipv6 ifaddr", "2001:db8::1/64", ""),
        Arguments.of("prefix length with leading 0s", "192.168.0.0/016", ""),
        // BAD VALUES
        Arguments.of("empty string", "", bad),
        Arguments.of("junk", "aaaaaaa", bad),
        Arguments.of("IP address", "1.2.3.4", bad),
        Arguments.of("partial URL", "192.168.0.1/healthz", bad),
        Arguments.of("partial URL 2", "192.168.0.1/0/99", bad),
        Arguments.of("negative prefix length", "192.168.0.0/-16", bad),
        Arguments.of("prefix length with sign", "192.168.0.0/+16", bad));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void testIsValidCIDR(String name, String in, String legacyErr) {
    assertThat(IpText.isCidrSloppy(in)).as(name).isEqualTo(legacyErr.isEmpty());
    if (!legacyErr.isEmpty()) {
      assertThat(IpText.cidrLegacyWarnings(in)).as("no warning for what is refused").isEmpty();
    }
  }

  /** TestGetWarningsForCIDR: the case, the value and the warnings, in order. */
  static Stream<Arguments> testGetWarningsForCIDR() {
    return Stream.of(
        Arguments.of("IPv4 No failures", "192.12.2.0/24", List.of()),
        Arguments.of("IPv6 No failures", "2001:db8::/64", List.of()),
        Arguments.of("IPv4 with leading zeros", "192.012.2.0/24", List.of(
            "non-standard CIDR value \"192.012.2.0/24\" will be considered invalid in a future Kubernetes release:"
                + " use \"192.12.2.0/24\"")),
        Arguments.of("leading zeros in prefix length", "192.12.2.0/024", List.of(
            "non-standard CIDR value \"192.12.2.0/024\" will be considered invalid in a future Kubernetes release:"
                + " use \"192.12.2.0/24\"")),
        Arguments.of("IPv4-mapped IPv6", "::ffff:192.12.2.0/120", List.of(
            "non-standard CIDR value \"::ffff:192.12.2.0/120\" will be considered invalid in a future Kubernetes"
                + " release: use \"192.12.2.0/24\"")),
        Arguments.of("bits after prefix length", "192.12.2.8/24", List.of(
            "CIDR value \"192.12.2.8/24\" is ambiguous in this context (should be \"192.12.2.0/24\" or"
                + " \"192.12.2.8/32\"?)")),
        Arguments.of("multiple problems", "192.012.2.8/24", List.of(
            "CIDR value \"192.012.2.8/24\" is ambiguous in this context (should be \"192.12.2.0/24\" or"
                + " \"192.12.2.8/32\"?)",
            "non-standard CIDR value \"192.012.2.8/24\" will be considered invalid in a future Kubernetes release:"
                + " use \"192.12.2.0/24\"")),
        Arguments.of("IPv6 non-canonical format", "2001:db8:0:0::/64", List.of(
            "IPv6 CIDR value \"2001:db8:0:0::/64\" should be in RFC 5952 canonical format (\"2001:db8::/64\")")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void testGetWarningsForCIDR(String name, String cidr, List<String> want) {
    assertThat(IpText.isCidrSloppy(cidr)).as("a legacy CIDR").isTrue();
    assertThat(IpText.cidrLegacyWarnings(cidr)).as(name).containsExactlyElementsOf(want);
  }

  /** What the strict check takes the sloppy one takes too, and its canonical IPv4 text draws no warning. */
  @Property
  void cidrSloppy_acceptsEveryStrictCidr_andCanonicalIpv4SubnetsHaveNoWarnings(
      @ForAll @IntRange(min = 0, max = 255) int a, @ForAll @IntRange(min = 0, max = 255) int b,
      @ForAll @IntRange(min = 0, max = 32) int prefix) {
    byte[] address = {(byte) a, (byte) b, 0, 0};
    long bits = ((long) a << 24 | (long) b << 16) & (prefix == 0 ? 0 : 0xffffffffL << (32 - prefix));
    String subnet = IpText.format(new byte[] {(byte) (bits >>> 24), (byte) (bits >>> 16), 0, 0}) + "/" + prefix;
    String cidr = IpText.format(address) + "/" + prefix;
    assertThat(IpText.isCidr(cidr)).isTrue();
    assertThat(IpText.isCidrSloppy(cidr)).isTrue();
    assertThat(IpText.cidrLegacyWarnings(subnet)).isEmpty();
    // the same subnet with leading zeros is accepted and named as the value to use
    String padded = String.format("%03d.%03d.000.000/%02d", bits >>> 24 & 255, bits >>> 16 & 255, prefix);
    assertThat(IpText.isCidrSloppy(padded)).isTrue();
    assertThat(IpText.cidrLegacyWarnings(padded)).last().asString().endsWith("use \"" + subnet + "\"");
  }
}
