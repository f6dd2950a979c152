package io.fleetkit.autoscale.cluster;

import static io.fleetkit.autoscale.cluster.CaFixtures.MI;
import static io.fleetkit.autoscale.cluster.CaFixtures.pod;
import static io.fleetkit.autoscale.cluster.CaFixtures.pool;
import static io.fleetkit.autoscale.cluster.CaFixtures.poolNode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.GpuDevice;
import io.fleetkit.api.core.GpuRequests;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.metrics.MetricDescriptor;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.observability.micrometer.MicrometerMetrics;
import io.fleetkit.observability.prometheus.Exposition;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * cluster-autoscaler's metrics and FleetKit's GPU gauges. Names, types and label names are copied from
 * {@code kubernetes/autoscaler cluster-autoscaler/metrics/metrics_impl.go} (namespace {@code cluster_autoscaler}), so a
 * rename fails here.
 */
final class ClusterAutoscalerMetricsTest {
  private static final List<String> UPSTREAM = List.of(
      "cluster_autoscaler_cluster_safe_to_autoscale GAUGE []",
      "cluster_autoscaler_nodes_count GAUGE [state]",
      "cluster_autoscaler_node_groups_count GAUGE [node_group_type]",
      "cluster_autoscaler_unschedulable_pods_count GAUGE [type]",
      "cluster_autoscaler_max_nodes_count GAUGE []",
      "cluster_autoscaler_cluster_cpu_current_cores GAUGE []",
      "cluster_autoscaler_cpu_limits_cores GAUGE [direction]",
      "cluster_autoscaler_cluster_memory_current_bytes GAUGE []",
      "cluster_autoscaler_memory_limits_bytes GAUGE [direction]",
      "cluster_autoscaler_node_group_min_count GAUGE [node_group]",
      "cluster_autoscaler_node_group_max_count GAUGE [node_group]",
      "cluster_autoscaler_node_group_target_count GAUGE [node_group]",
      "cluster_autoscaler_node_group_healthiness GAUGE [node_group]",
      "cluster_autoscaler_last_activity GAUGE [activity]",
      "cluster_autoscaler_function_duration_seconds HISTOGRAM [function]",
      "cluster_autoscaler_scaled_up_nodes_total COUNTER []",
      "cluster_autoscaler_scaled_up_gpu_nodes_total COUNTER [gpu_resource_name, gpu_name]",
      "cluster_autoscaler_failed_scale_ups_total COUNTER [reason]",
      "cluster_autoscaler_failed_gpu_scale_ups_total COUNTER [reason, gpu_resource_name, gpu_name]",
      "cluster_autoscaler_scaled_down_nodes_total COUNTER [reason]",
      "cluster_autoscaler_scaled_down_gpu_nodes_total COUNTER [reason, gpu_resource_name, gpu_name]",
      "cluster_autoscaler_evicted_pods_total COUNTER [eviction_result]",
      "cluster_autoscaler_unneeded_nodes_count GAUGE []",
      "cluster_autoscaler_unremovable_nodes_count GAUGE [reason]",
      "cluster_autoscaler_scale_down_in_cooldown GAUGE []");

  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build();
  private final PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

  @AfterEach
  void close() {
    store.close();
  }

  private ClusterAutoscaler ca() {
    // deletions in the loop that decides them (the delay after the taint is ClusterAutoscalerDeleteDelayTest's)
    return ClusterAutoscaler.builder(store).clock(clock).seed(42).metrics(MicrometerMetrics.of(prometheus))
        .options(AutoscalerOptions.defaults().withNodeDeleteDelayAfterTaint(Duration.ZERO)).build();
  }

  private Exposition scrape() {
    return Exposition.parse(prometheus.scrape());
  }

  @Test
  void descriptors_matchUpstreamNamesTypesLabelsAndBuckets() {
    assertThat(ClusterAutoscalerMetrics.ALL).extracting(d -> d.name() + " " + d.type() + " " + d.labelNames())
        .containsExactlyElementsOf(UPSTREAM);
    // ExponentialBuckets(0.01, 1.5, 30) // 0.01, 0.015, 0.0225, ..., 852.2269299239293, 1278.3403948858938
    // (the comment's last digits come from 0.01 * 1.5^n; Go multiplies repeatedly, as exponentialBuckets does)
    List<Double> b = ClusterAutoscalerMetrics.FUNCTION_DURATION.buckets();
    assertThat(b).hasSize(30).startsWith(0.01, 0.015, 0.0225)
        .isEqualTo(MetricDescriptor.exponentialBuckets(0.01, 1.5, 30));
    assertThat(b.get(28)).isCloseTo(852.2269299239293, within(1e-9));
    assertThat(b.get(29)).isCloseTo(1278.3403948858938, within(1e-9));
    assertThat(ClusterAutoscalerMetrics.GPU).extracting(MetricDescriptor::name)
        .containsExactly("fleetkit_gpu_allocated_ratio", "fleetkit_gpu_fragmentation_ratio");
    assertThat(ClusterAutoscalerMetrics.GPU).allMatch(d -> d.labelNames().equals(List.of("node_pool")));
  }

