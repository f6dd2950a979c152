package io.fleetkit.queueing.internal;

import static io.fleetkit.queueing.internal.KueueTopologyAssignmentPortTest.HOST;
import static io.fleetkit.queueing.internal.KueueTopologyAssignmentPortTest.ONE_LEVEL;
import static io.fleetkit.queueing.internal.KueueTopologyAssignmentPortTest.d;
import static io.fleetkit.queueing.internal.KueueTopologyAssignmentPortTest.n;
import static io.fleetkit.queueing.internal.KueueTopologyAssignmentPortTest.ps;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.ResourceNames;
import io.fleetkit.queueing.PodSetTopologyRequest.SliceConstraint;
import io.fleetkit.queueing.ResourceFlavor;
import io.fleetkit.queueing.Topology;
import io.fleetkit.queueing.TopologyAssignment;
import io.fleetkit.queueing.internal.KueueTopologyAssignmentPortTest.N;
import io.fleetkit.queueing.internal.KueueTopologyAssignmentPortTest.PS;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Port of kubernetes-sigs/kueue {@code pkg/cache/scheduler/tas_cache_test.go} {@code
 * TestFindTopologyAssignmentsMultiLayerReplacement} and the node replacement case of {@code
 * TestFindTopologyAssignments} that applies to FleetKit's workloads ("node replaced for Job-owned workload; gate on")
 * (commit ff69552e79ad21652c36caa97038382e55625cf7): an admitted pod set's existing topology assignment, the unhealthy
 * node, the nodes (the unhealthy one NotReady) and the usage of other assignments per domain ({@code
 * priorFlavorUsage}, upstream's aggregated domain usage of a hostname-lowest topology); {@link
 * TopologyAssigner#replace} gives upstream's merged assignment or failure message. Upstream's cache holds no usage for
 * the workload's own pods, so none is given here either.
 */
final class KueueTopologyReplacementPortTest {
  private static final String BLOCK = "cloud.com/topology-block";
  private static final String RACK = "cloud.com/topology-rack";
  private static final String SWITCH = "cloud.com/topology-switch";
  private static final List<String> DEFAULT_LEVELS = List.of(BLOCK, RACK, HOST);

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void replace_upstreamCase_givesUpstreamAssignment(Case c) {
    List<Node> nodes = new ArrayList<>();
    c.nodes.forEach(n -> nodes.add(n.build()));
    TopologyAssigner assigner = new TopologyAssigner(new Topology("default", c.levels),
        new ResourceFlavor("tas-flavor", Map.of()).withTopologyName("default"), nodes, Map.of(), c.usage);

    TopologyAssigner.Result got = assigner.replace(c.podSet.request(), c.existing, c.unhealthy);

    assertThat(got).isEqualTo(new TopologyAssigner.Result(c.podSet.want, c.podSet.reason));
  }

  private static TopologyAssignment existing(TopologyAssignment.Domain... domains) {
    return new TopologyAssignment(ONE_LEVEL, List.of(domains));
  }

  private static N node(String name, String block, String rack, String cpu, boolean ready) {
    N n = n(name).l(BLOCK, block).l(RACK, rack).l(HOST, name.substring(name.lastIndexOf('-') + 1))
        .alloc("cpu", cpu, "pods", "10");
    return ready ? n.ready() : n.notReady();
  }

  private static N node4(String name, String rack, String sw, String cpu, boolean ready) {
    N n = n(name).l(BLOCK, "b1").l(RACK, rack).l(SWITCH, sw).l(HOST, name.substring(name.lastIndexOf('-') + 1))
        .alloc("cpu", cpu, "pods", "10");
    return ready ? n.ready() : n.notReady();
  }

  static Stream<Case> cases() {
    return Stream.of(
    new Case("replacement does not cross a string-prefix sibling domain")
        .nodes(node("b1-rack-a-x1", "b1", "rack-a", "1", false), node("b1-rack-a-x2", "b1", "rack-a", "1", true),
            node("b1-rack-ab-x3", "b1", "rack-ab", "1", true))
        .existing(existing(d(1, "x1"), d(1, "x2")), "x1")
        .usage("x2", 1)
        .podSet(ps("main").required(RACK).req("cpu", 1000L).count(2)
            .reason("topology \"default\" doesn't allow to fit any of 1 pod(s). Total nodes: 2; excluded: resource "
                + "\"cpu\": 1, topologyDomain: 1")),
    new Case("replace unhealthy node in incomplete rack slice")
        .nodes(node("b1-r1-x1", "b1", "r1", "1", true), node("b1-r1-x2", "b1", "r1", "1", true),
            node("b1-r2-x3", "b1", "r2", "1", false), node("b1-r2-x4", "b1", "r2", "1", true),
            node("b1-r2-x5", "b1", "r2", "2", true))
        .existing(existing(d(1, "x1"), d(1, "x2"), d(1, "x3"), d(1, "x4")), "x3")
        .podSet(ps("main").required(BLOCK).constraints(new SliceConstraint(RACK, 2)).req("cpu", 1000L).count(4)
            .want(ONE_LEVEL, d(1, "x1"), d(1, "x2"), d(2, "x4"))),
    new Case("replacement fails when no capacity in incomplete slice domain")
        .nodes(node("b1-r1-x1", "b1", "r1", "1", true), node("b1-r1-x2", "b1", "r1", "1", true),
            node("b1-r2-x3", "b1", "r2", "1", false), node("b1-r2-x4", "b1", "r2", "500m", true))
        .existing(existing(d(1, "x1"), d(1, "x2"), d(1, "x3"), d(1, "x4")), "x3")
        .podSet(ps("main").required(BLOCK).constraints(new SliceConstraint(RACK, 2)).req("cpu", 1000L).count(4)
            .reason("topology \"default\" doesn't allow to fit any of 1 pod(s). Total nodes: 3; excluded: resource "
                + "\"cpu\": 1, topologyDomain: 2")),
    new Case("3-layer: innermost broken domain confines replacement to correct switch")
        .levels(List.of(BLOCK, RACK, SWITCH, HOST))
        .nodes(node4("b1-r1-s1-x1", "r1", "s1", "4", true), node4("b1-r1-s1-x2", "r1", "s1", "4", true),
            node4("b1-r1-s2-x3", "r1", "s2", "4", false), node4("b1-r1-s2-x4", "r1", "s2", "8", true),
            node4("b1-r2-s3-x5", "r2", "s3", "4", true), node4("b1-r2-s3-x6", "r2", "s3", "4", true),
            node4("b1-r2-s4-x7", "r2", "s4", "4", true), node4("b1-r2-s4-x8", "r2", "s4", "4", true))
        .existing(existing(d(2, "x1"), d(2, "x2"), d(2, "x3"), d(2, "x4"), d(2, "x5"), d(2, "x6"), d(2, "x7"),
            d(2, "x8")), "x3")
        .podSet(ps("main").required(BLOCK).constraints(new SliceConstraint(RACK, 8), new SliceConstraint(SWITCH, 4),
                new SliceConstraint(HOST, 2)).req("cpu", 1000L).count(16)
            .want(ONE_LEVEL, d(2, "x1"), d(2, "x2"), d(4, "x4"), d(2, "x5"), d(2, "x6"), d(2, "x7"), d(2, "x8"))),
    new Case("2-layer: sliceSize=2 prevents scattered single-pod placement across hosts")
        .nodes(node("b1-r1-x1", "b1", "r1", "2", true), node("b1-r1-x2", "b1", "r1", "2", true),
            node("b1-r2-x3", "b1", "r2", "2", false), node("b1-r2-x4", "b1", "r2", "1", true),
            node("b1-r2-x5", "b1", "r2", "1", true))
        .existing(existing(d(2, "x1"), d(2, "x2"), d(2, "x3"), d(2, "x4")), "x3")
        .podSet(ps("main").required(BLOCK).constraints(new SliceConstraint(RACK, 4), new SliceConstraint(HOST, 2))
            .req("cpu", 1000L).count(8)
            .reason("topology \"default\" doesn't allow to fit any of 1 slice(s). Total nodes: 4; excluded: "
                + "topologyDomain: 2")),
    new Case("sibling-flavor aggregatedDomainUsages on replacement candidate blocks the replacement")
        .nodes(node("b1-r1-x1", "b1", "r1", "1", true), node("b1-r1-x2", "b1", "r1", "1", true),
            node("b1-r2-x3", "b1", "r2", "1", false), node("b1-r2-x4", "b1", "r2", "1", true))
        .existing(existing(d(1, "x1"), d(1, "x2"), d(1, "x3"), d(1, "x4")), "x3")
        .usage("x4", 1)
        .podSet(ps("main").required(BLOCK).constraints(new SliceConstraint(RACK, 2)).req("cpu", 1000L).count(4)
            .reason("topology \"default\" doesn't allow to fit any of 1 pod(s). Total nodes: 3; excluded: resource "
                + "\"cpu\": 1, topologyDomain: 2")),
    // TestFindTopologyAssignments
    new Case("node replaced for Job-owned workload; gate on")
        .levels(ONE_LEVEL)
        .nodes(n("x1").l(HOST, "x1").alloc("cpu", "1", "pods", "10").notReady(),
            n("x2").l(HOST, "x2").alloc("cpu", "1", "pods", "10").ready())
        .existing(existing(d(1, "x1")), "x1")
        .podSet(ps("main").required(HOST).req("cpu", 1000L).count(1).want(ONE_LEVEL, d(1, "x2"))));
  }

  /** One upstream case. */
  static final class Case {
    final String name;
    List<String> levels = DEFAULT_LEVELS;
    List<N> nodes = List.of();
    TopologyAssignment existing = new TopologyAssignment(ONE_LEVEL, List.of());
    String unhealthy = "";
    final Map<String, ResourceList> usage = new LinkedHashMap<>();
    PS podSet = ps("main");

    Case(String name) {
      this.name = name;
    }

    Case levels(List<String> l) {
      levels = l;
      return this;
    }

    Case nodes(N... ns) {
      nodes = List.of(ns);
      return this;
    }

    Case existing(TopologyAssignment ta, String unhealthyNode) {
      existing = ta;
      unhealthy = unhealthyNode;
      return this;
    }

    /** Upstream's {@code priorFlavorUsage}: {@code count} pods of 1 cpu on the node {@code host}. */
    Case usage(String host, int count) {
      usage.merge(host, ResourceList.builder().put(ResourceNames.CPU, Quantity.ofMilli(1000L * count))
          .put(ResourceNames.PODS, Quantity.of(count)).build(), ResourceList::add);
      return this;
    }

    Case podSet(PS ps) {
      podSet = ps;
      return this;
    }

    @Override
    public String toString() {
      return name;
    }
  }
}
