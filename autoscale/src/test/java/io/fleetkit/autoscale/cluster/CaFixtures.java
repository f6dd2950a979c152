package io.fleetkit.autoscale.cluster;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import java.time.Duration;

/** Builders for cluster-autoscaler tests. */
final class CaFixtures {
  static final long MI = 1024L * 1024;

  private CaFixtures() {}

  static ResourceList resources(long milliCpu, long memBytes, long pods) {
    return ResourceList.builder().put("cpu", Quantity.ofMilli(milliCpu)).put("memory", Quantity.ofBytes(memBytes))
        .put("pods", Quantity.of(pods)).build();
  }

  static ResourceList gpuResources(long milliCpu, long memBytes, long pods, long gpus) {
    return ResourceList.builder().put("cpu", Quantity.ofMilli(milliCpu)).put("memory", Quantity.ofBytes(memBytes))
        .put("pods", Quantity.of(pods)).put("nvidia.com/gpu", Quantity.of(gpus)).build();
  }

  /** A pool of nodes with {@code milliCpu} and {@code memMi} MiB, 110 pods. */
  static NodePool pool(String name, long milliCpu, long memMi, int min, int max) {
    return NodePool.builder().name(name).capacity(resources(milliCpu, memMi * MI, 110)).minSize(min).maxSize(max)
        .build();
  }

  static NodePool pool(String name, long milliCpu, long memMi, int min, int max, double price) {
    return NodePool.builder().name(name).capacity(resources(milliCpu, memMi * MI, 110)).minSize(min).maxSize(max)
        .pricePerHour(price).build();
  }

  static NodePool withDelay(NodePool p, Duration d) {
    return p.withSpec(new io.fleetkit.api.autoscaling.NodePoolSpec(p.spec().template(), p.spec().minSize(),
        p.spec().maxSize(), d, p.spec().pricePerHour()));
  }

  /** A ready node of {@code pool} named {@code name}, as the autoscaler would have launched it. */
  static Node poolNode(NodePool pool, String name) {
    return ClusterAutoscaler.templateNode(pool, name);
  }

  static final OwnerReference RS = new OwnerReference("apps/v1", "ReplicaSet", "web-rs", "rs-uid-1", true, true);

  /** A pending pod owned by a ReplicaSet, requesting {@code milliCpu} and {@code memMi} MiB. */
  /**
   * A ReplicaSet pod with {@code terminationGracePeriodSeconds} 0: these tests run no kubelet, so a drained pod goes
   * the moment it is evicted (the API server deletes a pod with grace period 0 at once), as upstream's tests make an
   * evicted pod disappear; tests of terminating pods set a grace period of their own.
   */
  static Pod pod(String name, long milliCpu, long memMi) {
    return Pod.builder().name(name).ownerReference(RS).terminationGracePeriodSeconds(0)
        .container("app", "pause", ResourceList.ofCpuMemory(milliCpu, memMi * MI)).build();
  }

  /** A pending ReplicaSet pod asking for {@code gpus} whole GPUs (as limits, requests defaulting to them). */
  static Pod gpuPod(String name, long milliCpu, long memMi, long gpus) {
    ResourceList gpu = ResourceList.builder().put("nvidia.com/gpu", Quantity.of(gpus)).build();
    return Pod.builder().name(name).ownerReference(RS)
        .container("app", "cuda", ResourceList.ofCpuMemory(milliCpu, memMi * MI).add(gpu), gpu).build();
  }

  /** A pod without controller. */
  static Pod barePod(String name, long milliCpu, long memMi) {
    return Pod.builder().name(name).terminationGracePeriodSeconds(0) // as pod(): no kubelet here
        .container("app", "pause", ResourceList.ofCpuMemory(milliCpu, memMi * MI)).build();
  }
}
