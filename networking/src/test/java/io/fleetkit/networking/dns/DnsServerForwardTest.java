package io.fleetkit.networking.dns;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
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
 * The cluster DNS server forwarding names outside its zones (CoreDNS's default Corefile: {@code kubernetes
 * cluster.local in-addr.arpa ip6.arpa} without {@code fallthrough}, then {@code forward . <upstreams>}): the upstream
 * is a second FleetKit {@link DnsServer} on loopback serving {@code example.test} ({@link ForwarderTest#upstreamZone}),
 * asked through dnsjava and through {@code dig} when {@code -Dfleetkit.dig} names it (as {@link DnsServerTest}).
 */
final class DnsServerForwardTest {
  private DnsServer upstream;
  private DnsServer server;

  @BeforeEach
  void start() throws Exception {
    upstream = ForwarderTest.upstreamServer();
    List<io.fleetkit.api.core.Service> services = new ArrayList<>(CoreDnsFixtures.services());
    services.add(CoreDnsFixtures.external("partner", "web.shop.svc.example.test."));
    DnsSnapshot snap = DnsSnapshot.of(services, CoreDnsFixtures.slices(), java.util.Set.of(), CoreDnsFixtures.SERIAL);
    server = DnsServer.builder(() -> snap).dns(ClusterDns.standard().withPods(PodsMode.INSECURE)).forward(Forwarder.builder(List.of(new Upstream("127.0.0.1",
        upstream.port()))).build()).build().start();
  }

  @AfterEach
  void stop() {
    server.close();
    upstream.close();
  }

  private static Message ask(int port, String name, int type, boolean tcp) throws Exception {
    SimpleResolver r = new SimpleResolver(InetAddress.getLoopbackAddress());
    r.setPort(port);
    r.setTCP(tcp);
    r.setTimeout(Duration.ofSeconds(5));
    return r.send(Message.newQuery(Record.newRecord(Name.fromString(name), type, DClass.IN)));
  }

  @Test
  void outsideTheZone_upstreamsAnswerRelayed_udpAndTcp() throws Exception {
    for (boolean tcp : new boolean[] {false, true}) {
      Message m = ask(server.port(), "web.shop.svc.example.test.", Type.A, tcp);
      assertThat(m.getRcode()).isZero();
      assertThat(m.getSection(Section.ANSWER)).extracting(Record::rdataToString).containsExactly("10.1.2.3");
      assertThat(m.getHeader().getFlag(Flags.AA)).as("the upstream's authoritative answer").isTrue();
      Message nx = ask(server.port(), "nope.shop.svc.example.test.", Type.A, tcp);
      assertThat(nx.getRcode()).isEqualTo(3);
      assertThat(nx.getSection(Section.AUTHORITY)).extracting(r -> r.getName().toString())
          .containsExactly("example.test.");
    }
    assertThat(server.cachedAnswers()).as("forwarded answers are not cached").isZero();
  }

  @Test
  void insideTheZones_neverForwarded() throws Exception {
    // the upstream would answer these differently (REFUSED: they are outside its zone); the cluster DNS answers
    assertThat(ask(server.port(), "svc1.testns.svc.cluster.local.", Type.A, false).getRcode()).isZero();
    assertThat(ask(server.port(), "nothere.testns.svc.cluster.local.", Type.A, false).getRcode()).isEqualTo(3);
    assertThat(ask(server.port(), "9.9.9.9.in-addr.arpa.", Type.PTR, false).getRcode()).isEqualTo(3);
    assertThat(ask(server.port(), "10-0-0-1.testns.pod.cluster.local.", Type.A, false)
        .getSection(Section.ANSWER)).extracting(Record::rdataToString).containsExactly("10.0.0.1");
    assertThat(ask(server.port(), "10-0-0-1.nons.pod.cluster.local.", Type.A, false).getRcode()).isEqualTo(3);
    assertThat(upstream.queries()).isZero();
  }

  // CoreDNS's kubernetes plugin asks its upstream (through forward) for an ExternalName target outside the zone
  @Test
  void externalNameOutsideTheZone_cnameThenTheUpstreamsAddresses() throws Exception {
    for (boolean tcp : new boolean[] {false, true}) {
      Message m = ask(server.port(), "partner.testns.svc.cluster.local.", Type.A, tcp);
      assertThat(m.getRcode()).isZero();
      assertThat(m.getHeader().getFlag(Flags.AA)).isTrue();
      assertThat(m.getSection(Section.ANSWER)).extracting(Record::toString).containsExactly(
          "partner.testns.svc.cluster.local.\t5\tIN\tCNAME\tweb.shop.svc.example.test.",
          "web.shop.svc.example.test.\t5\tIN\tA\t10.1.2.3");
    }
    assertThat(upstream.queries()).isEqualTo(2);
    assertThat(server.cachedAnswers()).isZero();
    // AAAA: the upstream has none; the CNAME alone
    Message six = ask(server.port(), "partner.testns.svc.cluster.local.", Type.AAAA, false);
    assertThat(six.getSection(Section.ANSWER)).extracting(Record::getType).containsExactly(Type.CNAME);
    // other ExternalNames, and other types, ask nothing
    ask(server.port(), "external-to-service.testns.svc.cluster.local.", Type.A, false);
    ask(server.port(), "partner.testns.svc.cluster.local.", Type.CNAME, false);
    assertThat(upstream.queries()).isEqualTo(3);
  }

  @Test
  void noForwarder_outsideTheZoneRefused() throws Exception {
    DnsSnapshot snap = CoreDnsFixtures.snapshot();
    try (DnsServer plain = DnsServer.builder(() -> snap).build().start()) {
      Message m = ask(plain.port(), "web.shop.svc.example.test.", Type.A, false);
      assertThat(m.getRcode()).isEqualTo(5);
      assertThat(m.getHeader().getFlag(Flags.AA)).isFalse();
    }
    assertThat(upstream.queries()).isZero();
  }

  @Test
  void noUpstreamAnswers_servfailWithTheQuestion() throws Exception {
    int closed;
    try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
      closed = s.getLocalPort();
    }
    DnsSnapshot snap = CoreDnsFixtures.snapshot();
    try (ScriptedUpstream silent = ScriptedUpstream.silent();
        Forwarder f = Forwarder.builder(List.of(new Upstream("127.0.0.1", closed), silent.upstream()))
            .readTimeout(Duration.ofMillis(200)).build();
        DnsServer s = DnsServer.builder(() -> snap).forward(f).build().start()) {
      Message m = ask(s.port(), "web.shop.svc.example.test.", Type.A, false);
      assertThat(m.getRcode()).isEqualTo(2);
      assertThat(m.getQuestion().getName().toString()).isEqualTo("web.shop.svc.example.test.");
      assertThat(m.getSection(Section.ANSWER)).isEmpty();
      assertThat(silent.queries(q -> !q.isRootProbe())).hasSize(2);
      // each failed attempt starts health checking the upstream (. IN NS)
      ForwarderHealthTest.await(() -> !silent.queries(ScriptedUpstream.Received::isRootProbe).isEmpty());
      // the cluster zone is still answered while forwarding fails
      assertThat(ask(s.port(), "svc1.testns.svc.cluster.local.", Type.A, false).getRcode()).isZero();
    }
  }

  // except: the name is not forwarded, SERVFAIL with the question (CoreDNS: no plugin after forward)
  @Test
  void exceptedName_servfailNothingAsked() throws Exception {
    DnsSnapshot snap = CoreDnsFixtures.snapshot();
    try (Forwarder f = Forwarder.builder(List.of(new Upstream("127.0.0.1", upstream.port())))
            .except(List.of("shop.svc.example.test")).build();
        DnsServer s = DnsServer.builder(() -> snap).forward(f).build().start()) {
      for (boolean tcp : new boolean[] {false, true}) {
        Message m = ask(s.port(), "web.SHOP.svc.example.test.", Type.A, tcp);
        assertThat(m.getRcode()).isEqualTo(2);
        assertThat(m.getQuestion().getName().toString()).isEqualTo("web.SHOP.svc.example.test.");
      }
      assertThat(upstream.queries()).isZero();
      assertThat(ask(s.port(), "x.svc.example.test.", Type.A, false).getRcode()).as("not under the name").isEqualTo(3);
      assertThat(upstream.queries()).isEqualTo(1);
    }
  }

  @Test
  void slowUpstream_holdsNoReceivingThread() throws Exception {
    DnsSnapshot snap = CoreDnsFixtures.snapshot();
    try (ScriptedUpstream silent = ScriptedUpstream.silent();
        Forwarder f = Forwarder.builder(List.of(silent.upstream())).readTimeout(Duration.ofSeconds(3)).build();
        DnsServer s = DnsServer.builder(() -> snap).udpThreads(1).forward(f).build().start()) {
      try (DatagramSocket c = new DatagramSocket()) {
        byte[] q = Message.newQuery(Record.newRecord(Name.fromString("slow.example."), Type.A, DClass.IN)).toWire();
        c.send(new java.net.DatagramPacket(q, q.length, InetAddress.getLoopbackAddress(), s.port()));
      }
      long start = System.nanoTime();
      assertThat(ask(s.port(), "svc1.testns.svc.cluster.local.", Type.A, false).getRcode()).isZero();
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
    }
  }

  private List<String> dig(String... args) throws Exception {
    return Dig.run(server.port(), 5, args);
  }

  @Test
  void dig_forwardedAnswers_truncationAndTcpRetry() throws Exception {
    assertThat(dig("web.shop.svc.example.test", "A", "+short")).containsExactly("10.1.2.3");
    assertThat(dig("+tcp", "web.shop.svc.example.test", "A", "+short")).containsExactly("10.1.2.3");
    assertThat(String.join("\n", dig("nope.shop.svc.example.test", "A"))).contains("status: NXDOMAIN")
        .contains("example.test.\t\t5\tIN\tSOA");
    // 100 addresses: a TCP client's question is asked over TCP (CoreDNS's default: the client's transport), and
    // the client gets all of them
    assertThat(dig("+tcp", "+noedns", "big.shop.svc.example.test", "A", "+short")).hasSize(100);
    // over UDP without EDNS the relayed answer is cut to 512 bytes with TC set
    List<String> cut = dig("+noedns", "+ignore", "big.shop.svc.example.test", "A");
    String flags = cut.stream().filter(l -> l.startsWith(";; flags:")).findFirst().orElseThrow();
    assertThat(flags.substring(0, flags.indexOf(';', 3)).split(" ")).contains("tc");
    // (dnsjava truncates whole RRsets, RFC 2181 9: the 100 addresses are one, left out)
    assertThat(cut.stream().filter(l -> l.startsWith("big.shop.svc.example.test.")).count()).isLessThan(100L);
    // the upstream's truncated UDP answer is relayed truncated, and dig retries over TCP by itself
    assertThat(dig("+noedns", "big.shop.svc.example.test", "A", "+short")).hasSize(100);
    // with EDNS 4096 the answer fits a datagram
    assertThat(dig("+bufsize=4096", "+ignore", "big.shop.svc.example.test", "A", "+short")).hasSize(100);
    // the cluster zone is still the cluster DNS's own, pod names included (pods insecure)
    assertThat(dig("svc1.testns.svc.cluster.local", "A", "+short")).containsExactly("10.0.0.1");
    assertThat(dig("172-0-0-2.testns.pod.cluster.local", "A", "+short")).containsExactly("172.0.0.2");
    assertThat(dig("fd00--2.testns.pod.cluster.local", "AAAA", "+short")).containsExactly("fd00::2");
    // an ExternalName whose target the upstream answers
    assertThat(dig("partner.testns.svc.cluster.local", "A", "+short"))
        .containsExactly("web.shop.svc.example.test.", "10.1.2.3");
  }
}
