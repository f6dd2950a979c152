package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.Violation;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.simulation.ScenarioQueue;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The queues of a scenario taken together: a flavor is one set of nodes, so every queue defines it alike. */
final class QueueEnginesCheckTest {
  private static final ResourceList QUOTA = ResourceList.ofCpuMemory(4000, 1L << 30);

  @Test
  void flavorDefinedAlikeTwice_noViolation() {
    ScenarioQueue a = new ScenarioQueue("a", List.of("ml"), null, "gpu", Map.of("pool", "gpu"), QUOTA);
    ScenarioQueue b = new ScenarioQueue("b", List.of("ci"), null, "gpu", Map.of("pool", "gpu"), QUOTA);

    assertThat(QueueEngines.check("Scenario s", List.of(a, b))).isEmpty();
  }

  @Test
  void flavorDefinedWithOtherLabels_violationNamesTheLaterQueuesField() {
    ScenarioQueue a = new ScenarioQueue("a", List.of("ml"), null, "gpu", Map.of("pool", "gpu"), QUOTA);
    ScenarioQueue b = new ScenarioQueue("b", List.of("ci"), null, "cpu", Map.of(), QUOTA);
    ScenarioQueue c = new ScenarioQueue("c", List.of("ci"), null, "gpu", Map.of("pool", "a100"), QUOTA);

    List<Violation> v = QueueEngines.check("Scenario s", List.of(a, b, c));

    assertThat(v).containsExactly(new Violation("Scenario s", "spec.queues[2].flavor.nodeLabels",
        "must be those flavor gpu has in an earlier queue, {pool=gpu}", "{pool=a100}"));
  }
}
