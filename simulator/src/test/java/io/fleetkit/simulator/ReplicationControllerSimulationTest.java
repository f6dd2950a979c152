package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.ReplicationController;
import io.fleetkit.api.resource.ResourceList;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A ReplicationController in a simulation: the replication manager runs its pods (scheduled, Ready, counted in its
 * status), the timeline names it on a scale-down, and deleting it orphans its pods (v1's default policy).
 */
final class ReplicationControllerSimulationTest {

  static ReplicationController rc(int replicas) {
    return ReplicationController.builder().name("frontend").replicas(replicas).template(Map.of("app", "frontend"),
        PodSpec.builder().container("php", "gb-frontend:v4", ResourceList.ofCpuMemory(500, 0)).build()).build();
  }

  @Test
  void replicationController_podsRun_scaleDownNamedInTimeline_deletionOrphans() {
    try (Simulation sim = Simulation.builder().objects(SimFixtures.nodes(2)).object(rc(3)).seed(1).build()) {
      sim.runFor(Duration.ofSeconds(10));
      List<Pod> ready = SimFixtures.readyPods(sim, "frontend");
      assertThat(ready).hasSize(3).allSatisfy(p -> {
        assertThat(p.spec().nodeName()).startsWith("node-");
        assertThat(p.metadata().controllerRef().kind()).isEqualTo("ReplicationController");
      });
      ReplicationController cur = sim.store().require(ReplicationController.class, "default", "frontend");
      assertThat(cur.status().readyReplicas()).isEqualTo(3);
      assertThat(cur.status().availableReplicas()).isEqualTo(3);
      assertThat(sim.timeline()).filteredOn(e -> e.kind().equals("ReplicationControllerStatus"))
          .extracting(TimelineEvent::message).contains("3/3 ready");

      sim.store().update(cur.withSpec(cur.spec().withReplicas(1)));
      sim.runFor(Duration.ofSeconds(40));
      assertThat(SimFixtures.readyPods(sim, "frontend")).hasSize(1);
      assertThat(sim.timeline()).filteredOn(e -> e.kind().equals("PodDeleted")).hasSize(2)
          .extracting(TimelineEvent::message).containsOnly("by ReplicationController/frontend, scaled from 3 to 1");

      String survivor = SimFixtures.readyPods(sim, "frontend").get(0).metadata().name();
      sim.store().delete(ReplicationController.class, "default", "frontend");
      sim.runFor(Duration.ofSeconds(10));
      assertThat(sim.store().get(ReplicationController.class, "default", "frontend")).isEmpty();
      Pod orphan = sim.store().require(Pod.class, "default", survivor);
      assertThat(orphan.metadata().deletionTimestamp()).as("orphaned, not deleted").isNull();
      assertThat(orphan.metadata().ownerReferences()).isEmpty();
    }
  }
}
