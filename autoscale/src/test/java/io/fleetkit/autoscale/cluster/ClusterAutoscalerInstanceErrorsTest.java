package io.fleetkit.autoscale.cluster;

import static io.fleetkit.autoscale.cluster.CaFixtures.pod;
import static io.fleetkit.autoscale.cluster.CaFixtures.pool;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.observability.micrometer.MicrometerMetrics;
import io.fleetkit.observability.prometheus.Exposition;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The cluster autoscaler when the cloud refuses machines ({@link InstanceCreation}): as upstream's
 * {@code clusterstate.handleInstanceCreationErrors} and the static autoscaler's {@code deleteCreatedNodesWithErrors},
 * the refused nodes never join the pool (the scale-up is undone), the pool is backed off with the cloud's error, and
 * the next loop's expander picks another pool.
 */
final class ClusterAutoscalerInstanceErrorsTest {
  private static final InstanceErrorInfo EXHAUSTED = new InstanceErrorInfo(InstanceErrorClass.OUT_OF_RESOURCES,
      "RESOURCE_POOL_EXHAUSTED", "no n2 machines in zone-a");

  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build();
  /** The pools the cloud is out of. */
  private final Set<String> stockedOut = new HashSet<>();
  /** Every machine asked of the cloud, in order. */
  private final List<String> asked = new ArrayList<>();
  private final InstanceCreation cloud = (node, now) -> {
    asked.add(node.name());
    return stockedOut.contains(node.metadata().labels().get(NodePool.POOL_LABEL)) ? EXHAUSTED : null;
  };

  @AfterEach
  void close() {
    store.close();
  }

  private ClusterAutoscaler ca(InstanceCreation c) {
    return ClusterAutoscaler.builder(store).clock(clock).seed(42).instanceCreation(c).build();
  }

  private List<String> nodesOf(String pool) {
    return store.list(Node.class).items().stream()
        .filter(n -> pool.equals(n.metadata().labels().get(NodePool.POOL_LABEL))).map(Node::name).sorted().toList();
  }

  /** Four 1000m pods; least-waste prefers small (2 nodes), then highmem, then large (ClusterAutoscalerTest). */
  private void threePoolsFourPods() {
    store.create(pool("small", 2000, 4096, 0, 10));
    store.create(pool("large", 8000, 8192, 0, 10));
    store.create(pool("highmem", 4000, 32768, 0, 10));
    for (int i = 0; i < 4; i++) {
      store.create(pod("p" + i, 1000, 1024));
    }
  }

  @Test
  void stockout_refusedNodesNeverCreated_poolBackedOff_nextLoopScalesUpAnotherPool() {
    threePoolsFourPods();
    stockedOut.add("small");
    ClusterAutoscaler ca = ca(cloud);

    LoopResult first = ca.runOnce();
    assertThat(first.scaleUp().chosen().poolName()).isEqualTo("small");
    assertThat(asked).containsExactly("small-1", "small-2");
    assertThat(first.launchedNodes()).isEmpty();
    assertThat(nodesOf("small")).isEmpty(); // the scale-up is undone: the pool stays at 0
    assertThat(store.require(NodePool.class, "", "small").status().currentSize()).isZero();
    assertThat(first.scaleUpFailures()).containsExactly(new ScaleUpFailure("small", List.of("small-1", "small-2"),
        EXHAUSTED));
    assertThat(first.scaleUpFailures().get(0).eventMessage()).isEqualTo("Failed adding 2 nodes to group small due to"
        + " OutOfResource.RESOURCE_POOL_EXHAUSTED; source errors: no n2 machines in zone-a");
    assertThat(ca.backoffStatus("small")).isEqualTo(EXHAUSTED);

    clock.advance(Duration.ofSeconds(10));
    LoopResult second = ca.runOnce();
    assertThat(second.scaleUp().skippedPools().get("small")).startsWith(ClusterAutoscaler.BACKOFF_REASON);
    assertThat(second.scaleUp().chosen().poolName()).isEqualTo("highmem");
    assertThat(second.launchedNodes()).containsExactly("highmem-1");
    assertThat(second.scaleUpFailures()).isEmpty();
    assertThat(asked).containsExactly("small-1", "small-2", "highmem-1"); // the backed-off pool is not asked again
  }

