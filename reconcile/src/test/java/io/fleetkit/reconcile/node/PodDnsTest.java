package io.fleetkit.reconcile.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.DNSPolicy;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodDNSConfig;
import io.fleetkit.api.core.PodDNSConfigOption;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.resource.ResourceList;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The kubelet's resolver configuration for a pod. Cases ported from kubernetes
 * {@code pkg/kubelet/network/dns/dns_test.go} (commit 04791b4906602ffda5ccf9bc4c84d3329f1d7080): TestParseResolvConf,
 * TestFormDNSSearchFitsLimits (with upstream's limits of today, its ExpandedDNSConfig gate's, now always on),
 * TestFormDNSNameserversFitsLimits, TestMergeDNSOptions, TestGetPodDNSType, TestGetPodDNS (its ExpandedDNSConfig run)
 * and TestGetPodDNSCustom. Warnings are upstream's events as {@code Reason: message}.
 */
final class PodDnsTest {

  private static Pod pod(String namespace, DNSPolicy policy, @Nullable PodDNSConfig config) {
    return Pod.builder().namespace(namespace).name("test-pod").container("c", "img", ResourceList.EMPTY)
        .dnsPolicy(policy).dnsConfig(config).build();
  }

  private static PodSpec spec(DNSPolicy policy) {
    return PodSpec.builder().container("c", "img", ResourceList.EMPTY).dnsPolicy(policy).build();
  }

  // ---- TestParseResolvConf: data, nameservers, searches, options, error

  static Stream<Arguments> testParseResolvConf() {
    List<String> none = List.of();
    return Stream.of(
        Arguments.of("", none, none, none, false),
        Arguments.of(" ", none, none, none, false),
        Arguments.of("\n", none, none, none, false),
        Arguments.of("\t\n\t", none, none, none, false),
        Arguments.of("#comment\n", none, none, none, false),
        Arguments.of(" #comment\n", none, none, none, false),
        Arguments.of("#comment\n#comment", none, none, none, false),
        Arguments.of("#comment\nnameserver", none, none, none, true),
        Arguments.of("#comment\nnameserver\nsearch", none, none, none, true),
        Arguments.of("#comment\nnameserver 1.2.3.4\nsearch", List.of("1.2.3.4"), none, none, false),
        Arguments.of("nameserver 1.2.3.4", List.of("1.2.3.4"), none, none, false),
        Arguments.of(" nameserver 1.2.3.4", List.of("1.2.3.4"), none, none, false),
        Arguments.of("\tnameserver 1.2.3.4", List.of("1.2.3.4"), none, none, false),
        Arguments.of("nameserver\t1.2.3.4", List.of("1.2.3.4"), none, none, false),
        Arguments.of("nameserver \t 1.2.3.4", List.of("1.2.3.4"), none, none, false),
        Arguments.of("nameserver 1.2.3.4\nnameserver 5.6.7.8", List.of("1.2.3.4", "5.6.7.8"), none, none, false),
        Arguments.of("nameserver 1.2.3.4 #comment", List.of("1.2.3.4"), none, none, false),
        Arguments.of("search ", none, none, none, false),
        Arguments.of("search foo", none, List.of("foo"), none, false),
        Arguments.of("search foo bar", none, List.of("foo", "bar"), none, false),
        Arguments.of("search foo. bar", none, List.of("foo", "bar"), none, false),
        Arguments.of("search foo bar bat\n", none, List.of("foo", "bar", "bat"), none, false),
        Arguments.of("search foo\nsearch bar", none, List.of("bar"), none, false),
        Arguments.of("nameserver 1.2.3.4\nsearch foo bar", List.of("1.2.3.4"), List.of("foo", "bar"), none, false),
        Arguments.of("nameserver 1.2.3.4\nsearch foo\nnameserver 5.6.7.8\nsearch bar", List.of("1.2.3.4", "5.6.7.8"),
            List.of("bar"), none, false),
        Arguments.of("#comment\nnameserver 1.2.3.4\n#comment\nsearch foo\ncomment", List.of("1.2.3.4"),
            List.of("foo"), none, false),
        Arguments.of("options ", none, none, none, false),
        Arguments.of("options ndots:5 attempts:2", none, none, List.of("ndots:5", "attempts:2"), false),
        Arguments.of("options ndots:1\noptions ndots:5 attempts:3", none, none, List.of("ndots:5", "attempts:3"),
            false),
        Arguments.of("nameserver 1.2.3.4\nsearch foo\nnameserver 5.6.7.8\nsearch bar\noptions ndots:5 attempts:4",
            List.of("1.2.3.4", "5.6.7.8"), List.of("bar"), List.of("ndots:5", "attempts:4"), false));
  }

