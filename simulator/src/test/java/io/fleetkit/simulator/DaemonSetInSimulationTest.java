package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.ControllerRevision;
import io.fleetkit.api.apps.DaemonSet;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A scenario with a DaemonSet runs the DaemonSet controller: one pod per eligible node, bound there by the scheduler. */
final class DaemonSetInSimulationTest {

  @Test
  void daemonSet_onePodPerNodeScheduledThere_taintedNodeSkipped() {
    List<Node> nodes = new ArrayList<>(SimFixtures.nodes(3));
    Node tainted = nodes.get(2).toBuilder().taint(Taint.of("dedicated", "db", TaintEffect.NoSchedule)).build();
    nodes.set(2, tainted);
    DaemonSet agent = DaemonSet.builder().name("agent").matchLabels(Map.of("app", "agent"))
        .podSpec(PodSpec.builder().container("agent", "agent:1", ResourceList.EMPTY).build()).build();
    try (Simulation sim = Simulation.builder().objects(nodes).object(agent).seed(1).build()) {
      sim.runFor(Duration.ofSeconds(10));

      List<Pod> pods = sim.store().list(Pod.class, "default").items();
      assertThat(pods).extracting(p -> p.spec().nodeName()).containsExactlyInAnyOrder(
          nodes.get(0).name(), nodes.get(1).name());
      DaemonSet status = sim.store().require(DaemonSet.class, "default", "agent");
      assertThat(status.status().desiredNumberScheduled()).isEqualTo(2);
      assertThat(status.status().currentNumberScheduled()).isEqualTo(2);
      assertThat(status.status().numberReady()).isEqualTo(2);
    }
  }

  /** Deleting the DaemonSet deletes its pods and its ControllerRevisions: the garbage collector follows DaemonSets. */
  @Test
  void daemonSetDeleted_itsPodsAndRevisionsCollected() {
    DaemonSet agent = DaemonSet.builder().name("agent").matchLabels(Map.of("app", "agent"))
        .podSpec(PodSpec.builder().container("agent", "agent:1", ResourceList.EMPTY).build()).build();
    try (Simulation sim = Simulation.builder().objects(SimFixtures.nodes(2)).object(agent).seed(1).build()) {
      sim.runFor(Duration.ofSeconds(10));
      assertThat(sim.store().list(Pod.class, "default").items()).hasSize(2);
      assertThat(sim.store().list(ControllerRevision.class, "default").items()).isNotEmpty();

      sim.store().delete(DaemonSet.class, "default", "agent");
      sim.runFor(Duration.ofMinutes(1));

      assertThat(sim.store().list(Pod.class, "default").items()).isEmpty();
      assertThat(sim.store().list(ControllerRevision.class, "default").items()).isEmpty();
    }
  }
}