  @Test
  void stockoutOver_afterTheInitialBackoff_thePoolIsUsedAgain() {
    store.create(pool("small", 2000, 4096, 0, 10));
    store.create(pool("large", 8000, 8192, 0, 10));
    for (int i = 0; i < 4; i++) {
      store.create(pod("p" + i, 1000, 1024));
    }
    stockedOut.add("small");
    ClusterAutoscaler ca = ca(cloud);
    assertThat(ca.runOnce().scaleUpFailures()).extracting(ScaleUpFailure::pool).containsExactly("small");
    stockedOut.clear();
    clock.advance(Duration.ofMinutes(5)); // upstream's initial backoff: still backed off at its end
    LoopResult during = ca.runOnce();
    assertThat(during.scaleUp().skippedPools()).containsKey("small");
    assertThat(during.launchedNodes()).containsExactly("large-1"); // the other pool takes the pods meanwhile
    store.delete(Node.class, "", "large-1"); // the large machine is lost: the pods are pending again
    clock.advance(Duration.ofSeconds(1));
    LoopResult after = ca.runOnce();
    assertThat(ca.isBackedOff("small")).isFalse();
    assertThat(after.scaleUp().chosen().poolName()).isEqualTo("small");
    assertThat(after.launchedNodes()).containsExactly("small-3", "small-4"); // the refused names stay used
  }

  @Test
  void partialRefusal_theCreatedNodesStay_thePoolIsBackedOff() {
    store.create(pool("small", 2000, 4096, 0, 10));
    for (int i = 0; i < 4; i++) {
      store.create(pod("p" + i, 1000, 1024));
    }
    ClusterAutoscaler ca = ca((node, now) -> node.name().equals("small-2") ? EXHAUSTED : null);
    LoopResult r = ca.runOnce();
    assertThat(r.launchedNodes()).containsExactly("small-1");
    assertThat(r.scaleUpFailures()).containsExactly(new ScaleUpFailure("small", List.of("small-2"), EXHAUSTED));
    assertThat(nodesOf("small")).containsExactly("small-1");
    assertThat(ca.isBackedOff("small")).isTrue();
  }

  @Test
  void twoErrorCodes_oneFailureEach_messagesDistinct_bothCountedAsFailedScaleUps() {
    PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    store.create(pool("small", 2000, 4096, 0, 10));
    for (int i = 0; i < 8; i++) {
      store.create(pod("p" + i, 1000, 1024));
    }
    Map<String, InstanceErrorInfo> answers = Map.of(
        "small-1", new InstanceErrorInfo(InstanceErrorClass.OUT_OF_RESOURCES, "STOCKOUT", "zone-a empty"),
        "small-2", new InstanceErrorInfo(InstanceErrorClass.OUT_OF_RESOURCES, "STOCKOUT", "zone-a empty"),
        "small-3", new InstanceErrorInfo(InstanceErrorClass.OUT_OF_RESOURCES, "STOCKOUT", "zone-b empty"),
        "small-4", new InstanceErrorInfo(InstanceErrorClass.OTHER, "QUOTA_EXCEEDED", "quota"));
    ClusterAutoscaler ca = ClusterAutoscaler.builder(store).clock(clock).seed(42)
        .metrics(MicrometerMetrics.of(prometheus)).instanceCreation((node, now) -> answers.get(node.name())).build();
    LoopResult r = ca.runOnce();
    assertThat(r.launchedNodes()).isEmpty();
    assertThat(r.scaleUpFailures()).containsExactly(
        new ScaleUpFailure("small", List.of("small-1", "small-2", "small-3"),
            new InstanceErrorInfo(InstanceErrorClass.OUT_OF_RESOURCES, "STOCKOUT", "zone-a empty, zone-b empty")),
        new ScaleUpFailure("small", List.of("small-4"),
            new InstanceErrorInfo(InstanceErrorClass.OTHER, "QUOTA_EXCEEDED", "quota")));
    // backed off once per code; the second, while the first holds, keeps the duration and takes its error
    assertThat(ca.backoffStatus("small").errorCode()).isEqualTo("QUOTA_EXCEEDED");
    Exposition e = Exposition.parse(prometheus.scrape());
    assertThat(e.value("cluster_autoscaler_failed_scale_ups_total", Map.of("reason", "STOCKOUT"))).contains(1.0);
    assertThat(e.value("cluster_autoscaler_failed_scale_ups_total", Map.of("reason", "QUOTA_EXCEEDED")))
        .contains(1.0);
    assertThat(e.value("cluster_autoscaler_failed_scale_ups_total", Map.of("reason", "timeout"))).contains(0.0);
  }