  @ParameterizedTest
  @MethodSource
  void testParseResolvConf(String data, List<String> servers, List<String> searches, List<String> options,
      boolean isErr) {
    if (isErr) {
      assertThatThrownBy(() -> ResolverConfig.parse(data)).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("nameserver list is empty");
    } else {
      assertThat(ResolverConfig.parse(data)).isEqualTo(new ResolverConfig(servers, searches, options));
    }
  }

  // ---- TestFormDNSSearchFitsLimits

  private static List<String> list2048() {
    List<String> l = new ArrayList<>(); // 2048 = 128 + 127 * 15 + 15
    l.add("A".repeat(128));
    for (int i = 0; i < 15; i++) {
      l.add("A".repeat(127));
    }
    return l;
  }

  private static List<String> numbered(int last) {
    List<String> l = new ArrayList<>(List.of("testNS.svc.TEST", "svc.TEST", "TEST"));
    for (int i = 4; i <= last; i++) {
      l.add(String.valueOf(i));
    }
    return l;
  }

  private static final String SEARCH_EXCEEDED = "DNSConfigForming: Search Line limits were exceeded, some search"
      + " paths have been omitted, the applied search line is: ";

  static Stream<Arguments> testFormDNSSearchFitsLimits() {
    List<String> with2050 = new ArrayList<>(list2048());
    with2050.add("B");
    List<String> longPath = List.of("testNS.svc.TEST", "svc.TEST", "TEST", "AAA", "B".repeat(256), "BBB");
    List<String> fiveKept = List.of("testNS.svc.TEST", "svc.TEST", "TEST", "AAA", "BBB");
    return Stream.of(
        Arguments.of("valid: 3 search paths", List.of("testNS.svc.TEST", "svc.TEST", "TEST"),
            List.of("testNS.svc.TEST", "svc.TEST", "TEST"), null),
        Arguments.of("valid: 5 search paths", fiveKept, fiveKept, null),
        Arguments.of("invalid: longer than 256 characters in search path list", longPath, fiveKept,
            SEARCH_EXCEEDED + "testNS.svc.TEST svc.TEST TEST AAA BBB"),
        Arguments.of("valid ExpandedDNSConfig: 2048 characters in search path list", list2048(), list2048(), null),
        Arguments.of("invalid ExpandedDNSConfig: 2050 characters in search path list", with2050, list2048(),
            SEARCH_EXCEEDED + String.join(" ", list2048())),
        Arguments.of("invalid ExpandedDNSConfig: 256 characters search path", longPath, fiveKept,
            SEARCH_EXCEEDED + "testNS.svc.TEST svc.TEST TEST AAA BBB"),
        Arguments.of("valid ExpandedDNSConfig: 32 search paths", numbered(32), numbered(32), null),
        Arguments.of("invalid ExpandedDNSConfig: 33 search paths", numbered(33), numbered(32),
            SEARCH_EXCEEDED + String.join(" ", numbered(32))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void testFormDNSSearchFitsLimits(String desc, List<String> in, List<String> out, @Nullable String event) {
    List<String> warnings = new ArrayList<>();
    assertThat(PodDns.fitSearches(in, warnings)).as(desc).isEqualTo(out);
    assertThat(warnings).as(desc).isEqualTo(event == null ? List.of() : List.of(event));
  }

  @Test
  void testFormDNSNameserversFitsLimits() {
    List<String> warnings = new ArrayList<>();
    assertThat(PodDns.fitNameservers(List.of("127.0.0.1"), warnings)).containsExactly("127.0.0.1");
    assertThat(PodDns.fitNameservers(List.of("127.0.0.1", "10.0.0.10", "8.8.8.8"), warnings))
        .containsExactly("127.0.0.1", "10.0.0.10", "8.8.8.8");
    assertThat(warnings).as("valid: no event").isEmpty();
    assertThat(PodDns.fitNameservers(List.of("127.0.0.1", "10.0.0.10", "8.8.8.8", "1.2.3.4"), warnings))
        .as("invalid: 4 nameservers, trimmed to 3").containsExactly("127.0.0.1", "10.0.0.10", "8.8.8.8");
    assertThat(warnings).containsExactly("DNSConfigForming: Nameserver limits were exceeded, some nameservers have"
        + " been omitted, the applied nameserver line is: 127.0.0.1 10.0.0.10 8.8.8.8");
  }

  @Test
  void testMergeDNSOptions() {
    // upstream compares as sets (a Go map's order); FleetKit keeps the first appearance's order
    assertThat(PodDns.mergeOptions(List.of("ndots:5", "debug"), List.of())).as("Empty dnsConfigOptions")
        .containsExactly("ndots:5", "debug");
    assertThat(PodDns.mergeOptions(List.of("ndots:5", "debug"), List.of(PodDNSConfigOption.of("single-request"),
        PodDNSConfigOption.of("attempts", "3")))).as("No duplicated entries")
        .containsExactly("ndots:5", "debug", "single-request", "attempts:3");
    assertThat(PodDns.mergeOptions(List.of("ndots:5", "debug"), List.of(PodDNSConfigOption.of("ndots", "3"),
        PodDNSConfigOption.of("debug"), PodDNSConfigOption.of("single-request"),
        PodDNSConfigOption.of("attempts", "3")))).as("Overwrite duplicated entries")
        .containsExactly("ndots:3", "debug", "single-request", "attempts:3");
  }

  @Test
  void testGetPodDNSType() {
    assertThat(PodDns.kind(DNSPolicy.ClusterFirst, false)).as("valid DNSClusterFirst without hostnetwork")
        .isEqualTo(PodDns.Kind.CLUSTER);
    assertThat(PodDns.kind(DNSPolicy.ClusterFirstWithHostNet, true))
        .as("valid DNSClusterFirstWithHostNet with hostnetwork").isEqualTo(PodDns.Kind.CLUSTER);
    assertThat(PodDns.kind(DNSPolicy.ClusterFirstWithHostNet, false))
        .as("valid DNSClusterFirstWithHostNet without hostnetwork").isEqualTo(PodDns.Kind.CLUSTER);
    assertThat(PodDns.kind(DNSPolicy.Default, false)).as("valid DNSDefault without hostnetwork")
        .isEqualTo(PodDns.Kind.HOST);
    assertThat(PodDns.kind(DNSPolicy.Default, true)).as("valid DNSDefault with hostnetwork")
        .isEqualTo(PodDns.Kind.HOST);
    assertThat(PodDns.kind(DNSPolicy.ClusterFirst, true)).as("DNSClusterFirst with hostnetwork, fallback to DNSDefault")
        .isEqualTo(PodDns.Kind.HOST);
    assertThat(PodDns.kind(DNSPolicy.None, false)).as("valid DNSNone").isEqualTo(PodDns.Kind.NONE);
  }

  @Test
  void testGetPodDNS() {
    String clusterNs = "203.0.113.1";
    String domain = "kubernetes.io";
    // upstream's pods have no namespace: the first search domain is ".svc.<domain>"
    PodDns noResolvConf = new PodDns(List.of(clusterNs), domain, null, List.of());
    PodSpec[] pods = {spec(DNSPolicy.ClusterFirstWithHostNet), spec(DNSPolicy.ClusterFirst),
        spec(DNSPolicy.ClusterFirst), spec(DNSPolicy.Default)};
    boolean[] hostNetwork = {true, true, false, true};
    ResolverConfig[] got = new ResolverConfig[4];
    for (int i = 0; i < 4; i++) {
      got[i] = noResolvConf.forSpec("", pods[i], hostNetwork[i]).config();
    }
    assertThat(got[0].servers()).containsExactly(clusterNs);
    assertThat(got[0].searches().get(0)).isEqualTo(".svc." + domain);
    assertThat(got[1].servers()).containsExactly("127.0.0.1");
    assertThat(got[1].searches()).containsExactly(".");
    assertThat(got[2].servers()).containsExactly(clusterNs);
    assertThat(got[2].searches().get(0)).isEqualTo(".svc." + domain);
    assertThat(got[3].servers()).containsExactly("127.0.0.1");
    assertThat(got[3].searches()).containsExactly(".");

    // with a resolv.conf (upstream reads the test machine's /etc/resolv.conf; here a fixed one)
    ResolverConfig host = ResolverConfig.parse("nameserver 192.0.2.53\nsearch corp.example.com example.com\n");
    PodDns withResolvConf = new PodDns(List.of(clusterNs), domain, host, List.of());
    for (int i = 0; i < 4; i++) {
      got[i] = withResolvConf.forSpec("", pods[i], hostNetwork[i]).config();
    }
    int expLength = Math.min(got[1].searches().size() + 3, PodDNSConfig.MAX_SEARCH_PATHS);
    assertThat(got[0].servers()).containsExactly(clusterNs);
    assertThat(got[0].searches()).hasSize(expLength).first().isEqualTo(".svc." + domain);
    assertThat(got[2].servers()).containsExactly(clusterNs);
    assertThat(got[2].searches()).hasSize(expLength).first().isEqualTo(".svc." + domain);
  }

  // ---- TestGetPodDNSCustom

  static Stream<Arguments> testGetPodDNSCustom() {
    String clusterNameserver = "10.0.0.10";
    String domain = "kubernetes.io";
    String svc = "svc." + domain;
    String nsSvc = "testNS.svc." + domain;
    PodDNSConfig merged = new PodDNSConfig(List.of("10.0.0.11"), List.of("my.domain"),
        List.of(PodDNSConfigOption.of("ndots", "3"), PodDNSConfigOption.of("debug")));
    return Stream.of(
        Arguments.of("DNSNone without DNSConfig should have empty DNS settings", false, DNSPolicy.None, null,
            ResolverConfig.EMPTY),
        Arguments.of("DNSNone with DNSConfig should have a merged DNS settings", false, DNSPolicy.None,
            new PodDNSConfig(List.of("203.0.113.1"), List.of("my.domain", "second.domain"),
                List.of(PodDNSConfigOption.of("ndots", "3"), PodDNSConfigOption.of("debug"))),
            new ResolverConfig(List.of("203.0.113.1"), List.of("my.domain", "second.domain"),
                List.of("ndots:3", "debug"))),
        Arguments.of("DNSClusterFirst with DNSConfig should have a merged DNS settings", false,
            DNSPolicy.ClusterFirst, merged, new ResolverConfig(List.of(clusterNameserver, "10.0.0.11"),
                List.of(nsSvc, svc, domain, "host.domain", "my.domain"), List.of("ndots:3", "debug"))),
        Arguments.of("DNSClusterFirstWithHostNet with DNSConfig should have a merged DNS settings", true,
            DNSPolicy.ClusterFirstWithHostNet, merged, new ResolverConfig(List.of(clusterNameserver, "10.0.0.11"),
                List.of(nsSvc, svc, domain, "host.domain", "my.domain"), List.of("ndots:3", "debug"))),
        Arguments.of("DNSDefault with DNSConfig should have a merged DNS settings", false, DNSPolicy.Default, merged,
            new ResolverConfig(List.of("8.8.8.8", "10.0.0.11"), List.of("host.domain", "my.domain"),
                List.of("ndots:3", "debug"))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void testGetPodDNSCustom(String desc, boolean hostNetwork, DNSPolicy policy, @Nullable PodDNSConfig config,
      ResolverConfig expected) {
    PodDns dns = new PodDns(List.of("10.0.0.10"), "kubernetes.io",
        ResolverConfig.parse("nameserver 8.8.8.8\nsearch host.domain\n"), List.of());
    // upstream's namespace testNS is no valid namespace name, and DNSNone without a dnsConfig no valid pod: the
    // kubelet's function is given the namespace and the spec
    PodDns.Result r = dns.forSpec("testNS", PodSpec.builder().container("c", "img", ResourceList.EMPTY)
        .dnsPolicy(policy).dnsConfig(config).build(), hostNetwork);
    assertThat(r.config()).as(desc).isEqualTo(expected);
    assertThat(r.warnings()).as(desc).isEmpty();
  }

  @Test
  void forPod_clusterFirstWithoutClusterDns_fallsBackToTheHost_withMissingClusterDnsWarning() {
    PodDns dns = new PodDns(List.of(), "cluster.local", ResolverConfig.parse("nameserver 8.8.8.8\n"), List.of());
    PodDns.Result r = dns.forPod(pod("ns", DNSPolicy.ClusterFirst, null));
    assertThat(r.config()).isEqualTo(new ResolverConfig(List.of("8.8.8.8"), List.of(), List.of()));
    assertThat(r.warnings()).singleElement().asString().startsWith("MissingClusterDNS: kubelet does not have");
    // and a node with IPv4 and IPv6 addresses, without a resolv.conf, gets both local nameservers
    PodDns local = new PodDns(List.of(), "", null, List.of("10.0.0.5", "fd00::5"));
    assertThat(local.forPod(pod("ns", DNSPolicy.Default, null)).config())
        .isEqualTo(new ResolverConfig(List.of("127.0.0.1", "::1"), List.of("."), List.of()));
  }

  @Test
  void forPod_clusterFirst_searchPathsOfTheNamespaceAndNdots5() {
    PodDns dns = new PodDns(List.of("10.96.0.10"), "cluster.local", ResolverConfig.parse("search example.com\n"),
        List.of());
    assertThat(dns.forPod(pod("team", DNSPolicy.ClusterFirst, null)).config()).isEqualTo(new ResolverConfig(
        List.of("10.96.0.10"), List.of("team.svc.cluster.local", "svc.cluster.local", "cluster.local",
            "example.com"), List.of("ndots:5")));
  }
}
