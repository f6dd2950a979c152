package io.fleetkit.benchmarks.generator;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.api.store.ObjectStore;
import java.time.Clock;

/**
 * A cluster for the cluster-autoscaler scale-up decision, after upstream's scalability scenario
 * (cluster-autoscaler/proposals/scalability_tests.md: 1,000 nodes of 30 pods): {@code pools} node pools of varied
 * shapes (2 to 64 cores, three zones, every fifth pool a tainted GPU pool), {@code nodes} existing nodes spread over
 * them and filled with 30 small pods each (no room left for the pending pods), and {@code pending} pending pods
 * from 20 Deployments of different sizes, some pinned to a zone and some asking for GPUs.
 */
public final class ClusterAutoscaleWorkload {
  private static final long GI = 1024L * 1024 * 1024;

  private ClusterAutoscaleWorkload() {}

  /** Fills a new store; the caller closes it. */
  public static ObjectStore build(int nodes, int pools, int pending, Clock clock) {
    ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build();
    NodePool[] ps = new NodePool[pools];
    for (int i = 0; i < pools; i++) {
      long cores = 2L << (i % 6); // 2, 4, ... 64
      long memGi = cores * (i % 3 == 0 ? 2 : i % 3 == 1 ? 4 : 8);
      boolean gpu = i % 5 == 4;
      NodePool.Builder b = NodePool.builder().name("pool-" + i).nodeLabel("topology.kubernetes.io/zone",
          "zone-" + (i % 3)).minSize(0).maxSize(nodes / pools + 100).pricePerHour(cores * 0.05 + (gpu ? 3.0 : 0));
      ResourceList.Builder cap = ResourceList.builder().put("cpu", Quantity.of(cores))
          .put("memory", Quantity.ofBytes(memGi * GI)).put("pods", Quantity.of(110));
      if (gpu) {
        cap.put("nvidia.com/gpu", Quantity.of(8));
        b.nodeTaint(Taint.of("nvidia.com/gpu", "present", TaintEffect.NoSchedule));
      }
      ps[i] = store.create(b.capacity(cap.build()).build());
    }
    for (int n = 0; n < nodes; n++) {
      NodePool p = ps[n % pools];
      String name = p.metadata().name() + "-" + n;
      Node node = p.spec().template().toNode(name, "").toBuilder().label(NodePool.POOL_LABEL, p.metadata().name())
          .label("kubernetes.io/hostname", name).build();
      store.create(node);
      long perPod = node.allocatable().milliCpu() / 30; // 30 pods fill the node's CPU
      OwnerReference rs = new OwnerReference("apps/v1", "ReplicaSet", "filler-" + n, "filler-" + n, true, true);
      for (int k = 0; k < 30; k++) {
        store.create(Pod.builder().name("filler-" + n + "-" + k).ownerReference(rs).nodeName(name)
            .container("app", "img", ResourceList.ofCpuMemory(perPod, 64L * 1024 * 1024)).build());
      }
    }
    for (int d = 0; d < 20; d++) {
      OwnerReference rs = new OwnerReference("apps/v1", "ReplicaSet", "deploy-" + d, "deploy-" + d, true, true);
      long cpu = 250L * (1 + d % 8); // 250m .. 2000m
      long mem = GI / 2 * (1 + d % 5);
      for (int k = d; k < pending; k += 20) {
        Pod.Builder b = Pod.builder().name("pending-" + d + "-" + k).ownerReference(rs);
        if (d % 10 == 9) {
          ResourceList gpu = ResourceList.builder().put("nvidia.com/gpu", Quantity.of(1)).build();
          b.container("app", "img", ResourceList.ofCpuMemory(cpu, mem).add(gpu), gpu)
              .toleration(Toleration.exists("nvidia.com/gpu", TaintEffect.NoSchedule));
        } else {
          b.container("app", "img", ResourceList.ofCpuMemory(cpu, mem));
        }
        if (d % 4 == 1) {
          b.nodeSelector("topology.kubernetes.io/zone", "zone-" + (d % 3));
        }
        store.create(b.build());
      }
    }
    return store;
  }
}
