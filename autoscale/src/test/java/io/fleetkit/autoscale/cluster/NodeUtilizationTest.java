package io.fleetkit.autoscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.fleetkit.api.core.GpuDevice;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodResourceClaim;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.NodeInfos;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.dra.Device;
import io.fleetkit.api.resource.dra.DeviceRequestAllocationResult;
import io.fleetkit.api.resource.dra.ResourceClaim;
import io.fleetkit.api.resource.dra.ResourcePool;
import io.fleetkit.api.resource.dra.ResourceSlice;
import io.fleetkit.api.resource.dra.ResourceSliceSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes/autoscaler {@code cluster-autoscaler/simulator/utilization/info_test.go} (commit d529b17e),
 * TestCalculate: its 11 checks, in order, against {@link NodeUtilization} at upstream's {@code testTime}. Upstream's
 * {@code assert.InEpsilon} is relative (|want - got| / |want|), as {@link #inEpsilon} here; its exact
 * {@code assert.Equal} stays exact. Upstream's GPU config is read from the node ({@code getGpuConfigFromNode}: a GPU
 * label or allocatable GPUs); FleetKit's analogue of the label is a node listing GPU devices in {@code status.gpus}.
 * A call that returns an error upstream gives a utilization that is not {@linkplain NodeUtilization#known() known}.
 * Pod and node names are lower-cased for FleetKit's validation.
 *
 * <p>{@link #withDevices_upstreamCalculateWithDynamicResources} ports TestCalculateWithDynamicResources of the same
 * file (the version of blob 2409814772 of the search index, which has it; the newest upstream info_test.go carries a
 * "TODO(DRA)" instead): 9 of its 10 cases.
 */
final class NodeUtilizationTest {
  private static final Instant TEST_TIME = Instant.parse("2020-12-18T17:00:00Z");

  /** Upstream's {@code BuildTestNode(name, cpu, mem)}: {@code mem < 0} leaves memory out. */
  private static Node node(String name, long milliCpu, long mem) {
    ResourceList.Builder r = ResourceList.builder().put("cpu", Quantity.ofMilli(milliCpu)).put("pods", Quantity.of(100));
    if (mem >= 0) {
      r.put("memory", Quantity.ofBytes(mem));
    }
    ResourceList alloc = r.build();
    return Node.builder().name(name).capacity(alloc).allocatable(alloc).ready().build();
  }

  /** Upstream's {@code BuildTestPod(name, cpu, mem)}: negative values request nothing. */
  private static Pod.Builder pod(String name, long milliCpu, long mem) {
    ResourceList.Builder r = ResourceList.builder();
    if (milliCpu >= 0) {
      r.put("cpu", Quantity.ofMilli(milliCpu));
    }
    if (mem >= 0) {
      r.put("memory", Quantity.ofBytes(mem));
    }
    return Pod.builder().name(name).namespace("default").container("c", "pause", r.build());
  }

  private static NodeInfo info(Node node, Pod... pods) {
    return NodeInfos.of(node, Stream.of(pods).map(PodInfos::of).toList());
  }

  private static void inEpsilon(double want, double got, double epsilon, String what) {
    assertThat(got).as(what).isCloseTo(want, within(Math.abs(want) * epsilon));
  }

  @Test
  void of_upstreamCalculate() {
    Pod pod = pod("p1", 100, 200000).build();
    Pod pod2 = pod("p2", -1, -1).build();
    // one sidecar (counted) and one regular init container (less than the sidecar plus the app: not counted)
    Pod podWithInitContainers = pod("p-init", 100, 200000)
        .sidecar("sidecar", "pause", ResourceList.ofCpuMemory(50, 100000))
        .initContainer("init", "pause", ResourceList.ofCpuMemory(5, 100)).build();
    // a large regular init container outweighs the pod's containers
    Pod podWithLargeNonRestartableInitContainers = pod("p-large-init", 100, 200000)
        .initContainer("init", "pause", ResourceList.ofCpuMemory(50000, 100000000)).build();
    Node node = node("node1", 2000, 2000000);

    NodeUtilization u = NodeUtilization.of(info(node, pod, pod, pod2), false, false, TEST_TIME);
    inEpsilon(2.0 / 10, u.value(), 0.01, "pods counted");
    assertThat(u.cpu()).isEqualTo(0.1);

    Node node2 = node("node2", 2000, -1);
    assertThat(NodeUtilization.of(info(node2, pod, pod, pod2), false, false, TEST_TIME).known())
        .as("no memory allocatable: an error upstream").isFalse();

    Node node3 = node("node3", 2000, 2000000);
    u = NodeUtilization.of(info(node3, pod, podWithInitContainers, podWithLargeNonRestartableInitContainers), false,
        false, TEST_TIME);
    inEpsilon(50.25, u.value(), 0.01, "init containers");
    inEpsilon(25.125, u.cpu(), 0.005, "init containers, cpu");

    Pod daemonSetPod3 = pod("p3", 100, 200000)
        .ownerReference(new OwnerReference("apps/v1", "DaemonSet", "ds", "ds-uid", true, false)).build();
    Pod daemonSetPod4 = pod("p4", 100, 200000)
        .ownerReference(new OwnerReference("crd/v1", "CustomDaemonSet", "ds", "ds-uid-2", true, false))
        .annotation(TemplateNodes.DAEMON_SET_POD_ANNOTATION, "true").build();
    u = NodeUtilization.of(info(node, pod, pod, pod2, daemonSetPod3, daemonSetPod4), true, false, TEST_TIME);
    inEpsilon(2.5 / 10, u.value(), 0.01, "DaemonSet pods skipped");

    u = NodeUtilization.of(info(node, pod, pod2, daemonSetPod3), false, false, TEST_TIME);
    inEpsilon(2.0 / 10, u.value(), 0.01, "DaemonSet pods counted");

    Pod terminatedPod = pod("podterminated", 100, 200000).build();
    terminatedPod = terminatedPod.withMetadata(terminatedPod.metadata().toBuilder()
        .deletionTimestamp(TEST_TIME.minus(Duration.ofMinutes(10))).build());
    u = NodeUtilization.of(info(node, pod, pod, pod2, terminatedPod), false, false, TEST_TIME);
    inEpsilon(2.0 / 10, u.value(), 0.01, "long-terminating pod left out");

    Pod mirrorPod = pod("p4", 100, 200000).annotation(Drainability.MIRROR_ANNOTATION, "").build();
    u = NodeUtilization.of(info(node, pod, pod, pod2, mirrorPod), false, true, TEST_TIME);
    inEpsilon(2.0 / 9.0, u.value(), 0.01, "mirror pods skipped");

    u = NodeUtilization.of(info(node, pod, pod2, mirrorPod), false, false, TEST_TIME);
    inEpsilon(2.0 / 10, u.value(), 0.01, "mirror pods counted");

    u = NodeUtilization.of(info(node, pod, mirrorPod, daemonSetPod3), true, true, TEST_TIME);
    inEpsilon(1.0 / 8.0, u.value(), 0.01, "DaemonSet and mirror pods skipped");

    ResourceList gpuAlloc = ResourceList.builder().put("cpu", Quantity.ofMilli(2000))
        .put("memory", Quantity.ofBytes(2000000)).put("pods", Quantity.of(100)).put("nvidia.com/gpu", Quantity.of(1))
        .build();
    Node gpuNode = Node.builder().name("gpu-node").capacity(gpuAlloc).allocatable(gpuAlloc).ready().build();
    ResourceList oneGpu = ResourceList.builder().put("nvidia.com/gpu", Quantity.of(1)).build();
    Pod gpuPod = Pod.builder().name("gpu-pod").namespace("default")
        .container("c", "cuda", ResourceList.ofCpuMemory(100, 200000).add(oneGpu), oneGpu).build();
    u = NodeUtilization.of(info(gpuNode, pod, pod, gpuPod), false, false, TEST_TIME);
    assertThat(u.gpuNode()).isTrue();
    inEpsilon(1, u.value(), 0.01, "GPU node by its GPUs");

    // Node with Unready GPU: a GPU node (upstream's label; here its listed devices) without allocatable GPUs
    Node unreadyGpu = node("gpu-node", 2000, 2000000).toBuilder().gpu(GpuDevice.of("GPU-0", "A100", 81920)).build();
    u = NodeUtilization.of(info(unreadyGpu, pod, pod), false, false, TEST_TIME);
    assertThat(u.gpuNode()).isTrue();
    assertThat(u.value()).as("unready GPU").isZero();
  }

  @Test
  void of_recentlyDeletedPodCounts_untilItsGracePeriodAndThirtySecondsPass() {
    Node node = node("n", 1000, 1000000);
    Pod app = pod("app", 500, 0).build();
    Instant deleted = TEST_TIME;
    app = app.withMetadata(app.metadata().toBuilder().deletionTimestamp(deleted).build()); // 30 s grace
    NodeInfo view = info(node, app);
    assertThat(NodeUtilization.of(view, deleted.plusSeconds(60)).cpu()).as("at grace + 30 s").isEqualTo(0.5);
    assertThat(NodeUtilization.of(view, deleted.plusSeconds(61)).cpu()).as("after").isZero();
  }

  /**
   * Upstream's TestCalculateWithDynamicResources. "DRA disabled" is a utilization computed without the node's devices
   * (FleetKit has no switch: the autoscaler gives the devices of every node with node-local slices); "DRA enabled" one
   * {@linkplain NodeUtilization#withDevices with} them, as the autoscaler does for nodes without GPUs. Upstream's
   * {@code Info} of a DRA or GPU node leaves CPU and memory at 0; FleetKit's record reports them anyway (as it does for
   * GPU nodes), and the value compared to the threshold and the resource name are upstream's.
   *
   * <p>Not ported: "DRA slices and claims present, DRA enabled, DRA GPU config passed -> DRA util returned" (a GKE GPU
   * config whose GPUs are exposed through a DRA driver; FleetKit has no such node configuration: a node with
   * allocatable {@code nvidia.com/gpu} or listed GPUs is judged by them).
   */
  @Test
  void withDevices_upstreamCalculateWithDynamicResources() {
    Instant now = Instant.parse("2024-12-04T00:00:00Z");
    Node node = node("node", 1000, 1000);
    ResourceList gpuAlloc = node.status().allocatable().add(
        ResourceList.builder().put("nvidia.com/gpu", Quantity.of(1)).build());
    Node gpuNode = node("gpunode", 1000, 1000).toBuilder().capacity(gpuAlloc).allocatable(gpuAlloc).build();
    Pod pod1 = pod("pod1", 250, 0).nodeName("node").resourceClaim(PodResourceClaim.ofClaim("c1", "pod1-claim1"))
        .resourceClaim(PodResourceClaim.ofClaim("c2", "pod1-claim2")).build();
    Pod pod2 = pod("pod2", 250, 0).nodeName("node").resourceClaim(PodResourceClaim.ofClaim("c", "pod2-claim")).build();
    Pod pod1NoClaims = pod("pod1", 250, 0).nodeName("node").build();
    Pod pod2NoClaims = pod("pod2", 250, 0).nodeName("node").build();
    ResourceSlice slice1 = slice("node-slice1", "driver.foo.com", "node-pool1", 1, 5);
    ResourceSlice slice2 = slice("node-slice2", "driver.bar.com", "node-pool2", 1, 5);
    ResourceSlice incomplete = slice("incomplete-resource-slice", "driver.foo.com", "node-pool3", 999, 3);
    Map<String, ResourceClaim> claims = new HashMap<>();
    for (ResourceClaim c : List.of(
        DeviceUtilizationTest.claim("pod1-claim1", List.of(result("req1", "driver.foo.com", "node-pool1", "dev1"),
            result("req2", "driver.foo.com", "node-pool1", "dev2"),
            result("req3", "driver.foo.com", "node-pool1", "dev3"))),
        DeviceUtilizationTest.claim("pod1-claim2", List.of(result("req4", "driver.bar.com", "node-pool2", "dev1"))),
        DeviceUtilizationTest.claim("pod2-claim", List.of(result("req1", "driver.foo.com", "node-pool1", "dev4"),
            result("req2", "driver.bar.com", "node-pool2", "dev2"),
            result("req3", "driver.bar.com", "node-pool2", "dev3"))))) {
      claims.put(c.metadata().name(), c);
    }
    BiFunction<String, String, @Nullable ResourceClaim> lookup = (ns, name) -> claims.get(name);

    // no DRA resources, DRA disabled / slices but no claims, DRA disabled / slices and claims, DRA disabled / no DRA
    // resources, DRA enabled -> normal resource util returned
    for (NodeUtilization u : List.of(NodeUtilization.of(info(node, pod1NoClaims, pod2NoClaims), now),
        NodeUtilization.of(info(node, pod1, pod2), now),
        NodeUtilization.of(info(node, pod1NoClaims, pod2NoClaims), now).withDevices(
            DeviceUtilization.ofNode("node", List.of(), List.of(pod1NoClaims, pod2NoClaims), lookup)))) {
      assertThat(u.devices()).isNull();
      assertThat(u.cpu()).isEqualTo(0.5);
      assertThat(u.value()).isEqualTo(0.5);
      assertThat(u.resourceName()).isEqualTo("cpu");
    }

    // DRA slices present, but no claims, DRA enabled -> DRA util returned despite being lower than CPU
    NodeUtilization u = withDevices(node, List.of(slice1), lookup, now, pod1NoClaims, pod2NoClaims);
    assertThat(u.value()).isZero();
    assertThat(u.resourceName()).isEqualTo("driver.foo.com/node-pool1");
    assertThat(u.known()).isTrue();

    // DRA slices and claims present, DRA enabled -> DRA util returned despite being lower than CPU
    u = withDevices(node, List.of(slice1, slice2), lookup, now, pod2);
    assertThat(u.value()).isEqualTo(0.4);
    assertThat(u.resourceName()).isEqualTo("driver.bar.com/node-pool2");

    // DRA slices and claims present, DRA enabled -> DRA util returned
    u = withDevices(node, List.of(slice1, slice2), lookup, now, pod1, pod2);
    assertThat(u.value()).isEqualTo(0.8);
    assertThat(u.devices().highest()).isEqualTo(0.8);
    assertThat(u.resourceName()).isEqualTo("driver.foo.com/node-pool1");

    // DRA slices and claims present, DRA enabled, GPU config passed -> GPU util returned
    Pod gpu1 = pod1.withNodeName("gpunode");
    Pod gpu2 = pod2.withNodeName("gpunode");
    u = NodeUtilization.of(info(gpuNode, gpu1, gpu2), now);
    assertThat(u.gpuNode()).isTrue();
    assertThat(u.value()).isZero();
    assertThat(u.resourceName()).isEqualTo("nvidia.com/gpu");

    // DRA slices and claims present, DRA enabled, error while calculating DRA util -> error returned
    u = withDevices(node, List.of(slice1, slice2, incomplete), lookup, now, pod1, pod2);
    assertThat(u.known()).isFalse();
    assertThat(u.value()).isNaN();
    assertThat(u.devices().error()).contains("node-pool3");
  }

  @Test
  void withDevices_devicesAllocated_nodeIsBusy_howeverLittleCpuItsPodsRequest() {
    Instant now = TEST_TIME;
    Node node = node("node", 8000, 8_000_000);
    Pod pod = pod("p", 100, 1000).nodeName("node").resourceClaim(PodResourceClaim.ofClaim("c", "p-gpu")).build();
    ResourceClaim claim = DeviceUtilizationTest.claim("p-gpu",
        List.of(result("gpu", "gpu.example.com", "node-gpus", "dev1")));
    NodeUtilization u = withDevices(node, List.of(slice("node-gpus", "gpu.example.com", "node-gpus", 1, 1)),
        (ns, name) -> name.equals("p-gpu") ? claim : null, now, pod);
    assertThat(u.cpu()).isLessThan(0.02);
    assertThat(u.value()).isEqualTo(1.0);
    assertThat(u.resourceName()).isEqualTo("gpu.example.com/node-gpus");
  }

  private static NodeUtilization withDevices(Node node, List<ResourceSlice> slices,
      BiFunction<String, String, @Nullable ResourceClaim> lookup, Instant now, Pod... pods) {
    return NodeUtilization.of(info(node, pods), now)
        .withDevices(DeviceUtilization.ofNode(node.name(), slices, List.of(pods), lookup));
  }

  /** A complete one-slice pool local to node "node" with devices dev1..dev{@code devices}. */
  private static ResourceSlice slice(String name, String driver, String pool, long sliceCount, int devices) {
    ResourceSliceSpec.Builder b = ResourceSliceSpec.builder(driver, new ResourcePool(pool, 0, sliceCount))
        .nodeName("node");
    for (int i = 1; i <= devices; i++) {
      b.device(Device.of("dev" + i));
    }
    return ResourceSlice.of(name, b.build());
  }

  private static DeviceRequestAllocationResult result(String request, String driver, String pool, String device) {
    return new DeviceRequestAllocationResult(request, driver, pool, device);
  }
}
