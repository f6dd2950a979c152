package io.fleetkit.networking.dns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.xbill.DNS.ARecord;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.Type;

/**
 * {@link Forwarder}'s {@code force_tcp}, {@code prefer_udp}, {@code except} and {@code max_concurrent}, against
 * real sockets on 127.0.0.1. TestProtocolSelection is ported from coredns/coredns {@code plugin/pkg/proxy/proxy_test.go}
 * (commit 4b26cced32717eac6dd725e308d7415c8b9db147).
 */
final class ForwarderOptionsTest {
  private static Message query(String name) throws Exception {
    return Message.newQuery(Record.newRecord(Name.fromString(name), Type.A, DClass.IN));
  }

  /** An answer to {@code q} with {@code example.org. IN A 127.0.0.1}. */
  private static byte[] answerA(byte[] q) {
    try {
      Message m = new Message(ForwarderHealthTest.reply(q));
      m.addRecord(new ARecord(Name.fromString("example.org."), DClass.IN, 5, InetAddress.getByName("127.0.0.1")),
          Section.ANSWER);
      return m.toWire();
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }

  // proxy_test.go TestProtocolSelection, 8 of 8: the transport the upstream receives and the one reported
  @ParameterizedTest(name = "{0}")
  @CsvSource({
      "'UDP request, no options',           false, false, false, udp",
      "'UDP request, ForceTCP',             false, true,  false, tcp",
      "'UDP request, PreferUDP',            false, false, true,  udp",
      "'UDP request, ForceTCP+PreferUDP',   false, true,  true,  tcp",
      "'TCP request, no options',           true,  false, false, tcp",
      "'TCP request, ForceTCP',             true,  true,  false, tcp",
      "'TCP request, PreferUDP',            true,  false, true,  udp",
      "'TCP request, ForceTCP+PreferUDP',   true,  true,  true,  tcp",
  })
  void protocolSelection(String name, boolean requestTcp, boolean forceTcp, boolean preferUdp, String expected)
      throws Exception {
    try (ScriptedUpstream up = ScriptedUpstream.withTcp(q -> List.of(answerA(q)));
        Forwarder f = Forwarder.builder(List.of(up.upstream())).forceTcp(forceTcp).preferUdp(preferUdp)
            .readTimeout(Duration.ofSeconds(1)).build()) {
      Forwarder.Reply r = f.exchange(query("example.org."), requestTcp);
      assertThat(r.response()).isNotNull();
      assertThat(new Message(r.response()).getSection(Section.ANSWER)).hasSize(1);
      assertThat(up.queries()).singleElement().satisfies(q -> assertThat(q.tcp() ? "tcp" : "udp")
          .as("the protocol the server received").isEqualTo(expected));
      assertThat(r.overTcp() ? "tcp" : "udp").as("the protocol reported").isEqualTo(expected);
    }
  }

  // forward.go: a truncated answer is asked again over TCP only with prefer_udp (and not force_tcp)
  @ParameterizedTest(name = "client TCP {0}, force_tcp {1}, prefer_udp {2}")
  @CsvSource({
      "false, false, false, 1, true",
      "false, false, true,  2, false",
      "true,  false, true,  2, false",
      "false, true,  true,  1, false",
      "true,  false, false, 1, false",
  })
  void truncatedAnswer_tcpRetryOnlyWithPreferUdp(boolean clientTcp, boolean forceTcp, boolean preferUdp,
      int queries, boolean truncated) throws Exception {
    try (DnsServer up = ForwarderTest.upstreamServer();
        Forwarder f = Forwarder.builder(List.of(new Upstream("127.0.0.1", up.port()))).forceTcp(forceTcp)
            .preferUdp(preferUdp).build()) {
      DnsResponse r = f.resolve("big.shop.svc.example.test", RecordType.A, clientTcp);
      assertThat(up.queries()).isEqualTo(queries);
      assertThat(r.truncated()).isEqualTo(truncated);
      assertThat(r.answers()).hasSize(truncated ? 0 : 100);
    }
  }

  @Test
  void except_namesAndTheirSubdomainsNotForwarded_servfail() throws Exception {
    try (ScriptedUpstream up = new ScriptedUpstream(q -> List.of(answerA(q)));
        Forwarder f = Forwarder.builder(List.of(up.upstream())).except(List.of("miek.nl", "Example.ORG.")).build()) {
      assertThat(f.except()).containsExactly("miek.nl.", "example.org.");
      assertThat(f.forwards("miek.nl")).isFalse();
      assertThat(f.forwards("www.MIEK.nl.")).isFalse();
      assertThat(f.forwards("notmiek.nl.")).as("label boundaries").isTrue();
      assertThat(f.forwards("nl.")).isTrue();
      assertThat(f.forwards(".")).isTrue();
      Forwarder.Reply r = f.exchange(query("a.example.org."));
      assertThat(r.rcode()).isEqualTo(Rcode.SERVFAIL);
      assertThat(r.response()).isNull();
      assertThat(f.exchange(query("example.net.")).rcode()).isEqualTo(Rcode.NOERROR);
      assertThat(up.queries()).hasSize(1);
    }
    // the root itself is always forwarded (CoreDNS's isAllowedDomain), even with except .
    Forwarder all = Forwarder.builder(List.of(new Upstream("127.0.0.1", 53))).except(List.of(".")).build();
    assertThat(all.forwards(".")).isTrue();
    assertThat(all.forwards("example.org")).isFalse();
  }

  @Test
  void builder_defaultsAsCoreDns() {
    Forwarder f = Forwarder.builder(List.of(new Upstream("127.0.0.1", 53))).build();
    assertThat(f.maxFails()).isEqualTo(2);
    assertThat(f.healthCheck()).isEqualTo(new ForwardHealthCheck(Duration.ofMillis(500), true, "."));
    assertThat(f.forceTcp()).isFalse();
    assertThat(f.preferUdp()).isFalse();
    assertThat(f.except()).isEmpty();
    assertThat(f.failfastAllUnhealthyUpstreams()).isFalse();
    assertThat(f.maxConcurrent()).isEqualTo(Forwarder.DEFAULT_MAX_CONCURRENT);
    assertThat(Forwarder.builder(List.of(new Upstream("127.0.0.1", 53))).maxConcurrent(0).build().maxConcurrent())
        .as("0: no limit, as CoreDNS").isZero();
  }

  @Test
  void builder_badValues_errorsNameTheOptionAndTheRule() {
    Forwarder.Builder b = Forwarder.builder(List.of(new Upstream("127.0.0.1", 53)));
    assertThatThrownBy(() -> b.maxFails(-1)).hasMessage("forward max_fails -1 must not be negative");
    assertThatThrownBy(() -> b.maxConcurrent(-4)).hasMessage("forward max_concurrent -4 must not be negative");
    assertThatThrownBy(() -> b.except(List.of("a..b"))).hasMessage("forward except \"a..b\" has an empty label");
    assertThatThrownBy(() -> ForwardHealthCheck.DEFAULT.withDomain(""))
        .hasMessage("forward health_check domain \"\" is empty");
    assertThatThrownBy(() -> ForwardHealthCheck.DEFAULT.withDomain("x".repeat(64) + ".org"))
        .hasMessageStartingWith("forward health_check domain \"" + "x".repeat(64) + ".org\" is not a domain name");
    assertThatThrownBy(() -> ForwardHealthCheck.DEFAULT.withInterval(Duration.ZERO))
        .hasMessage("forward health_check interval PT0S must be at least 1 ms");
    assertThat(ForwardHealthCheck.DEFAULT.withDomain("Example.ORG").domain()).isEqualTo("example.org.");
  }
}
