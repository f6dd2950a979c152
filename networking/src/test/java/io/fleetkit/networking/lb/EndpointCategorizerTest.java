package io.fleetkit.networking.lb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kubernetes/kubernetes {@code pkg/proxy/topology_test.go} {@code TestCategorizeEndpoints}: 28 of its 36 cases.
 * Skipped: 5 cases about the {@code topology-aware-hints} annotation in kube-proxy (kube-proxy now follows hints
 * whenever they are present; the annotation is read by the EndpointSlice controller) and 3 cases with the
 * ProxyTerminatingEndpoints feature disabled (the feature is GA, always on).
 */
final class EndpointCategorizerTest {
  /** Endpoint spec: "ip" ready; flags after '/': u = not ready, t = serving+terminating, s = not serving, l = local; zone hints after '@' joined by '+'. */
  private static ProxyEndpoint ep(String spec) {
    String[] zoneSplit = spec.split("@", 2);
    String[] flagSplit = zoneSplit[0].split("/", 2);
    String flags = flagSplit.length > 1 ? flagSplit[1] : "";
    boolean ready = !flags.contains("u") && !flags.contains("t");
    boolean terminating = flags.contains("t");
    boolean serving = ready || terminating;
    Set<String> zones = zoneSplit.length > 1 ? Set.of(zoneSplit[1].split("\\+")) : Set.of();
    return new ProxyEndpoint(flagSplit[0], 80, ready, serving, terminating, flags.contains("l"), zones, Set.of());
  }

  private static List<ProxyEndpoint> eps(String... specs) {
    List<ProxyEndpoint> out = new ArrayList<>();
    Arrays.stream(specs).forEach(s -> out.add(ep(s)));
    return out;
  }

  private static List<String> set(String... ips) {
    return Arrays.stream(ips).map(ip -> ip + ":80").toList();
  }

  private static final ServicePortPolicy CLUSTER = new ServicePortPolicy(false, false, false);
  private static final ServicePortPolicy ETP_LOCAL_NP = new ServicePortPolicy(false, true, true);
  private static final ServicePortPolicy ITP_LOCAL_NP = new ServicePortPolicy(true, false, true);
  private static final ServicePortPolicy ITP_LOCAL = new ServicePortPolicy(true, false, false);
  private static final ServicePortPolicy BOTH_LOCAL_NP = new ServicePortPolicy(true, true, true);
  private static final ServicePortPolicy ETP_LOCAL_INTERNAL = new ServicePortPolicy(false, true, false);

