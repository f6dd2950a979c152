package io.fleetkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Service;
import io.fleetkit.api.discovery.AddressType;
import io.fleetkit.api.discovery.Endpoint;
import io.fleetkit.api.discovery.EndpointPort;
import io.fleetkit.api.discovery.EndpointSlice;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.core.ServiceProtocol;
import io.fleetkit.api.core.ServiceSpec;
import io.fleetkit.api.core.ServiceTargetPort;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.networking.dns.ClusterDns;
import io.fleetkit.networking.dns.DnsServer;
import io.fleetkit.networking.dns.DnsSnapshot;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code fleetkit dns --pods} and {@code --upstream} on examples/networking: the upstream is a FleetKit DNS server on
 * loopback serving the zone {@code example.test} with one Service, {@code api.partner.svc.example.test} 192.0.2.10.
 */
final class DnsForwardingCommandTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();
  private DnsServer upstream;

  @BeforeEach
  void startUpstream() throws Exception {
    Service api = Service.of(ObjectMeta.of("partner", "api"), ServiceSpec.builder()
        .port(new ServicePort("http", ServiceProtocol.TCP, 80, ServiceTargetPort.of(80), null))
        .clusterIP("192.0.2.10").clusterIPs(List.of("192.0.2.10")).build());
    // big: a headless Service of 100 endpoints, whose A answer does not fit a UDP message
    Service big = Service.of(ObjectMeta.of("partner", "big"), ServiceSpec.builder().headless()
        .port(new ServicePort("http", ServiceProtocol.TCP, 80, ServiceTargetPort.of(80), null)).build());
    List<Endpoint> eps = new ArrayList<>();
    for (int i = 1; i <= 100; i++) {
      eps.add(Endpoint.of("192.0.2." + i));
    }
    EndpointSlice slice = new EndpointSlice(ObjectMeta.builder().namespace("partner").name("big-1")
        .labels(Map.of(EndpointSlice.LABEL_SERVICE_NAME, "big")).build(), AddressType.IPv4, eps,
        List.of(new EndpointPort("http", 80, ServiceProtocol.TCP, "")));
    DnsSnapshot snap = DnsSnapshot.of(List.of(api, big), List.of(slice), Set.of(), 1);
    upstream = DnsServer.builder(() -> snap).dns(new ClusterDns("example.test", 5)).udpThreads(1).build().start();
  }

  @AfterEach
  void stopUpstream() {
    upstream.close();
  }

  private int run(String... args) {
    out.getBuffer().setLength(0);
    err.getBuffer().setLength(0);
    return CliHarness.run(out, err, args);
  }

  private static String example() {
    return CliHarness.example("networking").toString();
  }

  private String up() {
    return "127.0.0.1:" + upstream.port();
  }

  @Test
  void dns_outsideTheZone_forwardedWithUpstream_refusedWithout() {
    assertThat(run("dns", example(), "api.partner.svc.example.test", "--upstream", up(), "--output", "json"))
        .as(err.toString()).isZero();
    assertThat(out.toString().strip()).isEqualTo("{\"name\":\"api.partner.svc.example.test\",\"type\":\"A\","
        + "\"rcode\":\"NOERROR\",\"answers\":[\"192.0.2.10\"]}");
    assertThat(run("dns", example(), "nope.partner.svc.example.test", "--upstream", up())).isZero();
    assertThat(out.toString()).startsWith("NXDOMAIN nope.partner.svc.example.test A");
    assertThat(run("dns", example(), "api.partner.svc.example.test", "--output", "json")).isZero();
    assertThat(out.toString()).contains("\"rcode\":\"REFUSED\",\"answers\":[]");
    // names of the cluster zone are the cluster DNS's own, upstreams or not
    long asked = upstream.queries();
    assertThat(run("dns", example(), "web.net.svc.cluster.local", "--upstream", up(), "--output", "json")).isZero();
    assertThat(out.toString()).containsPattern("\"answers\":\\[\"10\\.96\\.\\d+\\.\\d+\"]");
    assertThat(upstream.queries()).isEqualTo(asked);
  }

  @Test
  void dns_answerTooBigForUdp_askedAgainOverTcp_wholeAnswerShown() {
    long before = upstream.queries();
    assertThat(run("dns", example(), "big.partner.svc.example.test", "--upstream", up(), "--output", "json"))
        .as(err.toString()).isZero();
    JsonNode answer = JsonMapper.builder().build().readTree(out.toString());
    assertThat(answer.get("rcode").asString()).isEqualTo("NOERROR");
    assertThat(answer.get("answers")).hasSize(100);
    assertThat(upstream.queries() - before).as("over UDP (truncated), then over TCP").isEqualTo(2);
  }

  // a pod's process asks its search list first (ndots 5): the cluster zone says NXDOMAIN, then the name as it is is
  // forwarded
  @Test
  void dns_fromPod_searchListThenTheForwardedName() {
    assertThat(run("dns", example(), "api.partner.svc.example.test", "--from-pod", "net/db-0", "--upstream", up(),
        "--output", "json")).as(err.toString()).isZero();
    JsonNode j = JsonMapper.builder().build().readTree(out.toString());
    assertThat(j.get("tried").toString()).isEqualTo("[{\"name\":\"api.partner.svc.example.test.net.svc.cluster.local.\","
        + "\"rcode\":\"NXDOMAIN\",\"answers\":0},{\"name\":\"api.partner.svc.example.test.svc.cluster.local.\","
        + "\"rcode\":\"NXDOMAIN\",\"answers\":0},{\"name\":\"api.partner.svc.example.test.cluster.local.\","
        + "\"rcode\":\"NXDOMAIN\",\"answers\":0},{\"name\":\"api.partner.svc.example.test.\",\"rcode\":\"NOERROR\","
        + "\"answers\":1}]");
    assertThat(j.get("answeredName").asString()).isEqualTo("api.partner.svc.example.test.");
    assertThat(j.get("answers").toString()).isEqualTo("[\"192.0.2.10\"]");
    // without upstreams the last name is REFUSED, and that is the answer
    assertThat(run("dns", example(), "api.partner.svc.example.test", "--from-pod", "net/db-0", "--output", "json"))
        .isZero();
    assertThat(out.toString()).contains("\"rcode\":\"REFUSED\"");
  }

  // an ExternalName whose target is outside the zone: the CNAME, then the upstream's answer for the target
  @Test
  void dns_externalNameOutsideTheZone_targetLookedUpUpstream(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
      throws Exception {
    java.nio.file.Files.writeString(dir.resolve("partner.yaml"), """
        apiVersion: v1
        kind: Service
        metadata: {name: partner, namespace: default}
        spec:
          type: ExternalName
          externalName: api.partner.svc.example.test
        """);
    assertThat(run("dns", dir.toString(), "partner.default.svc.cluster.local", "--upstream", up(), "--output",
        "json")).as(err.toString()).isZero();
    assertThat(out.toString()).contains("\"rcode\":\"NOERROR\",\"answers\":[\"api.partner.svc.example.test.\","
        + "\"192.0.2.10\"]");
    assertThat(run("dns", dir.toString(), "partner.default.svc.cluster.local", "--output", "json")).isZero();
    assertThat(out.toString()).contains("\"answers\":[\"api.partner.svc.example.test.\"]");
  }

  @Test
  void dns_podNames_disabledByDefault_insecureAndVerifiedOnRequest() {
    assertThat(run("dns", example(), "db-0.db.net.svc.cluster.local", "--output", "json")).isZero();
    String ip = JsonMapper.builder().build().readTree(out.toString()).get("answers").get(0).asString();
    String name = ip.replace('.', '-') + ".net.pod.cluster.local";
    assertThat(run("dns", example(), name, "--output", "json")).isZero();
    assertThat(out.toString()).contains("\"rcode\":\"NXDOMAIN\"");
    for (String mode : List.of("insecure", "verified")) {
      assertThat(run("dns", example(), name, "--pods", mode, "--output", "json")).isZero();
      assertThat(out.toString()).as(mode).contains("\"rcode\":\"NOERROR\",\"answers\":[\"" + ip + "\"]");
    }
    // an address no pod has: insecure answers it, verified does not
    assertThat(run("dns", example(), "192-0-2-77.net.pod.cluster.local", "--pods", "insecure", "--output", "json"))
        .isZero();
    assertThat(out.toString()).contains("\"answers\":[\"192.0.2.77\"]");
    assertThat(run("dns", example(), "192-0-2-77.net.pod.cluster.local", "--pods", "verified", "--output", "json"))
        .isZero();
    assertThat(out.toString()).contains("\"rcode\":\"NXDOMAIN\"");
  }

  @Test
  void dnsAndServe_badOptions_exitTwoNamingTheOption() {
    assertThat(run("dns", example(), "x.example", "--pods", "secure")).isEqualTo(2);
    assertThat(err.toString()).contains("dns: --pods \"secure\" must be disabled, insecure or verified");
    assertThat(run("dns", example(), "x.example", "--upstream", "dns.example.org")).isEqualTo(2);
    assertThat(err.toString()).contains("dns: --upstream: upstream \"dns.example.org\" must be IP, IP:PORT or"
        + " [IPv6]:PORT (a host name is not resolved)");
    assertThat(run("dns", example(), "x.example", "--upstream", "10.0.0.1:70000")).isEqualTo(2);
    assertThat(err.toString()).contains("--upstream: upstream \"10.0.0.1:70000\": port \"70000\" must be a number");
    assertThat(run("dns", example(), "x.example", "--upstream", up(), "--forward-policy", "fastest")).isEqualTo(2);
    assertThat(err.toString()).contains("dns: --forward-policy \"fastest\" must be random, round_robin or sequential");
    assertThat(run("dns", example(), "x.example", "--forward-policy", "sequential")).isEqualTo(2);
    assertThat(err.toString()).contains("dns: --forward-policy is for forwarding, but no --upstream is given");
    assertThat(run("dns", example(), "x.example", "--forward-timeout", "1s")).isEqualTo(2);
    assertThat(err.toString()).contains("dns: --forward-timeout is for forwarding, but no --upstream is given");
    String[] sixteen = new String[35];
    sixteen[0] = "dns";
    sixteen[1] = example();
    sixteen[2] = "x.example";
    for (int i = 0; i < 16; i++) {
      sixteen[3 + 2 * i] = "--upstream";
      sixteen[4 + 2 * i] = "10.0.0." + i;
    }
    assertThat(run(sixteen)).isEqualTo(2);
    assertThat(err.toString()).contains("dns: --upstream given 16 times, at most 15");
    assertThat(run("dns", "serve", example(), "--upstream", "::1:x")).isEqualTo(2);
    assertThat(err.toString()).contains("dns serve: --upstream: upstream \"::1:x\" must be IP, IP:PORT");
    assertThat(run("dns", "serve", example(), "--pods", "all")).isEqualTo(2);
    assertThat(err.toString()).contains("dns serve: --pods \"all\" must be disabled, insecure or verified");
  }

  @Test
  void dns_forwardedQuestionSequentialPolicyAndTimeout_deadFirstUpstreamSkipped() throws Exception {
    int closed;
    try (java.net.DatagramSocket s = new java.net.DatagramSocket(0, java.net.InetAddress.getLoopbackAddress())) {
      closed = s.getLocalPort();
    }
    assertThat(run("dns", example(), "api.partner.svc.example.test", "--upstream", "127.0.0.1:" + closed,
        "--upstream", up(), "--forward-policy", "sequential", "--forward-timeout", "500ms", "--output", "json"))
        .as(err.toString()).isZero();
    assertThat(out.toString()).contains("\"rcode\":\"NOERROR\",\"answers\":[\"192.0.2.10\"]");
    assertThat(run("dns", example(), "api.partner.svc.example.test", "--upstream", "127.0.0.1:" + closed,
        "--forward-timeout", "200ms", "--output", "json")).isZero();
    assertThat(out.toString()).contains("\"rcode\":\"SERVFAIL\",\"answers\":[]");
  }

  // except: a name under it is not forwarded (SERVFAIL, as CoreDNS with forward the last plugin); force_tcp asks
  // over TCP
  @Test
  void dns_exceptNotForwarded_forceTcpAsksOverTcp() {
    long asked = upstream.queries();
    assertThat(run("dns", example(), "api.partner.svc.example.test", "--upstream", up(), "--forward-except",
        "svc.example.test", "--output", "json")).as(err.toString()).isZero();
    assertThat(out.toString()).contains("\"rcode\":\"SERVFAIL\",\"answers\":[]");
    assertThat(upstream.queries()).isEqualTo(asked);
    assertThat(run("dns", example(), "api.partner.svc.example.test", "--upstream", up(), "--forward-except",
        "other.example.test", "--forward-force-tcp", "--forward-max-fails", "0", "--output", "json"))
        .as(err.toString()).isZero();
    assertThat(out.toString()).contains("\"rcode\":\"NOERROR\",\"answers\":[\"192.0.2.10\"]");
    assertThat(upstream.queries()).isEqualTo(asked + 1);
  }

  // dns serve with both options, asked over the wire; the serving thread is interrupted to stop it
  @Test
  void serve_podsAndUpstream_answersOverTheWire() throws Exception {
    int port;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    StringWriter sout = new StringWriter();
    StringWriter serr = new StringWriter();
    Thread serving = new Thread(() -> CliHarness.run(sout, serr, "dns", "serve", example(), "--port",
        Integer.toString(port), "--pods", "insecure", "--upstream", up(), "--forward-policy", "round_robin"));
    serving.setDaemon(true);
    serving.start();
    try {
      long until = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
      while (!sout.toString().contains("serving") && serving.isAlive() && System.nanoTime() < until) {
        Thread.sleep(20);
      }
      assertThat(sout.toString()).as(serr.toString()).contains("as cluster.local on 127.0.0.1:" + port
          + " (UDP and TCP), pods insecure, other names forwarded to [" + up() + "] (round_robin)");
      org.xbill.DNS.SimpleResolver r = new org.xbill.DNS.SimpleResolver(java.net.InetAddress.getLoopbackAddress());
      r.setPort(port);
      org.xbill.DNS.Message m = r.send(org.xbill.DNS.Message.newQuery(org.xbill.DNS.Record.newRecord(
          org.xbill.DNS.Name.fromString("api.partner.svc.example.test."), org.xbill.DNS.Type.A,
          org.xbill.DNS.DClass.IN)));
      assertThat(m.getSection(org.xbill.DNS.Section.ANSWER)).extracting(org.xbill.DNS.Record::rdataToString)
          .containsExactly("192.0.2.10");
      org.xbill.DNS.Message pod = r.send(org.xbill.DNS.Message.newQuery(org.xbill.DNS.Record.newRecord(
          org.xbill.DNS.Name.fromString("10-1-2-3.net.pod.cluster.local."), org.xbill.DNS.Type.A,
          org.xbill.DNS.DClass.IN)));
      assertThat(pod.getSection(org.xbill.DNS.Section.ANSWER)).extracting(org.xbill.DNS.Record::rdataToString)
          .containsExactly("10.1.2.3");
    } finally {
      serving.interrupt();
      serving.join(10_000);
    }
    assertThat(serving.isAlive()).isFalse();
  }
}
