package io.fleetkit.networking.dns;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.HostAlias;
import io.fleetkit.reconcile.node.ResolverConfig;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** {@link PodResolver}: glibc's search order over a pod's resolv.conf, and its hosts file first. */
final class PodResolverTest {
  private static final ResolverConfig CLUSTER_FIRST = new ResolverConfig(List.of("10.96.0.10"),
      List.of("shop.svc.cluster.local", "svc.cluster.local", "cluster.local"), List.of("ndots:5"));

  /** A DNS that knows the given names (A records), NXDOMAIN for the rest of its zone, REFUSED outside it. */
  private static Function<String, DnsResponse> dns(Map<String, String> known) {
    return q -> {
      String a = known.get(q);
      if (a != null) {
        return new DnsResponse(Rcode.NOERROR, List.of(new DnsRecord(q, RecordType.A, 5, a)), List.of(), List.of());
      }
      return DnsResponse.of(q.endsWith("cluster.local.") ? Rcode.NXDOMAIN : Rcode.REFUSED);
    };
  }

  private static List<String> tried(PodResolver.Lookup l) {
    return l.tried().stream().map(PodResolver.Attempt::name).toList();
  }

  @Test
  void shortName_searchDomainsInOrder_thenAsIs() {
    PodResolver.Lookup l = PodResolver.resolve(CLUSTER_FIRST, List.of(), "nothing", RecordType.A, dns(Map.of()));
    assertThat(tried(l)).containsExactly("nothing.shop.svc.cluster.local.", "nothing.svc.cluster.local.",
        "nothing.cluster.local.", "nothing.");
    assertThat(l.response().rcode()).isEqualTo(Rcode.REFUSED);
    assertThat(l.answeredName()).isEqualTo("nothing.");
  }

  @Test
  void firstAnswerEndsTheSearch() {
    PodResolver.Lookup l = PodResolver.resolve(CLUSTER_FIRST, List.of(), "web", RecordType.A,
        dns(Map.of("web.shop.svc.cluster.local.", "10.96.1.1", "web.svc.cluster.local.", "10.96.9.9")));
    assertThat(tried(l)).containsExactly("web.shop.svc.cluster.local.");
    assertThat(l.response().answers()).extracting(DnsRecord::data).containsExactly("10.96.1.1");
  }

  // four dots are fewer than ndots 5: searched first; five are not: asked as is first
  @Test
  void ndots_decidesWhetherTheNameIsAskedAsItIsFirst() {
    PodResolver.Lookup four = PodResolver.resolve(CLUSTER_FIRST, List.of(), "a.b.c.d.e", RecordType.A,
        dns(Map.of()));
    assertThat(tried(four).get(0)).isEqualTo("a.b.c.d.e.shop.svc.cluster.local.");
    assertThat(tried(four).get(3)).isEqualTo("a.b.c.d.e.");
    PodResolver.Lookup five = PodResolver.resolve(CLUSTER_FIRST, List.of(), "a.b.c.d.e.f", RecordType.A,
        dns(Map.of()));
    assertThat(tried(five)).containsExactly("a.b.c.d.e.f.", "a.b.c.d.e.f.shop.svc.cluster.local.",
        "a.b.c.d.e.f.svc.cluster.local.", "a.b.c.d.e.f.cluster.local.");
  }

  @Test
  void trailingDot_askedAsItIsOnly() {
    PodResolver.Lookup l = PodResolver.resolve(CLUSTER_FIRST, List.of(), "web.", RecordType.A, dns(Map.of()));
    assertThat(tried(l)).containsExactly("web.");
  }

  @Test
  void nodata_isRememberedOverALaterNxdomain() {
    Function<String, DnsResponse> d = q -> q.equals("web.svc.cluster.local.") ? DnsResponse.of(Rcode.NOERROR)
        : DnsResponse.of(Rcode.NXDOMAIN);
    PodResolver.Lookup l = PodResolver.resolve(CLUSTER_FIRST, List.of(), "web", RecordType.AAAA, d);
    assertThat(tried(l)).hasSize(4);
    assertThat(l.answeredName()).isEqualTo("web.svc.cluster.local.");
    assertThat(l.response().rcode()).isEqualTo(Rcode.NOERROR);
    assertThat(l.response().answers()).isEmpty();
  }

  @Test
  void hostsFile_answersBeforeDns_byFamily_anyCase() {
    List<PodResolver.HostsEntry> hosts = PodResolver.hostsFile(List.of("10.244.0.7", "fd00::7"), "db-0", "db",
        "shop", "cluster.local", List.of(new HostAlias("10.1.2.3", List.of("foo.local", "bar"))));
    assertThat(hosts.get(2)).isEqualTo(new PodResolver.HostsEntry("10.244.0.7",
        List.of("db-0.db.shop.svc.cluster.local", "db-0")));
    PodResolver.Lookup alias = PodResolver.resolve(CLUSTER_FIRST, hosts, "FOO.local", RecordType.A, dns(Map.of()));
    assertThat(alias.fromHostsFile()).isTrue();
    assertThat(alias.hostsAddresses()).containsExactly("10.1.2.3");
    assertThat(alias.tried()).isEmpty();
    assertThat(PodResolver.resolve(CLUSTER_FIRST, hosts, "db-0", RecordType.AAAA, dns(Map.of())).hostsAddresses())
        .containsExactly("fd00::7");
    assertThat(PodResolver.resolve(CLUSTER_FIRST, hosts, "localhost", RecordType.A, dns(Map.of())).hostsAddresses())
        .containsExactly("127.0.0.1");
    // not an address question: the hosts file is not read
    assertThat(PodResolver.resolve(CLUSTER_FIRST, hosts, "bar", RecordType.TXT, dns(Map.of())).fromHostsFile())
        .isFalse();
  }

  @Test
  void ndots_defaultOneLastWinsCappedAt15() {
    assertThat(PodResolver.ndots(List.of())).isEqualTo(1);
    assertThat(PodResolver.ndots(List.of("ndots:2", "timeout:1", "ndots:3"))).isEqualTo(3);
    assertThat(PodResolver.ndots(List.of("ndots:40"))).isEqualTo(15);
    assertThat(PodResolver.ndots(List.of("ndots:x"))).isEqualTo(1);
    // ndots 1 (a dnsPolicy None pod without options): a dotted name is asked as it is first
    ResolverConfig none = new ResolverConfig(List.of("1.1.1.1"), List.of("example.com"), List.of());
    assertThat(tried(PodResolver.resolve(none, List.of(), "api.example", RecordType.A, dns(Map.of()))))
        .containsExactly("api.example.", "api.example.example.com.");
  }
}
