package io.fleetkit.queueing.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.ResourceNames;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.queueing.PodSetTopologyRequest;
import io.fleetkit.queueing.PodSetTopologyRequest.SliceConstraint;
import io.fleetkit.queueing.ResourceFlavor;
import io.fleetkit.queueing.Topology;
import io.fleetkit.queueing.TopologyAssignment;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Port of kubernetes-sigs/kueue {@code pkg/cache/scheduler/tas_cache_test.go} {@code TestFindTopologyAssignments}
 * (commit ff69552e79ad21652c36caa97038382e55625cf7), run with Kueue's default feature gates. Each case gives the
 * nodes (labels, allocatable, readiness, taints), the pods already running on them, the topology levels, the
 * flavor's node labels, the usage of earlier topology assignments per domain, and the pod sets with their topology
 * requests; the expected result of every pod set is upstream's: its assignment (levels, domains and pod counts, in
 * upstream's order) or upstream's failure message. The cases not ported are listed in docs/conformance.md.
 *
 * <p>Upstream runs every case twice (with and without {@code VectorizedResourceRequests}, an implementation detail of
 * its resource arithmetic); FleetKit has one arithmetic.
 */
final class KueueTopologyAssignmentPortTest {
  static final String DC = "cloud.com/datacenter";
  static final String AIZONE = "cloud.com/aizone";
  static final String BLOCK = "cloud.com/topology-block";
  static final String RACK = "cloud.com/topology-rack";
  static final String SUBBLOCK = "cloud.com/topology-subblock";
  static final String HOST = Topology.HOSTNAME_LABEL;
  static final List<String> ONE_LEVEL = List.of(HOST);
  static final List<String> TWO_LEVELS = List.of(BLOCK, RACK);
  static final List<String> THREE_LEVELS = List.of(BLOCK, RACK, HOST);

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void findTopologyAssignments_upstreamCase_givesUpstreamResult(Case c) {
    Topology topology = new Topology("default", c.levels);
    ResourceFlavor flavor = new ResourceFlavor("tas-flavor", c.nodeLabels).withTopologyName("default");
    List<Node> nodes = new ArrayList<>();
    for (N n : c.nodes) {
      nodes.add(n.build());
    }
    TopologyAssigner assigner = new TopologyAssigner(topology, flavor, nodes, TopologyAssigner.usedByPods(c.pods),
        c.domainUsage);
    List<TopologyAssigner.Request> requests = new ArrayList<>();
    Map<String, TopologyAssigner.Result> want = new LinkedHashMap<>();
    for (PS ps : c.podSets) {
      requests.add(ps.request());
      want.put(ps.name, new TopologyAssigner.Result(ps.want, ps.reason));
    }

    Map<String, TopologyAssigner.Result> got = assigner.assign(requests);

    assertThat(got).isEqualTo(want);
  }

