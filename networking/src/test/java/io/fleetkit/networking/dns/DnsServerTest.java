package io.fleetkit.networking.dns;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
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
 * The DNS server on a loopback port: answers through a real resolver (dnsjava over UDP and TCP) and through
 * {@code dig} when the system property {@code fleetkit.dig} names it (set by .ci/run; the dig tests are skipped
 * when it is unset and fail when it is set but dig does not run), plus hostile input: malformed packets, names
 * over 255 bytes, a flood.
 */
final class DnsServerTest {
  private DnsServer server;

  @BeforeEach
  void start() throws Exception {
    DnsSnapshot snap = CoreDnsFixtures.snapshot();
    server = DnsServer.builder(() -> snap).build().start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private SimpleResolver resolver(boolean tcp) throws Exception {
    SimpleResolver r = new SimpleResolver(InetAddress.getLoopbackAddress());
    r.setPort(server.port());
    r.setTCP(tcp);
    r.setTimeout(Duration.ofSeconds(3));
    return r;
  }

  private Message ask(String name, int type, boolean tcp) throws Exception {
    return resolver(tcp).send(Message.newQuery(Record.newRecord(Name.fromString(name), type, DClass.IN)));
  }

  @Test
  void query_udpAndTcp_sameAnswers() throws Exception {
    for (boolean tcp : new boolean[] {false, true}) {
      Message m = ask("svc1.testns.svc.cluster.local.", Type.A, tcp);
      assertThat(m.getRcode()).isZero();
      assertThat(m.getHeader().getFlag(Flags.AA)).isTrue();
      assertThat(m.getSection(Section.ANSWER)).extracting(Record::rdataToString).containsExactly("10.0.0.1");
      Message nx = ask("svc0.testns.svc.cluster.local.", Type.A, tcp);
      assertThat(nx.getRcode()).isEqualTo(3);
      assertThat(nx.getSection(Section.AUTHORITY)).extracting(Record::getType).containsExactly(Type.SOA);
    }
    Message srv = ask("_http._tcp.hdls1.testns.svc.cluster.local.", Type.SRV, false);
    assertThat(srv.getSection(Section.ANSWER)).hasSize(5);
    assertThat(srv.getSection(Section.ADDITIONAL)).filteredOn(r -> r.getType() != Type.OPT).hasSize(6);
  }

  /** A query's wire form with {@code id}, optionally with an EDNS record of payload size {@code edns}. */
  private static byte[] query(String name, int type, int id, int edns) throws Exception {
    Message q = Message.newQuery(Record.newRecord(Name.fromString(name), type, DClass.IN));
    q.getHeader().setID(id);
    if (edns > 0) {
      q.addRecord(new org.xbill.DNS.OPTRecord(edns, 0, 0), Section.ADDITIONAL);
    }
    return q.toWire();
  }

  @Test
  void repeatedQuery_cachedAnswerCarriesEachQuerysIdAndEqualsTheResolvedOne() throws Exception {
    byte[] first = query("_http._tcp.hdls1.testns.svc.cluster.local.", Type.SRV, 0x0101, 0);
    byte[] resolved = server.answer(first, first.length, true);
    assertThat(server.cachedAnswers()).isEqualTo(1);
    byte[] second = query("_http._tcp.hdls1.testns.svc.cluster.local.", Type.SRV, 0x7f7f, 0);
    byte[] cached = server.answer(second, second.length, true);
    assertThat(server.cachedAnswers()).isEqualTo(1);
    assertThat(new Message(cached).getHeader().getID()).isEqualTo(0x7f7f);
    assertThat(java.util.Arrays.copyOfRange(cached, 2, cached.length))
        .isEqualTo(java.util.Arrays.copyOfRange(resolved, 2, resolved.length));
    // 512 bytes without EDNS: truncated; with EDNS 4096 the same question is another entry, not truncated
    assertThat(new Message(cached).getHeader().getFlag(Flags.TC)).isEqualTo(resolved.length >= 500);
    byte[] big = query("_http._tcp.hdls1.testns.svc.cluster.local.", Type.SRV, 9, 4096);
    Message m = new Message(server.answer(big, big.length, true));
    assertThat(m.getHeader().getFlag(Flags.TC)).isFalse();
    assertThat(m.getSection(Section.ANSWER)).hasSize(5);
    assertThat(server.cachedAnswers()).isEqualTo(2);
    // the question is echoed as asked: another case is another entry
    byte[] upper = query("SVC1.testns.svc.cluster.local.", Type.A, 3, 0);
    Message u = new Message(server.answer(upper, upper.length, true));
    assertThat(u.getQuestion().getName().toString()).isEqualTo("SVC1.testns.svc.cluster.local.");
    assertThat(u.getSection(Section.ANSWER)).extracting(Record::rdataToString).containsExactly("10.0.0.1");
  }

  @Test
  void newSnapshot_cachedAnswersDropped() throws Exception {
    java.util.concurrent.atomic.AtomicReference<DnsSnapshot> snap =
        new java.util.concurrent.atomic.AtomicReference<>(CoreDnsFixtures.snapshot());
    try (DnsServer s = DnsServer.builder(snap::get).build()) {
      byte[] q = query("svc1.testns.svc.cluster.local.", Type.A, 1, 0);
      assertThat(new Message(s.answer(q, q.length, true)).getRcode()).isZero();
      assertThat(new Message(s.answer(q, q.length, true)).getRcode()).isZero();
      snap.set(DnsSnapshot.empty());
      assertThat(new Message(s.answer(q, q.length, true)).getRcode()).isEqualTo(3); // NXDOMAIN now
      assertThat(s.cachedAnswers()).isEqualTo(1);
    }
  }

  @Test
  void queriesNotPlain_neverCached() throws Exception {
    byte[] q = query("svc1.testns.svc.cluster.local.", Type.A, 1, 0);
    byte[] response = q.clone();
    response[2] |= (byte) 0x80; // QR: a response is dropped
    assertThat(server.answer(response, response.length, true)).isNull();
    byte[] trailing = java.util.Arrays.copyOf(q, q.length + 3); // bytes after the question
    server.answer(trailing, trailing.length, true);
    byte[] formerr = {0x12, 0x34, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 5, 'a', 'b', 'c', 0, 0, 1, 0, 1};
    formerr[12] = 9; // a label running past the end
    server.answer(formerr, formerr.length, true);
    assertThat(server.cachedAnswers()).isZero();
  }

  @Test
  void malformedPacket_formerrAndServerKeepsAnswering() throws Exception {
    try (DatagramSocket s = new DatagramSocket()) {
      s.setSoTimeout(3000);
      // a header announcing one question, then a label cut short
      byte[] junk = {0x12, 0x34, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 5, 'a', 'b', 'c'};
      s.send(new DatagramPacket(junk, junk.length, new InetSocketAddress(InetAddress.getLoopbackAddress(),
          server.port())));
      DatagramPacket p = new DatagramPacket(new byte[512], 512);
      s.receive(p);
      Message m = new Message(java.util.Arrays.copyOf(p.getData(), p.getLength()));
      assertThat(m.getHeader().getID()).isEqualTo(0x1234);
      assertThat(m.getRcode()).isEqualTo(1); // FORMERR
      byte[] tiny = {1, 2, 3};
      s.send(new DatagramPacket(tiny, tiny.length, new InetSocketAddress(InetAddress.getLoopbackAddress(),
          server.port())));
    }
    assertThat(server.malformed()).isGreaterThanOrEqualTo(1);
    assertThat(ask("svc1.testns.svc.cluster.local.", Type.A, false).getRcode()).isZero();
  }

  @Test
  void nameLongerThan255Bytes_formerrWithoutHarm() throws Exception {
    // hand-built wire query: 5 labels of 63 bytes = 320 bytes of name, more than DNS allows
    java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
    b.write(new byte[] {0x43, 0x21, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0});
    for (int i = 0; i < 5; i++) {
      b.write(63);
      b.write("a".repeat(63).getBytes(StandardCharsets.US_ASCII));
    }
    b.write(new byte[] {0, 0, 1, 0, 1});
    byte[] q = b.toByteArray();
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
      s.setSoTimeout(3000);
      DataOutputStream out = new DataOutputStream(s.getOutputStream());
      out.writeShort(q.length);
      out.write(q);
      DataInputStream in = new DataInputStream(s.getInputStream());
      byte[] resp = new byte[in.readUnsignedShort()];
      in.readFully(resp);
      Message m = new Message(resp);
      assertThat(m.getHeader().getID()).isEqualTo(0x4321);
      assertThat(m.getRcode()).isEqualTo(1);
    }
    assertThat(ask("svc1.testns.svc.cluster.local.", Type.A, true).getRcode()).isZero();
  }