  @Test
  void scaleUp_countsLaunchedNodesPendingPodsAndPoolSizes() {
    store.create(pool("small", 2000, 4096, 0, 10));
    for (int i = 0; i < 4; i++) {
      store.create(pod("p" + i, 1000, 1024));
    }
    LoopResult r = ca().runOnce();
    assertThat(r.launchedNodes()).hasSize(2);

    Exposition e = scrape();
    assertThat(e.value("cluster_autoscaler_scaled_up_nodes_total", Map.of())).contains(2.0);
    assertThat(e.value("cluster_autoscaler_unschedulable_pods_count", Map.of("type", "unschedulable")))
        .contains(4.0);
    assertThat(e.value("cluster_autoscaler_node_group_target_count", Map.of("node_group", "small"))).contains(2.0);
    assertThat(e.value("cluster_autoscaler_node_group_max_count", Map.of("node_group", "small"))).contains(10.0);
    assertThat(e.value("cluster_autoscaler_node_group_healthiness", Map.of("node_group", "small"))).contains(1.0);
    assertThat(e.value("cluster_autoscaler_node_groups_count", Map.of("node_group_type", "autoscaled")))
        .contains(1.0);
    double nodes = e.value("cluster_autoscaler_nodes_count", Map.of("state", "ready")).orElseThrow()
        + e.value("cluster_autoscaler_nodes_count", Map.of("state", "notStarted")).orElseThrow();
    assertThat(nodes).isEqualTo(2.0);
    assertThat(e.value("cluster_autoscaler_cluster_cpu_current_cores", Map.of())).contains(4.0);
    assertThat(e.value("cluster_autoscaler_cluster_memory_current_bytes", Map.of())).contains(8192.0 * MI);
    assertThat(e.value("cluster_autoscaler_cpu_limits_cores", Map.of("direction", "minimum"))).contains(0.0);
    assertThat(e.value("cluster_autoscaler_cpu_limits_cores", Map.of("direction", "maximum"))).contains(320000.0);
    assertThat(e.value("cluster_autoscaler_memory_limits_bytes", Map.of("direction", "maximum")))
        .contains(6_400_000.0 * 1024 * 1024 * 1024);
    assertThat(e.value("cluster_autoscaler_scale_down_in_cooldown", Map.of())).contains(1.0);
    assertThat(e.value("cluster_autoscaler_cluster_safe_to_autoscale", Map.of())).contains(1.0);
    assertThat(e.value("cluster_autoscaler_function_duration_seconds_count", Map.of("function", "main")))
        .contains(1.0);
    assertThat(e.value("cluster_autoscaler_function_duration_seconds_count", Map.of("function", "scaleUp")))
        .contains(1.0);
    assertThat(e.value("cluster_autoscaler_function_duration_seconds_count", Map.of("function", "scaleDown")))
        .as("no scale-down in a loop that scaled up").isEmpty();
    assertThat(e.value("cluster_autoscaler_function_duration_seconds_count",
        Map.of("function", "scaleDown:softTaintUnneeded"))).as("soft taints are updated in cooldown too").contains(1.0);
    assertThat(e.value("cluster_autoscaler_last_activity", Map.of("activity", "main")))
        .contains((double) clock.instant().getEpochSecond());
    assertThat(e.bucketBounds("cluster_autoscaler_function_duration_seconds", Map.of("function", "main")))
        .hasSize(31);
    for (String line : UPSTREAM) {
      String[] parts = line.split(" ", 3);
      String series = parts[1].equals("HISTOGRAM") ? parts[0] + "_count" : parts[0];
      if (!e.samples(series).isEmpty()) {
        String labels = parts[2].substring(1, parts[2].length() - 1);
        assertThat(e.labelNames(series)).as(series)
            .containsExactlyInAnyOrderElementsOf(labels.isEmpty() ? List.of() : List.of(labels.split(", ")));
      }
    }
  }

  @Test
  void scaleDown_countsRemovedNodesByReasonEvictionsAndUnremovable() {
    NodePool p = pool("p", 4000, 8192, 0, 10);
    store.create(p);
    for (String n : List.of("n1", "n2", "n3")) {
      store.create(poolNode(p, n));
    }
    store.create(pod("small", 500, 512).toBuilder().nodeName("n1").build()); // 0.125
    store.create(pod("big", 2500, 1024).toBuilder().nodeName("n2").build()); // 0.625
    ClusterAutoscaler ca = ca();
    ca.runOnce();
    Exposition first = scrape();
    assertThat(first.value("cluster_autoscaler_unneeded_nodes_count", Map.of())).contains(2.0);
    assertThat(first.value("cluster_autoscaler_unremovable_nodes_count",
        Map.of("reason", ClusterAutoscaler.NOT_UNDERUTILIZED))).contains(1.0);
    assertThat(first.value("cluster_autoscaler_scale_down_in_cooldown", Map.of())).contains(0.0);
    clock.advance(Duration.ofMinutes(10));
    LoopResult r = ca.runOnce();
    assertThat(r.deletedNodes()).containsExactlyInAnyOrder("n1", "n3");

    Exposition e = scrape();
    assertThat(e.value("cluster_autoscaler_scaled_down_nodes_total", Map.of("reason", "empty"))).contains(1.0);
    assertThat(e.value("cluster_autoscaler_scaled_down_nodes_total", Map.of("reason", "underutilized")))
        .contains(1.0);
    assertThat(e.value("cluster_autoscaler_evicted_pods_total", Map.of("eviction_result", "succeeded")))
        .contains(1.0);
    assertThat(e.value("cluster_autoscaler_nodes_count", Map.of("state", "ready"))).contains(1.0);
    assertThat(e.value("cluster_autoscaler_node_group_target_count", Map.of("node_group", "p"))).contains(1.0);
    assertThat(e.value("cluster_autoscaler_function_duration_seconds_count", Map.of("function", "scaleDown")))
        .contains(2.0);
    assertThat(e.value("cluster_autoscaler_scaled_up_nodes_total", Map.of())).contains(0.0);
  }

