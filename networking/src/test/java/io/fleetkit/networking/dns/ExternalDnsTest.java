package io.fleetkit.networking.dns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.LoadBalancerIngress;
import io.fleetkit.api.core.LoadBalancerStatus;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServiceProtocol;
import io.fleetkit.api.core.ServiceSpec;
import io.fleetkit.api.core.ServiceStatus;
import io.fleetkit.api.core.ServiceType;
import io.fleetkit.api.discovery.AddressType;
import io.fleetkit.api.discovery.Endpoint;
import io.fleetkit.api.discovery.EndpointPort;
import io.fleetkit.api.discovery.EndpointSlice;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * CoreDNS's {@code k8s_external} plugin, ported from coredns/coredns {@code plugin/k8s_external/external_test.go}
 * (commit 01c32383; the plugin's rules from {@code external.go}, {@code msg_to_dns.go}, {@code apex.go} and the
 * {@code kubernetes} plugin's {@code external.go}): TestExternal's table, each case's rcode, answer, authority and
 * additional sections, with zones {@code example.com.} and {@code in-addr.arpa.}, {@code headless} on. Upstream's
 * checker compares an SOA by its name server only; the SOA here is the plugin's
 * ({@code ns1.dns.example.com. hostmaster.dns.example.com.}), as {@code apex.go} builds it. Upstream's svc12 holds the
 * host name {@code dummy.hostname} in its external IPs, which CoreDNS's {@code object.Service} takes from a load
 * balancer's ingress host name (a Service's {@code spec.externalIPs} must be IPs): here the load balancer has it.
 * The CNAME answers stop at the CNAME, as upstream's do when its upstream resolves nothing.
 */
final class ExternalDnsTest {
  private static final ExternalDns DNS = new ExternalDns(List.of("example.com.", "in-addr.arpa."), 5, true,
      List.of("127.0.0.1"));
  private static final String SOA = "example.com.\t5\tIN\tSOA\tns1.dns.example.com. hostmaster.dns.example.com."
      + " 1499347823 7200 1800 86400 5";

  private static Service withExternal(String name, ServiceType type, String clusterIp, List<String> external) {
    return Service.of(ObjectMeta.of("testns", name), ServiceSpec.builder().type(type).clusterIP(clusterIp)
        .clusterIPs(List.of(clusterIp)).externalIPs(external)
        .port(CoreDnsFixtures.port("http", ServiceProtocol.TCP, 80)).build());
  }

  static DnsSnapshot snapshot() {
    Service svc12 = withExternal("svc12", ServiceType.LoadBalancer, "10.0.0.3", List.of()).withStatus(
        new ServiceStatus(new LoadBalancerStatus(List.of(LoadBalancerIngress.ofHostname("dummy.hostname")))));
    List<Service> services = List.of(
        withExternal("svc1", ServiceType.ClusterIP, "10.0.0.1", List.of("1.2.3.4")),
        withExternal("svc6", ServiceType.ClusterIP, "10.0.0.3", List.of("1:2::5")),
        withExternal("svc11", ServiceType.LoadBalancer, "10.0.0.3", List.of("2.3.4.5")),
        svc12,
        CoreDnsFixtures.headless("testns", "svc-headless", true));
    List<Endpoint> eps = new ArrayList<>();
    eps.add(Endpoint.of("1.2.3.4").withHostname("endpoint-svc-0"));
    eps.add(Endpoint.of("1.2.3.5").withHostname("endpoint-svc-1"));
    EndpointSlice slice = new EndpointSlice(ObjectMeta.builder().namespace("testns").name("svc-headless-1")
        .labels(Map.of(EndpointSlice.LABEL_SERVICE_NAME, "svc-headless")).build(), AddressType.IPv4, eps,
        List.of(new EndpointPort("http", 80, ServiceProtocol.TCP, "")));
    return DnsSnapshot.of(services, List.of(slice), Set.of(), CoreDnsFixtures.SERIAL);
  }

  private static List<String> lines(List<DnsRecord> rs) {
    return rs.stream().map(DnsRecord::toString).sorted().toList();
  }

  private static List<String> split(String s) {
    return s.isEmpty() ? List.of() : java.util.Arrays.stream(s.split(";")).map(String::strip).sorted().toList();
  }

