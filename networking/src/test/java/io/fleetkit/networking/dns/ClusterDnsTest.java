package io.fleetkit.networking.dns;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.core.ServiceProtocol;
import io.fleetkit.api.core.ServiceSpec;
import io.fleetkit.api.core.ServiceTargetPort;
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
 * Cases of coredns/coredns {@code plugin/kubernetes/handler_test.go} ({@code dnsTestCases} and
 * {@code commonDnsTestCases}) with the same fixtures; each row: question, type, rcode and the answer (and
 * additional) records in zone-file form. Every NXDOMAIN and NODATA row carries the SOA in authority, as upstream.
 */
final class ClusterDnsTest {
  private static final String SOA =
      "cluster.local.\t5\tIN\tSOA\tns.dns.cluster.local. hostmaster.cluster.local. 1499347823 7200 1800 86400 5";
  private final ClusterDns dns = ClusterDns.standard();
  private final DnsSnapshot snap = CoreDnsFixtures.snapshot();

  private DnsResponse q(String name, String type) {
    return dns.resolve(snap, name, RecordType.parse(type));
  }

  private static List<String> strings(List<DnsRecord> records) {
    return records.stream().map(DnsRecord::toString).toList();
  }

  private static String rr(String name, String type, String data) {
    return name + "\t5\tIN\t" + type + "\t" + data;
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource(delimiter = '|', value = {
      "svc1.testns.svc.cluster.local.|A|A 10.0.0.1",
      "svcempty.testns.svc.cluster.local.|A|A 10.0.0.1",
      "hdls1.testns.svc.cluster.local.|A|A 172.0.0.2;A 172.0.0.3;A 172.0.0.4;A 172.0.0.5",
      "hdlsprtls.testns.svc.cluster.local.|A|A 172.0.0.20",
      "svc6.testns.svc.cluster.local.|AAAA|AAAA 1234:abcd::1",
      "hdls1.testns.svc.cluster.local.|AAAA|AAAA 5678:abcd::1;AAAA 5678:abcd::2",
      "svc-dual-stack.testns.svc.cluster.local.|A|A 10.0.0.3",
      "svc-dual-stack.testns.svc.cluster.local.|AAAA|AAAA 10::3",
      "dup-name.hdls1.testns.svc.cluster.local.|A|A 172.0.0.4;A 172.0.0.5",
      "172-0-0-2.hdls1.testns.svc.cluster.local.|A|A 172.0.0.2",
      "172-0-0-3.hdls1.testns.svc.cluster.local.|A|A 172.0.0.3",
      "172-0-0-20.hdlsprtls.testns.svc.cluster.local.|A|A 172.0.0.20",
      "5678-abcd--1.hdls1.testns.svc.cluster.local.|AAAA|AAAA 5678:abcd::1",
      "5678-abcd--2.hdls1.testns.svc.cluster.local|AAAA|AAAA 5678:abcd::2",
      "external.testns.svc.cluster.local.|CNAME|CNAME ext.interwebs.test.",
  })
  void resolve_existingRecords_answered(String name, String type, String answers) {
    DnsResponse r = q(name, type);
    assertThat(r.rcode()).isEqualTo(Rcode.NOERROR);
    String owner = name.endsWith(".") ? name : name + ".";
    List<String> want = java.util.Arrays.stream(answers.split(";")).map(a -> {
      String[] f = a.split(" ", 2);
      return rr(owner, f[0], f[1]);
    }).toList();
    assertThat(strings(r.answers())).containsExactlyInAnyOrderElementsOf(want);
    assertThat(r.authority()).isEmpty();
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource(delimiter = '|', value = {
      "svc0.testns.svc.cluster.local.|AAAA|NXDOMAIN",
      "svc0.testns.svc.cluster.local.|A|NXDOMAIN",
      "svc0.svc-nons.svc.cluster.local.|A|NXDOMAIN",
      "svc0.svc-nons.svc.cluster.local.|TXT|NXDOMAIN",
      "bogusendpoint.hdls1.testns.svc.cluster.local.|A|NXDOMAIN",
      "bogusendpoint.svc0.testns.svc.cluster.local.|A|NXDOMAIN",
      "foo.cluster.local.|NS|NXDOMAIN",
      "foo.svc.cluster.local.|NS|NXDOMAIN",
      "endpoint.external.testns.svc.cluster.local.|CNAME|NXDOMAIN",
      "subdomain.subdomain.external.testns.svc.cluster.local.|CNAME|NXDOMAIN",
      "svc1.testns.svc.cluster.local.|AAAA|NOERROR",
      "svc1.testns.svc.cluster.local.|TXT|NOERROR",
      "svc.cluster.local.|A|NOERROR",
      "pod.cluster.local.|A|NOERROR",
      "testns.svc.cluster.local.|A|NOERROR",
      "svc.cluster.local.|NS|NOERROR",
      "testns.svc.cluster.local.|NS|NOERROR",
      "svc1.testns.svc.cluster.local.|SOA|NOERROR",
      "svc1.testns.svc.cluster.local.|HINFO|NOERROR",
      "svc0.testns.svc.cluster.local.|HINFO|NXDOMAIN",
      // TestServeNamespaceDNS (every namespace exposed): a namespace that does not exist
      "svc1.nsnoexist.svc.cluster.local.|A|NXDOMAIN",
  })
  void resolve_missingNamesAndTypes_nxdomainOrNodataWithSoa(String name, String type, Rcode rcode) {
    DnsResponse r = q(name, type);
    assertThat(r.rcode()).isEqualTo(rcode);
    assertThat(r.answers()).isEmpty();
    assertThat(strings(r.authority())).containsExactly(SOA);
  }

  @Test
  void resolve_srvClusterIp_targetIsServiceWithAddressExtra() {
    for (String svc : List.of("svc1", "svcempty")) {
      String name = svc + ".testns.svc.cluster.local.";
      DnsResponse all = q(name, "SRV");
      assertThat(strings(all.answers())).containsExactly(rr(name, "SRV", "0 100 80 " + name));
      assertThat(strings(all.additional())).containsExactly(rr(name, "A", "10.0.0.1"));
      DnsResponse named = q("_http._tcp." + name, "SRV");
      assertThat(strings(named.answers())).containsExactly(rr("_http._tcp." + name, "SRV", "0 100 80 " + name));
      assertThat(strings(named.additional())).containsExactly(rr(name, "A", "10.0.0.1"));
    }
    String six = "svc6.testns.svc.cluster.local.";
    assertThat(strings(q(six, "SRV").additional())).containsExactly(rr(six, "AAAA", "1234:abcd::1"));
    assertThat(strings(q("_http._tcp." + six, "SRV").answers())).containsExactly(
        rr("_http._tcp." + six, "SRV", "0 100 80 " + six));
  }

  @Test
  void resolve_srvHeadless_onePerEndpointWeight16DuplicatesDropped() {
    String q = "_http._tcp.hdls1.testns.svc.cluster.local.";
    DnsResponse r = q(q, "SRV");
    String svc = ".hdls1.testns.svc.cluster.local.";
    assertThat(strings(r.answers())).containsExactlyInAnyOrder(
        rr(q, "SRV", "0 16 80 172-0-0-2" + svc), rr(q, "SRV", "0 16 80 172-0-0-3" + svc),
        rr(q, "SRV", "0 16 80 5678-abcd--1" + svc), rr(q, "SRV", "0 16 80 5678-abcd--2" + svc),
        rr(q, "SRV", "0 16 80 dup-name" + svc));
    assertThat(strings(r.additional())).containsExactlyInAnyOrder(
        rr("172-0-0-2" + svc, "A", "172.0.0.2"), rr("172-0-0-3" + svc, "A", "172.0.0.3"),
        rr("5678-abcd--1" + svc, "AAAA", "5678:abcd::1"), rr("5678-abcd--2" + svc, "AAAA", "5678:abcd::2"),
        rr("dup-name" + svc, "A", "172.0.0.4"), rr("dup-name" + svc, "A", "172.0.0.5"));
  }

  @Test
  void resolve_srvDualStack_oneRecordWeight50WithBothAddresses() {
    String name = "svc-dual-stack.testns.svc.cluster.local.";
    DnsResponse r = q(name, "SRV");
    assertThat(strings(r.answers())).containsExactly(rr(name, "SRV", "0 50 80 " + name));
    assertThat(strings(r.additional())).containsExactly(rr(name, "A", "10.0.0.3"), rr(name, "AAAA", "10::3"));
  }

  @Test
  void resolve_dnsVersion_txt() {
    DnsResponse r = q("dns-version.cluster.local.", "TXT");
    assertThat(strings(r.answers())).containsExactly("dns-version.cluster.local.\t28800\tIN\tTXT\t1.1.0");
  }

  @Test
  void resolve_externalNameInsideZone_cnameThenAddress() {
    DnsResponse r = q("external-to-service.testns.svc.cluster.local", "A");
    assertThat(strings(r.answers())).containsExactly(
        rr("external-to-service.testns.svc.cluster.local.", "CNAME", "svc1.testns.svc.cluster.local."),
        rr("svc1.testns.svc.cluster.local.", "A", "10.0.0.1"));
  }

  // handler_test.go dnsTestCases "CNAME External Truncated Lookup": the target outside the zone is looked up upstream
  // (its Upstub answers ext.interwebs.test. A 1.2.3.4, truncated); the answer is the CNAME, then the upstream's
  // records, truncated
  @Test
  void resolve_externalNameOutsideZone_cnameThenTheUpstreamsAnswer() {
    List<String> asked = new ArrayList<>();
    DnsResponse r = dns.resolve(snap, "external.testns.svc.cluster.local.", RecordType.A, (name, type) -> {
      asked.add(name + " " + type);
      return new DnsResponse(Rcode.NOERROR, List.of(new DnsRecord("ext.interwebs.test.", RecordType.A, 5,
          "1.2.3.4")), List.of(), List.of(), true);
    });
    assertThat(r.rcode()).isEqualTo(Rcode.NOERROR);
    assertThat(r.truncated()).isTrue();
    assertThat(r.authority()).isEmpty();
    assertThat(strings(r.answers())).containsExactly(
        rr("external.testns.svc.cluster.local.", "CNAME", "ext.interwebs.test."),
        rr("ext.interwebs.test.", "A", "1.2.3.4"));
    assertThat(asked).containsExactly("ext.interwebs.test. A");
    // without an upstream, or when it has nothing: the CNAME alone, whole
    DnsResponse alone = q("external.testns.svc.cluster.local.", "AAAA");
    assertThat(strings(alone.answers()))
        .containsExactly(rr("external.testns.svc.cluster.local.", "CNAME", "ext.interwebs.test."));
    assertThat(alone.truncated()).isFalse();
    assertThat(strings(dns.resolve(snap, "external.testns.svc.cluster.local.", RecordType.AAAA,
        (name, type) -> DnsResponse.of(Rcode.SERVFAIL)).answers()))
        .containsExactly(rr("external.testns.svc.cluster.local.", "CNAME", "ext.interwebs.test."));
    // the upstream is asked only for a target outside the zone, and only for A and AAAA
    asked.clear();
    dns.resolve(snap, "external-to-service.testns.svc.cluster.local.", RecordType.A, (name, type) -> {
      asked.add(name);
      return DnsResponse.of(Rcode.NOERROR);
    });
    dns.resolve(snap, "external.testns.svc.cluster.local.", RecordType.TXT, (name, type) -> {
      asked.add(name);
      return DnsResponse.of(Rcode.NOERROR);
    });
    assertThat(asked).isEmpty();
  }

  // backend_lookup.go plugin.A: a CNAME inside the zone is given only with records behind it; loops end (the
  // duplicate-target and chain-length checks) in NODATA
  @Test
  void resolve_externalNameChains_loopsAndMissingTargetsNodata() {
    List<Service> services = new ArrayList<>(CoreDnsFixtures.services());
    services.add(CoreDnsFixtures.external("loop-a", "loop-b.testns.svc.cluster.local."));
    services.add(CoreDnsFixtures.external("loop-b", "loop-a.testns.svc.cluster.local."));
    services.add(CoreDnsFixtures.external("self", "self.testns.svc.cluster.local."));
    services.add(CoreDnsFixtures.external("below", "x.below.testns.svc.cluster.local."));
    services.add(CoreDnsFixtures.external("to-missing", "missing.testns.svc.cluster.local."));
    services.add(CoreDnsFixtures.external("two-hops", "external-to-service.testns.svc.cluster.local."));
    DnsSnapshot s = DnsSnapshot.of(services, CoreDnsFixtures.slices(), Set.of(), CoreDnsFixtures.SERIAL);
    for (String name : List.of("loop-a", "self", "below", "to-missing")) {
      DnsResponse r = dns.resolve(s, name + ".testns.svc.cluster.local.", RecordType.A);
      assertThat(r.rcode()).as(name).isEqualTo(Rcode.NOERROR);
      assertThat(r.answers()).as(name).isEmpty();
      assertThat(strings(r.authority())).containsExactly(SOA);
    }
    assertThat(strings(dns.resolve(s, "two-hops.testns.svc.cluster.local.", RecordType.A).answers()))
        .containsExactly(rr("two-hops.testns.svc.cluster.local.", "CNAME",
            "external-to-service.testns.svc.cluster.local."),
            rr("external-to-service.testns.svc.cluster.local.", "CNAME", "svc1.testns.svc.cluster.local."),
            rr("svc1.testns.svc.cluster.local.", "A", "10.0.0.1"));
  }

  // handler_case_test.go TestPreserveCase: matching is case-insensitive and the answer keeps the question's case
  @Test
  void resolve_mixedCase_answerKeepsQuestionCase() {
    DnsResponse nx = q("not-a-service.testns.svc.ClUsTeR.lOcAl.", "A");
    assertThat(nx.rcode()).isEqualTo(Rcode.NXDOMAIN);
    assertThat(strings(nx.authority())).containsExactly("ClUsTeR.lOcAl.\t5\tIN\tSOA\tns.dns.ClUsTeR.lOcAl. "
        + "hostmaster.ClUsTeR.lOcAl. 1499347823 7200 1800 86400 5");
    DnsResponse r = q("SvC1.TeStNs.SvC.cLuStEr.LoCaL.", "A");
    assertThat(strings(r.answers())).containsExactly(rr("SvC1.TeStNs.SvC.cLuStEr.LoCaL.", "A", "10.0.0.1"));
    DnsResponse srv = q("_HtTp._TcP.sVc1.TeStNs.SvC.cLuStEr.LoCaL.", "SRV");
    assertThat(strings(srv.answers())).containsExactly(rr("_HtTp._TcP.sVc1.TeStNs.SvC.cLuStEr.LoCaL.", "SRV",
        "0 100 80 svc1.testns.svc.cLuStEr.LoCaL."));
    assertThat(strings(srv.additional())).containsExactly(rr("svc1.testns.svc.cLuStEr.LoCaL.", "A", "10.0.0.1"));
    assertThat(strings(q("Cluster.local.", "SOA").answers())).containsExactly("Cluster.local.\t5\tIN\tSOA\t"
        + "ns.dns.Cluster.local. hostmaster.Cluster.local. 1499347823 7200 1800 86400 5");
  }

  // kubernetes_apex_test.go TestServeDNSApex: SOA and NS answered at the apex; HINFO, A, AAAA and SRV are NODATA
  // with the SOA
  @Test
  void resolve_apex_soaAndNs() {
    assertThat(strings(q("cluster.local.", "SOA").answers())).containsExactly(SOA);
    assertThat(strings(q("cluster.local.", "NS").answers())).containsExactly(
        rr("cluster.local.", "NS", "ns.dns.cluster.local."));
    for (String type : List.of("HINFO", "A", "AAAA", "SRV")) {
      DnsResponse r = q("cluster.local.", type);
      assertThat(r.rcode()).as(type).isEqualTo(Rcode.NOERROR);
      assertThat(r.answers()).as(type).isEmpty();
      assertThat(strings(r.authority())).as(type).containsExactly(SOA);
    }
  }

  // PTRs on the handler_test fixtures: cluster IP, endpoint without hostname, hostname endpoint, IPv6 endpoint,
  // unknown IP
  @Test
  void resolve_reverse_ptrForClusterIpAndEndpoint() {
    assertThat(strings(q("10.0.0.10.in-addr.arpa.", "PTR").answers())).containsExactly(
        rr("10.0.0.10.in-addr.arpa.", "PTR", "kubedns.kube-system.svc.cluster.local."));
    assertThat(strings(q("100.0.0.172.in-addr.arpa.", "PTR").answers())).containsExactly(
        rr("100.0.0.172.in-addr.arpa.", "PTR", "172-0-0-100.kubedns.kube-system.svc.cluster.local."));
    assertThat(strings(q("4.0.0.172.in-addr.arpa.", "PTR").answers())).containsExactly(
        rr("4.0.0.172.in-addr.arpa.", "PTR", "dup-name.hdls1.testns.svc.cluster.local."));
    assertThat(q("9.9.9.9.in-addr.arpa.", "PTR").rcode()).isEqualTo(Rcode.NXDOMAIN);
    assertThat(strings(q("1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.d.c.b.a.8.7.6.5.ip6.arpa.", "PTR")
        .answers())).containsExactly(rr("1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.d.c.b.a.8.7.6.5.ip6.arpa.",
            "PTR", "5678-abcd--1.hdls1.testns.svc.cluster.local."));
  }

  /** A nibble label in a digit of another script ("\u0665" for 5) named the address as if it were ASCII. */
  @Test
  void resolve_reverseV6WithADigitOfAnotherScript_nxdomain() {
    String name = "1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.d.c.b.a.8.7.6.\u0665.ip6.arpa.";
    assertThat(q(name, "PTR").rcode()).isEqualTo(Rcode.NXDOMAIN);
    assertThat(q(name.replace('\u0665', '5'), "PTR").rcode()).isEqualTo(Rcode.NOERROR);
  }

  // reverse_test.go TestReverse, on its own fixtures (APIConnReverseTest): svc1 at 192.168.1.100; svc1's slices
  // hold 10.0.0.100 (ep1a, in two slices), 10.0.0.99 (double-ep, also in svc2's slice) and three IPv6 endpoints
  private static DnsSnapshot reverseFixtures() {
    EndpointPort http = new EndpointPort("http", 80, ServiceProtocol.TCP, "");
    List<Service> services = List.of(
        Service.of(ObjectMeta.of("testns", "svc1"), ServiceSpec.builder().clusterIP("192.168.1.100")
            .clusterIPs(List.of("192.168.1.100")).port(new ServicePort("http", ServiceProtocol.TCP, 80,
                ServiceTargetPort.of(80), null)).build()),
        Service.of(ObjectMeta.of("testns", "svc2"), ServiceSpec.builder().headless().port(new ServicePort("http",
            ServiceProtocol.TCP, 80, ServiceTargetPort.of(80), null)).build()));
    List<EndpointSlice> slices = List.of(
        reverseSlice("svc1", "svc1-slice1", AddressType.IPv4, http, "10.0.0.100", "ep1a", "10.0.0.99", "double-ep"),
        reverseSlice("svc1", "svc1-slice2", AddressType.IPv6, http, "1234:abcd::1", "ep1b", "fd00:77:30::a",
            "ip6svc1ex", "fd00:77:30::2:9ba6", "ip6svc1in"),
        reverseSlice("svc1", "svc1-ccccc", AddressType.IPv4, http, "10.0.0.100", "ep1a"),
        reverseSlice("svc2", "svc2-slice1", AddressType.IPv4, http, "10.0.0.99", "double-ep"));
    return DnsSnapshot.of(services, slices, Set.of(), CoreDnsFixtures.SERIAL);
  }

  private static EndpointSlice reverseSlice(String svc, String name, AddressType type, EndpointPort port,
      String... ipAndHostname) {
    List<Endpoint> eps = new ArrayList<>();
    for (int i = 0; i < ipAndHostname.length; i += 2) {
      eps.add(Endpoint.of(ipAndHostname[i]).withHostname(ipAndHostname[i + 1]));
    }
    return new EndpointSlice(ObjectMeta.builder().namespace("testns").name(name)
        .labels(Map.of(EndpointSlice.LABEL_SERVICE_NAME, svc)).build(), type, eps, List.of(port));
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource(delimiter = '|', value = {
      "100.0.0.10.in-addr.arpa.|PTR|NOERROR|ep1a.svc1.testns.svc.cluster.local.|",
      "100.1.168.192.in-addr.arpa.|PTR|NOERROR|svc1.testns.svc.cluster.local.|",
      "1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.d.c.b.a.4.3.2.1.ip6.arpa.|PTR|NOERROR"
          + "|ep1b.svc1.testns.svc.cluster.local.|",
      "a.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.3.0.0.7.7.0.0.0.0.d.f.ip6.arpa.|PTR|NOERROR"
          + "|ip6svc1ex.svc1.testns.svc.cluster.local.|",
      "6.a.b.9.2.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.3.0.0.7.7.0.0.0.0.d.f.ip6.arpa.|PTR|NOERROR"
          + "|ip6svc1in.svc1.testns.svc.cluster.local.|",
      "101.0.0.10.in-addr.arpa.|PTR|NXDOMAIN||in-addr.arpa.",
      "example.org.cluster.local.|PTR|NXDOMAIN||cluster.local.",
      "svc1.testns.svc.cluster.local.|PTR|NOERROR||cluster.local.",
      "svc1.testns.svc.0.10.in-addr.arpa.|A|NXDOMAIN||in-addr.arpa.",
      "100.0.0.10.cluster.local.|PTR|NXDOMAIN||cluster.local.",
      "99.0.0.10.in-addr.arpa.|PTR|NOERROR|double-ep.svc1.testns.svc.cluster.local.;"
          + "double-ep.svc2.testns.svc.cluster.local.|",
  })
  void resolve_reverseTestCases(String name, String type, Rcode rcode, String ptrs, String soaZone) {
    DnsResponse r = dns.resolve(reverseFixtures(), name, RecordType.parse(type));
    assertThat(r.rcode()).isEqualTo(rcode);
    List<String> want = new ArrayList<>();
    for (String t : ptrs == null ? new String[0] : ptrs.split(";")) {
      want.add(rr(name, "PTR", t));
    }
    assertThat(strings(r.answers())).containsExactlyInAnyOrderElementsOf(want);
    if (soaZone == null) {
      assertThat(r.authority()).isEmpty();
    } else {
      assertThat(r.authority()).hasSize(1);
      assertThat(r.authority().get(0).toString()).startsWith(soaZone + "\t5\tIN\tSOA\tns.dns." + soaZone + " ");
    }
  }

  @Test
  void resolve_outsideZoneOrTransfer_refused() {
    assertThat(q("example.com.", "A").rcode()).isEqualTo(Rcode.REFUSED);
    assertThat(q("cluster.local.", "AXFR").rcode()).isEqualTo(Rcode.REFUSED);
  }

  @Test
  void resolve_wrongPortLabel_nxdomain() {
    assertThat(q("_https._tcp.svc1.testns.svc.cluster.local.", "SRV").rcode()).isEqualTo(Rcode.NXDOMAIN);
    assertThat(q("_http._udp.svc1.testns.svc.cluster.local.", "SRV").rcode()).isEqualTo(Rcode.NXDOMAIN);
    assertThat(q("_dns._udp.kubedns.kube-system.svc.cluster.local.", "SRV").rcode()).isEqualTo(Rcode.NOERROR);
  }
}