  @Test
  void flood_manyQueriesWithoutReading_serverStillAnswers() throws Exception {
    Message query = Message.newQuery(Record.newRecord(Name.fromString("svc1.testns.svc.cluster.local."), Type.A,
        DClass.IN));
    byte[] wire = query.toWire();
    try (DatagramSocket s = new DatagramSocket()) {
      InetSocketAddress to = new InetSocketAddress(InetAddress.getLoopbackAddress(), server.port());
      for (int i = 0; i < 20_000; i++) {
        s.send(new DatagramPacket(wire, wire.length, to));
      }
    }
    long seen = -1;
    for (int i = 0; i < 100 && seen != server.queries(); i++) { // let the backlog drain
      seen = server.queries();
      Thread.sleep(100);
    }
    List<Socket> idle = new ArrayList<>();
    try {
      for (int i = 0; i < 100; i++) { // more idle TCP connections than the server accepts
        idle.add(new Socket(InetAddress.getLoopbackAddress(), server.port()));
      }
      assertThat(ask("svc1.testns.svc.cluster.local.", Type.A, false).getRcode()).isZero();
    } finally {
      for (Socket s : idle) {
        s.close();
      }
    }
    assertThat(server.queries()).isGreaterThan(1);
  }

  /** {@code query} with its OPT record's bytes from offset 11 (its RDATA) replaced by {@code rdata}. */
  private static byte[] withOptRdata(byte[] query, byte[] rdata) {
    int opt = query.length - 11; // the OPT is last and carries no options
    byte[] out = java.util.Arrays.copyOf(query, query.length + rdata.length);
    out[opt + 9] = (byte) (rdata.length >> 8);
    out[opt + 10] = (byte) rdata.length;
    System.arraycopy(rdata, 0, out, query.length, rdata.length);
    return out;
  }