  // name | type | rcode | answers (;) | authority | additional
  @ParameterizedTest(name = "{0} {1}")
  @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
      // PTR reverse lookup
      "4.3.2.1.in-addr.arpa. | PTR | NOERROR | 4.3.2.1.in-addr.arpa.\t5\tIN\tPTR\tsvc1.testns.example.com. | | ",
      // Bad PTR reverse lookup using existing service name
      "svc1.testns.example.com. | PTR | NOERROR | | SOA | ",
      // Bad PTR reverse lookup using non-existing service name
      "not-existing.testns.example.com. | PTR | NXDOMAIN | | SOA | ",
      // A Service
      "svc1.testns.example.com. | A | NOERROR | svc1.testns.example.com.\t5\tIN\tA\t1.2.3.4 | | ",
      "svc1.testns.example.com. | SRV | NOERROR | svc1.testns.example.com.\t5\tIN\tSRV\t0 100 80 svc1.testns.example.com."
          + " | | svc1.testns.example.com.\t5\tIN\tA\t1.2.3.4",
      // SRV Service Not udp/tcp
      "*._not-udp-or-tcp.svc1.testns.example.com. | SRV | NXDOMAIN | | SOA | ",
      // SRV Service
      "_http._tcp.svc1.testns.example.com. | SRV | NOERROR | _http._tcp.svc1.testns.example.com.\t5\tIN\tSRV\t0 100 80"
          + " svc1.testns.example.com. | | svc1.testns.example.com.\t5\tIN\tA\t1.2.3.4",
      // AAAA Service (with an existing A record, but no AAAA record)
      "svc1.testns.example.com. | AAAA | NOERROR | | SOA | ",
      // AAAA Service (non-existing service)
      "svc0.testns.example.com. | AAAA | NXDOMAIN | | SOA | ",
      // A Service (non-existing service)
      "svc0.testns.example.com. | A | NXDOMAIN | | SOA | ",
      // A Service (non-existing namespace)
      "svc0.svc-nons.example.com. | A | NXDOMAIN | | SOA | ",
      // AAAA Service
      "svc6.testns.example.com. | AAAA | NOERROR | svc6.testns.example.com.\t5\tIN\tAAAA\t1:2::5 | | ",
      "_http._tcp.svc6.testns.example.com. | SRV | NOERROR | _http._tcp.svc6.testns.example.com.\t5\tIN\tSRV\t0 100 80"
          + " svc6.testns.example.com. | | svc6.testns.example.com.\t5\tIN\tAAAA\t1:2::5",
      "svc6.testns.example.com. | SRV | NOERROR | svc6.testns.example.com.\t5\tIN\tSRV\t0 100 80 svc6.testns.example.com."
          + " | | svc6.testns.example.com.\t5\tIN\tAAAA\t1:2::5",
      "testns.example.com. | A | NOERROR | | SOA | ",
      "testns.example.com. | SOA | NOERROR | | SOA | ",
      // svc11
      "svc11.testns.example.com. | A | NOERROR | svc11.testns.example.com.\t5\tIN\tA\t2.3.4.5 | | ",
      "_http._tcp.svc11.testns.example.com. | SRV | NOERROR | _http._tcp.svc11.testns.example.com.\t5\tIN\tSRV\t0 100"
          + " 80 svc11.testns.example.com. | | svc11.testns.example.com.\t5\tIN\tA\t2.3.4.5",
      "svc11.testns.example.com. | SRV | NOERROR | svc11.testns.example.com.\t5\tIN\tSRV\t0 100 80"
          + " svc11.testns.example.com. | | svc11.testns.example.com.\t5\tIN\tA\t2.3.4.5",
      // svc12
      "svc12.testns.example.com. | A | NOERROR | svc12.testns.example.com.\t5\tIN\tCNAME\tdummy.hostname. | | ",
      "_http._tcp.svc12.testns.example.com. | SRV | NOERROR | _http._tcp.svc12.testns.example.com.\t5\tIN\tSRV\t0 100"
          + " 80 dummy.hostname. | | ",
      "svc12.testns.example.com. | SRV | NOERROR | svc12.testns.example.com.\t5\tIN\tSRV\t0 100 80 dummy.hostname. | | ",
      // headless service
      "svc-headless.testns.example.com. | A | NOERROR | svc-headless.testns.example.com.\t5\tIN\tA\t1.2.3.4;"
          + " svc-headless.testns.example.com.\t5\tIN\tA\t1.2.3.5 | | ",
      "svc-headless.testns.example.com. | SRV | NOERROR | svc-headless.testns.example.com.\t5\tIN\tSRV\t0 50 80"
          + " endpoint-svc-0.svc-headless.testns.example.com.; svc-headless.testns.example.com.\t5\tIN\tSRV\t0 50 80"
          + " endpoint-svc-1.svc-headless.testns.example.com. | | endpoint-svc-0.svc-headless.testns.example.com.\t5\tIN"
          + "\tA\t1.2.3.4; endpoint-svc-1.svc-headless.testns.example.com.\t5\tIN\tA\t1.2.3.5",
      "_http._tcp.svc-headless.testns.example.com. | SRV | NOERROR | _http._tcp.svc-headless.testns.example.com.\t5\tIN"
          + "\tSRV\t0 50 80 endpoint-svc-0.svc-headless.testns.example.com.; _http._tcp.svc-headless.testns.example.com."
          + "\t5\tIN\tSRV\t0 50 80 endpoint-svc-1.svc-headless.testns.example.com. |"
          + " | endpoint-svc-0.svc-headless.testns.example.com.\t5\tIN\tA\t1.2.3.4;"
          + " endpoint-svc-1.svc-headless.testns.example.com.\t5\tIN\tA\t1.2.3.5",
      "endpoint-svc-0.svc-headless.testns.example.com. | SRV | NOERROR | endpoint-svc-0.svc-headless.testns.example.com."
          + "\t5\tIN\tSRV\t0 100 80 endpoint-svc-0.svc-headless.testns.example.com. |"
          + " | endpoint-svc-0.svc-headless.testns.example.com.\t5\tIN\tA\t1.2.3.4",
      "endpoint-svc-1.svc-headless.testns.example.com. | SRV | NOERROR | endpoint-svc-1.svc-headless.testns.example.com."
          + "\t5\tIN\tSRV\t0 100 80 endpoint-svc-1.svc-headless.testns.example.com. |"
          + " | endpoint-svc-1.svc-headless.testns.example.com.\t5\tIN\tA\t1.2.3.5",
      "endpoint-svc-0.svc-headless.testns.example.com. | A | NOERROR | endpoint-svc-0.svc-headless.testns.example.com."
          + "\t5\tIN\tA\t1.2.3.4 | | ",
      "endpoint-svc-1.svc-headless.testns.example.com. | A | NOERROR | endpoint-svc-1.svc-headless.testns.example.com."
          + "\t5\tIN\tA\t1.2.3.5 | | ",
  })
  void testExternal(String qname, RecordType qtype, Rcode rcode, String answers, String authority, String extra) {
    DnsResponse r = DNS.resolve(snapshot(), qname, qtype).orElseThrow();
    assertThat(r.rcode()).isEqualTo(rcode);
    assertThat(lines(r.answers())).isEqualTo(split(answers == null ? "" : answers));
    assertThat(lines(r.authority())).isEqualTo(authority == null ? List.of() : List.of(SOA));
    assertThat(lines(r.additional())).isEqualTo(split(extra == null ? "" : extra));
  }

  /** apex_test.go: the apex's SOA and NS (with the name server's address as glue), and ns1.dns.<zone>. */
  @Test
  void apex_soaNsAndNameServer() {
    DnsSnapshot snap = snapshot();
    DnsResponse soa = DNS.resolve(snap, "example.com.", RecordType.SOA).orElseThrow();
    assertThat(lines(soa.answers())).containsExactly(SOA);
    DnsResponse ns = DNS.resolve(snap, "example.com.", RecordType.NS).orElseThrow();
    assertThat(lines(ns.answers())).containsExactly("example.com.\t5\tIN\tNS\tns1.dns.example.com.");
    assertThat(lines(ns.additional())).containsExactly("ns1.dns.example.com.\t5\tIN\tA\t127.0.0.1");
    assertThat(DNS.resolve(snap, "example.com.", RecordType.A).orElseThrow().authority()).hasSize(1);
    DnsResponse ns1 = DNS.resolve(snap, "ns1.dns.example.com.", RecordType.A).orElseThrow();
    assertThat(lines(ns1.answers())).containsExactly("ns1.dns.example.com.\t5\tIN\tA\t127.0.0.1");
    DnsResponse dnsNode = DNS.resolve(snap, "dns.example.com.", RecordType.A).orElseThrow();
    assertThat(dnsNode.rcode()).isEqualTo(Rcode.NOERROR);
    assertThat(dnsNode.answers()).isEmpty();
    assertThat(DNS.resolve(snap, "ns2.dns.example.com.", RecordType.A).orElseThrow().rcode())
        .isEqualTo(Rcode.NXDOMAIN);
    assertThat(DNS.resolve(snap, "a.ns1.dns.example.com.", RecordType.A).orElseThrow().rcode())
        .isEqualTo(Rcode.NXDOMAIN);
  }

  @Test
  void outsideTheZones_empty() {
    assertThat(DNS.resolve(snapshot(), "svc1.testns.svc.cluster.local.", RecordType.A)).isEmpty();
    assertThat(DNS.zoneOf("a.b.Example.COM")).contains("example.com.");
  }

  @Test
  void constructor_badInput_namesIt() {
    assertThatThrownBy(() -> ExternalDns.of()).hasMessage("k8s_external: at least one zone is needed");
    assertThatThrownBy(() -> ExternalDns.of("a..b")).hasMessage("k8s_external: zone \"a..b\" is not a valid domain"
        + " name");
    assertThatThrownBy(() -> new ExternalDns(List.of("x"), 5, false, List.of("ns1"))).hasMessage(
        "k8s_external: name server address \"ns1\" is not an IP address");
  }
}