  static Stream<Arguments> cases() {
    String a3 = "10.1.2.3@zone-a";
    String b4 = "10.1.2.4@zone-b";
    String c5 = "10.1.2.5@zone-c";
    String a6 = "10.1.2.6@zone-a";
    return Stream.of(
        // name, zone, policy, endpoints, cluster, local, all, onlyRemote
        Arguments.of("hints enabled, hints annotation == auto", "zone-a", CLUSTER, eps(a3, b4, c5, a6),
            set("10.1.2.3", "10.1.2.6"), null, null, false),
        Arguments.of("externalTrafficPolicy: Local, topology ignored for Local endpoints", "zone-a", ETP_LOCAL_NP,
            eps("10.1.2.3/l@zone-a", "10.1.2.4/l@zone-b", c5, a6), set("10.1.2.3", "10.1.2.6"),
            set("10.1.2.3", "10.1.2.4"), set("10.1.2.3", "10.1.2.4", "10.1.2.6"), false),
        Arguments.of("internalTrafficPolicy: Local, topology ignored for Local endpoints", "zone-a", ITP_LOCAL_NP,
            eps("10.1.2.3/l@zone-a", "10.1.2.4/l@zone-b", c5, a6), set("10.1.2.3", "10.1.2.6"),
            set("10.1.2.3", "10.1.2.4"), set("10.1.2.3", "10.1.2.4", "10.1.2.6"), false),
        Arguments.of("empty node labels", "", CLUSTER, eps(a3), set("10.1.2.3"), null, null, false),
        Arguments.of("empty zone label", "", CLUSTER, eps(a3), set("10.1.2.3"), null, null, false),
        Arguments.of("node in different zone, no endpoint filtering", "zone-b", CLUSTER, eps(a3), set("10.1.2.3"),
            null, null, false),
        Arguments.of("normal endpoint filtering, auto annotation", "zone-a", CLUSTER, eps(a3, b4, c5, a6),
            set("10.1.2.3", "10.1.2.6"), null, null, false),
        Arguments.of("unready endpoint", "zone-a", CLUSTER, eps(a3, b4, c5, "10.1.2.6/u@zone-a"), set("10.1.2.3"),
            null, null, false),
        Arguments.of("only unready endpoints in same zone (should not filter)", "zone-a", CLUSTER,
            eps("10.1.2.3/u@zone-a", b4, c5, "10.1.2.6/u@zone-a"), set("10.1.2.4", "10.1.2.5"), null, null, false),
        Arguments.of("normal endpoint filtering, Auto annotation", "zone-a", CLUSTER, eps(a3, b4, c5, a6),
            set("10.1.2.3", "10.1.2.6"), null, null, false),
        Arguments.of("missing hints, no filtering applied", "zone-a", CLUSTER, eps(a3, b4, "10.1.2.5", a6),
            set("10.1.2.3", "10.1.2.4", "10.1.2.5", "10.1.2.6"), null, null, false),
        Arguments.of("multiple hints per endpoint, filtering includes any endpoint with zone included", "zone-c",
            CLUSTER, eps("10.1.2.3@zone-a+zone-b+zone-c", "10.1.2.4@zone-b+zone-c", "10.1.2.5@zone-b+zone-d",
                "10.1.2.6@zone-c"), set("10.1.2.3", "10.1.2.4", "10.1.2.6"), null, null, false),
        Arguments.of("conflicting topology and localness require merging allEndpoints", "zone-a", ETP_LOCAL_NP,
            eps("10.0.0.0/l@zone-a", "10.0.0.1/l@zone-b", "10.0.0.2@zone-a", "10.0.0.3@zone-b"),
            set("10.0.0.0", "10.0.0.2"), set("10.0.0.0", "10.0.0.1"), set("10.0.0.0", "10.0.0.1", "10.0.0.2"),
            false),
        Arguments.of("internalTrafficPolicy: Local, with empty endpoints", "", ITP_LOCAL, eps(), null, set(), null,
            false),
        Arguments.of("internalTrafficPolicy: Local, but all endpoints are remote", "", ITP_LOCAL,
            eps("10.0.0.0", "10.0.0.1"), null, set(), null, true),
        Arguments.of("internalTrafficPolicy: Local, all endpoints are local", "", ITP_LOCAL,
            eps("10.0.0.0/l", "10.0.0.1/l"), null, set("10.0.0.0", "10.0.0.1"), null, false),
        Arguments.of("internalTrafficPolicy: Local, some endpoints are local", "", ITP_LOCAL,
            eps("10.0.0.0/l", "10.0.0.1"), null, set("10.0.0.0"), null, false),
        Arguments.of("Cluster traffic policy, endpoints not Ready", "", CLUSTER, eps("10.0.0.0/us", "10.0.0.1/us"),
            set(), null, null, false),
        Arguments.of("Cluster traffic policy, some endpoints are Ready", "", CLUSTER, eps("10.0.0.0/us", "10.0.0.1"),
            set("10.0.0.1"), null, null, false),
        Arguments.of("Cluster traffic policy, PTE enabled, all endpoints are terminating", "", CLUSTER,
            eps("10.0.0.0/tl", "10.0.0.1/t"), set("10.0.0.0", "10.0.0.1"), null, null, false),
        Arguments.of("iTP: Local, eTP: Cluster, some endpoints local", "", ITP_LOCAL_NP, eps("10.0.0.0/l", "10.0.0.1"),
            set("10.0.0.0", "10.0.0.1"), set("10.0.0.0"), set("10.0.0.0", "10.0.0.1"), false),
        Arguments.of("iTP: Cluster, eTP: Local, some endpoints local", "", ETP_LOCAL_NP,
            eps("10.0.0.0/l", "10.0.0.1"), set("10.0.0.0", "10.0.0.1"), set("10.0.0.0"), set("10.0.0.0", "10.0.0.1"),
            false),
        Arguments.of("iTP: Local, eTP: Local, some endpoints local", "", BOTH_LOCAL_NP, eps("10.0.0.0/l", "10.0.0.1"),
            set("10.0.0.0", "10.0.0.1"), set("10.0.0.0"), set("10.0.0.0", "10.0.0.1"), false),
        Arguments.of("iTP: Local, eTP: Local, all endpoints remote", "", BOTH_LOCAL_NP, eps("10.0.0.0", "10.0.0.1"),
            set("10.0.0.0", "10.0.0.1"), set(), set("10.0.0.0", "10.0.0.1"), false),
        Arguments.of("iTP: Local, eTP: Local, PTE enabled, all endpoints remote and terminating", "", BOTH_LOCAL_NP,
            eps("10.0.0.0/t", "10.0.0.1/t"), set("10.0.0.0", "10.0.0.1"), set(), set("10.0.0.0", "10.0.0.1"), true),
        Arguments.of("iTP: Cluster, eTP: Local, PTE enabled, with terminating endpoints", "", ETP_LOCAL_NP,
            eps("10.0.0.0", "10.0.0.1/usl", "10.0.0.2/tl", "10.0.0.3/t"), set("10.0.0.0"), set("10.0.0.2"),
            set("10.0.0.0", "10.0.0.2"), false),
        Arguments.of("externalTrafficPolicy ignored if not externally accessible", "", ETP_LOCAL_INTERNAL,
            eps("10.0.0.0", "10.0.0.1/l"), set("10.0.0.0", "10.0.0.1"), null, set("10.0.0.0", "10.0.0.1"), false),
        Arguments.of("no cluster endpoints for iTP:Local internal-only service", "", ITP_LOCAL,
            eps("10.0.0.0", "10.0.0.1/l"), null, set("10.0.0.1"), set("10.0.0.1"), false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void categorize_upstreamCases(String name, String zone, ServicePortPolicy policy, List<ProxyEndpoint> endpoints,
      List<String> cluster, List<String> local, List<String> all, boolean onlyRemote) {
    EndpointCategorizer.Categorized c = EndpointCategorizer.categorize(endpoints, policy, "node-1", zone);
    if (cluster == null) {
      assertThat(c.cluster()).as("cluster").isNull();
    } else {
      assertThat(c.cluster()).as("cluster").extracting(ProxyEndpoint::toString)
          .containsExactlyInAnyOrderElementsOf(cluster);
    }
    if (local == null) {
      assertThat(c.local()).as("local").isNull();
    } else {
      assertThat(c.local() == null ? List.<ProxyEndpoint>of() : c.local()).as("local")
          .extracting(ProxyEndpoint::toString).containsExactlyInAnyOrderElementsOf(local);
    }
    List<String> expectedAll = cluster != null && local == null ? cluster
        : local != null && cluster == null ? local : all;
    assertThat(c.allReachable()).as("all").extracting(ProxyEndpoint::toString)
        .containsExactlyInAnyOrderElementsOf(expectedAll);
    assertThat(c.hasAnyEndpoints()).as("hasAny").isEqualTo(!expectedAll.isEmpty() || onlyRemote);
  }
}