  /** Fuzz finding (DnsServerFuzzTestInputs/edns-option-overruns-opt-record): the cache key ignored EDNS options. */
  @Test
  void ednsOptionsThatDoNotParse_formerrEvenWhenTheQuestionIsCached() throws Exception {
    byte[] good = query("svc1.testns.svc.cluster.local.", Type.A, 1, 600);
    assertThat(new Message(server.answer(good, good.length, true)).getRcode()).isZero();
    assertThat(server.cachedAnswers()).isEqualTo(1);
    // option code 0, length 0; then an option announcing 0x6e2d bytes inside a 12-byte RDATA
    byte[] broken = withOptRdata(good, new byte[] {0, 0, 0, 0, 0x2e, 0x69, 0x6e, 0x2d, 'a', 'r', 'p', 'a'});
    byte[] resp = server.answer(broken, broken.length, true);
    assertThat(new Message(resp).getRcode()).isEqualTo(1); // FORMERR
    assertThat(server.cachedAnswers()).isEqualTo(1);
    // a well-formed option (a client cookie) is another key, answered as the plain query
    byte[] cookie = withOptRdata(good, new byte[] {0, 10, 0, 8, 1, 2, 3, 4, 5, 6, 7, 8});
    assertThat(new Message(server.answer(cookie, cookie.length, true)).getSection(Section.ANSWER))
        .extracting(Record::rdataToString).containsExactly("10.0.0.1");
    assertThat(server.cachedAnswers()).isEqualTo(2);
  }

  @Test
  void ednsVersion1_badversWithOurOptAtVersion0() throws Exception {
    Message q = Message.newQuery(Record.newRecord(Name.fromString("svc1.testns.svc.cluster.local."), Type.A,
        DClass.IN));
    q.addRecord(new org.xbill.DNS.OPTRecord(1232, 0, 1), Section.ADDITIONAL);
    for (boolean udp : new boolean[] {true, false}) {
      byte[] wire = q.toWire();
      Message m = new Message(server.answer(wire, wire.length, udp));
      assertThat(m.getRcode()).isEqualTo(org.xbill.DNS.Rcode.BADVERS);
      assertThat(m.getOPT().getVersion()).isZero();
      assertThat(m.getSection(Section.ANSWER)).isEmpty();
      assertThat(m.getQuestion().getName().toString()).isEqualTo("svc1.testns.svc.cluster.local.");
    }
  }

