package io.fleetkit.networking.dns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.ServiceProtocol;
import io.fleetkit.api.discovery.AddressType;
import io.fleetkit.api.discovery.Endpoint;
import io.fleetkit.api.discovery.EndpointPort;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Flags;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.Type;

/**
 * {@link Forwarder}, {@link Upstream} and {@link ForwardPolicy} against real loopback sockets: FleetKit's own
 * {@link DnsServer} serving another zone as the upstream, and {@link ScriptedUpstream}s that answer wrongly or not at
 * all. Ported from coredns/coredns {@code plugin/forward} (commit 4b26cced32717eac6dd725e308d7415c8b9db147):
 * {@code setup_test.go} TestSetup's address rows, {@code setup_policy_test.go} TestSetupPolicy, {@code forward_test.go}
 * TestList and TestForward_DefaultConnectAttemptCap.
 */
final class ForwarderTest {
  static final String ZONE = "example.test";

  /** The upstream's zone: web.shop (10.1.2.3), headless big.shop with 100 endpoints (an answer over 512 bytes). */
  static DnsSnapshot upstreamZone() {
    List<Endpoint> eps = new ArrayList<>();
    for (int i = 1; i <= 100; i++) {
      eps.add(CoreDnsFixtures.ep("10.9.0." + i, ""));
    }
    List<EndpointPort> http = List.of(new EndpointPort("http", 80, ServiceProtocol.TCP, ""));
    return DnsSnapshot.of(List.of(
            CoreDnsFixtures.clusterIp("shop", "web", List.of("10.1.2.3"),
                CoreDnsFixtures.port("http", ServiceProtocol.TCP, 80)),
            CoreDnsFixtures.headless("shop", "big", true)),
        List.of(CoreDnsFixtures.slice("shop", "big", "big-1", AddressType.IPv4, eps, http)), Set.of(), 7);
  }

  static DnsServer upstreamServer() throws Exception {
    DnsSnapshot snap = upstreamZone();
    return DnsServer.builder(() -> snap).dns(new ClusterDns(ZONE, 5)).udpThreads(1).build().start();
  }

  private static Message query(String name, int type, int id) throws Exception {
    Message q = Message.newQuery(Record.newRecord(Name.fromString(name), type, DClass.IN));
    q.getHeader().setID(id);
    return q;
  }

