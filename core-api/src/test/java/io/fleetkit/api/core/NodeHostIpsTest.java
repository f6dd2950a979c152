package io.fleetkit.api.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * {@link NodeAddress#hostIPs}: {@code TestGetNodeHostIPs} in kubernetes {@code pkg/util/node/node_test.go} (commit
 * 0f1f1711fe82961f45674e1f551db8c7ae8ab545), 8 of 8 (upstream's error for no host IP is an empty list here), plus
 * canonical text and texts that are not IPs.
 */
final class NodeHostIpsTest {

  private static NodeAddress in(String ip) {
    return new NodeAddress(NodeAddress.INTERNAL_IP, ip);
  }

  private static NodeAddress ex(String ip) {
    return new NodeAddress(NodeAddress.EXTERNAL_IP, ip);
  }

  static Stream<Arguments> upstream() {
    return Stream.of(
        Arguments.of("no addresses", List.of(), List.of()),
        Arguments.of("no InternalIP/ExternalIP", List.of(new NodeAddress(NodeAddress.HOSTNAME, "example.com")),
            List.of()),
        Arguments.of("IPv4-only, simple", List.of(in("1.2.3.4"), ex("4.3.2.1"), ex("4.3.2.2")), List.of("1.2.3.4")),
        Arguments.of("IPv4-only, external-first", List.of(ex("4.3.2.1"), ex("4.3.2.2"), in("1.2.3.4")),
            List.of("1.2.3.4")),
        Arguments.of("IPv4-only, no internal", List.of(ex("4.3.2.1"), ex("4.3.2.2")), List.of("4.3.2.1")),
        Arguments.of("dual-stack node",
            List.of(in("1.2.3.4"), ex("4.3.2.1"), ex("4.3.2.2"), in("a:b::c:d"), ex("d:c::b:a")),
            List.of("1.2.3.4", "a:b::c:d")),
        Arguments.of("dual-stack node, different order",
            List.of(in("1.2.3.4"), in("a:b::c:d"), ex("4.3.2.1"), ex("4.3.2.2"), ex("d:c::b:a")),
            List.of("1.2.3.4", "a:b::c:d")),
        Arguments.of("dual-stack node, IPv6-first, no internal IPv4, dual-stack cluster",
            List.of(in("a:b::c:d"), ex("d:c::b:a"), ex("4.3.2.1"), ex("4.3.2.2")),
            List.of("a:b::c:d", "4.3.2.1")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("upstream")
  void hostIPs_upstreamCases(String name, List<NodeAddress> addresses, List<String> expected) {
    assertThat(NodeAddress.hostIPs(addresses)).containsExactlyElementsOf(expected);
  }

  @Test
  void hostIPs_nonCanonicalIpv6_isPrintedCanonically() {
    assertThat(NodeAddress.hostIPs(List.of(in("2001:DB8:0:0:0:0:0:1"), in("10.0.0.1"))))
        .containsExactly("2001:db8::1", "10.0.0.1");
  }

  @Test
  void hostIPs_textsThatAreNotIps_areSkipped() {
    // upstream reads these with ParseIPSloppy: 10.0.0.01 would be 10.0.0.1 (LegacyIpFieldsTest); 10.0.0.256 is none
    assertThat(NodeAddress.hostIPs(List.of(in("node-1.example.com"), in("10.0.0.256"), ex("203.0.113.9"))))
        .containsExactly("203.0.113.9");
  }

  @Test
  void podStatus_withHostIPs_setsHostIpToTheFirst_andKeepsTheRest() {
    PodStatus s = PodStatus.PENDING.withPodIPs(List.of("10.244.0.2")).withHostIPs(List.of("10.0.0.1", "fd00::1"));
    assertThat(s.hostIP()).isEqualTo("10.0.0.1");
    assertThat(s.hostIPs()).containsExactly("10.0.0.1", "fd00::1");
    assertThat(s.withPhase(PodPhase.Running).hostIPs()).containsExactly("10.0.0.1", "fd00::1");
    assertThat(s.podIPs()).containsExactly("10.244.0.2");
    assertThat(s.withHostIPs(List.of()).hostIP()).isEmpty();
  }
}