  @Test
  void twoOptRecords_formerr() throws Exception {
    byte[] one = query("svc1.testns.svc.cluster.local.", Type.A, 5, 1232);
    byte[] two = java.util.Arrays.copyOf(one, one.length + 11);
    System.arraycopy(one, one.length - 11, two, one.length, 11);
    two[11] = 2; // ARCOUNT
    assertThat(new Message(server.answer(two, two.length, true)).getRcode()).isEqualTo(1);
  }

  @Test
  void ednsQueryOverTcp_optInTheResponse() throws Exception {
    byte[] q = query("svc1.testns.svc.cluster.local.", Type.A, 5, 1232);
    Message m = new Message(server.answer(q, q.length, false));
    assertThat(m.getOPT()).isNotNull();
    assertThat(m.getRcode()).isZero();
    byte[] plain = query("svc1.testns.svc.cluster.local.", Type.A, 5, 0);
    assertThat(new Message(server.answer(plain, plain.length, false)).getOPT()).isNull();
  }

  @Test
  void tcpMessageTrickledSlowerThanTheIdleTime_connectionClosed() throws Exception {
    DnsSnapshot snap = CoreDnsFixtures.snapshot();
    try (DnsServer s = DnsServer.builder(() -> snap).tcpIdleMillis(300).build().start();
        Socket c = new Socket(InetAddress.getLoopbackAddress(), s.port())) {
      byte[] q = query("svc1.testns.svc.cluster.local.", Type.A, 5, 0);
      DataOutputStream out = new DataOutputStream(c.getOutputStream());
      out.writeShort(q.length);
      long start = System.nanoTime();
      int sent = 0;
      try {
        for (; sent < q.length; sent++) { // one byte every 100 ms: each read would be within a 300 ms timeout
          out.write(q[sent]);
          out.flush();
          Thread.sleep(100);
        }
      } catch (java.io.IOException closed) {
        // the server closed the connection: writing fails
      }
      c.setSoTimeout(3000);
      assertThat(c.getInputStream().read()).as("connection closed without an answer").isEqualTo(-1);
      assertThat(sent).as("bytes sent before the server gave up").isLessThan(q.length);
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(q.length * 100L));
      // a whole message in time is still answered
      try (Socket ok = new Socket(InetAddress.getLoopbackAddress(), s.port())) {
        ok.setSoTimeout(3000);
        DataOutputStream o = new DataOutputStream(ok.getOutputStream());
        o.writeShort(q.length);
        o.write(q);
        DataInputStream in = new DataInputStream(ok.getInputStream());
        byte[] resp = new byte[in.readUnsignedShort()];
        in.readFully(resp);
        assertThat(new Message(resp).getRcode()).isZero();
      }
    }
  }

  private List<String> dig(String... args) throws Exception {
    return Dig.run(server.port(), 2, args);
  }

  @Test
  void dig_udpAndTcp_answersAsCoreDns() throws Exception {
    assertThat(dig("svc1.testns.svc.cluster.local", "A", "+short")).containsExactly("10.0.0.1");
    assertThat(dig("+tcp", "hdls1.testns.svc.cluster.local", "A", "+short"))
        .containsExactlyInAnyOrder("172.0.0.2", "172.0.0.3", "172.0.0.4", "172.0.0.5");
    assertThat(dig("_http._tcp.svc1.testns.svc.cluster.local", "SRV", "+short"))
        .containsExactly("0 100 80 svc1.testns.svc.cluster.local.");
    assertThat(dig("external.testns.svc.cluster.local", "CNAME", "+short")).containsExactly("ext.interwebs.test.");
    assertThat(dig("-x", "10.0.0.1", "+short")).containsExactlyInAnyOrder("svc1.testns.svc.cluster.local.",
        "svcempty.testns.svc.cluster.local.");
    assertThat(String.join("\n", dig("svc0.testns.svc.cluster.local", "A"))).contains("status: NXDOMAIN")
        .contains("SOA");
    assertThat(String.join("\n", dig("svc1.testns.svc.cluster.local", "AAAA"))).contains("status: NOERROR")
        .contains("ANSWER: 0");
  }
}
