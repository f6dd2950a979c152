package io.fleetkit.reconcile.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.store.ObjectStore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Both controllers with worker threads on the system clock and an asynchronously delivering store. */
final class ThreadedModeTest {

  @Test
  void threaded_deploymentOfFive_exactlyFivePodsNeverMore() throws Exception {
    try (ObjectStore store = ObjectStore.inMemory();
         ReplicaSetController rsc = ReplicaSetController.builder(store).workers(2).build();
         DeploymentController dc = DeploymentController.builder(store).workers(2).build()) {
      rsc.start().get(10, TimeUnit.SECONDS);
      dc.start().get(10, TimeUnit.SECONDS);
      store.create(Cluster.web(5));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      int max = 0;
      while (System.nanoTime() < deadline) {
        int n = store.list(Pod.class, "ns").items().size();
        max = Math.max(max, n);
        Deployment d = store.require(Deployment.class, "ns", "web");
        if (n == 5 && d.status().replicas() == 5) {
          break;
        }
        Thread.sleep(10);
      }
      Thread.sleep(200); // a late duplicate create would show up here
      max = Math.max(max, store.list(Pod.class, "ns").items().size());
      assertThat(store.list(Pod.class, "ns").items()).hasSize(5);
      assertThat(max).isEqualTo(5);
      assertThat(store.require(Deployment.class, "ns", "web").status().replicas()).isEqualTo(5);
    }
  }
}