  // setup_test.go TestSetup: the rows about TO addresses (8 of 21)
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "127.0.0.1|127.0.0.1:53",
      "127.0.0.1:53|127.0.0.1:53",
      "127.0.0.1:8080|127.0.0.1:8080",
      "[::1]:53|[::1]:53",
      "[2003::1]:53|[2003::1]:53",
      "'127.0.0.1 '|127.0.0.1:53",
      "::1|[::1]:53",
      // beyond upstream's table
      "dns://10.0.0.53:5353|10.0.0.53:5353",
  })
  void parse_upstreamAddresses_asCoreDnsReadsThem(String text, String want) {
    assertThat(Upstream.parse(text).toString()).isEqualTo(want);
  }

  @Test
  void parse_hostNamesOtherSchemesAndBadPorts_refusedNamingTheText() {
    // TestSetup "forward . a27.0.0.1": CoreDNS tries to resolve it and fails; FleetKit resolves no names
    assertThatThrownBy(() -> Upstream.parse("a27.0.0.1")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("upstream \"a27.0.0.1\" must be IP, IP:PORT or [IPv6]:PORT (a host name is not resolved)");
    assertThatThrownBy(() -> Upstream.parse("tls://9.9.9.9")).hasMessageContaining("only plain DNS is forwarded");
    assertThatThrownBy(() -> Upstream.parse("10.0.0.1:99999")).hasMessage("upstream \"10.0.0.1:99999\": port"
        + " \"99999\" must be a number between 1 and 65535");
    assertThatThrownBy(() -> Upstream.parse("10.0.0.1:0")).hasMessageContaining("port \"0\" must be a number");
    assertThatThrownBy(() -> new Upstream("10.0.0.1", 0)).hasMessage("upstream 10.0.0.1 port 0 must be between 1"
        + " and 65535");
    assertThatThrownBy(() -> Upstream.parse("[::1")).hasMessageContaining("must be IP, IP:PORT");
    List<Upstream> sixteen = new ArrayList<>();
    for (int i = 0; i < 16; i++) {
      sixteen.add(new Upstream("10.0.0." + i, 53));
    }
    assertThatThrownBy(() -> Forwarder.builder(sixteen)).hasMessage("forward upstreams: 16 given, at most 15");
    assertThatThrownBy(() -> Forwarder.builder(List.of())).hasMessage("forward upstreams: at least one is needed");
  }

  // setup_policy_test.go TestSetupPolicy: 4 of 4
  @ParameterizedTest(name = "{0}")
  @CsvSource({"random,RANDOM", "round_robin,ROUND_ROBIN", "sequential,SEQUENTIAL"})
  void parsePolicy_corefileNames(String text, ForwardPolicy want) {
    assertThat(ForwardPolicy.parse(text)).isEqualTo(want);
    assertThat(want.corefileName()).isEqualTo(text);
  }

  @Test
  void parsePolicy_unknown_error() {
    assertThatThrownBy(() -> ForwardPolicy.parse("random2")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unknown policy 'random2': must be random, round_robin or sequential");
  }

  // forward_test.go TestList: round_robin's first list starts at the second upstream
  @Test
  void roundRobin_firstQueryStartsAtTheSecond_thenWraps() {
    List<String> p = List.of("1.1.1.1:53", "2.2.2.2:53", "3.3.3.3:53");
    assertThat(ForwardPolicy.ROUND_ROBIN.order(p, 1, new Random(1)))
        .containsExactly("2.2.2.2:53", "1.1.1.1:53", "3.3.3.3:53");
    assertThat(ForwardPolicy.ROUND_ROBIN.order(p, 2, new Random(1)))
        .containsExactly("3.3.3.3:53", "1.1.1.1:53", "2.2.2.2:53");
    assertThat(ForwardPolicy.ROUND_ROBIN.order(p, 3, new Random(1))).isEqualTo(p);
    assertThat(ForwardPolicy.SEQUENTIAL.order(p, 2, new Random(1))).isEqualTo(p);
  }

  @Property
  void everyPolicy_ordersAPermutation(@ForAll @IntRange(min = 1, max = 15) int n, @ForAll long seed,
      @ForAll @IntRange(min = 0, max = 100) int robin, @ForAll ForwardPolicy policy) {
    List<Integer> p = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      p.add(i);
    }
    List<Integer> o = policy.order(p, robin, new Random(seed));
    assertThat(o).hasSize(n).containsExactlyInAnyOrderElementsOf(p);
  }

  @Test
  void random_everyOrderOccurs() {
    Random r = new Random(42);
    Set<List<String>> seen = new HashSet<>();
    for (int i = 0; i < 600; i++) {
      seen.add(ForwardPolicy.RANDOM.order(List.of("a", "b", "c"), i, r));
    }
    assertThat(seen).hasSize(6);
    Set<List<String>> two = new HashSet<>();
    for (int i = 0; i < 100; i++) {
      two.add(ForwardPolicy.RANDOM.order(List.of("a", "b"), i, r));
    }
    assertThat(two).containsExactlyInAnyOrder(List.of("a", "b"), List.of("b", "a"));
  }

  @Test
  void exchange_upstreamAnswers_relayedWithTheQuerysIdAndAnotherIdOnTheWire() throws Exception {
    try (DnsServer up = upstreamServer()) {
      Forwarder f = Forwarder.builder(List.of(new Upstream("127.0.0.1", up.port()))).build();
      Forwarder.Reply r = f.exchange(query("web.shop.svc.example.test.", Type.A, 0x4242));
      assertThat(r.upstream()).isEqualTo(new Upstream("127.0.0.1", up.port()));
      Message m = new Message(r.response());
      assertThat(m.getHeader().getID()).isEqualTo(0x4242);
      assertThat(m.getHeader().getFlag(Flags.AA)).as("the upstream's flags, as it wrote them").isTrue();
      assertThat(m.getSection(Section.ANSWER)).extracting(Record::rdataToString).containsExactly("10.1.2.3");
      assertThat(f.exchange(query("nope.shop.svc.example.test.", Type.A, 1)).response()).satisfies(b ->
          assertThat(new Message(b).getRcode()).isEqualTo(3));
    }
  }

  @Test
  void resolve_truncatedOverUdp_relayedTruncated_askedAgainOverTcpWithPreferUdp() throws Exception {
    try (DnsServer up = upstreamServer();
        Forwarder plain = Forwarder.builder(List.of(new Upstream("127.0.0.1", up.port()))).build();
        Forwarder f = Forwarder.builder(List.of(new Upstream("127.0.0.1", up.port()))).preferUdp(true).build()) {
      long before = up.queries();
      DnsResponse cut = plain.resolve("big.shop.svc.example.test", RecordType.A);
      assertThat(cut.truncated()).as("a UDP client's question is asked over UDP, TC kept").isTrue();
      assertThat(cut.answers()).hasSizeLessThan(100);
      assertThat(up.queries() - before).isEqualTo(1);
      DnsResponse whole = plain.resolve("big.shop.svc.example.test", RecordType.A, true);
      assertThat(whole.truncated()).as("a TCP client's question is asked over TCP").isFalse();
      assertThat(whole.answers()).hasSize(100);
      assertThat(up.queries() - before).isEqualTo(2);
      before = up.queries();
      DnsResponse r = f.resolve("big.shop.svc.example.test", RecordType.A);
      assertThat(r.rcode()).isEqualTo(Rcode.NOERROR);
      assertThat(r.truncated()).isFalse();
      assertThat(r.answers()).hasSize(100).allSatisfy(a -> assertThat(a.type()).isEqualTo(RecordType.A));
      assertThat(up.queries() - before).as("UDP (truncated), then TCP").isEqualTo(2);
      DnsResponse nx = f.resolve("nope.shop.svc.example.test.", RecordType.TXT);
      assertThat(nx.rcode()).isEqualTo(Rcode.NXDOMAIN);
      assertThat(nx.authority()).extracting(DnsRecord::type).containsExactly(RecordType.SOA);
      assertThat(nx.authority().get(0).data()).startsWith("ns.dns.example.test. hostmaster.example.test. 7 ");
    }
  }

  @Test
  void exchange_otherIdsIgnored_anAnswerToAnotherQuestionIsFormerr() throws Exception {
    // first a datagram with another id (ignored), then the answer
    try (ScriptedUpstream up = new ScriptedUpstream(q -> {
      Message wrong = answer(q, "10.0.0.99");
      wrong.getHeader().setID((wrong.getHeader().getID() + 1) & 0xffff);
      return List.of(wrong.toWire(), answer(q, "10.0.0.1").toWire());
    })) {
      Forwarder f = Forwarder.builder(List.of(up.upstream())).build();
      Message m = new Message(f.exchange(query("a.example.", Type.A, 7)).response());
      assertThat(m.getHeader().getID()).isEqualTo(7);
      assertThat(m.getSection(Section.ANSWER)).extracting(Record::rdataToString).containsExactly("10.0.0.1");
    }
    try (ScriptedUpstream other = new ScriptedUpstream(q -> {
      try {
        Message a = answer(q, "10.0.0.1");
        Message m = new Message(a.getHeader().getID());
        m.getHeader().setFlag(Flags.QR);
        m.addRecord(Record.newRecord(Name.fromString("b.example."), Type.A, DClass.IN), Section.QUESTION);
        return List.of(m.toWire());
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }); ScriptedUpstream second = ScriptedUpstream.silent()) {
      Forwarder f = Forwarder.builder(List.of(other.upstream(), second.upstream())).policy(ForwardPolicy.SEQUENTIAL)
          .build();
      Forwarder.Reply r = f.exchange(query("A.example.", Type.A, 7));
      assertThat(r.response()).isNull();
      assertThat(r.rcode()).isEqualTo(Rcode.FORMERR);
      assertThat(second.received()).as("a wrong answer is not retried elsewhere, as CoreDNS").isEmpty();
    }
  }

  private static Message answer(byte[] q, String ip) {
    try {
      Message query = new Message(q);
      Message m = new Message(query.getHeader().getID());
      m.getHeader().setFlag(Flags.QR);
      m.addRecord(query.getQuestion(), Section.QUESTION);
      m.addRecord(new org.xbill.DNS.ARecord(query.getQuestion().getName(), DClass.IN, 5,
          InetAddress.getByName(ip)), Section.ANSWER);
      return m;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  // forward_test.go TestForward_DefaultConnectAttemptCap (1 and 3 upstreams): two attempts per upstream, then
  // SERVFAIL; max_fails 0 as upstream's (no health checks). Upstream's upstreams refuse TCP connections; these
  // receive and stay silent (each attempt times out)
  @ParameterizedTest(name = "{0} upstreams")
  @CsvSource({"1", "3"})
  void exchange_everyUpstreamSilent_twoAttemptsEachThenServfail(int count) throws Exception {
    List<ScriptedUpstream> ups = new ArrayList<>();
    try {
      for (int i = 0; i < count; i++) {
        ups.add(ScriptedUpstream.silent());
      }
      Forwarder f = Forwarder.builder(ups.stream().map(ScriptedUpstream::upstream).toList()).maxFails(0)
          .readTimeout(Duration.ofMillis(60)).timeout(Duration.ofSeconds(30)).build();
      Forwarder.Reply r = f.exchange(query("a.example.", Type.A, 1));
      assertThat(r.rcode()).isEqualTo(Rcode.SERVFAIL);
      assertThat(r.response()).isNull();
      Thread.sleep(100);
      for (ScriptedUpstream u : ups) {
        assertThat(u.received()).hasSize(Forwarder.ATTEMPTS_PER_UPSTREAM);
        Set<Integer> ids = new HashSet<>();
        u.received().forEach(b -> ids.add(((b[0] & 0xff) << 8) | (b[1] & 0xff)));
        assertThat(ids).as("a fresh id per attempt").hasSize(2);
      }
    } finally {
      ups.forEach(ScriptedUpstream::close);
    }
  }

  @Test
  void exchange_closedPort_failsFastToTheNextUpstream() throws Exception {
    int closed;
    try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
      closed = s.getLocalPort();
    }
    try (DnsServer up = upstreamServer()) {
      Forwarder f = Forwarder.builder(List.of(new Upstream("127.0.0.1", closed), new Upstream("127.0.0.1",
          up.port()))).policy(ForwardPolicy.SEQUENTIAL).readTimeout(Duration.ofSeconds(2)).maxFails(0).build();
      long start = System.nanoTime();
      Forwarder.Reply r = f.exchange(query("web.shop.svc.example.test.", Type.A, 3));
      assertThat(r.upstream()).isEqualTo(new Upstream("127.0.0.1", up.port()));
      assertThat(Duration.ofNanos(System.nanoTime() - start)).as("ICMP port unreachable, no read timeout")
          .isLessThan(Duration.ofMillis(1500));
    }
  }

  @Test
  void exchange_noAttemptStartsAfterTheTimeout() throws Exception {
    try (ScriptedUpstream a = ScriptedUpstream.silent(); ScriptedUpstream b = ScriptedUpstream.silent();
        ScriptedUpstream c = ScriptedUpstream.silent()) {
      Forwarder f = Forwarder.builder(List.of(a.upstream(), b.upstream(), c.upstream()))
          .policy(ForwardPolicy.SEQUENTIAL).readTimeout(Duration.ofMillis(400)).timeout(Duration.ofMillis(600))
          .maxFails(0).build();
      assertThat(f.exchange(query("a.example.", Type.A, 1)).rcode()).isEqualTo(Rcode.SERVFAIL);
      Thread.sleep(100);
      // attempts start at 0 and ~400 ms; at ~800 ms the 600 ms are over
      assertThat(a.received()).hasSize(1);
      assertThat(b.received()).hasSize(1);
      assertThat(c.received()).isEmpty();
    }
  }

  @Test
  void exchange_moreThanMaxConcurrent_refused() throws Exception {
    try (ScriptedUpstream slow = ScriptedUpstream.silent()) {
      Forwarder f = Forwarder.builder(List.of(slow.upstream())).maxConcurrent(1).readTimeout(Duration.ofMillis(800))
          .maxFails(0).build();
      CompletableFuture<Forwarder.Reply> first = CompletableFuture.supplyAsync(() -> {
        try {
          return f.exchange(query("a.example.", Type.A, 1));
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      while (slow.received().isEmpty() && System.nanoTime() < until) {
        Thread.sleep(5);
      }
      assertThat(f.exchange(query("b.example.", Type.A, 2)).rcode()).isEqualTo(Rcode.REFUSED);
      assertThat(first.get(10, TimeUnit.SECONDS).rcode()).isEqualTo(Rcode.SERVFAIL);
    }
  }

  // a hostile upstream: any bytes with the query's id and the response flag either parse into an answer to the
  // question, or the attempt fails; the forwarder never throws
  @Property(tries = 40)
  void exchange_anyBytesFromTheUpstream_answerOrServfailOrFormerr(@ForAll byte[] junk) throws Exception {
    try (ScriptedUpstream up = new ScriptedUpstream(q -> {
      byte[] out = java.util.Arrays.copyOf(junk, Math.max(12, junk.length));
      out[0] = q[0];
      out[1] = q[1];
      out[2] |= (byte) 0x80;
      out[2] &= (byte) ~0x02; // no TC: the TCP retry would find no TCP listener
      return List.of(out);
    })) {
      Forwarder f = Forwarder.builder(List.of(up.upstream())).readTimeout(Duration.ofMillis(300)).maxFails(0)
          .build();
      Forwarder.Reply r = f.exchange(query("a.example.", Type.A, 9));
      if (r.response() != null) {
        Message m = new Message(r.response());
        assertThat(m.getHeader().getID()).isEqualTo(9);
        assertThat(m.getQuestion().getName().toString()).isEqualTo("a.example.");
      } else {
        assertThat(r.rcode()).isIn(Rcode.SERVFAIL, Rcode.FORMERR);
      }
    }
  }
}
