package io.fleetkit.queueing.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.NodeSelector;
import io.fleetkit.api.scheduling.NodeSelectorOperator;
import io.fleetkit.api.scheduling.NodeSelectorRequirement;
import io.fleetkit.api.scheduling.NodeSelectorTerm;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.queueing.PodSetTopologyRequest;
import io.fleetkit.queueing.ResourceFlavor;
import io.fleetkit.queueing.Topology;
import io.fleetkit.queueing.TopologyAssignment;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the upstream tables leave out: required node affinity, taints on a topology without hosts, pod usage. */
final class TopologyAssignerTest {
  private static final String RACK = "example.com/rack";
  private static final String HOST = Topology.HOSTNAME_LABEL;
  private static final ResourceList CPU1 = ResourceList.builder().put("cpu", "1").build();

  private static Node node(String name, String rack, String zone) {
    return Node.builder().name(name).label(RACK, rack).label(HOST, name).label("zone", zone)
        .allocatable(ResourceList.builder().put("cpu", "2").put("pods", "10").build()).ready().build();
  }

  @Test
  void requiredNodeAffinity_excludesNodesAndCountsThemInTheMessage() {
    NodeSelector zoneA = new NodeSelector(List.of(new NodeSelectorTerm(List.of(
        new NodeSelectorRequirement("zone", NodeSelectorOperator.In, List.of("a"))), List.of())));
    TopologyAssigner a = new TopologyAssigner(Topology.of("t", RACK, HOST), ResourceFlavor.of("f"),
        List.of(node("x1", "r1", "a"), node("x2", "r1", "b")), Map.of(), Map.of());

    TopologyAssigner.Result r = a.assign(List.of(new TopologyAssigner.Request("main", CPU1, 3,
        PodSetTopologyRequest.ofRequired(RACK), Map.of(), zoneA, List.of()))).get("main");

    assertThat(r.assignment()).isNull();
    assertThat(r.failureReason()).isEqualTo(
        "topology \"t\" allows to fit only 2 out of 3 pod(s). Total nodes: 2; excluded: affinity: 1");
  }

  @Test
  void topologyWithoutHosts_doesNotFilterByTaints_andGivesFullPaths() {
    Node tainted = Node.builder().name("n1").label(RACK, "r1").taint(Taint.of("k", "v", TaintEffect.NoSchedule))
        .allocatable(ResourceList.builder().put("cpu", "2").put("pods", "10").build()).ready().build();
    TopologyAssigner a = new TopologyAssigner(Topology.of("t", RACK), ResourceFlavor.of("f"), List.of(tainted),
        Map.of(), Map.of());

    TopologyAssigner.Result r = a.assign(List.of(TopologyAssigner.Request.of("main", CPU1, 2,
        PodSetTopologyRequest.ofRequired(RACK)))).get("main");

    assertThat(r.assignment()).isEqualTo(new TopologyAssignment(List.of(RACK),
        List.of(TopologyAssignment.Domain.of(2, "r1"))));
  }

  @Test
  void notReadyUnschedulableAndUnlabelledNodes_doNotCount() {
    Node notReady = Node.builder().name("n1").label(RACK, "r1").label(HOST, "n1")
        .allocatable(ResourceList.builder().put("cpu", "8").put("pods", "10").build()).build();
    Node cordoned = Node.builder().name("n2").label(RACK, "r1").label(HOST, "n2").unschedulable(true)
        .allocatable(ResourceList.builder().put("cpu", "8").put("pods", "10").build()).ready().build();
    Node noRack = Node.builder().name("n3").label(HOST, "n3")
        .allocatable(ResourceList.builder().put("cpu", "8").put("pods", "10").build()).ready().build();
    TopologyAssigner a = new TopologyAssigner(Topology.of("t", RACK, HOST), ResourceFlavor.of("f"),
        List.of(notReady, cordoned, noRack), Map.of(), Map.of());

    TopologyAssigner.Result r = a.assign(List.of(TopologyAssigner.Request.of("main", CPU1, 1,
        PodSetTopologyRequest.ofUnconstrained()))).get("main");

    assertThat(r.failureReason()).isEqualTo("no topology domains at level: " + HOST);
  }

  @Test
  void usedByPods_countsBoundPodsThatDidNotFinish_withOnePodEach() {
    ResourceList req = ResourceList.builder().put("cpu", "500m").build();
    List<Pod> pods = List.of(
        Pod.builder().name("a").container("c", "i", req).nodeName("n1").phase(PodPhase.Running).build(),
        Pod.builder().name("b").container("c", "i", req).nodeName("n1").phase(PodPhase.Pending).build(),
        Pod.builder().name("c").container("c", "i", req).nodeName("n1").phase(PodPhase.Succeeded).build(),
        Pod.builder().name("d").container("c", "i", req).phase(PodPhase.Pending).build());

    assertThat(TopologyAssigner.usedByPods(pods))
        .isEqualTo(Map.of("n1", ResourceList.builder().put("cpu", "1").put("pods", "2").build()));
  }
}
