package io.fleetkit.simulator;

import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.reconcile.controllers.ActivePods;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Test objects: nodes with 4 CPUs, a Deployment of 500m pods. */
final class SimFixtures {
  private SimFixtures() {}

  static List<Node> nodes(int n) {
    List<Node> out = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      out.add(Node.builder().name("node-" + i).capacity(ResourceList.builder().put("cpu", "4").put("memory", "8Gi")
          .put("pods", "110").build()).build());
    }
    return out;
  }

  static Deployment deployment(String name, int replicas) {
    return Deployment.builder().namespace("default").name(name).replicas(replicas)
        .matchLabels(Map.of("app", name))
        .podSpec(PodSpec.builder().container("app", "nginx:1", ResourceList.ofCpuMemory(500, 0)).build())
        .build();
  }

  /** Active, bound and Ready pods of the Deployment (by its app label). */
  static List<Pod> readyPods(Simulation sim, String app) {
    return sim.store().list(Pod.class, "default", (Pod p) -> app.equals(p.metadata().labels().get("app"))
        && ActivePods.isActive(p) && p.isReady()).items();
  }
}
