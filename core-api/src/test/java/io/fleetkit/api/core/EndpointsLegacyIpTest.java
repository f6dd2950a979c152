package io.fleetkit.api.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.fleetkit.api.Violation;
import io.fleetkit.api.core.Endpoints.Address;
import io.fleetkit.api.core.Endpoints.Subset;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.net.IpText;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * An Endpoints address is a legacy IP field: Kubernetes (kubernetes commit 000f26050b9b, whose
 * {@code validateEndpointAddress} calls the apimachinery {@code IsValidIP} of its generation, stored at
 * 19e1ae1d2bb9: {@code ParseIPSloppy}) accepts an IPv4 octet with leading zeros and warns of non-standard forms.
 * Ported:
 * <ul>
 *   <li>apimachinery {@code pkg/util/validation/ip_test.go} (commit 008b3652959c) {@code TestIsValidIP}, its
 *       {@code legacyErr} column (what {@code IsValidIPForLegacyField} without strict validation accepts, which is
 *       what that generation's {@code IsValidIP} does), 24 of 24, through {@link IpText#isIpSloppy} and an Endpoints
 *       address; and {@code TestGetWarningsForIP} 5 of 5 through {@link IpText#legacyWarning}, with the words of
 *       the ported generation ({@code will be considered invalid in a future Kubernetes release}; the test's later
 *       version says {@code is invalid}, with strict validation on);</li>
 *   <li>kubernetes {@code pkg/registry/core/endpoint/strategy_test.go} (the stored version with
 *       {@code Test_endpointsWarning}; the index does not show its commit) 4 of 4 through
 *       {@link Endpoints#warnings()}: the fields warned of, in order.</li>
 * </ul>
 */
final class EndpointsLegacyIpTest {

  /** TestIsValidIP: the address and the legacy column's error (empty: accepted). */
  static Stream<Arguments> testIsValidIP() {
    String bad = IpText.INVALID_IP;
    return Stream.of(
        Arguments.of("ipv4", "1.2.3.4", ""),
        Arguments.of("ipv4, all zeros", "0.0.0.0", ""),
        Arguments.of("ipv4, max", "255.255.255.255", ""),
        Arguments.of("ipv6", "1234::abcd", ""),
        Arguments.of("ipv6, all zeros, collapsed", "::", ""),
        Arguments.of("ipv6, max", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", ""),
        Arguments.of("ipv6, all zeros, expanded (non-canonical)", "0:0:0:0:0:0:0:0", ""),
        Arguments.of("ipv6, leading 0s (non-canonical)", "0001:002:03:4::", ""),
        Arguments.of("ipv6, capital letters (non-canonical)", "1234::ABCD", ""),
        Arguments.of("ipv4 with leading 0s", "1.1.1.01", ""),
        Arguments.of("ipv4-in-ipv6 value", "::ffff:1.1.1.1", ""),
        Arguments.of("empty string", "", bad),
        Arguments.of("junk", "aaaaaaa", bad),
        Arguments.of("domain name", "myhost.mydomain", bad),
        Arguments.of("cidr", "1.2.3.0/24", bad),
        Arguments.of("ipv4 with out-of-range octets", "1.2.3.400", bad),
        Arguments.of("ipv4 with negative octets", "-1.0.0.0", bad),
        Arguments.of("ipv6 with out-of-range segment", "2001:db8::10005", bad),
        Arguments.of("ipv4:port", "1.2.3.4:80", bad),
        Arguments.of("ipv6 with brackets", "[2001:db8::1]", bad),
        Arguments.of("[ipv6]:port", "[2001:db8::1]:80", bad),
        Arguments.of("host:port", "example.com:80", bad),
        Arguments.of("ipv6 with zone", "1234::abcd%eth0", bad),
        Arguments.of("ipv4 with zone", "169.254.0.0%eth0", bad));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void testIsValidIP(String name, String in, String legacyErr) {
    assertThat(IpText.isIpSloppy(in)).as(name).isEqualTo(legacyErr.isEmpty());
    // the same through an Endpoints address: 0.0.0.0 is valid IP text but unspecified, which the address refuses
    List<Violation> got = violations(List.of(Subset.of(List.of(Address.of(in)), List.of())));
    if (legacyErr.isEmpty()) {
      assertThat(got).extracting(Violation::rule).doesNotContain(IpText.INVALID_IP);
    } else {
      assertThat(got).extracting(Violation::field, Violation::rule, Violation::value)
          .containsExactly(tuple("subsets[0].addresses[0].ip", legacyErr, in));
    }
  }

  /** TestGetWarningsForIP: the address and the warning (without the field path, which the Violation carries). */
  static Stream<Arguments> testGetWarningsForIP() {
    return Stream.of(
        Arguments.of("IPv4 No failures", "192.12.2.2", null),
        Arguments.of("IPv6 No failures", "2001:db8::2", null),
        Arguments.of("IPv4 with leading zeros", "192.012.2.2", "non-standard IP address \"192.012.2.2\" will be "
            + "considered invalid in a future Kubernetes release: use \"192.12.2.2\""),
        Arguments.of("IPv4-mapped IPv6", "::ffff:192.12.2.2", "non-standard IP address \"::ffff:192.12.2.2\" will be "
            + "considered invalid in a future Kubernetes release: use \"192.12.2.2\""),
        Arguments.of("IPv6 non-canonical format", "2001:db8:0:0::2",
            "IPv6 address \"2001:db8:0:0::2\" should be in RFC 5952 canonical format (\"2001:db8::2\")"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void testGetWarningsForIP(String name, String address, @Nullable String want) {
    assertThat(IpText.legacyWarning(address)).isEqualTo(want);
  }

  private static List<Violation> violations(List<Subset> subsets) {
    try {
      new Endpoints(ObjectMeta.of("default", "db"), subsets);
      return List.of();
    } catch (io.fleetkit.api.ValidationException e) {
      return e.violations();
    }
  }

  private static Endpoints endpoints(Map<String, String> labels, List<Subset> subsets) {
    return new Endpoints(ObjectMeta.builder().namespace("default").name("db").labels(labels).build(), subsets);
  }

  private static Subset ready(String... ips) {
    return Subset.of(Stream.of(ips).map(Address::of).toList(), List.of());
  }

  /** Test_endpointsWarning "empty Endpoints" and "valid Endpoints". */
  @Test
  void test_endpointsWarning_emptyAndValid_warnOfNothing() {
    assertThat(endpoints(Map.of(), List.of()).warnings()).isEmpty();
    assertThat(endpoints(Map.of(), List.of(ready("1.2.3.4", "fd00::1234"))).warnings()).isEmpty();
  }

  /** Test_endpointsWarning "bad Endpoints": every non-standard address, ready or not, at its field. */
  @Test
  void test_endpointsWarning_badEndpoints_warnAtEachField() {
    Endpoints e = endpoints(Map.of(), List.of(ready("fd00::1234", "01.02.03.04"), ready("::ffff:1.2.3.4"),
        new Subset(List.of(Address.of("1.2.3.4")), List.of(Address.of("::ffff:1.2.3.4")), List.of())));

    assertThat(e.warnings()).extracting(Violation::object, Violation::field, Violation::value).containsExactly(
        tuple("Endpoints default/db", "subsets[0].addresses[1].ip", "01.02.03.04"),
        tuple("Endpoints default/db", "subsets[1].addresses[0].ip", "::ffff:1.2.3.4"),
        tuple("Endpoints default/db", "subsets[2].notReadyAddresses[0].ip", "::ffff:1.2.3.4"));
    assertThat(e.warnings().get(0).rule()).isEqualTo("non-standard IP address \"01.02.03.04\" will be considered "
        + "invalid in a future Kubernetes release: use \"1.2.3.4\"");
  }

  /** Test_endpointsWarning "bad Endpoints ignored because of label": the endpoints controller's objects. */
  @Test
  void test_endpointsWarning_controllersLabel_skipsTheCheck() {
    Endpoints e = endpoints(Map.of(Endpoints.LABEL_MANAGED_BY, Endpoints.CONTROLLER_NAME),
        List.of(ready("fd00::1234", "01.02.03.04")));

    assertThat(e.warnings()).isEmpty();
    assertThat(endpoints(Map.of(Endpoints.LABEL_MANAGED_BY, "someone-else"),
        List.of(ready("01.02.03.04"))).warnings()).hasSize(1);
  }

  /**
   * The special ranges are found on the address as read sloppily: {@code 127.000.000.001} is loopback, and
   * {@code 0169.254.1.1} (169.254.1.1, as decimal) link-local.
   */
  @Test
  void leadingZeros_areReadAsDecimal_forTheSpecialRanges() {
    assertThat(violations(List.of(ready("127.000.000.001")))).extracting(Violation::rule)
        .containsExactly("may not be in the loopback range (127.0.0.0/8, ::1/128)");
    assertThat(violations(List.of(ready("0169.254.1.1")))).extracting(Violation::rule)
        .containsExactly("may not be in the link-local range (169.254.0.0/16, fe80::/10)");
    assertThat(IpText.parseSloppy("010.001.002.003")).containsExactly(10, 1, 2, 3);
    assertThat(IpText.parseSloppy("0000000256.1.1.1")).isNull(); // any number of digits, still at most 255
    assertThat(IpText.parse("010.001.002.003")).isNull(); // the strict parser is unchanged
  }
}