  static Stream<Case> cases() {
    return Stream.of(
    new Case("minimize the number of used racks before optimizing the number of nodes; BestFit")
        .nodes(List.of(
            n("b1-r1-x3").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x3").alloc("cpu", "2", "pods", "10").ready(),
            n("b1-r2-x5").l(BLOCK, "b1").l(RACK, "r2").l(HOST, "x5").alloc("cpu", "2", "pods", "20").ready(),
            n("b1-r3-x1").l(BLOCK, "b1").l(RACK, "r3").l(HOST, "x1").alloc("cpu", "1", "pods", "10").ready(),
            n("b1-r3-x6").l(BLOCK, "b1").l(RACK, "r3").l(HOST, "x6").alloc("cpu", "1", "pods", "10").ready(),
            n("b1-r3-x2").l(BLOCK, "b1").l(RACK, "r3").l(HOST, "x2").alloc("cpu", "1", "pods", "10").ready(),
            n("b1-r3-x4").l(BLOCK, "b1").l(RACK, "r3").l(HOST, "x4").alloc("cpu", "1", "pods", "10").ready()))
        .levels(THREE_LEVELS)
        .podSet(ps("").required(BLOCK).req("cpu", 1000L).count(4).want(ONE_LEVEL,
                d(1, "x1"),
                d(1, "x2"),
                d(1, "x4"),
                d(1, "x6"))),
    new Case("choose the node that can accommodate all Pods")
        .nodes(List.of(
            n("b1-r1-x3").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x3").alloc("cpu", "2", "pods", "10").ready(),
            n("b1-r1-x5").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x5").alloc("cpu", "1", "pods", "10").ready(),
            n("b1-r1-x1").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x1").alloc("cpu", "1", "pods", "10").ready()))
        .levels(THREE_LEVELS)
        .podSet(ps("").required(BLOCK).req("cpu", 1000L).count(2).want(ONE_LEVEL,
                d(2, "x3"))),
    new Case("no annotation; implied default to unconstrained; 6 pods fit into hosts scattered across the whole "
        + "datacenter even they could fit into single rack; BestFit")
        .nodes(scatteredNodes())
        .levels(THREE_LEVELS)
        .podSet(ps("").req("cpu", 1000L).count(6).want(ONE_LEVEL,
                d(1, "x1"),
                d(1, "x3"),
                d(1, "x5"),
                d(1, "x2"),
                d(2, "x6"))),
    new Case("unconstrained; 6 pods fit into hosts scattered across the whole datacenter even they could fit into "
        + "single rack; BestFit")
        .nodes(scatteredNodes())
        .levels(THREE_LEVELS)
        .podSet(ps("").unconstrained().req("cpu", 1000L).count(6).want(ONE_LEVEL,
                d(1, "x1"),
                d(1, "x3"),
                d(1, "x5"),
                d(1, "x2"),
                d(2, "x6"))),
    new Case("unconstrained; a single pod fits into each host; BestFit")
        .nodes(defaultNodes())
        .levels(THREE_LEVELS)
        .podSet(ps("").unconstrained().req("cpu", 1000L).count(1).want(ONE_LEVEL,
                d(1, "x3"))),
    new Case("unconstrained; a single pod fits into each host; LeastFreeCapacity; TASProfileMixed")
        .nodes(defaultNodes())
        .levels(THREE_LEVELS)
        .podSet(ps("").unconstrained().req("cpu", 1000L).count(1).want(ONE_LEVEL,
                d(1, "x3"))),
    new Case("block required; 4 pods fit into one host each; BestFit")
        .nodes(binaryTreesNodes())
        .levels(THREE_LEVELS)
        .podSet(ps("").required(BLOCK).req("cpu", 1000L).count(4).want(ONE_LEVEL,
                d(1, "x3"),
                d(1, "x5"),
                d(1, "x1"),
                d(1, "x6"))),
    new Case("host required; single Pod fits in the host; BestFit")
        .nodes(defaultNodes())
        .levels(THREE_LEVELS)
        .podSet(ps("").required(HOST).req("cpu", 1000L).count(1).want(ONE_LEVEL,
                d(1, "x3"))),
    new Case("host required; single Pod fits in the host; BestFit; TASProfileMixed")
        .nodes(defaultNodes())
        .levels(THREE_LEVELS)
        .podSet(ps("").required(HOST).req("cpu", 1000L).count(1).want(ONE_LEVEL,
                d(1, "x3"))),
    new Case("host preferred; single Pod fits in the host; BestFit; TASProfileMixed")
        .nodes(defaultNodes())
        .levels(THREE_LEVELS)
        .podSet(ps("").required(HOST).req("cpu", 1000L).count(1).want(ONE_LEVEL,
                d(1, "x3"))),
    new Case("rack required; single Pod fits in a rack; BestFit")
        .nodes(defaultNodes())
        .levels(TWO_LEVELS)
        .podSet(ps("").required(RACK).req("cpu", 1000L).count(1).want(TWO_LEVELS,
                d(1, "b1", "r1"))),
    new Case("rack required; multiple Pods fit in a rack; BestFit")
        .nodes(defaultNodes())
        .levels(TWO_LEVELS)
        .podSet(ps("").required(RACK).req("cpu", 1000L).count(3).want(TWO_LEVELS,
                d(3, "b1", "r2"))),
    new Case("block preferred; Pods fit in 2 blocks; BestFit")
        .nodes(List.of(
            n("b1").l(BLOCK, "b1").alloc("cpu", "2", "pods", "20").ready(),
            n("b2").l(BLOCK, "b2").alloc("cpu", "1", "pods", "10").ready(),
            n("b3").l(BLOCK, "b3").alloc("cpu", "4", "pods", "40").ready()))
        .levels(List.of(BLOCK))
        .podSet(ps("").preferred(BLOCK).req("cpu", 1000L).count(5).want(List.of(BLOCK),
                d(1, "b2"),
                d(4, "b3"))),
    new Case("rack required; multiple Pods fit in some racks; BestFit")
        .nodes(defaultNodes())
        .levels(TWO_LEVELS)
        .podSet(ps("").required(RACK).req("cpu", 1000L).count(2).want(TWO_LEVELS,
                d(2, "b2", "r2"))),
    new Case("rack required; too many pods to fit in any rack; BestFit")
        .nodes(defaultNodes())
        .levels(TWO_LEVELS)
        .podSet(ps("").required(RACK).req("cpu", 1000L).count(4)
            .reason("topology \"default\" allows to fit only 3 out of 4 pod(s)")),
    new Case("block required; single Pod fits in a block and a single rack; BestFit")
        .nodes(defaultNodes())
        .levels(TWO_LEVELS)
        .podSet(ps("").required(BLOCK).req("cpu", 1000L).count(1).want(List.of(BLOCK, RACK),
                d(1, "b2", "r1"))),
    new Case("block required; single Pod fits in a block spread across two racks; BestFit")
        .nodes(defaultNodes())
        .levels(TWO_LEVELS)
        .podSet(ps("").required(BLOCK).req("cpu", 1000L).count(4).want(List.of(BLOCK, RACK),
                d(1, "b1", "r1"),
                d(3, "b1", "r2"))),
    new Case("block required; Pods fit in a block spread across two racks; BestFit")
        .nodes(defaultNodes())
        .levels(TWO_LEVELS)
        .podSet(ps("").required(BLOCK).req("cpu", 1000L).count(4).want(TWO_LEVELS,
                d(1, "b1", "r1"),
                d(3, "b1", "r2"))),
    new Case("block required; single Pod which cannot be split; BestFit")
        .nodes(defaultNodes())
        .levels(TWO_LEVELS)
        .podSet(ps("").required(BLOCK).req("cpu", 4000L).count(1)
            .reason("topology \"default\" doesn't allow to fit any of 1 pod(s). Total nodes: 4; excluded: resource "
                + "\"cpu\": 4")),
    new Case("block required; too many Pods to fit requested; BestFit")
        .nodes(defaultNodes())
        .levels(TWO_LEVELS)
        .podSet(ps("").required(BLOCK).req("cpu", 1000L).count(5)
            .reason("topology \"default\" allows to fit only 4 out of 5 pod(s)")),
    new Case("rack required; single Pod requiring memory; BestFit")
        .nodes(defaultNodes())
        .levels(TWO_LEVELS)
        .podSet(ps("").required(RACK).req("memory", 1024L).count(4).want(TWO_LEVELS,
                d(4, "b1", "r1"))),
    new Case("rack preferred; but only block can accommodate the workload; BestFit")
        .nodes(defaultNodes())
        .levels(TWO_LEVELS)
        .podSet(ps("").preferred(RACK).req("cpu", 1000L).count(4).want(TWO_LEVELS,
                d(1, "b1", "r1"),
                d(3, "b1", "r2"))),
    new Case("rack preferred; but only multiple blocks can accommodate the workload; BestFit")
        .nodes(defaultNodes())
        .levels(TWO_LEVELS)
        .podSet(ps("").preferred(RACK).req("cpu", 1000L).count(6).want(TWO_LEVELS,
                d(1, "b1", "r1"),
                d(3, "b1", "r2"),
                d(2, "b2", "r2"))),
    new Case("block preferred; but only multiple blocks can accommodate the workload; BestFit")
        .nodes(defaultNodes())
        .levels(TWO_LEVELS)
        .podSet(ps("").preferred(BLOCK).req("cpu", 1000L).count(6).want(TWO_LEVELS,
                d(1, "b1", "r1"),
                d(3, "b1", "r2"),
                d(2, "b2", "r2"))),
    new Case("block preferred; but the workload cannot be accommodate in entire topology; BestFit")
        .nodes(defaultNodes())
        .levels(TWO_LEVELS)
        .podSet(ps("").preferred(BLOCK).req("cpu", 1000L).count(10)
            .reason("topology \"default\" allows to fit only 7 out of 10 pod(s)")),
    new Case("only nodes with matching labels are considered; no matching node; BestFit")
        .nodes(List.of(
            n("b1-r1-x3").l("zone", "zone-a").l(HOST, "x3").alloc("cpu", "1", "memory", "1Gi", "pods", "10")))
        .levels(ONE_LEVEL)
        .nodeLabels(Map.of("zone", "zone-b"))
        .podSet(ps("").required(HOST).req("cpu", 1000L).count(1)
            .reason("no topology domains at level: kubernetes.io/hostname")),
    new Case("only nodes with matching labels are considered; matching node is found; BestFit")
        .nodes(List.of(
            n("b1-r1-x3").l("zone", "zone-a").l(HOST, "x3").alloc("cpu", "1", "memory", "1Gi", "pods", "10").ready()))
        .levels(ONE_LEVEL)
        .nodeLabels(Map.of("zone", "zone-a"))
        .podSet(ps("").required(HOST).req("cpu", 1000L).count(1).want(ONE_LEVEL,
                d(1, "x3"))),
    new Case("only nodes with matching levels are considered; no host label on node; BestFit")
        .nodes(List.of(
            n("b1-r1-x3").l(BLOCK, "b1").l(RACK, "r1").alloc("cpu", "1", "memory", "1Gi", "pods", "10").ready()))
        .levels(THREE_LEVELS)
        .podSet(ps("").required(RACK).req("cpu", 1000L).count(1)
            .reason("no topology domains at level: cloud.com/topology-rack")),
    new Case("don't consider unscheduled Pods when computing capacity; BestFit")
        .nodes(List.of(
            n("x3").l(HOST, "x3").alloc("cpu", "1", "memory", "1Gi", "pods", "10").ready()))
        .pods(pod("", "Pending", "cpu", "600m"))
        .levels(ONE_LEVEL)
        .podSet(ps("").required(HOST).req("cpu", 600L).count(1).want(ONE_LEVEL,
                d(1, "x3"))),
    new Case("don't consider terminal pods when computing the capacity; BestFit")
        .nodes(List.of(
            n("x3").l(HOST, "x3").alloc("cpu", "1", "memory", "1Gi", "pods", "10").ready()))
        .pods(pod("x3", "Failed", "cpu", "600m"), pod("x3", "Succeeded", "cpu", "600m"))
        .levels(ONE_LEVEL)
        .podSet(ps("").required(HOST).req("cpu", 600L).count(1).want(ONE_LEVEL,
                d(1, "x3"))),
    new Case("include usage from pending scheduled non-TAS pods, blocked assignment; BestFit")
        .nodes(List.of(
            n("x3").l(HOST, "x3").alloc("cpu", "1", "memory", "1Gi", "pods", "10").ready()))
        .pods(pod("x3", "Pending", "cpu", "600m"))
        .levels(ONE_LEVEL)
        .podSet(ps("").required(HOST).req("cpu", 600L).count(1)
            .reason("topology \"default\" doesn't allow to fit any of 1 pod(s). Total nodes: 1; excluded: resource "
                + "\"cpu\": 1")),
    new Case("include usage from running non-TAS pods, blocked assignment; BestFit")
        .nodes(List.of(
            n("x3").l(HOST, "x3").alloc("cpu", "1", "memory", "1Gi", "pods", "10").ready()))
        .pods(pod("x3", "Running", "cpu", "600m"))
        .levels(ONE_LEVEL)
        .podSet(ps("").required(HOST).req("cpu", 600L).count(1)
            .reason("topology \"default\" doesn't allow to fit any of 1 pod(s). Total nodes: 1; excluded: resource "
                + "\"cpu\": 1")),
    new Case("node allocatable capacity completely used by non-TAS pod; empty remainingCapacity")
        .nodes(List.of(
            n("x3").l(HOST, "x3").alloc("cpu", "1", "pods", "1").ready()))
        .pods(pod("x3", "Running", "cpu", "1"))
        .levels(ONE_LEVEL)
        .podSet(ps("").required(HOST).req("cpu", 100L).count(1)
            .reason("topology \"default\" doesn't allow to fit any of 1 pod(s). Total nodes: 1; excluded: resource "
                + "\"cpu\": 1")),
    new Case("include usage from non-TAS pods; pod usage")
        .nodes(List.of(
            n("x3").l(HOST, "x3").alloc("pods", "10").ready()))
        .pods(pod("x3", "Running"), pod("x3", "Running"))
        .levels(ONE_LEVEL)
        .podSet(ps("").required(HOST).req("cpu", 0L).count(9)
            .reason("topology \"default\" allows to fit only 8 out of 9 pod(s)")),
    new Case("include usage from running non-TAS pods, found free capacity on another node; BestFit")
        .nodes(List.of(
            n("x3").l(HOST, "x3").alloc("cpu", "1", "memory", "1Gi", "pods", "10").ready(),
            n("x5").l(HOST, "x5").alloc("cpu", "1", "memory", "1Gi", "pods", "10").ready()))
        .pods(pod("x3", "Pending", "cpu", "600m"))
        .levels(ONE_LEVEL)
        .podSet(ps("").required(HOST).req("cpu", 600L).count(1).want(ONE_LEVEL,
                d(1, "x5"))),
    new Case("no assignment as node is not ready; BestFit")
        .nodes(List.of(
            n("b1-r1-x3").l("zone", "zone-a").l(HOST, "x3").alloc("cpu", "1", "memory", "1Gi", "pods", "10")))
        .levels(ONE_LEVEL)
        .nodeLabels(Map.of("zone", "zone-a"))
        .podSet(ps("").required(HOST).req("cpu", 1000L).count(1)
            .reason("no topology domains at level: kubernetes.io/hostname")),
    new Case("no assignment as node is unschedulable; BestFit")
        .nodes(List.of(
            n("b1-r1-x3").l("zone", "zone-a").l(HOST, "x3").alloc("cpu", "1", "memory", "1Gi", "pods", "10").ready()
                .unschedulable()))
        .levels(ONE_LEVEL)
        .nodeLabels(Map.of("zone", "zone-a"))
        .podSet(ps("").required(HOST).req("cpu", 1000L).count(1)
            .reason("no topology domains at level: kubernetes.io/hostname")),
    new Case("skip node which has untolerated taint; BestFit")
        .nodes(List.of(
            n("x3").l("zone", "zone-a").l(HOST, "x3").alloc("cpu", "1", "memory", "1Gi", "pods", "10").ready()
                .taint("example.com/gpu", "present", "NoSchedule")))
        .levels(ONE_LEVEL)
        .nodeLabels(Map.of("zone", "zone-a"))
        .podSet(ps("").required(HOST).req("cpu", 1000L).count(1)
            .reason("topology \"default\" doesn't allow to fit any of 1 pod(s). Total nodes: 1; excluded: taint "
                + "\"example.com/gpu=present:NoSchedule\": 1")),
    new Case("detailed failure message with exclusion stats")
        .nodes(List.of(
            n("x1").l(HOST, "x1").taint("key", "value", "NoSchedule").alloc("cpu", "1", "pods", "10").ready(),
            n("x2").l(HOST, "x2").l("zone", "zone-b").alloc("cpu", "1", "pods", "10").ready(),
            n("x3").l(HOST, "x3").l("zone", "zone-b").alloc("cpu", "2", "pods", "10").ready(),
            n("x4").l(HOST, "x4").l("zone", "zone-a").alloc("cpu", "100m", "pods", "10").ready()))
        .levels(ONE_LEVEL)
        .podSet(ps("").required(HOST).req("cpu", 1000L).nodeSelector(Map.of("zone", "zone-a")).count(1)
            .reason("topology \"default\" doesn't allow to fit any of 1 pod(s). Total nodes: 4; excluded: "
                + "nodeSelector: 2, resource \"cpu\": 1, taint \"key=value:NoSchedule\": 1")),
    new Case("resource exclusion picks most restrictive resource")
        .nodes(List.of(
            n("dual-shortage").l(HOST, "dual-shortage").alloc("cpu", "500m", "pods", "10", "example.com/gpu", "0")
                .ready()))
        .levels(ONE_LEVEL)
        .podSet(ps("").required(HOST).req("cpu", 1000L).req("example.com/gpu", 1L).count(1)
            .reason("topology \"default\" doesn't allow to fit any of 1 pod(s). Total nodes: 1; excluded: resource "
                + "\"cpu\": 1")),
    new Case("allow to schedule on node with tolerated taint; BestFit")
        .nodes(List.of(
            n("b1-r1-x3").l("zone", "zone-a").l(HOST, "x3").taint("example.com/gpu", "present", "NoSchedule")
                .alloc("cpu", "1", "memory", "1Gi", "pods", "10").ready()))
        .levels(ONE_LEVEL)
        .nodeLabels(Map.of("zone", "zone-a"))
        .podSet(ps("").required(HOST).req("cpu", 1000L).count(1).want(ONE_LEVEL,
                d(1, "x3")).tolerations(Toleration.equal("example.com/gpu", "present", null))),
    new Case("no assignment as node does not have enough allocatable pods (.status.allocatable['pods']); BestFit")
        .nodes(List.of(
            n("b1-r1-x3").l("zone", "zone-a").l(HOST, "x3").alloc("cpu", "1000m", "pods", "1").ready()))
        .pods(pod("b1-r1-x3", "Running", "cpu", "300m"))
        .levels(ONE_LEVEL)
        .nodeLabels(Map.of("zone", "zone-a"))
        .podSet(ps("").required(HOST).req("cpu", 300L).count(1)
            .reason("topology \"default\" doesn't allow to fit any of 1 pod(s). Total nodes: 1; excluded: resource "
                + "\"pods\": 1")),
    new Case("multiple PodSets account assumed pod usage against allocatable pods; BestFit")
        .nodes(List.of(
            n("x1").l(HOST, "x1").alloc("cpu", "2", "pods", "1").ready()))
        .levels(ONE_LEVEL)
        .podSet(ps("one").required(HOST).req("cpu", 1000L).count(1).want(ONE_LEVEL,
                d(1, "x1")))
        .podSet(ps("two").required(HOST).req("cpu", 1000L).count(1)
            .reason("topology \"default\" doesn't allow to fit any of 1 pod(s). Total nodes: 1; excluded: resource "
                + "\"pods\": 1")),
    new Case("skip node which doesn't match node selector, missing label; BestFit")
        .nodes(List.of(
            n("x3").l("zone", "zone-a").l(HOST, "x3").alloc("cpu", "1", "memory", "1Gi", "pods", "10").ready()))
        .levels(ONE_LEVEL)
        .nodeLabels(Map.of("zone", "zone-a"))
        .podSet(ps("").required(HOST).req("cpu", 300L).count(1)
            .reason("topology \"default\" doesn't allow to fit any of 1 pod(s). Total nodes: 1; excluded: "
                + "nodeSelector: 1")
            .nodeSelector(Map.of("custom-label-1", "custom-value-1"))),
    new Case("skip node which doesn't match node selector, label exists, value doesn't match; BestFit")
        .nodes(List.of(
            n("x3").l("zone", "zone-a").l(HOST, "x3").l("custom-label-1", "value-1")
                .alloc("cpu", "1", "memory", "1Gi", "pods", "10").ready()))
        .levels(ONE_LEVEL)
        .nodeLabels(Map.of("zone", "zone-a"))
        .podSet(ps("").required(HOST).req("cpu", 300L).count(1)
            .reason("topology \"default\" doesn't allow to fit any of 1 pod(s). Total nodes: 1; excluded: "
                + "nodeSelector: 1")
            .nodeSelector(Map.of("custom-label-1", "value-2"))),
    new Case("allow to schedule on node which matches node; BestFit")
        .nodes(List.of(
            n("b1-r1-x3").l("zone", "zone-a").l(HOST, "x3").l("custom-label-1", "value-1")
                .alloc("cpu", "1", "memory", "1Gi", "pods", "10").ready(),
            n("b1-r1-x5").l("zone", "zone-a").l(HOST, "x5").l("custom-label-1", "value-2")
                .alloc("cpu", "1", "memory", "1Gi", "pods", "10").ready()))
        .levels(ONE_LEVEL)
        .nodeLabels(Map.of("zone", "zone-a"))
        .podSet(ps("").required(HOST).req("cpu", 1000L).count(1).want(ONE_LEVEL,
                d(1, "x5")).nodeSelector(Map.of("custom-label-1", "value-2"))),
    new Case("block required for podset; host required for slices; BestFit")
        .nodes(List.of(
            n("b1-r1-x3").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x3").alloc("cpu", "3", "pods", "10").ready(),
            n("b1-r1-x5").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x5").alloc("cpu", "3", "pods", "10").ready(),
            n("b1-r1-x1").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x1").alloc("cpu", "3", "pods", "10").ready()))
        .levels(THREE_LEVELS)
        .podSet(ps("").required(BLOCK).slices(HOST, 2).req("cpu", 1000L).count(6).want(ONE_LEVEL,
                d(2, "x1"),
                d(2, "x3"),
                d(2, "x5"))),
    new Case("block required for podset; host required for slices; prioritize more free slice capacity first and then "
        + "tight fit; BestFit")
        .nodes(List.of(
            n("b1-r1-x3").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x3").alloc("cpu", "6", "pods", "10").ready(),
            n("b1-r1-x5").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x5").alloc("cpu", "5", "pods", "10").ready(),
            n("b1-r1-x1").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x1").alloc("cpu", "4", "pods", "10").ready(),
            n("b1-r1-x6").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x6").alloc("cpu", "2", "pods", "10").ready()))
        .levels(THREE_LEVELS)
        .podSet(ps("").required(BLOCK).slices(HOST, 2).req("cpu", 1000L).count(12).want(ONE_LEVEL,
                d(4, "x1"),
                d(6, "x3"),
                d(2, "x6"))),
    new Case("block required for podset; host required for slices; select domains with tight fit; BestFit")
        .nodes(List.of(
            n("b1-r1-x3").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x3").alloc("cpu", "3", "pods", "10").ready(),
            n("b1-r1-x5").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x5").alloc("cpu", "2", "pods", "10").ready(),
            n("b1-r1-x1").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x1").alloc("cpu", "2", "pods", "10").ready()))
        .levels(THREE_LEVELS)
        .podSet(ps("").required(BLOCK).slices(HOST, 2).req("cpu", 1000L).count(4).want(ONE_LEVEL,
                d(2, "x1"),
                d(2, "x5"))),
    new Case("block required for podset; rack required for slices; BestFit")
        .nodes(List.of(
            n("b1-r1-x3").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x3").alloc("cpu", "1", "pods", "10").ready(),
            n("b1-r1-x5").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x5").alloc("cpu", "1", "pods", "10").ready(),
            n("b1-r2-x1").l(BLOCK, "b1").l(RACK, "r2").l(HOST, "x1").alloc("cpu", "1", "pods", "10").ready(),
            n("b1-r2-x6").l(BLOCK, "b1").l(RACK, "r2").l(HOST, "x6").alloc("cpu", "1", "pods", "10").ready(),
            n("b1-r2-x2").l(BLOCK, "b1").l(RACK, "r2").l(HOST, "x2").alloc("cpu", "1", "pods", "10").ready(),
            n("b2-r1-x4").l(BLOCK, "b2").l(RACK, "r1").l(HOST, "x4").alloc("cpu", "1", "pods", "10").ready(),
            n("b2-r1-x7").l(BLOCK, "b2").l(RACK, "r1").l(HOST, "x7").alloc("cpu", "1", "pods", "10").ready()))
        .levels(THREE_LEVELS)
        .podSet(ps("").required(BLOCK).slices(RACK, 2).req("cpu", 1000L).count(4).want(ONE_LEVEL,
                d(1, "x3"),
                d(1, "x5"),
                d(1, "x1"),
                d(1, "x2"))),
    new Case("block preferred for podset; rack required for slices; BestFit")
        .nodes(defaultNodes())
        .levels(THREE_LEVELS)
        .podSet(ps("").preferred(BLOCK).slices(RACK, 2).req("cpu", 1000L).count(4).want(ONE_LEVEL,
                d(1, "x1"),
                d(1, "x5"),
                d(2, "x4"))),
    new Case("block required for podset; host required for slices; optimize last domain; BestFit")
        .nodes(List.of(
            n("b1-r1-x3").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x3").alloc("cpu", "4", "pods", "10").ready(),
            n("b1-r1-x5").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x5").alloc("cpu", "3", "pods", "10").ready(),
            n("b1-r1-x1").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x1").alloc("cpu", "2", "pods", "10").ready()))
        .levels(THREE_LEVELS)
        .podSet(ps("").required(BLOCK).slices(HOST, 2).req("cpu", 1000L).count(6).want(ONE_LEVEL,
                d(2, "x1"),
                d(4, "x3"))),
    new Case("block preferred for podset; host required for slices; 2 blocks with unbalanced subdomains; BestFit")
        .nodes(List.of(
            n("b1-r1-x3").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x3").alloc("cpu", "3", "pods", "10").ready(),
            n("b1-r1-x5").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x5").alloc("cpu", "3", "pods", "10").ready(),
            n("b1-r1-x1").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x1").alloc("cpu", "3", "pods", "10").ready(),
            n("b2-r1-x6").l(BLOCK, "b2").l(RACK, "r1").l(HOST, "x6").alloc("cpu", "6", "pods", "10").ready()))
        .levels(THREE_LEVELS)
        .podSet(ps("").preferred(BLOCK).slices(HOST, 3).req("cpu", 1000L).count(12).want(ONE_LEVEL,
                d(3, "x1"),
                d(3, "x3"),
                d(6, "x6"))),
    new Case("block required for podset; rack required for slices; podset fits in a block, but slices do not fit in "
        + "racks")
        .nodes(List.of(
            n("b1-r1-x3").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x3").alloc("cpu", "2", "pods", "10").ready(),
            n("b1-r2-x5").l(BLOCK, "b1").l(RACK, "r2").l(HOST, "x5").alloc("cpu", "2", "pods", "10").ready(),
            n("b1-r3-x1").l(BLOCK, "b1").l(RACK, "r3").l(HOST, "x1").alloc("cpu", "2", "pods", "10").ready()))
        .levels(THREE_LEVELS)
        .podSet(ps("").required(BLOCK).slices(RACK, 3).req("cpu", 1000L).count(6)
            .reason("topology \"default\" doesn't allow to fit any of 2 slice(s)")),
    new Case("block required for podset; rack required for slices; only 1 out of 2 slices fit the topology")
        .nodes(List.of(
            n("b1-r1-x3").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x3").alloc("cpu", "3", "pods", "10").ready(),
            n("b1-r2-x5").l(BLOCK, "b1").l(RACK, "r2").l(HOST, "x5").alloc("cpu", "1", "pods", "10").ready(),
            n("b1-r3-x1").l(BLOCK, "b1").l(RACK, "r3").l(HOST, "x1").alloc("cpu", "1", "pods", "10").ready(),
            n("b1-r4-x6").l(BLOCK, "b1").l(RACK, "r4").l(HOST, "x6").alloc("cpu", "1", "pods", "10").ready()))
        .levels(THREE_LEVELS)
        .podSet(ps("").required(BLOCK).slices(RACK, 3).req("cpu", 1000L).count(6)
            .reason("topology \"default\" allows to fit only 1 out of 2 slice(s)")),
    new Case("block required for podset; rack required for slices; podset fits in both blocks, but slices fit in only "
        + "one block")
        .nodes(List.of(
            n("b1-r1-x3").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x3").alloc("cpu", "2", "pods", "10").ready(),
            n("b1-r2-x5").l(BLOCK, "b1").l(RACK, "r2").l(HOST, "x5").alloc("cpu", "2", "pods", "10").ready(),
            n("b1-r3-x1").l(BLOCK, "b1").l(RACK, "r3").l(HOST, "x1").alloc("cpu", "2", "pods", "10").ready(),
            n("b2-r4-x6").l(BLOCK, "b2").l(RACK, "r4").l(HOST, "x6").alloc("cpu", "3", "pods", "10").ready(),
            n("b2-r5-x2").l(BLOCK, "b2").l(RACK, "r5").l(HOST, "x2").alloc("cpu", "3", "pods", "10").ready()))
        .levels(THREE_LEVELS)
        .podSet(ps("").required(BLOCK).slices(RACK, 3).req("cpu", 1000L).count(6).want(ONE_LEVEL,
                d(3, "x6"),
                d(3, "x2"))),
    new Case("slice required topology level cannot be above the main required topology level")
        .nodes(defaultNodes())
        .levels(THREE_LEVELS)
        .podSet(ps("").required(HOST).slices(BLOCK, 1).req("cpu", 1000L).count(1)
            .reason("podset slice topology cloud.com/topology-block is above the podset topology "
                + "kubernetes.io/hostname")),
    new Case("cannot request not existing slice topology")
        .nodes(defaultNodes())
        .levels(THREE_LEVELS)
        .podSet(ps("").required(BLOCK).slices("not-existing-topology-level", 1).req("cpu", 1000L).count(1)
            .reason("no requested topology level for slices: not-existing-topology-level")),
    new Case("no topology for podset; host required for slices; BestFit")
        .nodes(List.of(
            n("b1-r1-x3").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x3").alloc("cpu", "3", "pods", "10").ready(),
            n("b1-r1-x5").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x5").alloc("cpu", "3", "pods", "10").ready(),
            n("b1-r1-x1").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x1").alloc("cpu", "3", "pods", "10").ready()))
        .levels(THREE_LEVELS)
        .podSet(ps("").slices(HOST, 2).req("cpu", 1000L).count(6).want(ONE_LEVEL,
                d(2, "x1"),
                d(2, "x3"),
                d(2, "x5"))),
    new Case("no topology for podset; host required for slices; multiple blocks; BestFit")
        .nodes(scatteredNodes())
        .levels(THREE_LEVELS)
        .podSet(ps("").slices(HOST, 2).req("cpu", 1000L).count(6).want(ONE_LEVEL,
                d(4, "x3"),
                d(2, "x6"))),
    new Case("no topology for podset; rack required for slices; multiple blocks; BestFit")
        .nodes(defaultNodes())
        .levels(THREE_LEVELS)
        .podSet(ps("").slices(RACK, 2).req("cpu", 1000L).count(4).want(ONE_LEVEL,
                d(1, "x1"),
                d(1, "x5"),
                d(2, "x4"))),
    new Case("find topology assignment for two podsets with overlapping domain")
        .nodes(List.of(
            n("b1").l(BLOCK, "b1").alloc("cpu", "2", "pods", "10").ready(),
            n("b2").l(BLOCK, "b2").alloc("cpu", "2", "pods", "10").ready(),
            n("b3").l(BLOCK, "b3").alloc("cpu", "2", "pods", "10").ready()))
        .levels(List.of(BLOCK))
        .podSet(ps("podset1").preferred(BLOCK).req("cpu", 1000L).count(3).want(List.of(BLOCK),
                d(2, "b1"),
                d(1, "b2")))
        .podSet(ps("podset2").preferred(BLOCK).req("cpu", 1000L).count(3).want(List.of(BLOCK),
                d(1, "b2"),
                d(2, "b3"))),
    new Case("find topology assignment for two podsets with the same group")
        .nodes(List.of(
            n("b1").l(BLOCK, "b1").alloc("cpu", "2", "example.com/gpu", "2", "memory", "2Gi", "pods", "10").ready(),
            n("b2").l(BLOCK, "b2").alloc("cpu", "5", "example.com/gpu", "4", "pods", "10").ready(),
            n("b3").l(BLOCK, "b3").alloc("cpu", "2", "example.com/gpu", "2", "pods", "10").ready()))
        .levels(List.of(BLOCK))
        .podSet(ps("leader").required(BLOCK).req("cpu", 1000L).group("sameGroup").count(1).want(List.of(BLOCK),
                d(1, "b2")))
        .podSet(ps("workers").required(BLOCK).req("cpu", 1000L).req("example.com/gpu", 1L).group("sameGroup").count(4)
            .want(List.of(BLOCK),
                d(4, "b2"))),
    new Case("find topology assignment for grouped podsets preserves worker capacity when placing leader")
        .nodes(List.of(
            n("h1").l(RACK, "r1").l(HOST, "h1").alloc("cpu", "2", "pods", "10").ready(),
            n("h2").l(RACK, "r1").l(HOST, "h2").alloc("cpu", "4", "pods", "10").ready(),
            n("h3").l(RACK, "r1").l(HOST, "h3").alloc("cpu", "3", "pods", "10").ready()))
        .levels(List.of(RACK, HOST))
        .podSet(ps("leader").required(RACK).req("cpu", 1000L).group("sameGroup").count(1).want(ONE_LEVEL,
                d(1, "h3")))
        .podSet(ps("workers").required(RACK).req("cpu", 2000L).group("sameGroup").count(4).want(ONE_LEVEL,
                d(1, "h1"),
                d(2, "h2"),
                d(1, "h3"))),
    new Case("find topology assignment for sliced grouped podsets preserves worker capacity when placing leader")
        .nodes(List.of(
            n("h1").l(RACK, "r1").l(HOST, "h1").alloc("cpu", "2", "pods", "10").ready(),
            n("h2").l(RACK, "r1").l(HOST, "h2").alloc("cpu", "4", "pods", "10").ready(),
            n("h3").l(RACK, "r1").l(HOST, "h3").alloc("cpu", "3", "pods", "10").ready()))
        .levels(List.of(RACK, HOST))
        .podSet(ps("leader").required(RACK).req("cpu", 1000L).group("sameGroup").count(1).want(ONE_LEVEL,
                d(1, "h3")))
        .podSet(ps("workers").required(RACK).slices(HOST, 2).req("cpu", 1000L).group("sameGroup").count(8)
            .want(ONE_LEVEL,
                d(2, "h1"),
                d(4, "h2"),
                d(2, "h3"))),
    new Case("find topology assignment for preferred grouped podsets preserves capacity across domains")
        .nodes(List.of(
            n("h1").l(HOST, "h1").alloc("cpu", "8", "pods", "10").ready(),
            n("h2").l(HOST, "h2").alloc("cpu", "3", "pods", "10").ready()))
        .levels(ONE_LEVEL)
        .podSet(ps("leader").preferred(HOST).req("cpu", 1000L).group("sameGroup").count(1).want(ONE_LEVEL,
                d(1, "h2")))
        .podSet(ps("workers").preferred(HOST).req("cpu", 2000L).group("sameGroup").count(5).want(ONE_LEVEL,
                d(4, "h1"),
                d(1, "h2"))),
    new Case("find topology assignment for unconstrained grouped podsets spreads leader and worker across domains with "
        + "TASProfileMixed")
        .nodes(List.of(
            n("h1").l(HOST, "h1").alloc("cpu", "1", "pods", "10").ready(),
            n("h2").l(HOST, "h2").alloc("example.com/gpu", "1", "pods", "10").ready()))
        .levels(ONE_LEVEL)
        .podSet(ps("leader").unconstrained().req("cpu", 1000L).group("sameGroup").count(1).want(ONE_LEVEL,
                d(1, "h1")))
        .podSet(ps("workers").unconstrained().req("example.com/gpu", 1L).group("sameGroup").count(1).want(ONE_LEVEL,
                d(1, "h2"))),
    new Case("find topology assignment for grouped podsets preserves leader below the slice level")
        .nodes(List.of(
            n("leader-host").l(RACK, "r1").l(HOST, "leader-host").alloc("cpu", "1", "pods", "10").ready(),
            n("worker-host").l(RACK, "r1").l(HOST, "worker-host").alloc("example.com/gpu", "1", "pods", "10").ready()))
        .levels(List.of(RACK, HOST))
        .podSet(ps("leader").required(RACK).slices(RACK, 1).req("cpu", 1000L).group("sameGroup").count(1)
            .want(ONE_LEVEL,
                d(1, "leader-host")))
        .podSet(ps("workers").required(RACK).slices(RACK, 1).req("example.com/gpu", 1L).group("sameGroup").count(1)
            .want(ONE_LEVEL,
                d(1, "worker-host"))),
    new Case("find topology assignment for two podsets with the same group with domains that can tightly fit leader "
        + "and workers")
        .nodes(List.of(
            n("b1").l(BLOCK, "b1").alloc("cpu", "2", "example.com/gpu", "2", "pods", "10").ready(),
            n("b2").l(BLOCK, "b2").alloc("cpu", "8", "example.com/gpu", "8", "pods", "10").ready(),
            n("b3").l(BLOCK, "b3").alloc("cpu", "2", "example.com/gpu", "2", "pods", "10").ready()))
        .levels(List.of(BLOCK))
        .podSet(ps("leader").required(BLOCK).req("cpu", 1000L).group("sameGroup").count(1).want(List.of(BLOCK),
                d(1, "b2")))
        .podSet(ps("workers").required(BLOCK).req("cpu", 1000L).req("example.com/gpu", 2L).group("sameGroup").count(4)
            .want(List.of(BLOCK),
                d(4, "b2"))),
    new Case("find topology assignment for grouped podsets skips domain where only workers fit without leader")
        .nodes(List.of(
            n("small-used").l(BLOCK, "b1").l(RACK, "small").l(HOST, "small-used").alloc("cpu", "2800m", "pods", "10")
                .ready(),
            n("small-free").l(BLOCK, "b1").l(RACK, "small").l(HOST, "small-free").alloc("cpu", "2800m", "pods", "10")
                .ready(),
            n("large-free").l(BLOCK, "b1").l(RACK, "large").l(HOST, "large-free").alloc("cpu", "6", "pods", "10")
                .ready()))
        .pods(pod("small-used", "Running", "cpu", "2500m"))
        .levels(THREE_LEVELS)
        .podSet(ps("leader").required(RACK).req("cpu", 2500L).group("sameGroup").count(1).want(ONE_LEVEL,
                d(1, "large-free")))
        .podSet(ps("workers").required(RACK).req("cpu", 2500L).group("sameGroup").count(1).want(ONE_LEVEL,
                d(1, "large-free"))),
    new Case("find topology assignment for grouped podsets skips domain where mixed-size workers only fit without "
        + "leader")
        .nodes(List.of(
            n("small-used").l(BLOCK, "b1").l(RACK, "small").l(HOST, "small-used").alloc("cpu", "2800m", "pods", "10")
                .ready(),
            n("small-free").l(BLOCK, "b1").l(RACK, "small").l(HOST, "small-free").alloc("cpu", "2800m", "pods", "10")
                .ready(),
            n("large-free").l(BLOCK, "b1").l(RACK, "large").l(HOST, "large-free").alloc("cpu", "6", "pods", "10")
                .ready()))
        .pods(pod("small-used", "Running", "cpu", "2500m"))
        .levels(THREE_LEVELS)
        .podSet(ps("leader").required(RACK).req("cpu", 2500L).group("sameGroup").count(1).want(ONE_LEVEL,
                d(1, "large-free")))
        .podSet(ps("workers").required(RACK).req("cpu", 500L).group("sameGroup").count(2).want(ONE_LEVEL,
                d(2, "large-free"))),
    new Case("find topology assignment for grouped podsets keeps tight domain when leader and workers fit together")
        .nodes(List.of(
            n("small-used").l(BLOCK, "b1").l(RACK, "small").l(HOST, "small-used").alloc("cpu", "2800m", "pods", "10")
                .ready(),
            n("small-free").l(BLOCK, "b1").l(RACK, "small").l(HOST, "small-free").alloc("cpu", "2800m", "pods", "10")
                .ready(),
            n("large-free").l(BLOCK, "b1").l(RACK, "large").l(HOST, "large-free").alloc("cpu", "6", "pods", "10")
                .ready()))
        .pods(pod("small-used", "Running", "cpu", "2500m"))
        .levels(THREE_LEVELS)
        .podSet(ps("leader").required(RACK).req("cpu", 1000L).group("sameGroup").count(1).want(ONE_LEVEL,
                d(1, "small-free")))
        .podSet(ps("workers").required(RACK).req("cpu", 1000L).group("sameGroup").count(1).want(ONE_LEVEL,
                d(1, "small-free"))),
    new Case("find topology assignment for two podsets with the same group - no fit")
        .nodes(List.of(
            n("b1").l(BLOCK, "b1").alloc("cpu", "1", "example.com/gpu", "0", "pods", "10").ready(),
            n("b2").l(BLOCK, "b2").alloc("cpu", "4", "example.com/gpu", "4", "pods", "10").ready()))
        .levels(List.of(BLOCK))
        .podSet(ps("leader").required(BLOCK).req("cpu", 1000L).group("sameGroup").count(1)
            .reason("topology \"default\" allows to fit only 4 out of 4 pod(s). Total nodes: 2; excluded: resource "
                + "\"example.com/gpu\": 1"))
        .podSet(ps("workers").required(BLOCK).req("cpu", 1000L).req("example.com/gpu", 1L).group("sameGroup").count(4)
            .reason("topology \"default\" allows to fit only 4 out of 4 pod(s). Total nodes: 2; excluded: resource "
                + "\"example.com/gpu\": 1")),
    new Case("find topology assignment for two podsets with the same group - optimizes domain for both leader and "
        + "workers")
        .nodes(List.of(
            n("b1").l(BLOCK, "b1").alloc("cpu", "11", "example.com/gpu", "8", "pods", "10").ready(),
            n("b2").l(BLOCK, "b2").alloc("cpu", "4", "example.com/gpu", "4", "pods", "10").ready()))
        .levels(List.of(BLOCK))
        .podSet(ps("leader").required(BLOCK).req("cpu", 1000L).group("sameGroup").count(1).want(List.of(BLOCK),
                d(1, "b1")))
        .podSet(ps("workers").required(BLOCK).req("cpu", 1000L).req("example.com/gpu", 1L).group("sameGroup").count(4)
            .want(List.of(BLOCK),
                d(4, "b1"))),
    new Case("BestFit: podset group workers spread across hosts")
        .nodes(List.of(
            n("b1-r1-x1").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x1")
                .alloc("cpu", "20", "example.com/gpu", "4", "pods", "10").ready(),
            n("b1-r1-x2").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x2")
                .alloc("cpu", "20", "example.com/gpu", "2", "pods", "10").ready(),
            n("b1-r1-x3").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x3")
                .alloc("cpu", "20", "example.com/gpu", "2", "pods", "10").ready(),
            n("b1-r1-x4").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x4")
                .alloc("cpu", "20", "example.com/gpu", "2", "pods", "10").ready()))
        .levels(THREE_LEVELS)
        .podSet(ps("leader").preferred(BLOCK).req("cpu", 1000L).group("sameGroup").count(1).want(ONE_LEVEL,
                d(1, "x1")))
        .podSet(ps("workers").preferred(BLOCK).slices(HOST, 2).req("cpu", 1000L).req("example.com/gpu", 1L)
            .group("sameGroup").count(6).want(ONE_LEVEL,
                d(4, "x1"),
                d(2, "x2"))),
    new Case("find topology assignment for two podsets with the same group - leader does not fit anywhere")
        .nodes(List.of(
            n("b1").l(BLOCK, "b1").alloc("cpu", "4", "example.com/gpu", "4", "pods", "10").ready(),
            n("b2").l(BLOCK, "b2").alloc("cpu", "4", "example.com/gpu", "4", "pods", "10").ready()))
        .levels(List.of(BLOCK))
        .podSet(ps("leader").required(BLOCK).req("cpu", 10000L).group("sameGroup").count(1)
            .reason("topology \"default\" allows to fit only 4 out of 4 pod(s)"))
        .podSet(ps("workers").required(BLOCK).req("cpu", 1000L).req("example.com/gpu", 1L).group("sameGroup").count(4)
            .reason("topology \"default\" allows to fit only 4 out of 4 pod(s)")),
    new Case("find topology assignment for two podsets with the same group - multiple hosts")
        .nodes(List.of(
            n("b1-r1-x3").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x3")
                .alloc("cpu", "2", "pods", "10", "example.com/gpu", "1").ready(),
            n("b1-r1-x5").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x5")
                .alloc("cpu", "2", "pods", "10", "example.com/gpu", "1").ready(),
            n("b1-r1-x1").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x1")
                .alloc("cpu", "2", "pods", "10", "example.com/gpu", "1").ready(),
            n("b2-r4-x6").l(BLOCK, "b2").l(RACK, "r4").l(HOST, "x6")
                .alloc("cpu", "1", "pods", "10", "example.com/gpu", "1").ready(),
            n("b2-r5-x2").l(BLOCK, "b2").l(RACK, "r5").l(HOST, "x2")
                .alloc("cpu", "2", "pods", "10", "example.com/gpu", "1").ready(),
            n("b2-r6-x4").l(BLOCK, "b2").l(RACK, "r6").l(HOST, "x4")
                .alloc("cpu", "2", "pods", "10", "example.com/gpu", "1").ready()))
        .levels(List.of(BLOCK, RACK, HOST))
        .podSet(ps("leader").required(BLOCK).req("cpu", 2000L).group("sameGroup").count(1).want(List.of(HOST),
                d(1, "x1")))
        .podSet(ps("workers").required(BLOCK).req("cpu", 1000L).req("example.com/gpu", 1L).group("sameGroup").count(2)
            .want(List.of(HOST),
                d(1, "x3"),
                d(1, "x5"))),
    new Case("find topology assignment for two podsets with the same group requesting same resources and nodes in the "
        + "same rack")
        .nodes(List.of(
            n("b1-r1-x3").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x3")
                .alloc("cpu", "1", "pods", "10", "example.com/gpu", "1").ready(),
            n("b1-r1-x5").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x5")
                .alloc("cpu", "1", "pods", "10", "example.com/gpu", "1").ready(),
            n("b1-r2-x1").l(BLOCK, "b1").l(RACK, "r2").l(HOST, "x1")
                .alloc("cpu", "1", "pods", "10", "example.com/gpu", "1").ready(),
            n("b1-r2-x6").l(BLOCK, "b1").l(RACK, "r2").l(HOST, "x6")
                .alloc("cpu", "1", "pods", "10", "example.com/gpu", "1").ready(),
            n("b2-r3-x2").l(BLOCK, "b2").l(RACK, "r3").l(HOST, "x2")
                .alloc("cpu", "1", "pods", "10", "example.com/gpu", "1").ready(),
            n("b2-r3-x4").l(BLOCK, "b2").l(RACK, "r3").l(HOST, "x4")
                .alloc("cpu", "1", "pods", "10", "example.com/gpu", "1").ready(),
            n("b2-r4-x7").l(BLOCK, "b2").l(RACK, "r4").l(HOST, "x7")
                .alloc("cpu", "1", "pods", "10", "example.com/gpu", "1").ready(),
            n("b2-r4-x8").l(BLOCK, "b2").l(RACK, "r4").l(HOST, "x8")
                .alloc("cpu", "1", "pods", "10", "example.com/gpu", "1").ready()))
        .levels(List.of(BLOCK, RACK, HOST))
        .podSet(ps("leader").required(BLOCK).req("cpu", 1000L).req("example.com/gpu", 1L).group("sameGroup").count(1)
            .want(List.of(HOST),
                d(1, "x3")))
        .podSet(ps("workers").required(BLOCK).req("cpu", 1000L).req("example.com/gpu", 1L).group("sameGroup").count(2)
            .want(List.of(HOST),
                d(1, "x5"),
                d(1, "x1"))),
    new Case("multiple podsets: rack required for both, different resource requests; BestFit")
        .nodes(multipodNodeset())
        .levels(TWO_LEVELS)
        .podSet(ps("podset1").required(RACK).req("cpu", 1000L).count(2).want(TWO_LEVELS,
                d(2, "b1", "r1")))
        .podSet(ps("podset2").required(RACK).req("memory", 1024L).count(1).want(TWO_LEVELS,
                d(1, "b1", "r1"))),
    new Case("multiple podsets: block required for one, unconstrained for another; TASProfileMixed")
        .nodes(multipodNodeset())
        .levels(THREE_LEVELS)
        .podSet(ps("podset1").required(BLOCK).req("cpu", 1000L).count(8).want(List.of(HOST),
                d(8, "x2")))
        .podSet(ps("podset2").unconstrained().req("cpu", 1000L).count(2).want(List.of(HOST),
                d(2, "x2"))),
    new Case("temporary state cleanup prevents leakage across PodSets")
        .nodes(List.of(
            n("n1").l(HOST, "x1").alloc("cpu", "4", "memory", "4Gi", "pods", "10").ready(),
            n("n2").l(HOST, "x2").alloc("cpu", "4", "memory", "4Gi", "pods", "10").ready()))
        .levels(List.of(HOST))
        .podSet(ps("ps1").req("cpu", 1000L).req("memory", 1000L).count(1).want(List.of(HOST),
                d(1, "x1")))
        .podSet(ps("ps2").nodeSelector(Map.of("never", "match")).req("cpu", 1000L).req("memory", 1000L).count(1)
            .reason("topology \"default\" doesn't allow to fit any of 1 pod(s). Total nodes: 2; excluded: "
                + "nodeSelector: 2")),
    new Case("multi-layer topology: block required; rack slices of 4; host slices of 2; TASMultiLayerTopology")
        .nodes(List.of(
            n("b1-r1-x1").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x1").alloc("cpu", "1", "pods", "10").ready(),
            n("b1-r1-x2").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x2").alloc("cpu", "4", "pods", "10").ready(),
            n("b1-r2-x3").l(BLOCK, "b1").l(RACK, "r2").l(HOST, "x3").alloc("cpu", "3", "pods", "10").ready(),
            n("b1-r2-x4").l(BLOCK, "b1").l(RACK, "r2").l(HOST, "x4").alloc("cpu", "4", "pods", "10").ready()))
        .levels(THREE_LEVELS)
        .podSet(ps("").required(BLOCK).constraints(c(RACK, 4), c(HOST, 2)).req("cpu", 1000L).count(8).want(ONE_LEVEL,
                d(4, "x2"),
                d(2, "x3"),
                d(2, "x4"))),
    new Case("multi-layer topology: no feature gate; additional layers ignored")
        .nodes(List.of(
            n("b1-r1-x1").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x1").alloc("cpu", "1", "pods", "10").ready(),
            n("b1-r1-x2").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x2").alloc("cpu", "4", "pods", "10").ready(),
            n("b1-r2-x3").l(BLOCK, "b1").l(RACK, "r2").l(HOST, "x3").alloc("cpu", "3", "pods", "10").ready(),
            n("b1-r2-x4").l(BLOCK, "b1").l(RACK, "r2").l(HOST, "x4").alloc("cpu", "4", "pods", "10").ready()))
        .levels(THREE_LEVELS)
        .podSet(ps("").required(BLOCK).slices(RACK, 4).req("cpu", 1000L).count(8).want(ONE_LEVEL,
                d(1, "x1"),
                d(3, "x2"),
                d(3, "x3"),
                d(1, "x4"))),
    new Case("multi-layer topology: mimic a real-world GB200 cluster, with NVL36 arch (2GPUs/node); dc required; "
        + "aizone slices of 48; rack slices of 16; TASMultiLayerTopology")
        .nodes(gb200Nodes())
        .levels(List.of(DC, AIZONE, BLOCK, RACK))
        .podSet(ps("").required(DC).constraints(c(AIZONE, 48), c(RACK, 16)).req("nvidia.com/gpu", 2L).count(96)
            .want(List.of(DC, AIZONE, BLOCK, RACK),
                d(16, "dc0", "aizone0", "block0", "r0"),
                d(16, "dc0", "aizone0", "block0", "r1"),
                d(16, "dc0", "aizone0", "block1", "r2"),
                d(16, "dc0", "aizone1", "block2", "r4"),
                d(16, "dc0", "aizone1", "block2", "r5"),
                d(16, "dc0", "aizone1", "block3", "r6"))),
    new Case("multi-layer topology: host slice rounding makes rack slice impossible")
        .nodes(List.of(
            n("b1-r1-x1").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x1").alloc("cpu", "3", "pods", "10").ready(),
            n("b1-r1-x2").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x2").alloc("cpu", "3", "pods", "10").ready(),
            n("b1-r1-x3").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x3").alloc("cpu", "0", "pods", "10").ready()))
        .levels(THREE_LEVELS)
        .podSet(ps("").required(BLOCK).constraints(c(RACK, 6), c(HOST, 2)).req("cpu", 1000L).count(6)
            .reason("topology \"default\" doesn't allow to fit; 0/1 slice(s) fit on level cloud.com/topology-rack; 2/3 "
                + "slice(s) fit on level kubernetes.io/hostname. Total nodes: 3; excluded: resource \"cpu\": 1")),
    new Case("multi-layer topology: small host kills rack slices despite enough total capacity")
        .nodes(List.of(
            n("b1-r1-x1").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x1").alloc("cpu", "7", "pods", "10").ready(),
            n("b1-r1-x2").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x2").alloc("cpu", "4", "pods", "10").ready(),
            n("b1-r2-x3").l(BLOCK, "b1").l(RACK, "r2").l(HOST, "x3").alloc("cpu", "7", "pods", "10").ready(),
            n("b1-r2-x4").l(BLOCK, "b1").l(RACK, "r2").l(HOST, "x4").alloc("cpu", "3", "pods", "10").ready()))
        .levels(THREE_LEVELS)
        .podSet(ps("").required(BLOCK).constraints(c(RACK, 8), c(HOST, 4)).req("cpu", 1000L).count(16)
            .reason("topology \"default\" doesn't allow to fit; 1/2 slice(s) fit on level cloud.com/topology-rack; 3/4 "
                + "slice(s) fit on level kubernetes.io/hostname")),
    new Case("multi-layer topology: enough hostname slices but not enough rack slices")
        .nodes(List.of(
            n("b1-r1-x1").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x1").alloc("cpu", "4", "pods", "10").ready(),
            n("b1-r2-x2").l(BLOCK, "b1").l(RACK, "r2").l(HOST, "x2").alloc("cpu", "4", "pods", "10").ready(),
            n("b1-r3-x3").l(BLOCK, "b1").l(RACK, "r3").l(HOST, "x3").alloc("cpu", "4", "pods", "10").ready()))
        .levels(THREE_LEVELS)
        .podSet(ps("").required(BLOCK).constraints(c(RACK, 6), c(HOST, 2)).req("cpu", 1000L).count(12)
            .reason("topology \"default\" doesn't allow to fit; 0/2 slice(s) fit on level cloud.com/topology-rack; 6/6 "
                + "slice(s) fit on level kubernetes.io/hostname")),
    new Case("multi-layer topology: 3-layer negative case with small hosts cascading up")
        .nodes(List.of(
            n("dc1-b1-r1-x1").l(DC, "dc1").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x1").alloc("cpu", "4", "pods", "10")
                .ready(),
            n("dc1-b1-r1-x2").l(DC, "dc1").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x2").alloc("cpu", "4", "pods", "10")
                .ready(),
            n("dc1-b1-r2-x3").l(DC, "dc1").l(BLOCK, "b1").l(RACK, "r2").l(HOST, "x3").alloc("cpu", "4", "pods", "10")
                .ready(),
            n("dc1-b1-r2-x4").l(DC, "dc1").l(BLOCK, "b1").l(RACK, "r2").l(HOST, "x4").alloc("cpu", "4", "pods", "10")
                .ready(),
            n("dc1-b2-r3-x5").l(DC, "dc1").l(BLOCK, "b2").l(RACK, "r3").l(HOST, "x5").alloc("cpu", "4", "pods", "10")
                .ready(),
            n("dc1-b2-r3-x6").l(DC, "dc1").l(BLOCK, "b2").l(RACK, "r3").l(HOST, "x6").alloc("cpu", "4", "pods", "10")
                .ready(),
            n("dc1-b2-r4-x7").l(DC, "dc1").l(BLOCK, "b2").l(RACK, "r4").l(HOST, "x7").alloc("cpu", "1", "pods", "10")
                .ready(),
            n("dc1-b2-r4-x8").l(DC, "dc1").l(BLOCK, "b2").l(RACK, "r4").l(HOST, "x8").alloc("cpu", "1", "pods", "10")
                .ready()))
        .levels(concat(List.of(DC), THREE_LEVELS))
        .podSet(ps("").required(DC).constraints(c(BLOCK, 12), c(RACK, 6), c(HOST, 3)).req("cpu", 1000L).count(24)
            .reason("topology \"default\" doesn't allow to fit; 1/2 slice(s) fit on level cloud.com/topology-block; "
                + "3/4 slice(s) fit on level cloud.com/topology-rack; 6/8 slice(s) fit on level "
                    + "kubernetes.io/hostname")),
    new Case("optimize the last domain for LWS using BestFit")
        .nodes(List.of(
            n("dom1-node").l("cloud.com/topology-zone", "dom1").l("cloud.com/topology-rack", "rack1")
                .l(HOST, "dom1-node").alloc("cpu", "10", "memory", "10Gi", "pods", "10").ready(),
            n("dom2-node").l("cloud.com/topology-zone", "dom2").l("cloud.com/topology-rack", "rack2")
                .l(HOST, "dom2-node").alloc("cpu", "6", "memory", "10Gi", "pods", "10").ready()))
        .levels(List.of("cloud.com/topology-zone", "cloud.com/topology-rack", HOST))
        .podSet(ps("leader").required("cloud.com/topology-zone").slices("cloud.com/topology-rack", 1).req("cpu", 1000L)
            .req("memory", 1073741824L).group("lws").count(1).want(List.of(HOST),
                d(1, "dom2-node")))
        .podSet(ps("workers").required("cloud.com/topology-zone").slices("cloud.com/topology-rack", 1).req("cpu", 1000L)
            .req("memory", 1073741824L).group("lws").count(5).want(List.of(HOST),
                d(5, "dom2-node"))),
    new Case("sibling-flavor usage on the shared hostname reduces remaining capacity")
        .nodes(List.of(
            n("b1-x1").l(BLOCK, "b1").l(HOST, "x1").alloc("cpu", "1", "pods", "10").ready(),
            n("b1-x2").l(BLOCK, "b1").l(HOST, "x2").alloc("cpu", "1", "pods", "10").ready()))
        .levels(List.of(BLOCK, HOST))
        .nodeLabels(Map.of())
        .domainUsage(List.of("x1"), 1, "cpu", 1000L)
        .podSet(ps("main").required(HOST).req("cpu", 1000L).count(1).want(List.of(HOST),
                d(1, "x2"))),
    new Case("non-hostname-leaf topology: nil aggregatedDomainUsages preserves per-flavor behavior")
        .nodes(defaultNodes())
        .levels(List.of(BLOCK, RACK))
        .nodeLabels(Map.of())
        .podSet(ps("main").required(RACK).req("cpu", 1000L).count(1).want(List.of(BLOCK, RACK),
                d(1, "b1", "r1"))),
    new Case("non-hostname-leaf topology: prior c.usage must be applied even when aggregatedDomainUsages is non-nil "
        + "empty")
        .nodes(List.of(
            n("b1-r1").l(BLOCK, "b1").l(RACK, "r1").alloc("cpu", "1", "pods", "10").ready(),
            n("b1-r2").l(BLOCK, "b1").l(RACK, "r2").alloc("cpu", "1", "pods", "10").ready(),
            n("b2-r1").l(BLOCK, "b2").l(RACK, "r1").alloc("cpu", "1", "pods", "10").ready(),
            n("b2-r2").l(BLOCK, "b2").l(RACK, "r2").alloc("cpu", "1", "pods", "10").ready()))
        .levels(List.of(BLOCK, RACK))
        .nodeLabels(Map.of())
        .domainUsage(List.of("b1", "r1"), 1, "cpu", 1000L)
        .domainUsage(List.of("b1", "r2"), 1, "cpu", 1000L)
        .podSet(ps("main").required(RACK).req("cpu", 1000L).count(1).want(List.of(BLOCK, RACK),
                d(1, "b2", "r1"))),
    new Case("stable tie break on identical nodes: TASBalancedPlacement disabled")
        .nodes(List.of(
            n("x2").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x2").alloc("cpu", "1", "pods", "10").ready(),
            n("x1").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x1").alloc("cpu", "1", "pods", "10").ready()))
        .levels(THREE_LEVELS)
        .podSet(ps("").required(HOST).req("cpu", 1000L).count(1).want(ONE_LEVEL,
                d(1, "x1"))),
    new Case("stable tie break on identical nodes: reversed order, TASBalancedPlacement disabled")
        .nodes(List.of(
            n("x1").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x1").alloc("cpu", "1", "pods", "10").ready(),
            n("x2").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x2").alloc("cpu", "1", "pods", "10").ready()))
        .levels(THREE_LEVELS)
        .podSet(ps("").required(HOST).req("cpu", 1000L).count(1).want(ONE_LEVEL,
                d(1, "x1"))));
  }

  // ---- upstream's shared node sets ----------------------------------------------------------------------------------

  private static List<N> defaultNodes() {
    return List.of(
            n("b1-r1-x3").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x3").alloc("cpu", "1", "memory", "1Gi", "pods", "10")
                .ready(),
            n("b1-r2-x5").l(BLOCK, "b1").l(RACK, "r2").l(HOST, "x5").alloc("cpu", "1", "memory", "1Gi", "pods", "10")
                .ready(),
            n("b1-r2-x1").l(BLOCK, "b1").l(RACK, "r2").l(HOST, "x1").alloc("cpu", "1", "memory", "1Gi", "pods", "10")
                .ready(),
            n("b1-r2-x6").l(BLOCK, "b1").l(RACK, "r2").l(HOST, "x6").alloc("cpu", "1", "memory", "1Gi", "pods", "10")
                .ready(),
            n("b2-r2-x2").l(BLOCK, "b2").l(RACK, "r1").l(HOST, "x2").alloc("cpu", "1", "memory", "1Gi", "pods", "10")
                .ready(),
            n("b2-r2-x4").l(BLOCK, "b2").l(RACK, "r2").l(HOST, "x4").alloc("cpu", "2", "memory", "4Gi", "pods", "40")
                .ready());
  }

  private static List<N> scatteredNodes() {
    return List.of(
            n("b1-r1-x3").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x3").alloc("cpu", "4", "memory", "1Gi", "pods", "10")
                .ready(),
            n("b1-r1-x5").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x5").alloc("cpu", "1", "memory", "1Gi", "pods", "10")
                .ready(),
            n("b1-r1-x1").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x1").alloc("cpu", "1", "memory", "1Gi", "pods", "10")
                .ready(),
            n("b2-r1-x6").l(BLOCK, "b2").l(RACK, "r1").l(HOST, "x6").alloc("cpu", "2", "memory", "1Gi", "pods", "10")
                .ready(),
            n("b2-r1-x2").l(BLOCK, "b2").l(RACK, "r1").l(HOST, "x2").alloc("cpu", "1", "memory", "1Gi", "pods", "10")
                .ready());
  }

  private static List<N> multipodNodeset() {
    return List.of(
            n("b1-r1-x3").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x3").alloc("cpu", "10", "memory", "1Gi", "pods", "10")
                .ready(),
            n("b1-r2-x5").l(BLOCK, "b1").l(RACK, "r2").l(HOST, "x5").alloc("cpu", "10", "memory", "1Gi", "pods", "10")
                .ready(),
            n("b1-r2-x1").l(BLOCK, "b1").l(RACK, "r2").l(HOST, "x1").alloc("cpu", "10", "memory", "1Gi", "pods", "10")
                .ready(),
            n("b1-r2-x6").l(BLOCK, "b1").l(RACK, "r2").l(HOST, "x6").alloc("cpu", "10", "memory", "1Gi", "pods", "10")
                .ready(),
            n("b2-r1-x2").l(BLOCK, "b2").l(RACK, "r1").l(HOST, "x2").alloc("cpu", "10", "memory", "1Gi", "pods", "10")
                .ready(),
            n("b2-r2-x4").l(BLOCK, "b2").l(RACK, "r2").l(HOST, "x4").alloc("cpu", "20", "memory", "4Gi", "pods", "40")
                .ready());
  }

  private static List<N> binaryTreesNodes() {
    return List.of(
            n("b1-r1-x3").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x3").alloc("cpu", "1", "memory", "1Gi", "pods", "10")
                .ready(),
            n("b1-r1-x5").l(BLOCK, "b1").l(RACK, "r1").l(HOST, "x5").alloc("cpu", "1", "memory", "1Gi", "pods", "10")
                .ready(),
            n("b1-r2-x1").l(BLOCK, "b1").l(RACK, "r2").l(HOST, "x1").alloc("cpu", "1", "memory", "1Gi", "pods", "10")
                .ready(),
            n("b1-r2-x6").l(BLOCK, "b1").l(RACK, "r2").l(HOST, "x6").alloc("cpu", "1", "memory", "1Gi", "pods", "10")
                .ready(),
            n("b2-r1-x2").l(BLOCK, "b2").l(RACK, "r1").l(HOST, "x2").alloc("cpu", "1", "memory", "1Gi", "pods", "10")
                .ready(),
            n("b2-r1-x4").l(BLOCK, "b2").l(RACK, "r1").l(HOST, "x4").alloc("cpu", "1", "memory", "1Gi", "pods", "10")
                .ready(),
            n("b2-r2-x7").l(BLOCK, "b2").l(RACK, "r2").l(HOST, "x7").alloc("cpu", "1", "memory", "1Gi", "pods", "10")
                .ready(),
            n("b2-r2-x8").l(BLOCK, "b2").l(RACK, "r2").l(HOST, "x8").alloc("cpu", "1", "memory", "1Gi", "pods", "10")
                .ready());
  }

  /** 1 dc × 2 aizones × 2 blocks × 2 racks, 18 nodes of 2 GPUs per rack (upstream builds them in a loop). */
  private static List<N> gb200Nodes() {
    String[][] racks = {
      {"aizone0", "block0", "r0"}, {"aizone0", "block0", "r1"}, {"aizone0", "block1", "r2"},
      {"aizone0", "block1", "r3"}, {"aizone1", "block2", "r4"}, {"aizone1", "block2", "r5"},
      {"aizone1", "block3", "r6"}, {"aizone1", "block3", "r7"}};
    List<N> out = new ArrayList<>();
    for (String[] r : racks) {
      for (int i = 0; i < 18; i++) {
        out.add(n(r[1] + "-" + r[2] + "-" + r[0] + "-n" + i).l(DC, "dc0").l(AIZONE, r[0]).l(BLOCK, r[1]).l(RACK, r[2])
            .alloc("nvidia.com/gpu", "2", "pods", "110").ready());
      }
    }
    return out;
  }

  // ---- the cases' vocabulary ----------------------------------------------------------------------------------------

  static <T> List<T> concat(List<T> a, List<T> b) {
    List<T> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }

  static N n(String name) {
    return new N(name);
  }

  static PS ps(String name) {
    return new PS(name);
  }

  static SliceConstraint c(String topology, int size) {
    return new SliceConstraint(topology, size);
  }

  static TopologyAssignment.Domain d(int count, String... values) {
    return TopologyAssignment.Domain.of(count, values);
  }

  /** A pod bound to {@code node} ({@code ""}: not scheduled) in {@code phase}, requesting {@code kv}. */
  static Pod pod(String node, String phase, String... kv) {
    ResourceList.Builder r = ResourceList.builder();
    for (int i = 0; i < kv.length; i += 2) {
      r.put(kv[i], kv[i + 1]);
    }
    return Pod.builder().name("p").container("c", "img", r.build()).nodeName(node).phase(PodPhase.valueOf(phase))
        .build();
  }

  /** A node under construction. */
  static final class N {
    private final Node.Builder b;

    N(String name) {
      b = Node.builder().name(name);
    }

    N l(String key, String value) {
      b.label(key, value);
      return this;
    }

    N alloc(String... kv) {
      ResourceList.Builder r = ResourceList.builder();
      for (int i = 0; i < kv.length; i += 2) {
        r.put(kv[i], kv[i + 1]);
      }
      b.allocatable(r.build());
      return this;
    }

    N ready() {
      b.ready();
      return this;
    }

    /** Upstream's {@code NotReady()}: a {@code Ready=False} condition (the node does not count). */
    N notReady() {
      b.condition(io.fleetkit.api.core.NodeCondition.of(io.fleetkit.api.core.NodeCondition.READY,
          io.fleetkit.api.meta.ConditionStatus.False));
      return this;
    }

    N unschedulable() {
      b.unschedulable(true);
      return this;
    }

    N taint(String key, String value, String effect) {
      b.taint(Taint.of(key, value, TaintEffect.valueOf(effect)));
      return this;
    }

    Node build() {
      return b.build();
    }
  }

  /** A pod set of a case, with its expected result. */
  static final class PS {
    final String name;
    private @Nullable String required;
    private @Nullable String preferred;
    private boolean unconstrained;
    private @Nullable String group;
    private List<SliceConstraint> slices = List.of();
    private final ResourceList.Builder requests = ResourceList.builder();
    private int count;
    private Map<String, String> nodeSelector = Map.of();
    private List<Toleration> tolerations = List.of();
    @Nullable TopologyAssignment want;
    String reason = "";

    PS(String name) {
      this.name = name;
    }

    PS required(String level) {
      required = level;
      return this;
    }

    PS preferred(String level) {
      preferred = level;
      return this;
    }

    PS unconstrained() {
      unconstrained = true;
      return this;
    }

    PS group(String name) {
      group = name;
      return this;
    }

    PS slices(String level, int size) {
      slices = List.of(new SliceConstraint(level, size));
      return this;
    }

    PS constraints(SliceConstraint... constraints) {
      slices = List.of(constraints);
      return this;
    }

    /** A request in Kueue's units: cpu in milli-units, everything else in units. */
    PS req(String resource, long value) {
      requests.put(resource, resource.equals(ResourceNames.CPU) ? Quantity.ofMilli(value) : Quantity.of(value));
      return this;
    }

    PS count(int count) {
      this.count = count;
      return this;
    }

    PS nodeSelector(Map<String, String> selector) {
      nodeSelector = selector;
      return this;
    }

    PS tolerations(Toleration... tolerations) {
      this.tolerations = List.of(tolerations);
      return this;
    }

    PS want(List<String> levels, TopologyAssignment.Domain... domains) {
      want = new TopologyAssignment(levels, List.of(domains));
      return this;
    }

    PS reason(String reason) {
      this.reason = reason;
      return this;
    }

    TopologyAssigner.Request request() {
      boolean any = required != null || preferred != null || unconstrained || group != null || !slices.isEmpty();
      PodSetTopologyRequest tr = any
          ? new PodSetTopologyRequest(required, preferred, unconstrained, group, slices) : null;
      return new TopologyAssigner.Request(name, requests.build(), count, tr, nodeSelector, null, tolerations);
    }
  }

  /** One upstream case. */
  static final class Case {
    final String name;
    List<N> nodes = List.of();
    List<Pod> pods = List.of();
    List<String> levels = List.of();
    Map<String, String> nodeLabels = Map.of();
    final Map<String, ResourceList> domainUsage = new LinkedHashMap<>();
    final List<PS> podSets = new ArrayList<>();

    Case(String name) {
      this.name = name;
    }

    Case nodes(List<N> nodes) {
      this.nodes = nodes;
      return this;
    }

    Case pods(Pod... pods) {
      this.pods = List.of(pods);
      return this;
    }

    Case levels(List<String> levels) {
      this.levels = levels;
      return this;
    }

    Case nodeLabels(Map<String, String> labels) {
      nodeLabels = labels;
      return this;
    }

    /** Usage of an earlier topology assignment: {@code count} pods of {@code kv} (Kueue units) in one domain. */
    Case domainUsage(List<String> values, int count, Object... kv) {
      ResourceList.Builder r = ResourceList.builder();
      for (int i = 0; i < kv.length; i += 2) {
        String res = (String) kv[i];
        long v = (Long) kv[i + 1] * count;
        r.put(res, res.equals(ResourceNames.CPU) ? Quantity.ofMilli(v) : Quantity.of(v));
      }
      r.put(ResourceNames.PODS, Quantity.of(count));
      domainUsage.merge(String.join(",", values), r.build(), ResourceList::add);
      return this;
    }

    Case podSet(PS ps) {
      podSets.add(ps);
      return this;
    }

    @Override
    public String toString() {
      return name;
    }
  }
}
