package io.fleetkit.networking.dns;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Flags;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.SimpleResolver;
import org.xbill.DNS.Type;

/**
 * {@link DnsServer} with {@link DnsServer.Builder#external}: the external zone answered as CoreDNS's
 * {@code k8s_external} answers it, over the wire (dnsjava, and {@code dig} when the system property
 * {@code fleetkit.dig} names it, as .ci/run sets it), beside the cluster zone.
 */
final class ExternalDnsServerTest {
  private DnsServer server;

  @BeforeEach
  void start() throws Exception {
    DnsSnapshot snap = ExternalDnsTest.snapshot();
    server = DnsServer.builder(() -> snap).external(new ExternalDns(List.of("example.com"), 5, true, List.of()))
        .build().start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private Message ask(String name, int type, boolean tcp) throws Exception {
    SimpleResolver r = new SimpleResolver(InetAddress.getLoopbackAddress());
    r.setPort(server.port());
    r.setTCP(tcp);
    r.setTimeout(Duration.ofSeconds(3));
    return r.send(Message.newQuery(Record.newRecord(Name.fromString(name), type, DClass.IN)));
  }

  @Test
  void externalZone_loadBalancerAndExternalAddresses_authoritative() throws Exception {
    for (boolean tcp : new boolean[] {false, true}) {
      Message lb = ask("svc11.testns.example.com.", Type.A, tcp);
      assertThat(lb.getRcode()).isZero();
      assertThat(lb.getHeader().getFlag(Flags.AA)).isTrue();
      assertThat(lb.getSection(Section.ANSWER)).extracting(Record::rdataToString).containsExactly("2.3.4.5");
      Message host = ask("svc12.testns.example.com.", Type.A, tcp);
      assertThat(host.getSection(Section.ANSWER)).extracting(Record::rdataToString).containsExactly("dummy.hostname.");
      Message nx = ask("svc0.testns.example.com.", Type.A, tcp);
      assertThat(nx.getRcode()).isEqualTo(3);
      assertThat(nx.getSection(Section.AUTHORITY)).extracting(Record::getType).containsExactly(Type.SOA);
    }
    // the cluster zone is still the kubernetes plugin's, and other names are refused (no forwarder)
    assertThat(ask("svc1.testns.svc.cluster.local.", Type.A, false).getSection(Section.ANSWER))
        .extracting(Record::rdataToString).containsExactly("10.0.0.1");
    assertThat(ask("svc1.testns.example.org.", Type.A, false).getRcode()).isEqualTo(5);
  }

  private List<String> dig(String... args) throws Exception {
    return Dig.run(server.port(), 2, args);
  }

  @Test
  void dig_externalZone_answersAsCoreDnsK8sExternal() throws Exception {
    assertThat(dig("svc11.testns.example.com", "A", "+short")).containsExactly("2.3.4.5");
    assertThat(dig("+tcp", "svc6.testns.example.com", "AAAA", "+short")).containsExactly("1:2::5");
    assertThat(dig("_http._tcp.svc1.testns.example.com", "SRV", "+short"))
        .containsExactly("0 100 80 svc1.testns.example.com.");
    assertThat(dig("svc-headless.testns.example.com", "A", "+short")).containsExactlyInAnyOrder("1.2.3.4",
        "1.2.3.5");
    assertThat(String.join("\n", dig("example.com", "SOA"))).contains("status: NOERROR")
        .contains("ns1.dns.example.com. hostmaster.dns.example.com. 1499347823 7200 1800 86400 5");
  }
}
