package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeCondition;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.autoscale.cluster.simulator.SimulatedNodes;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A node an autoscaler launches is in the store from its launch, NotReady until its machine has started. Its kubelet
 * renews the node's Lease from then on, so the node lifecycle controller sees a starting node that heartbeats: it stays
 * {@code Ready=False (KubeletNotReady)} and is never marked {@code Unknown} nor tainted unreachable while it starts,
 * however long that takes.
 */
final class StartingNodeTest {

  private static Node starting(Simulation sim, String name, Duration startup) {
    Node n = Node.builder().name(name).capacity(ResourceList.builder().put("cpu", "4").put("memory", "16Gi")
        .put("pods", "110").build()).build();
    return SimulatedNodes.launched(n, sim.clock().now(), startup);
  }

  private static List<TimelineEvent> about(Simulation sim, String node) {
    return sim.timeline().stream().filter(e -> e.object().equals("Node/" + node)).toList();
  }

  @Test
  void aNodeStartingForEightMinutes_staysNotReady_neverUnknown_thenGetsItsKubelet() {
    try (Simulation sim = Simulation.builder().objects(SimFixtures.nodes(1)).build()) {
      sim.store().create(starting(sim, "gpu-1", Duration.ofMinutes(8)));
      sim.settle();
      sim.runFor(Duration.ofMinutes(7)); // far past the 40 s grace period without a Ready kubelet
      Node n = sim.store().require(Node.class, "", "gpu-1");
      NodeCondition ready = n.status().condition(NodeCondition.READY);
      assertThat(ready.status()).isEqualTo(ConditionStatus.False);
      assertThat(ready.reason()).isEqualTo("KubeletNotReady");
      assertThat(n.spec().taints()).extracting(t -> t.key()).doesNotContain(SimulatedNodes.UNREACHABLE_TAINT);
      assertThat(about(sim, "gpu-1")).extracting(TimelineEvent::kind).doesNotContain("NodeUnreachable");
      assertThat(sim.agents()).doesNotContainKey("gpu-1");

      // Ready (as the autoscaler that launched it marks it): a kubelet now runs its pods
      SimulatedNodes.markReady(sim.store(), sim.store().require(Node.class, "", "gpu-1"), sim.clock().now());
      sim.settle();
      assertThat(sim.agents()).containsKey("gpu-1");
      sim.runFor(Duration.ofMinutes(10));
      assertThat(sim.store().require(Node.class, "", "gpu-1").isReady()).isTrue();
      assertThat(about(sim, "gpu-1")).extracting(TimelineEvent::kind).doesNotContain("NodeUnreachable")
          .contains("NodeStarted");
    }
  }

  @Test
  void aStartingNodeDeletedBeforeItIsReady_andLaunchedAgain_isNeverTakenForADeadOne() {
    try (Simulation sim = Simulation.builder().objects(SimFixtures.nodes(1)).build()) {
      sim.store().create(starting(sim, "gpu-1", Duration.ofMinutes(8)));
      sim.runFor(Duration.ofMinutes(2));
      sim.store().delete(Node.class, "", "gpu-1");
      sim.runFor(Duration.ofMinutes(2));
      // the same name launched again, later: its kubelet registers anew and the node is never taken for a dead one
      sim.store().create(starting(sim, "gpu-1", Duration.ofMinutes(8)));
      sim.runFor(Duration.ofMinutes(5));
      Node n = sim.store().require(Node.class, "", "gpu-1");
      assertThat(n.status().condition(NodeCondition.READY).status()).isEqualTo(ConditionStatus.False);
      assertThat(about(sim, "gpu-1")).extracting(TimelineEvent::kind).doesNotContain("NodeUnreachable");
    }
  }
}
