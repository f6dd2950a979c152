package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.reconcile.node.PodGcController;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** kube-controller-manager's pod GC in a simulation: the pods of a deleted node are collected and replaced. */
final class SimulationPodGcTest {

  private static List<Pod> podsOn(Simulation sim, String node) {
    return sim.store().list(Pod.class, "", (Pod p) -> p.spec().nodeName().equals(node)).items();
  }

  @Test
  void deletedNode_itsPodsAreCollectedAfterTheQuarantine_andReplacedElsewhere() {
    try (Simulation sim = Simulation.builder().objects(SimFixtures.nodes(2))
        .object(SimFixtures.deployment("web", 4)).seed(1).build()) {
      sim.runFor(Duration.ofSeconds(5));
      int onDeleted = podsOn(sim, "node-1").size();
      assertThat(onDeleted).isPositive();
      sim.store().delete(Node.class, "", "node-1"); // as a cluster autoscaler removes a node
      sim.settle();

      // passes every 20 s from the start: the one at 20 s quarantines node-1 until 60 s, the one at 60 s collects
      sim.runFor(Duration.ofSeconds(54));
      assertThat(podsOn(sim, "node-1")).hasSize(onDeleted);
      sim.runFor(Duration.ofSeconds(1));
      assertThat(podsOn(sim, "node-1")).isEmpty();
      assertThat(sim.podGarbageCollector()).get().extracting(PodGcController::deletedCount)
          .isEqualTo((long) onDeleted);
      assertThat(sim.timeline()).filteredOn(e -> e.kind().equals("PodEvicted"))
          .extracting(TimelineEvent::message).containsOnly("from node-1 (DeletionByPodGC)").hasSize(onDeleted);
      boolean healed = sim.runUntil(s -> SimFixtures.readyPods(s, "web").size() == 4, Duration.ofSeconds(30));
      assertThat(healed).isTrue();
      assertThat(SimFixtures.readyPods(sim, "web")).extracting(p -> p.spec().nodeName()).containsOnly("node-2");
    }
  }

  @Test
  void withoutPodGarbageCollector_thePodsOfADeletedNodeStay() {
    try (Simulation sim = Simulation.builder().objects(SimFixtures.nodes(2))
        .object(SimFixtures.deployment("web", 4)).seed(1).withoutPodGarbageCollector().build()) {
      sim.runFor(Duration.ofSeconds(5));
      int onDeleted = podsOn(sim, "node-1").size();
      sim.store().delete(Node.class, "", "node-1");
      sim.runFor(Duration.ofMinutes(10));
      assertThat(podsOn(sim, "node-1")).hasSize(onDeleted);
      assertThat(sim.podGarbageCollector()).isEmpty();
    }
  }
}
