package io.fleetkit.autoscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.fleetkit.api.core.GpuDevice;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.NodeInfos;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes/autoscaler {@code cluster-autoscaler/simulator/utilization/info_test.go} (commit d529b17e),
 * TestCalculate: its 11 checks, in order, against {@link NodeUtilization} at upstream's {@code testTime}. Upstream's
 * {@code assert.InEpsilon} is relative (|want - got| / |want|), as {@link #inEpsilon} here; its exact
 * {@code assert.Equal} stays exact. Upstream's GPU config is read from the node ({@code getGpuConfigFromNode}: a GPU
 * label or allocatable GPUs); FleetKit's analogue of the label is a node listing GPU devices in {@code status.gpus}.
 * A call that returns an error upstream gives a utilization that is not {@linkplain NodeUtilization#known() known}.
 * TestCalculateWithDynamicResources is not ported: FleetKit has no dynamic resource allocation (ResourceSlices,
 * ResourceClaims). Pod and node names are lower-cased for FleetKit's validation.
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
}
