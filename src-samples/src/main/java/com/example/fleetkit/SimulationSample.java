package com.example.fleetkit;

import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.simulator.Simulation;
import io.fleetkit.simulator.WorkloadSummary;
import java.time.Duration;
import java.util.Map;

/**
 * A whole-cluster simulation driven from Java: three nodes, a Deployment of six replicas, one node failing at
 * minute 2; the controllers, the scheduler and the simulated kubelets heal it on the simulated clock.
 */
public final class SimulationSample {
  private SimulationSample() {}

  public static void main(String[] args) {
    Simulation.Builder b = Simulation.builder().seed(42);
    for (int i = 1; i <= 3; i++) {
      b.object(Node.builder().name("node-" + i)
          .capacity(ResourceList.builder().put("cpu", "4").put("memory", "16Gi").put("pods", "110").build())
          .ready().build());
    }
    b.object(Deployment.builder().namespace("default").name("web").replicas(6).matchLabels(Map.of("app", "web"))
        .podSpec(PodSpec.builder().container("web", "example/web:1", ResourceList.ofCpuMemory(500, 0)).build())
        .build());
    b.failNode("node-1", Duration.ofMinutes(2));
    try (Simulation sim = b.build()) {
      sim.runFor(Duration.ofMinutes(15));
      for (WorkloadSummary w : sim.summary().deployments()) {
        System.out.println(w.name() + " ready " + w.ready() + "/" + w.replicas() + " after " + sim.elapsed());
      }
    }
  }
}
