package io.fleetkit.networking.dns;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
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

  // handler_case_test.go: matching is case-insensitive and the answer keeps the question's case
  @Test
  void resolve_mixedCase_answerKeepsQuestionCase() {
    DnsResponse r = q("SVC1.TestNS.svc.cluster.local.", "A");
    assertThat(strings(r.answers())).containsExactly(rr("SVC1.TestNS.svc.cluster.local.", "A", "10.0.0.1"));
  }

  // kubernetes_apex_test.go: SOA and NS at the apex
  @Test
  void resolve_apex_soaAndNs() {
    assertThat(strings(q("cluster.local.", "SOA").answers())).containsExactly(SOA);
    assertThat(strings(q("cluster.local.", "NS").answers())).containsExactly(
        rr("cluster.local.", "NS", "ns.dns.cluster.local."));
    assertThat(q("cluster.local.", "HINFO").rcode()).isEqualTo(Rcode.NOERROR);
    assertThat(strings(q("cluster.local.", "HINFO").authority())).containsExactly(SOA);
  }

  // reverse_test.go: cluster IP and endpoint PTRs; unknown IP NXDOMAIN
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

  @Test
  void resolve_outsideZoneOrTransfer_refused() {
    assertThat(q("example.com.", "A").rcode()).isEqualTo(Rcode.REFUSED);
    assertThat(q("cluster.local.", "AXFR").rcode()).isEqualTo(Rcode.REFUSED);
  }

  // handler_pod_disabled_test.go
  @Test
  void resolve_podRecordsDisabled_nxdomain() {
    assertThat(q("10-240-0-1.podns.pod.cluster.local.", "A").rcode()).isEqualTo(Rcode.NXDOMAIN);
    assertThat(q("172-0-0-2.podns.pod.cluster.local.", "A").rcode()).isEqualTo(Rcode.NXDOMAIN);
  }

  @Test
  void resolve_wrongPortLabel_nxdomain() {
    assertThat(q("_https._tcp.svc1.testns.svc.cluster.local.", "SRV").rcode()).isEqualTo(Rcode.NXDOMAIN);
    assertThat(q("_http._udp.svc1.testns.svc.cluster.local.", "SRV").rcode()).isEqualTo(Rcode.NXDOMAIN);
    assertThat(q("_dns._udp.kubedns.kube-system.svc.cluster.local.", "SRV").rcode()).isEqualTo(Rcode.NOERROR);
  }
}
