package io.fleetkit.queueing.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.queueing.PodSetTopologyRequest;
import io.fleetkit.queueing.ResourceFlavor;
import io.fleetkit.queueing.Topology;
import io.fleetkit.queueing.TopologyAssignment;
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
 * Invariants of the topology assignment algorithm on random block/rack/host clusters: an assignment places exactly
 * the pod set's pods, never more on a node than fit there (free cpu over the request, and free pod slots), only on
 * nodes of the topology; for a required level every domain lies under one domain of that level; and a pod set whose
 * pods cannot all fit anywhere gets a reason, not an assignment.
 */
final class TopologyAssignmentPropertiesTest {
  private static final String BLOCK = "example.com/block";
  private static final String RACK = "example.com/rack";
  private static final String HOST = Topology.HOSTNAME_LABEL;

  /** A node: block index, rack index, free cpu (whole cpus), free pod slots. */
  record N(int block, int rack, int cpu, int pods) {}

  @Provide
  Arbitrary<List<N>> clusters() {
    Arbitrary<N> node = Combinators.combine(Arbitraries.integers().between(0, 2), Arbitraries.integers().between(0, 2),
        Arbitraries.integers().between(0, 6), Arbitraries.integers().between(0, 5)).as(N::new);
    return node.list().ofMinSize(1).ofMaxSize(12);
  }

  @Provide
  Arbitrary<PodSetTopologyRequest> requests() {
    return Arbitraries.of(
        PodSetTopologyRequest.ofRequired(BLOCK), PodSetTopologyRequest.ofRequired(RACK),
        PodSetTopologyRequest.ofRequired(HOST), PodSetTopologyRequest.ofPreferred(BLOCK),
        PodSetTopologyRequest.ofPreferred(RACK), PodSetTopologyRequest.ofPreferred(HOST),
        PodSetTopologyRequest.ofUnconstrained());
  }

  @Property(tries = 500)
  void anAssignmentPlacesEveryPodWithinCapacityAndWithinTheRequiredDomain(@ForAll("clusters") List<N> cluster,
      @ForAll("requests") PodSetTopologyRequest request, @ForAll @IntRange(min = 1, max = 3) int cpuPerPod,
      @ForAll @IntRange(min = 1, max = 20) int count) {
    List<Node> nodes = new ArrayList<>();
    Map<String, N> byHost = new HashMap<>();
    Map<String, ResourceList> used = new HashMap<>();
    for (int i = 0; i < cluster.size(); i++) {
      N n = cluster.get(i);
      String host = "n" + i;
      byHost.put(host, n);
      nodes.add(Node.builder().name(host).label(BLOCK, "b" + n.block()).label(RACK, "r" + n.rack())
          .label(HOST, host)
          .allocatable(ResourceList.builder().put("cpu", Quantity.of(n.cpu() + 1)).put("pods", Quantity.of(8))
              .build())
          .ready().build());
      // one cpu and 8 - pods slots taken by pods already there
      used.put(host, ResourceList.builder().put("cpu", Quantity.of(1)).put("pods", Quantity.of(8 - n.pods())).build());
    }
    TopologyAssigner assigner = new TopologyAssigner(Topology.of("t", BLOCK, RACK, HOST),
        ResourceFlavor.of("f").withTopologyName("t"), nodes, used, Map.of());
    ResourceList perPod = ResourceList.builder().put("cpu", Quantity.of(cpuPerPod)).build();

    TopologyAssigner.Result r =
        assigner.assign(List.of(TopologyAssigner.Request.of("main", perPod, count, request))).get("main");

    int fitTotal = 0;
    for (N n : cluster) {
      fitTotal += Math.min(n.cpu() / cpuPerPod, n.pods());
    }
    if (!r.fits()) {
      assertThat(r.assignment()).isNull();
      assertThat(r.failureReason()).startsWith("topology \"t\" ");
      return;
    }
    TopologyAssignment a = r.assignment();
    assertThat(a).isNotNull();
    assertThat(a.levels()).containsExactly(HOST);
    assertThat(a.podCount()).isEqualTo(count);
    assertThat(fitTotal).isGreaterThanOrEqualTo(count);
    Set<String> requiredDomains = new HashSet<>();
    for (TopologyAssignment.Domain d : a.domains()) {
      N n = byHost.get(d.values().get(0));
      assertThat(n).as("domain %s is a node of the topology", d.values()).isNotNull();
      assertThat(d.count()).isPositive();
      assertThat(d.count()).as("pods on %s", d.values()).isLessThanOrEqualTo(Math.min(n.cpu() / cpuPerPod, n.pods()));
      if (request.required() != null) {
        requiredDomains.add(request.required().equals(BLOCK) ? "b" + n.block()
            : request.required().equals(RACK) ? "b" + n.block() + "/r" + n.rack() : d.values().get(0));
      }
    }
    if (request.required() != null) {
      assertThat(requiredDomains).as("domains of the required level").hasSize(1);
    }
  }

  @Property(tries = 300)
  void unconstrainedAndPreferredFitWheneverTheClusterHasRoom(@ForAll("clusters") List<N> cluster,
      @ForAll @IntRange(min = 1, max = 20) int count, @ForAll boolean preferred) {
    List<Node> nodes = new ArrayList<>();
    int room = 0;
    for (int i = 0; i < cluster.size(); i++) {
      N n = cluster.get(i);
      room += Math.min(n.cpu(), n.pods());
      nodes.add(Node.builder().name("n" + i).label(BLOCK, "b" + n.block()).label(RACK, "r" + n.rack())
          .label(HOST, "n" + i)
          .allocatable(ResourceList.builder().put("cpu", Quantity.of(n.cpu())).put("pods", Quantity.of(n.pods()))
              .build())
          .ready().build());
    }
    TopologyAssigner assigner = new TopologyAssigner(Topology.of("t", BLOCK, RACK, HOST), ResourceFlavor.of("f"),
        nodes, Map.of(), Map.of());
    PodSetTopologyRequest request =
        preferred ? PodSetTopologyRequest.ofPreferred(RACK) : PodSetTopologyRequest.ofUnconstrained();
    TopologyAssigner.Result r = assigner.assign(List.of(TopologyAssigner.Request.of("main",
        ResourceList.builder().put("cpu", Quantity.of(1)).build(), count, request))).get("main");

    assertThat(r.fits()).as("%d pods, room for %d: %s", count, room, r.failureReason()).isEqualTo(count <= room);
  }
}
