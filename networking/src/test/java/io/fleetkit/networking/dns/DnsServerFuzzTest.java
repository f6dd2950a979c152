package io.fleetkit.networking.dns;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.util.Arrays;
import org.xbill.DNS.Flags;
import org.xbill.DNS.Message;
import org.xbill.DNS.OPTRecord;

/**
 * Fuzzes what the {@link DnsServer} does with a packet, {@link DnsServer#answer}: any bytes, over UDP (in a receive
 * buffer with stale bytes past the packet, as the serving loop reads it) and over TCP, give a response that parses,
 * carries the query's id and QR, and fits the client's UDP buffer (512 bytes, or its EDNS size up to
 * {@value DnsServer#MAX_UDP}); or nothing, for a packet shorter than a header or one that is itself a response. Never
 * an exception, never a hang. A second server lives across inputs: an answer it takes from its cache must be the one
 * a fresh server resolves (the cache key holds everything the answer depends on). The corpus holds real queries (A,
 * AAAA, SRV, PTR, TXT, SOA, with and without EDNS) and broken ones (cut short, a compression loop, two questions, a
 * response, another opcode or class).
 */
final class DnsServerFuzzTest {
  private static final DnsSnapshot SNAPSHOT = CoreDnsFixtures.snapshot();
  private static final DnsServer SHARED = DnsServer.builder(() -> SNAPSHOT).build();

  @FuzzTest(maxDuration = "30s")
  void answer_anyPacket_responseOrDropped(byte[] request) throws IOException {
    if (request.length <= DnsServer.MAX_UDP) {
      byte[] buf = new byte[DnsServer.MAX_UDP];
      Arrays.fill(buf, (byte) 0xa5);
      System.arraycopy(request, 0, buf, 0, request.length);
      check(request, buf, true);
    }
    if (request.length <= 65535) {
      check(request, request.clone(), false);
    }
  }

  private static void check(byte[] request, byte[] buf, boolean udp) throws IOException {
    DnsServer fresh = DnsServer.builder(() -> SNAPSHOT).build();
    byte[] resolved = fresh.answer(buf.clone(), request.length, udp);
    assertThat(fresh.answer(buf.clone(), request.length, udp)).as("asked again").isEqualTo(resolved);
    assertThat(SHARED.answer(buf.clone(), request.length, udp)).as("asked a server with a warm cache")
        .isEqualTo(resolved);
    boolean response = request.length > 2 && (request[2] & 0x80) != 0;
    if (request.length < 12 || response) {
      assertThat(resolved).as("a packet shorter than a header, or a response, is dropped").isNull();
      return;
    }
    assertThat(resolved).as("a query gets an answer").isNotNull();
    Message m = new Message(resolved);
    assertThat(m.getHeader().getID()).isEqualTo(((request[0] & 0xff) << 8) | (request[1] & 0xff));
    assertThat(m.getHeader().getFlag(Flags.QR)).isTrue();
    if (udp) {
      assertThat(resolved.length).as("UDP response size").isLessThanOrEqualTo(udpLimit(request));
    }
  }

  /** The most a UDP client accepts: 512 bytes, or its EDNS payload size within the server's bounds. */
  private static int udpLimit(byte[] request) {
    try {
      OPTRecord opt = new Message(request).getOPT();
      return opt == null ? 512 : Math.max(512, Math.min(opt.getPayloadSize(), DnsServer.MAX_UDP));
    } catch (IOException | RuntimeException e) {
      return 512; // does not parse: answered with a bare header
    }
  }
}
