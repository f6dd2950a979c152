package io.fleetkit.queueing;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.time.ManualClock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * Invariants of node replacement on random rack/host clusters with random gangs admitted, after one node is removed
 * and one cycle runs: every workload whose assignment named the node is reported, and one replaced keeps its pod
 * count, keeps the pods of every other node it had, names the removed node no more and stays in one rack when it
 * requires one; one evicted holds no quota; the others keep their assignments; no node holds more pods than it has
 * GPUs; the quota in use never exceeds what the admissions hold.
 */
final class NodeReplacementPropertiesTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final String RACK = "example.com/rack";
  private static final String HOST = Topology.HOSTNAME_LABEL;
  private static final String GPU = "nvidia.com/gpu";

  /** A host: its rack and GPUs. */
  record H(int rack, int gpus) {}

  /** A gang: pods and whether it requires one rack (else prefers one). */
  record G(int pods, boolean required) {}

  @Provide
  Arbitrary<List<H>> clusters() {
    return Combinators.combine(Arbitraries.integers().between(0, 2), Arbitraries.integers().between(1, 4))
        .as(H::new).list().ofMinSize(2).ofMaxSize(9);
  }

  @Provide
  Arbitrary<List<G>> gangs() {
    return Combinators.combine(Arbitraries.integers().between(1, 6), Arbitraries.of(true, false))
        .as(G::new).list().ofMinSize(1).ofMaxSize(5);
  }

  @Property(tries = 300)
  void aReplacementKeepsTheHealthyPartAndTheCapacity(@ForAll("clusters") List<H> cluster,
      @ForAll("gangs") List<G> gangs, @ForAll @IntRange(min = 0, max = 8) int failing, @ForAll boolean failFast) {
    Map<String, H> hosts = new HashMap<>();
    List<Node> nodes = new ArrayList<>();
    for (int i = 0; i < cluster.size(); i++) {
      H h = cluster.get(i);
      String name = "h" + i;
      hosts.put(name, h);
      nodes.add(Node.builder().name(name).label(RACK, "r" + h.rack()).label(HOST, name)
          .allocatable(ResourceList.builder().put(GPU, String.valueOf(h.gpus())).put("pods", "110").build())
          .ready().build());
    }
    AdmissionEngine e = AdmissionEngine.builder().clock(new ManualClock(T0))
        .topology(Topology.of("default", RACK, HOST))
        .resourceFlavor(ResourceFlavor.of("tas-gpu").withTopologyName("default"))
        .clusterQueue(ClusterQueue.builder("cq")
            .resourceGroup(FlavorQuotas.of("tas-gpu", FlavorResourceQuota.of(GPU, "100"))).build())
        .localQueue(LocalQueue.of("team", "q", "cq"))
        .failedNodeReplacementFailFast(failFast)
        .nodes(nodes)
        .build();
    Map<String, Boolean> requiresRack = new HashMap<>();
    for (int i = 0; i < gangs.size(); i++) {
      G g = gangs.get(i);
      e.submit(Workload.builder("team", "g" + i).queueName("q").creationTime(T0.plusSeconds(i))
          .podSet(PodSet.of("workers", g.pods(), ResourceList.builder().put(GPU, "1").build())
              .withTopologyRequest(g.required() ? PodSetTopologyRequest.ofRequired(RACK)
                  : PodSetTopologyRequest.ofPreferred(RACK)))
          .build());
      requiresRack.put("team/g" + i, g.required());
    }
    e.scheduleUntilIdle(20);
    Map<String, TopologyAssignment> before = new HashMap<>();
    for (QuotaReservation q : e.admitted("cq")) {
      before.put(q.workload(), q.podSets().get(0).topologyAssignment());
    }
    String removed = "h" + (failing % cluster.size());

    e.removeNode(removed);
    CycleResult r = e.schedule();

    Map<String, NodeReplacement> reported = new HashMap<>();
    r.nodeReplacements().forEach(x -> reported.put(x.workload(), x));
    Set<String> named = new HashSet<>();
    before.forEach((key, ta) -> {
      if (ta.domains().stream().anyMatch(d -> d.values().get(0).equals(removed))) {
        named.add(key);
      }
    });
    assertThat(reported.keySet()).isEqualTo(named);
    before.forEach((key, old) -> {
      NodeReplacement x = reported.get(key);
      if (x == null) {
        assertThat(e.admission(key).orElseThrow().podSets().get(0).topologyAssignment()).isEqualTo(old);
        return;
      }
      switch (x.kind()) {
        case REPLACED -> {
          TopologyAssignment now = e.admission(key).orElseThrow().podSets().get(0).topologyAssignment();
          assertThat(now.podCount()).isEqualTo(old.podCount());
          Map<String, Integer> perHost = perHost(now);
          assertThat(perHost).doesNotContainKey(removed);
          for (TopologyAssignment.Domain d : old.domains()) {
            if (!d.values().get(0).equals(removed)) {
              assertThat(perHost.getOrDefault(d.values().get(0), 0)).isGreaterThanOrEqualTo(d.count());
            }
          }
          if (requiresRack.get(key)) {
            assertThat(perHost.keySet().stream().map(h -> hosts.get(h).rack()).distinct()).hasSize(1);
          }
          assertThat(e.unhealthyNodes(key)).isEmpty();
        }
        case EVICTED -> {
          assertThat(failFast).isTrue();
          assertThat(r.admitted()).extracting(QuotaReservation::workload).doesNotContain(key);
          assertThat(e.admission(key)).isEmpty();
        }
        case FAILED -> {
          assertThat(failFast).isFalse();
          assertThat(e.unhealthyNodes(key)).containsExactly(removed);
          assertThat(e.admission(key).orElseThrow().podSets().get(0).topologyAssignment()).isEqualTo(old);
        }
      }
    });
    Map<String, Integer> used = new HashMap<>();
    long pods = 0;
    for (QuotaReservation q : e.admitted("cq")) {
      TopologyAssignment ta = q.podSets().get(0).topologyAssignment();
      pods += ta.podCount();
      perHost(ta).forEach((h, n) -> used.merge(h, n, Integer::sum));
    }
    used.forEach((h, n) -> {
      if (!h.equals(removed)) {
        assertThat(n).as("pods on %s", h).isLessThanOrEqualTo(hosts.get(h).gpus());
      }
    });
    assertThat(e.usage("cq", "tas-gpu", GPU).milliValue()).isEqualTo(pods * 1000);
  }

  private static Map<String, Integer> perHost(TopologyAssignment ta) {
    Map<String, Integer> out = new HashMap<>();
    for (TopologyAssignment.Domain d : ta.domains()) {
      out.merge(d.values().get(0), d.count(), Integer::sum);
    }
    return out;
  }
}