  /**
   * kubernetes/autoscaler {@code cluster-autoscaler/clusterstate/clusterstate_test.go} TestHandleInstanceCreationErrors
   * (the index's newest stored version; its commit is not shown): ng1 scaling up by 1, its one instance creating with
   * an OutOfResources error {@code RESOURCE_POOL_EXHAUSTED} and an empty message; the failed scale-up is registered
   * with that code as the reason. Here the instance is the refused machine of the scale-up, the registration the
   * {@code failed_scale_ups_total} counter and the backoff.
   */
  @Test
  void handleInstanceCreationErrors_upstream_failedScaleUpRegisteredWithTheErrorCode() {
    PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    store.create(pool("ng1", 1000, 1000, 0, 10));
    store.create(pod("p", 500, 100));
    InstanceErrorInfo error = new InstanceErrorInfo(InstanceErrorClass.OUT_OF_RESOURCES, "RESOURCE_POOL_EXHAUSTED",
        "");
    ClusterAutoscaler ca = ClusterAutoscaler.builder(store).clock(clock).seed(42)
        .metrics(MicrometerMetrics.of(prometheus)).instanceCreation((node, now) -> error).build();
    LoopResult r = ca.runOnce();
    assertThat(r.scaleUpFailures()).containsExactly(new ScaleUpFailure("ng1", List.of("ng1-1"), error));
    assertThat(Exposition.parse(prometheus.scrape()).value("cluster_autoscaler_failed_scale_ups_total",
        Map.of("reason", "RESOURCE_POOL_EXHAUSTED"))).contains(1.0);
    assertThat(ca.backoffStatus("ng1")).isEqualTo(error);
  }

  @Test
  void gpuPoolRefused_countedAsAFailedGpuScaleUpToo() {
    PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    store.create(NodePool.builder().name("gpu").capacity(CaFixtures.gpuResources(8000, 64L << 30, 110, 4))
        .minSize(0).maxSize(4).build());
    store.create(CaFixtures.gpuPod("train", 1000, 1024, 2));
    ClusterAutoscaler ca = ClusterAutoscaler.builder(store).clock(clock).seed(42)
        .metrics(MicrometerMetrics.of(prometheus)).instanceCreation((node, now) -> EXHAUSTED).build();
    assertThat(ca.runOnce().scaleUpFailures()).extracting(ScaleUpFailure::pool).containsExactly("gpu");
    Exposition e = Exposition.parse(prometheus.scrape());
    assertThat(e.value("cluster_autoscaler_failed_gpu_scale_ups_total", Map.of("reason", "RESOURCE_POOL_EXHAUSTED",
        "gpu_resource_name", "nvidia.com/gpu", "gpu_name", ""))).contains(1.0);
  }

  /** Upstream's {@code buildErrorMessageEventString}: all the messages, then {@code ", ..."} past three. */
  @Test
  void errorMessages_joinedWithEllipsisPastThree() {
    assertThat(ClusterAutoscaler.errorMessages(List.of())).isEmpty();
    assertThat(ClusterAutoscaler.errorMessages(List.of("a", "b", "c"))).isEqualTo("a, b, c");
    assertThat(ClusterAutoscaler.errorMessages(List.of("a", "b", "c", "d"))).isEqualTo("a, b, c, d, ...");
  }
}
