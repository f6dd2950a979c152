package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.resource.ResourceList;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * {@link NodeCost} prices each node from its creation to its deletion at its pool's price, to the millisecond,
 * however seldom it is read.
 */
final class NodeCostTest {
  private static NodePool pool(String name, double price) {
    return NodePool.builder().name(name).capacity(ResourceList.builder().put("cpu", "4").put("memory", "8Gi")
        .put("pods", "110").build()).minSize(0).maxSize(5).pricePerHour(price).build();
  }

  private static Node node(String name, String pool) {
    Node.Builder b = Node.builder().name(name).capacity(ResourceList.builder().put("cpu", "4").put("memory", "8Gi")
        .put("pods", "110").build());
    if (!pool.isEmpty()) {
      b.label(NodePool.POOL_LABEL, pool);
    }
    return b.build();
  }

  @Test
  void eachNodeFromCreationToDeletion_atItsPoolsPrice_readOnceAnHour() {
    try (Simulation sim = Simulation.builder().object(pool("general", 2.0)).object(pool("gpu", 10.0))
        .object(node("a", "general")).object(node("free", "")).build()) {
      NodeCost cost = new NodeCost(sim.store(), sim.clock()::now, sim.clock().now());
      assertThat(cost.total()).isZero();
      sim.runFor(Duration.ofMinutes(30));
      sim.store().create(node("g", "gpu")); // from 0:30
      sim.runFor(Duration.ofMinutes(15));
      sim.store().delete(Node.class, "", "a"); // at 0:45, between two reads
      sim.runFor(Duration.ofSeconds(90));
      sim.store().create(node("b", "general")); // 0:46:30, deleted 0:50 before any read
      sim.runFor(Duration.ofSeconds(210));
      sim.store().delete(Node.class, "", "b");
      sim.runFor(Duration.ofMinutes(10));
      // a: 45 min at 2 $/h; g: 30 min at 10 $/h; b: 3.5 min at 2 $/h; the node of no pool: nothing
      assertThat(cost.total()).isCloseTo(1.5 + 5.0 + 2.0 * 3.5 / 60, within(1e-9));
      sim.runFor(Duration.ofHours(1));
      assertThat(cost.total()).isCloseTo(1.5 + 5.0 + 2.0 * 3.5 / 60 + 10.0, within(1e-9));
      cost.close();
    }
  }

  @Test
  void readEveryMinuteOrOnceAtTheEnd_theSameTotal() {
    double[] totals = new double[2];
    for (int run = 0; run < 2; run++) {
      try (Simulation sim = Simulation.builder().object(pool("general", 0.19)).object(node("a", "general"))
          .build()) {
        NodeCost cost = new NodeCost(sim.store(), sim.clock()::now, sim.clock().now());
        for (int minute = 1; minute <= 90; minute++) {
          sim.runFor(Duration.ofSeconds(37));
          if (minute == 20) {
            sim.store().create(node("b", "general"));
          }
          if (minute == 61) {
            sim.store().delete(Node.class, "", "a");
          }
          if (run == 0) {
            cost.total();
          }
        }
        totals[run] = cost.total();
        cost.close();
      }
    }
    // a for 61 x 37 s, b from the end of step 20 to the end of step 90: 70 x 37 s
    assertThat(totals[0]).isCloseTo(0.19 * (61 + 70) * 37 / 3600, within(1e-9));
    assertThat(totals[1]).isCloseTo(totals[0], within(1e-9));
  }
}
