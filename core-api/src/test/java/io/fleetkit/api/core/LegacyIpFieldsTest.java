package io.fleetkit.api.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.groups.Tuple.tuple;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.discovery.AddressType;
import io.fleetkit.api.discovery.Endpoint;
import io.fleetkit.api.discovery.EndpointSlice;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.net.IpText;
import io.fleetkit.api.resource.ResourceList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Kubernetes' legacy IP and CIDR fields beyond Endpoints ({@code EndpointsLegacyIpTest}): KEP-4858 lists them, and
 * with {@code StrictIPCIDRValidation} off they take an IPv4 octet with leading zeros (and an IPv4-mapped IPv6 address,
 * bits past a CIDR's prefix) and draw the API server's warnings. Ported: kubernetes {@code pkg/api/service/
 * warnings_test.go} (the stored version whose texts are apimachinery's {@code GetWarningsForIP}/{@code
 * GetWarningsForCIDR}; the index does not show its commit) {@code TestGetWarningsForServiceClusterIPs}, 11 of 11,
 * through {@link Service#warnings()}. FleetKit's own: each kind's fields accept and refuse as upstream's legacy
 * rule does, at upstream's paths, and warn as KEP-4858's examples show.
 */
final class LegacyIpFieldsTest {
  private static final ObjectMeta META = ObjectMeta.of("ns", "svc-test");

  private static List<Violation> violations(Runnable r) {
    return catchThrowableOfType(ValidationException.class, r::run).violations();
  }

  /** Upstream's {@code service(clusterIPs)}: type ClusterIP, clusterIP the first of clusterIPs. */
  private static Service service(String... clusterIPs) {
    ServiceSpec.Builder b = ServiceSpec.builder().selector("app", "web").port(ServicePort.of(80))
        .type(ServiceType.ClusterIP);
    if (clusterIPs.length > 0) {
      b.clusterIP(clusterIPs[0]).clusterIPs(Arrays.asList(clusterIPs));
      b.ipFamilyPolicy(clusterIPs.length > 1 ? IPFamilyPolicy.RequireDualStack : null);
    }
    return Service.of(META, b.build());
  }

  private static final String V4_WARNING = "non-standard IP address \"192.012.2.2\" will be considered invalid in a"
      + " future Kubernetes release: use \"192.12.2.2\"";
  private static final String V6_WARNING = "IPv6 address \"2001:db8:0:0::2\" should be in RFC 5952 canonical format"
      + " (\"2001:db8::2\")";

  /** TestGetWarningsForServiceClusterIPs: the case, the Service, and the warnings as {@code path: text}. */
  static Stream<Arguments> testGetWarningsForServiceClusterIPs() {
    return Stream.of(
        Arguments.of("IPv4 No failures", service("192.12.2.2"), List.of()),
        Arguments.of("IPv6 No failures", service("2001:db8::2"), List.of()),
        Arguments.of("IPv4 with leading zeros", service("192.012.2.2"),
            List.of("spec.clusterIPs[0]: " + V4_WARNING)),
        Arguments.of("Dual Stack IPv4-IPv6 and IPv4 with leading zeros", service("192.012.2.2", "2001:db8::2"),
            List.of("spec.clusterIPs[0]: " + V4_WARNING)),
        Arguments.of("Dual Stack IPv6-IPv4 and IPv4 with leading zeros", service("2001:db8::2", "192.012.2.2"),
            List.of("spec.clusterIPs[1]: " + V4_WARNING)),
        Arguments.of("IPv6 non canonical format", service("2001:db8:0:0::2"),
            List.of("spec.clusterIPs[0]: " + V6_WARNING)),
        Arguments.of("Dual Stack IPv4-IPv6 and IPv6 non-canonical format", service("192.12.2.2", "2001:db8:0:0::2"),
            List.of("spec.clusterIPs[1]: " + V6_WARNING)),
        Arguments.of("Dual Stack IPv6-IPv4 and IPv6 non-canonical formats", service("2001:db8:0:0::2", "192.12.2.2"),
            List.of("spec.clusterIPs[0]: " + V6_WARNING)),
        Arguments.of("Dual Stack IPv4-IPv6 and IPv4 with leading zeros and IPv6 non-canonical format",
            service("192.012.2.2", "2001:db8:0:0::2"),
            List.of("spec.clusterIPs[0]: " + V4_WARNING, "spec.clusterIPs[1]: " + V6_WARNING)),
        Arguments.of("Dual Stack IPv6-IPv4 and IPv4 with leading zeros and IPv6 non-canonical format",
            service("2001:db8:0:0::2", "192.012.2.2"),
            List.of("spec.clusterIPs[0]: " + V6_WARNING, "spec.clusterIPs[1]: " + V4_WARNING)),
        // upstream's type is ClusterIP: its test skips validation, which refuses source ranges on any other type
        // than LoadBalancer; the type changes none of these warnings
        Arguments.of("Service with all IPs fields with errors", Service.of(META, ServiceSpec.builder()
                .selector("app", "web").port(ServicePort.of(80)).type(ServiceType.LoadBalancer)
                .ipFamilyPolicy(IPFamilyPolicy.RequireDualStack)
                .clusterIP("2001:db8:0:0::2").clusterIPs(List.of("2001:db8:0:0::2", "192.012.2.2"))
                .externalIPs(List.of("2001:db8:1:0::2", "10.012.2.2")).loadBalancerIP("10.001.1.1")
                .loadBalancerSourceRanges(List.of("2001:db8:1:0::/64", "10.012.2.0/24")).build()),
            List.of("spec.clusterIPs[0]: " + V6_WARNING,
                "spec.clusterIPs[1]: " + V4_WARNING,
                "spec.externalIPs[0]: IPv6 address \"2001:db8:1:0::2\" should be in RFC 5952 canonical format"
                    + " (\"2001:db8:1::2\")",
                "spec.externalIPs[1]: non-standard IP address \"10.012.2.2\" will be considered invalid in a future"
                    + " Kubernetes release: use \"10.12.2.2\"",
                "spec.loadBalancerIP: non-standard IP address \"10.001.1.1\" will be considered invalid in a future"
                    + " Kubernetes release: use \"10.1.1.1\"",
                "spec.loadBalancerSourceRanges[0]: IPv6 CIDR value \"2001:db8:1:0::/64\" should be in RFC 5952"
                    + " canonical format (\"2001:db8:1::/64\")",
                "spec.loadBalancerSourceRanges[1]: non-standard CIDR value \"10.012.2.0/24\" will be considered"
                    + " invalid in a future Kubernetes release: use \"10.12.2.0/24\"")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void testGetWarningsForServiceClusterIPs(String name, Service service, List<String> want) {
    assertThat(service.warnings()).as(name).extracting(w -> w.field() + ": " + w.rule())
        .containsExactlyElementsOf(want);
    assertThat(service.warnings()).extracting(Violation::object).allMatch("Service ns/svc-test"::equals);
  }

  /** A headless Service's {@code None} is no address to warn of; a {@code clusterIP} alone stands for clusterIPs. */
  @Test
  void warnings_headlessOrClusterIpAlone_asDefaultingLeavesThem() {
    Service headless = Service.of(META, ServiceSpec.builder().selector("app", "web").clusterIP("None").build());
    Service alone = Service.of(META, ServiceSpec.builder().selector("app", "web").port(ServicePort.of(80))
        .clusterIP("010.0.0.1").build());

    assertThat(headless.warnings()).isEmpty();
    assertThat(alone.warnings()).extracting(Violation::field, Violation::value)
        .containsExactly(tuple("spec.clusterIPs[0]", "010.0.0.1"));
  }

  /** The legacy rule takes what {@code ParseIPSloppy}/{@code ParseCIDRSloppy} take, and still refuses the rest. */
  @Test
  void serviceFields_legacyForms_acceptedAndJunkRefused() {
    Service ok = Service.of(META, ServiceSpec.builder().selector("app", "web").port(ServicePort.of(80))
        .type(ServiceType.LoadBalancer).clusterIP("010.000.000.001").externalIPs(List.of("::ffff:10.0.0.9"))
        .loadBalancerIP("010.0.0.2").loadBalancerSourceRanges(List.of("10.0.0.1/8", "192.168.0.0/016")).build());
    assertThat(ok.warnings()).extracting(Violation::field).containsExactly("spec.clusterIPs[0]",
        "spec.externalIPs[0]", "spec.loadBalancerIP", "spec.loadBalancerSourceRanges[0]",
        "spec.loadBalancerSourceRanges[1]");

    List<Violation> bad = violations(() -> Service.of(META, ServiceSpec.builder().selector("app", "web")
        .port(ServicePort.of(80)).type(ServiceType.LoadBalancer).clusterIP("10.0.0.400")
        .externalIPs(List.of("1.2.3.4:80")).loadBalancerIP("myhost").loadBalancerSourceRanges(List.of("1.2.3.4"))
        .build()));
    assertThat(bad).extracting(Violation::field, Violation::rule).containsExactlyInAnyOrder(
        tuple("spec.clusterIP", "must be empty, 'None' or a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"),
        tuple("spec.loadBalancerSourceRanges[0]", IpText.INVALID_CIDR),
        tuple("spec.externalIPs[0]", IpText.INVALID_IP),
        tuple("spec.loadBalancerIP", IpText.INVALID_IP));
  }

  /** A dual-stack pair with an IPv4-mapped address is two IPv4 addresses, as {@code IsIPv6String} reads it. */
  @Test
  void ipFamily_v4MappedAddress_isIpv4() {
    assertThat(IPFamily.of("::ffff:10.0.0.1")).isEqualTo(IPFamily.IPv4);
    assertThat(IPFamily.of("010.0.0.1")).isEqualTo(IPFamily.IPv4);
    assertThat(IPFamily.of("fd00::1")).isEqualTo(IPFamily.IPv6);
    assertThat(violations(() -> service("10.0.0.1", "::ffff:10.0.0.2"))).extracting(Violation::rule)
        .contains("may specify no more than one IP for each IP family");
  }

  /** Pod DNS nameservers and host aliases are legacy fields: accepted sloppily, warned of at their paths. */
  @Test
  void podSpec_nameserversAndHostAliases_legacyWithWarnings() {
    Pod pod = Pod.builder().namespace("default").name("web").container("c", "img", ResourceList.EMPTY)
        .dnsConfig(new PodDNSConfig(List.of("1.2.3.4", "05.06.07.08"), List.of(), List.of()))
        .hostAlias(HostAlias.of("::ffff:1.2.3.4", "db")).build();

    assertThat(pod.spec().warnings("spec")).extracting(w -> w.field() + ": " + w.rule()).containsExactly(
        "spec.dnsConfig.nameservers[1]: non-standard IP address \"05.06.07.08\" will be considered invalid in a"
            + " future Kubernetes release: use \"5.6.7.8\"",
        "spec.hostAliases[0].ip: non-standard IP address \"::ffff:1.2.3.4\" will be considered invalid in a future"
            + " Kubernetes release: use \"1.2.3.4\"");
    assertThat(violations(() -> Pod.builder().namespace("default").name("web")
        .container("c", "img", ResourceList.EMPTY).hostAlias(HostAlias.of("1.2.3.256", "db")).build()))
        .extracting(Violation::field, Violation::rule)
        .containsExactly(tuple("spec.hostAliases[0].ip", IpText.INVALID_IP));
  }

  /** The kubelet's host IPs read node addresses as upstream's {@code GetNodeHostIPs} does ({@code ParseIPSloppy}). */
  @Test
  void nodeHostIps_sloppyAddresses_canonicalAndV4MappedAsIpv4() {
    assertThat(NodeAddress.hostIPs(List.of(new NodeAddress(NodeAddress.INTERNAL_IP, "010.000.000.001"),
        new NodeAddress(NodeAddress.INTERNAL_IP, "::ffff:10.0.0.2"),
        new NodeAddress(NodeAddress.EXTERNAL_IP, "FD00:0::1")))).containsExactly("10.0.0.1", "fd00::1");
    assertThat(NodeAddress.hostIPs(List.of(new NodeAddress(NodeAddress.INTERNAL_IP, "::ffff:10.0.0.2"))))
        .containsExactly("10.0.0.2");
  }

  /** Node pod CIDRs: legacy CIDRs, a dual-stack pair at most, warned of at their index. */
  @Test
  void nodePodCidrs_legacyRuleAndWarnings() {
    Node ok = Node.builder().name("n1").podCIDRs(List.of("10.244.01.0/24", "fd00::1/64")).build();
    assertThat(ok.warnings()).extracting(w -> w.field() + ": " + w.rule()).containsExactly(
        "spec.podCIDRs[0]: non-standard CIDR value \"10.244.01.0/24\" will be considered invalid in a future"
            + " Kubernetes release: use \"10.244.1.0/24\"",
        "spec.podCIDRs[1]: CIDR value \"fd00::1/64\" is ambiguous in this context (should be \"fd00::/64\" or"
            + " \"fd00::1/128\"?)");

    assertThat(violations(() -> Node.builder().name("n1").podCIDRs(List.of("10.0.0.0/33")).build()))
        .extracting(Violation::field, Violation::rule)
        .containsExactly(tuple("spec.podCIDRs[0]", IpText.INVALID_CIDR));
    assertThat(violations(() -> Node.builder().name("n1").podCIDRs(List.of("10.0.0.0/24", "10.1.0.0/24"))
        .build())).extracting(Violation::field, Violation::rule)
        .containsExactly(tuple("spec.podCIDRs", "may specify no more than one CIDR for each IP family"));
  }

  /**
   * EndpointSlice addresses: of the slice's family (an IPv4-mapped address is IPv4), outside the special ranges,
   * read sloppily; warned of unless a controller wrote the slice.
   */
  @Test
  void endpointSliceAddresses_familyRangesAndWarnings() {
    EndpointSlice slice = new EndpointSlice(ObjectMeta.of("default", "web-1"), AddressType.IPv4,
        List.of(Endpoint.of("10.0.0.1"), Endpoint.of("010.0.0.2"), Endpoint.of("::ffff:10.0.0.3")), List.of());
    assertThat(slice.warnings()).extracting(Violation::field, Violation::value).containsExactly(
        tuple("endpoints[1].addresses[0]", "010.0.0.2"), tuple("endpoints[2].addresses[0]", "::ffff:10.0.0.3"));
    EndpointSlice managed = slice.withMetadata(slice.metadata().toBuilder()
        .label(EndpointSlice.LABEL_MANAGED_BY, EndpointSlice.CONTROLLER_NAME).build());
    assertThat(managed.warnings()).isEmpty();

    assertThat(violations(() -> new EndpointSlice(ObjectMeta.of("default", "web-1"), AddressType.IPv6,
        List.of(Endpoint.of("10.0.0.1"), Endpoint.of("::1"), Endpoint.of("fd00::1"), Endpoint.of("x")), List.of())))
        .extracting(Violation::field, Violation::rule).containsExactly(
            tuple("endpoints[0].addresses[0]", IpText.INVALID_IPV6),
            tuple("endpoints[1].addresses[0]", "may not be in the loopback range (127.0.0.0/8, ::1/128)"),
            tuple("endpoints[3].addresses[0]", IpText.INVALID_IPV6));
    assertThat(violations(() -> new EndpointSlice(ObjectMeta.of("default", "web-1"), AddressType.IPv4,
        List.of(Endpoint.of("127.000.000.001")), List.of()))).extracting(Violation::rule)
        .containsExactly("may not be in the loopback range (127.0.0.0/8, ::1/128)");
    // an FQDN slice's addresses are names, not checked as addresses
    assertThat(new EndpointSlice(ObjectMeta.of("default", "web-1"), AddressType.FQDN,
        List.of(Endpoint.of("db.example.com")), List.of()).warnings()).isEmpty();
  }
}