  @Test
  void gpuPool_gaugesAllocatedAndFragmentedShares() {
    NodePool gpu = NodePool.builder().name("gpu").capacity(CaFixtures.gpuResources(32000, 65536 * MI, 110, 4))
        .gpu(GpuDevice.of("GPU-0", "A100", 81920)).gpu(GpuDevice.of("GPU-1", "A100", 81920))
        .gpu(GpuDevice.of("GPU-2", "A100", 81920)).gpu(GpuDevice.of("GPU-3", "A100", 81920)).minSize(1).maxSize(1)
        .build();
    store.create(gpu);
    store.create(poolNode(gpu, "g1"));
    store.create(CaFixtures.gpuPod("train", 1000, 1024, 2).toBuilder().nodeName("g1")
        .annotation(GpuRequests.IDS_ANNOTATION, "GPU-0,GPU-1").build());
    store.create(sharePod("infer", 300).toBuilder().nodeName("g1").annotation(GpuRequests.IDS_ANNOTATION, "GPU-2")
        .build());
    ca().runOnce();

    Exposition e = scrape();
    // 2000 + 300 of 4000 thousandths allocated; of the 1700 free, 700 sit on the partly used GPU-2
    assertThat(e.value("fleetkit_gpu_allocated_ratio", Map.of("node_pool", "gpu")).orElseThrow())
        .isCloseTo(2300.0 / 4000, within(1e-12));
    assertThat(e.value("fleetkit_gpu_fragmentation_ratio", Map.of("node_pool", "gpu")).orElseThrow())
        .isCloseTo(700.0 / 1700, within(1e-12));
  }

  @Test
  void gpuPoolUsage_podsWithoutDeviceIds_fillPartlyUsedDevicesFirst_anonymousDevicesFromAllocatable() {
    Node known = Node.builder().name("a").label(NodePool.POOL_LABEL, "p")
        .allocatable(CaFixtures.gpuResources(8000, 8192 * MI, 110, 2)).gpu(GpuDevice.of("G0", "L4", 24576))
        .gpu(GpuDevice.of("G1", "L4", 24576)).ready().build();
    Node anonymous = Node.builder().name("b").label(NodePool.POOL_LABEL, "q")
        .allocatable(CaFixtures.gpuResources(8000, 8192 * MI, 110, 2)).ready().build();
    Node cpuOnly = Node.builder().name("c").label(NodePool.POOL_LABEL, "r")
        .allocatable(CaFixtures.resources(8000, 8192 * MI, 110)).ready().build();
    List<Pod> pods = List.of(
        sharePod("s1", 400).toBuilder().nodeName("a").annotation(GpuRequests.IDS_ANNOTATION, "G1").build(),
        sharePod("s2", 250).toBuilder().nodeName("a").build(), // no ids: joins G1 (400 + 250)
        CaFixtures.gpuPod("w", 100, 100, 1).toBuilder().nodeName("b").build(),
        sharePod("pending", 900)); // not bound: not counted
    Map<String, GpuPoolUsage> u = GpuPoolUsage.byPool(List.of(known, anonymous, cpuOnly), pods);

    assertThat(u).containsOnlyKeys("p", "q");
    assertThat(u.get("p")).isEqualTo(new GpuPoolUsage(2, 650, 350));
    assertThat(u.get("p").allocatedRatio()).isCloseTo(650.0 / 2000, within(1e-12));
    assertThat(u.get("p").fragmentationRatio()).isCloseTo(350.0 / 1350, within(1e-12));
    assertThat(u.get("q")).isEqualTo(new GpuPoolUsage(2, 1000, 0));
    assertThat(u.get("q").fragmentationRatio()).isZero();
    assertThat(new GpuPoolUsage(1, 1000, 0).fragmentationRatio()).as("nothing free").isZero();
  }

  private static Pod sharePod(String name, long milli) {
    ResourceList share = ResourceList.builder().put(GpuRequests.MILLI, Quantity.of(milli)).build();
    return Pod.builder().name(name).ownerReference(CaFixtures.RS)
        .container("app", "cuda", ResourceList.ofCpuMemory(100, 100 * MI).add(share), share).build();
  }
}
