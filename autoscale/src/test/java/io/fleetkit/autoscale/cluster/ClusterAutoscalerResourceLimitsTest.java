package io.fleetkit.autoscale.cluster;

import static io.fleetkit.autoscale.cluster.CaFixtures.MI;
import static io.fleetkit.autoscale.cluster.CaFixtures.pod;
import static io.fleetkit.autoscale.cluster.CaFixtures.pool;
import static io.fleetkit.autoscale.cluster.CaFixtures.poolNode;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The cluster-wide limits {@code --cores-total}, {@code --memory-total} and {@code --gpu-total} in the autoscaler's
 * loop: a pool one node of which would exceed a maximum is skipped with upstream's reason, the chosen option is capped
 * (upstream's {@code ApplyLimits}), and scale-down keeps the cluster at its minima
 * ({@code MinimalResourceLimitExceeded}).
 */
final class ClusterAutoscalerResourceLimitsTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build();

  @AfterEach
  void close() {
    store.close();
  }

  private ClusterAutoscaler ca(AutoscalerOptions o) {
    // deletions in the loop that decides them (the delay after the taint is ClusterAutoscalerDeleteDelayTest's)
    return ClusterAutoscaler.builder(store).clock(clock).seed(42)
        .options(o.withNodeDeleteDelayAfterTaint(Duration.ZERO)).build();
  }

  private long poolNodes(String pool) {
    return store.list(Node.class).items().stream()
        .filter(n -> pool.equals(n.metadata().labels().get(NodePool.POOL_LABEL))).count();
  }

  @Test
  void scaleUp_cappedByMaxCores_andTheNodesLaunchedStayWithinIt() {
    store.create(pool("p", 4000, 8192, 0, 10));
    for (int i = 0; i < 6; i++) {
      store.create(pod("w" + i, 3500, 512)); // one per 4-core node
    }
    // a node outside every pool counts by itself: 2 cores
    store.create(Node.builder().name("static").ready().capacity(CaFixtures.resources(2000, 4096 * MI, 110)).build());
    ClusterAutoscaler ca = ca(AutoscalerOptions.defaults().withCoresTotal(0, 13));
    LoopResult r = ca.runOnce();
    ScaleUpPlan plan = r.scaleUp();
    assertThat(plan.chosen().nodeCount()).as("the estimate").isEqualTo(6);
    // 13 - 2 = 11 cores left: 11 / 4 = 2 nodes
    assertThat(plan.scaleUps()).containsExactly(new PoolScaleUp("p", 0, 2, 10));
    assertThat(r.launchedNodes()).hasSize(2);
    assertThat(poolNodes("p")).isEqualTo(2);
    // the next loop: 2 + 2*4 = 10 cores, 3 left: not even one more node
    clock.advance(Duration.ofSeconds(10));
    LoopResult next = ca.runOnce();
    assertThat(next.launchedNodes()).isEmpty();
    assertThat(next.scaleUp().skippedPools()).containsEntry("p", "max cluster cpu limit reached");
  }

  @Test
  void scaleUp_poolOverTheMaxima_skipped_anotherPoolChosen() {
    store.create(pool("big", 8000, 32768, 0, 10));
    store.create(pool("small", 2000, 4096, 0, 10));
    store.create(pod("w", 1000, 1024));
    ClusterAutoscaler ca = ca(AutoscalerOptions.defaults().withCoresTotal(0, 4).withMemoryTotal(0, 8192 * MI));
    ScaleUpPlan plan = ca.planScaleUp();
    assertThat(plan.skippedPools()).containsEntry("big", "max cluster cpu, memory limit reached");
    assertThat(plan.chosen().poolName()).isEqualTo("small");
    assertThat(plan.scaleUps()).containsExactly(new PoolScaleUp("small", 0, 1, 10));
  }

  @Test
  void scaleUp_memoryOnly_reasonNamesMemory() {
    store.create(pool("p", 2000, 4096, 0, 10));
    store.create(pod("w", 1000, 1024));
    ScaleUpPlan plan = ca(AutoscalerOptions.defaults().withMemoryTotal(0, 4095 * MI)).planScaleUp();
    assertThat(plan.chosen()).isNull();
    assertThat(plan.scaleUps()).isEmpty();
    assertThat(plan.skippedPools()).containsEntry("p", "max cluster memory limit reached");
  }

  @Test
  void scaleUp_atomicPool_checkedWithAllItsNodes() {
    store.create(NodePool.builder().name("slice").capacity(CaFixtures.resources(4000, 8192 * MI, 110)).minSize(0)
        .maxSize(4).zeroOrMaxNodeScaling(true).build());
    store.create(pod("w", 1000, 1024));
    ScaleUpPlan plan = ca(AutoscalerOptions.defaults().withCoresTotal(0, 15)).planScaleUp();
    assertThat(plan.skippedPools()).containsEntry("slice", "max cluster cpu limit reached");
    ScaleUpPlan fits = ca(AutoscalerOptions.defaults().withCoresTotal(0, 16)).planScaleUp();
    assertThat(fits.scaleUps()).containsExactly(new PoolScaleUp("slice", 0, 4, 4));
  }

  @Test
  void enforceMinSize_cappedByMaxCores() {
    store.create(pool("p", 4000, 8192, 5, 10));
    LoopResult r = ca(AutoscalerOptions.defaults().withEnforceNodeGroupMinSize(true).withCoresTotal(0, 12)).runOnce();
    assertThat(r.launchedNodes()).hasSize(3);
  }

  @Test
  void scaleDown_keepsTheCoresMinimum_othersMinimalResourceLimitExceeded() {
    NodePool p = pool("p", 4000, 8192, 0, 10);
    store.create(p);
    for (String n : List.of("n1", "n2", "n3", "n4")) {
      store.create(poolNode(p, n));
    }
    // 16 cores, at least 8 stay: two of the four empty nodes may go
    ClusterAutoscaler ca = ca(AutoscalerOptions.defaults().withCoresTotal(8, 0));
    LoopResult first = ca.runOnce();
    assertThat(first.unneededNodes()).hasSize(4);
    clock.advance(Duration.ofMinutes(11));
    LoopResult r = ca.runOnce();
    assertThat(r.deletionsStarted()).hasSize(2);
    assertThat(r.unremovableNodes()).hasSize(2)
        .allSatisfy((n, reason) -> assertThat(reason).isEqualTo(ClusterAutoscaler.MINIMAL_RESOURCE_LIMIT_EXCEEDED));
    assertThat(store.list(Node.class).items()).hasSize(2);
    clock.advance(Duration.ofMinutes(11));
    assertThat(ca.runOnce().deletedNodes()).as("at the minimum").isEmpty();
    assertThat(store.list(Node.class).items()).hasSize(2);
  }

  @Test
  void scaleDown_memoryMinimum_countsEveryNode() {
    NodePool p = pool("p", 4000, 8192, 0, 10);
    store.create(p);
    store.create(poolNode(p, "n1"));
    store.create(poolNode(p, "n2"));
    store.create(Node.builder().name("static").ready().capacity(ResourceList.ofCpuMemory(1000, 8192 * MI)).build());
    ClusterAutoscaler ca = ca(AutoscalerOptions.defaults().withMemoryTotal(16384 * MI, 0));
    ca.runOnce();
    clock.advance(Duration.ofMinutes(11));
    LoopResult r = ca.runOnce();
    assertThat(r.deletionsStarted()).hasSize(1);
    assertThat(r.unremovableNodes()).containsValue(ClusterAutoscaler.MINIMAL_RESOURCE_LIMIT_EXCEEDED);
  }

  /** A pool of 8-core nodes with {@code gpus} GPUs of type {@code type} ({@link NodePool#GPU_LABEL}). */
  private static NodePool gpuPool(String name, String type, long gpus, int max) {
    return NodePool.builder().name(name).nodeLabel(NodePool.GPU_LABEL, type)
        .capacity(CaFixtures.gpuResources(8000, 32768 * MI, 110, gpus)).minSize(0).maxSize(max).build();
  }

  private static AutoscalerOptions gpuTotal(String type, long min, long max) {
    return AutoscalerOptions.defaults().withGpuTotal(List.of(new AutoscalerOptions.GpuLimit(type, min, max)));
  }

  @Test
  void scaleUp_cappedByTheGpuMaximumOfTheType_thenThePoolSkipped() {
    store.create(gpuPool("a100", "a100", 4, 10));
    for (int i = 0; i < 6; i++) {
      store.create(CaFixtures.gpuPod("t" + i, 1000, 1024, 4)); // one per node
    }
    ClusterAutoscaler ca = ca(gpuTotal("a100", 0, 10));
    LoopResult r = ca.runOnce();
    assertThat(r.scaleUp().chosen().nodeCount()).as("the estimate").isEqualTo(6);
    // 10 GPUs of a100 allowed: 10 / 4 = 2 nodes
    assertThat(r.scaleUp().scaleUps()).containsExactly(new PoolScaleUp("a100", 0, 2, 10));
    assertThat(poolNodes("a100")).isEqualTo(2);
    clock.advance(Duration.ofSeconds(10));
    LoopResult next = ca.runOnce();
    assertThat(next.launchedNodes()).isEmpty();
    assertThat(next.scaleUp().skippedPools()).containsEntry("a100", "max cluster a100 limit reached");
  }

  @Test
  void scaleUp_gpuMaximumOfOneType_poolOfAnotherTypeChosen() {
    store.create(gpuPool("a100", "a100", 4, 10));
    store.create(gpuPool("h100", "h100", 4, 10));
    store.create(CaFixtures.gpuPod("t", 1000, 1024, 2));
    ScaleUpPlan plan = ca(gpuTotal("a100", 0, 3)).planScaleUp();
    assertThat(plan.skippedPools()).containsEntry("a100", "max cluster a100 limit reached");
    assertThat(plan.scaleUps()).containsExactly(new PoolScaleUp("h100", 0, 1, 10));
  }

  @Test
  void scaleDown_keepsTheGpuMinimumOfTheType_otherTypesGo() {
    NodePool a100 = gpuPool("a100", "a100", 4, 10);
    NodePool h100 = gpuPool("h100", "h100", 4, 10);
    store.create(a100);
    store.create(h100);
    for (String n : List.of("a1", "a2", "a3", "a4")) {
      store.create(poolNode(a100, n));
    }
    store.create(poolNode(h100, "h1"));
    // 16 a100 GPUs, at least 8 stay: two of the four empty a100 nodes may go; the h100 node has no minimum
    ClusterAutoscaler ca = ClusterAutoscaler.builder(store).clock(clock).seed(42).options(gpuTotal("a100", 8, 0)
        .withMaxEmptyBulkDelete(10).withNodeDeleteDelayAfterTaint(Duration.ZERO)).build();
    assertThat(ca.runOnce().unneededNodes()).hasSize(5);
    clock.advance(Duration.ofMinutes(11));
    LoopResult r = ca.runOnce();
    assertThat(r.deletionsStarted()).hasSize(3).contains("h1");
    assertThat(r.unremovableNodes()).hasSize(2)
        .allSatisfy((n, reason) -> assertThat(reason).isEqualTo(ClusterAutoscaler.MINIMAL_RESOURCE_LIMIT_EXCEEDED));
    assertThat(poolNodes("a100")).isEqualTo(2);
    clock.advance(Duration.ofMinutes(11));
    assertThat(ca.runOnce().deletedNodes()).as("at the minimum").isEmpty();
    assertThat(poolNodes("a100")).isEqualTo(2);
  }
}
