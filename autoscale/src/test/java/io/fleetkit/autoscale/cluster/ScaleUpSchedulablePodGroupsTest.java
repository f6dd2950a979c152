package io.fleetkit.autoscale.cluster;

import static io.fleetkit.autoscale.cluster.CaFixtures.MI;
import static io.fleetkit.autoscale.cluster.CaFixtures.barePod;
import static io.fleetkit.autoscale.cluster.CaFixtures.gpuResources;
import static io.fleetkit.autoscale.cluster.CaFixtures.pod;
import static io.fleetkit.autoscale.cluster.CaFixtures.pool;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Each pool's estimate gets only the pending pod groups whose first pod fits the pool's empty template node (upstream's
 * {@code SchedulablePodGroups}, which {@code ComputeExpansionOption} hands to {@code Estimate}; a pool none fits has no
 * option).
 *
 * <p>The tests named after upstream's are ported from cluster-autoscaler
 * {@code core/scaleup/orchestrator/orchestrator_test.go} at commit 0e20a38557062d2b3cd6a23ec98640a9cc731826. Upstream
 * lists a running node per group to give the group its template; a FleetKit pool's template is its spec, so the pools
 * start empty and the extra pods are pending with no node the scale-up filter could place them on (upstream hands them
 * to {@code ScaleUp} past that filter). Upstream's bare test pods are pods without a controller here, each a group of
 * its own; CPU is in millicores and memory in MiB where upstream has bytes or MiB (what fits where is the same).
 */
final class ScaleUpSchedulablePodGroupsTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build();

  @AfterEach
  void close() {
    store.close();
  }

  private ScaleUpPlan plan() {
    return plan(AutoscalerOptions.defaults());
  }

  private ScaleUpPlan plan(AutoscalerOptions options) {
    return ClusterAutoscaler.builder(store).clock(clock).expander(Expanders.leastWaste()).options(options).seed(42)
        .build().planScaleUp();
  }

  private static Map<String, Integer> nodeCounts(ScaleUpPlan plan) {
    return plan.options().stream().collect(Collectors.toMap(ScaleUpOption::poolName, ScaleUpOption::nodeCount));
  }

  private static Pod onPool(String name, long milliCpu, String pool) {
    return Pod.builder().name(name).terminationGracePeriodSeconds(0).nodeSelector(NodePool.POOL_LABEL, pool)
        .container("app", "pause", ResourceList.ofCpuMemory(milliCpu, 0)).build();
  }

  private static Pod bareGpuPod(String name, long milliCpu, long memMi, long gpus) {
    ResourceList gpu = ResourceList.builder().put("nvidia.com/gpu", Quantity.of(gpus)).build();
    return Pod.builder().name(name).terminationGracePeriodSeconds(0)
        .container("app", "cuda", ResourceList.ofCpuMemory(milliCpu, memMi * MI).add(gpu), gpu).build();
  }

  private static NodePool gpuPool(String name, long gpus) {
    return NodePool.builder().name(name).capacity(gpuResources(2000, 1000 * MI, 110, gpus)).minSize(0).maxSize(10)
        .build();
  }

  @Test
  void estimate_groupOnlyAnotherPoolFits_opensNoEmptyNode_podsPackOntoOneNode() {
    // pool a can take "first" and the two "small" pods on one node; "other" selects pool b. Were "other" handed to a's
    // estimate, its pod (sorted between the two groups) would open a second, empty template node of a, and the
    // round-robin search would then put the small pods on both nodes: two nodes, a's max
    store.create(pool("a", 1000, 1000, 0, 2));
    store.create(pool("b", 1000, 1000, 0, 2));
    store.create(barePod("first", 400, 0));
    store.create(onPool("other", 350, "b"));
    store.create(pod("small-0", 300, 0));
    store.create(pod("small-1", 300, 0));

    ScaleUpPlan plan = plan();

    ScaleUpOption a = plan.options().stream().filter(o -> o.poolName().equals("a")).findFirst().orElseThrow();
    assertThat(a.nodeCount()).isEqualTo(1);
    assertThat(a.pods()).extracting(p -> p.metadata().name()).containsExactlyInAnyOrder("first", "small-0",
        "small-1");
    ScaleUpOption b = plan.options().stream().filter(o -> o.poolName().equals("b")).findFirst().orElseThrow();
    assertThat(b.pods()).extracting(p -> p.metadata().name()).containsExactlyInAnyOrder("first", "other", "small-0",
        "small-1");
    assertThat(b.nodeCount()).isEqualTo(2);
  }

  @Test
  void estimate_podFitsOnlyOnePoolsTemplate_otherPoolSkipped() {
    store.create(pool("small", 500, 1000, 0, 10));
    store.create(pool("large", 2000, 1000, 0, 10));
    store.create(barePod("big", 1500, 0));

    ScaleUpPlan plan = plan();

    assertThat(nodeCounts(plan)).isEqualTo(Map.of("large", 1));
    assertThat(plan.skippedPools()).containsEntry("small", "no pending pod fits its template");
    assertThat(plan.chosen()).isNotNull();
    assertThat(plan.chosen().poolName()).isEqualTo("large");
  }

  /** Upstream's TestScaleUpOK. */
  @Test
  void scaleUpOK() {
    store.create(pool("ng1", 100, 100, 0, 10));
    store.create(pool("ng2", 1000, 1000, 0, 10));
    store.create(barePod("p-new", 500, 0));

    ScaleUpPlan plan = plan();

    assertThat(nodeCounts(plan)).isEqualTo(Map.of("ng2", 1));
    assertThat(plan.chosen()).isNotNull();
    assertThat(plan.scaleUps()).containsExactly(new PoolScaleUp("ng2", 0, 1, 10));
    assertThat(plan.chosen().pods()).extracting(p -> p.metadata().name()).containsExactly("p-new");
  }

  /** Upstream's TestMixedScaleUp: one pod fits only ng2, one only ng1, one neither. */
  @Test
  void mixedScaleUp() {
    store.create(pool("ng1", 100, 1000, 0, 10));
    store.create(pool("ng2", 1000, 100, 0, 10));
    store.create(barePod("triggering", 900, 0));
    store.create(barePod("remaining", 2000, 0));
    store.create(barePod("awaiting", 0, 200));

    ScaleUpPlan plan = plan();

    assertThat(nodeCounts(plan)).isEqualTo(Map.of("ng1", 1, "ng2", 1));
    assertThat(plan.options()).filteredOn(o -> o.poolName().equals("ng2")).singleElement()
        .satisfies(o -> assertThat(o.pods()).extracting(p -> p.metadata().name()).containsExactly("triggering"));
    assertThat(plan.options()).filteredOn(o -> o.poolName().equals("ng1")).singleElement()
        .satisfies(o -> assertThat(o.pods()).extracting(p -> p.metadata().name()).containsExactly("awaiting"));
    // no option holds "remaining"
    assertThat(plan.options()).allSatisfy(o -> assertThat(o.pods()).extracting(p -> p.metadata().name())
        .doesNotContain("remaining"));
    assertThat(plan.unschedulablePods()).contains("default/remaining", "default/triggering", "default/awaiting");
  }

  /** Upstream's TestWillConsiderGpuAndStandardPoolForPodWhichDoesNotRequireGpu. */
  @Test
  void willConsiderGpuAndStandardPoolForPodWhichDoesNotRequireGpu() {
    store.create(gpuPool("gpu-pool", 1));
    store.create(gpuPool("std-pool", 0));
    store.create(barePod("extra-std-pod", 2000, 1000));

    ScaleUpPlan plan = plan();

    assertThat(nodeCounts(plan)).isEqualTo(Map.of("std-pool", 1, "gpu-pool", 1));
  }

  /** Upstream's TestWillConsiderOnlyGpuPoolForPodWhichDoesRequiresGpu. */
  @Test
  void willConsiderOnlyGpuPoolForPodWhichDoesRequiresGpu() {
    store.create(gpuPool("gpu-pool", 1));
    store.create(gpuPool("std-pool", 0));
    store.create(bareGpuPod("extra-gpu-pod", 2000, 1000, 1));

    ScaleUpPlan plan = plan();

    assertThat(nodeCounts(plan)).isEqualTo(Map.of("gpu-pool", 1));
    assertThat(plan.chosen()).isNotNull();
    assertThat(plan.chosen().poolName()).isEqualTo("gpu-pool");
    assertThat(plan.chosen().pods()).extracting(p -> p.metadata().name()).containsExactly("extra-gpu-pod");
  }

  /** Upstream's TestWillConsiderAllPoolsWhichFitTwoPodsRequiringGpus. */
  @Test
  void willConsiderAllPoolsWhichFitTwoPodsRequiringGpus() {
    store.create(gpuPool("gpu-1-pool", 1));
    store.create(gpuPool("gpu-2-pool", 2));
    store.create(gpuPool("gpu-4-pool", 4));
    store.create(gpuPool("std-pool", 0));
    for (int i = 1; i <= 3; i++) {
      store.create(bareGpuPod("extra-gpu-pod-" + i, 1, 1, 1)); // CPU and memory negligible
    }

    ScaleUpPlan plan = plan();

    assertThat(nodeCounts(plan)).isEqualTo(Map.of("gpu-1-pool", 3, "gpu-2-pool", 2, "gpu-4-pool", 1));
    assertThat(plan.options()).allSatisfy(o -> assertThat(o.pods()).extracting(p -> p.metadata().name())
        .containsExactlyInAnyOrder("extra-gpu-pod-1", "extra-gpu-pod-2", "extra-gpu-pod-3"));
  }

  /**
   * Upstream's TestScaleUpTwoGroups (its synchronous and parallel rows are one here: FleetKit launches the balanced
   * nodes in one step): two similar pools, each with a full node, and two pods that each need a node.
   */
  @Test
  void scaleUpTwoGroups() {
    for (String ng : List.of("ng1", "ng2")) {
      NodePool p = store.create(pool(ng, 1500, 1000, 0, 10));
      store.create(CaFixtures.poolNode(p, ng + "-n1"));
      store.create(barePod("full-" + ng, 1400, 0).toBuilder().nodeName(ng + "-n1").build());
    }
    store.create(barePod("p3", 1400, 0));
    store.create(barePod("p4", 1400, 0));

    ScaleUpPlan plan = plan(AutoscalerOptions.defaults().withBalanceSimilarNodeGroups(true));

    assertThat(plan.scaleUps()).containsExactlyInAnyOrder(new PoolScaleUp("ng1", 1, 2, 10),
        new PoolScaleUp("ng2", 1, 2, 10));
    assertThat(plan.chosen()).isNotNull();
    assertThat(plan.chosen().pods()).extracting(p -> p.metadata().name()).containsExactlyInAnyOrder("p3", "p4");
  }

  /**
   * Upstream's TestComputeSimilarNodeGroups rows "some similar node groups and same schedulable pods" with balancing
   * off and on, through the planner: ng1, ng2 and ng3 alike, pg1 and pg2 with a label of their own, and one pod every
   * pool takes. The other rows are in {@code ScaleUpBalancingTest}.
   */
  @Test
  void computeSimilarNodeGroups_sameSchedulablePods_balancingOffThenOn() {
    for (String ng : List.of("ng1", "ng2", "ng3", "pg1", "pg2")) {
      NodePool.Builder b = NodePool.builder().name(ng).capacity(CaFixtures.resources(100, 1000 * MI, 110))
          .minSize(0).maxSize(10);
      if (ng.startsWith("pg")) {
        b.nodeLabel("example.com/other", ng);
      }
      store.create(b.build());
    }
    store.create(barePod("p1", 100, 1000));

    ScaleUpPlan off = plan();
    assertThat(off.options()).hasSize(5).allSatisfy(o -> assertThat(o.similarPools()).isEmpty());

    ScaleUpPlan on = plan(AutoscalerOptions.defaults().withBalanceSimilarNodeGroups(true));
    assertThat(on.options()).filteredOn(o -> o.poolName().equals("ng1")).singleElement()
        .satisfies(o -> assertThat(o.similarPools()).extracting(p -> p.metadata().name())
            .containsExactly("ng2", "ng3"));
  }

  /** Upstream's TestScaleUpNoHelp: the pod fits no pool, so nothing is launched. */
  @Test
  void scaleUpNoHelp() {
    store.create(pool("ng1", 100, 1000, 0, 10));
    store.create(barePod("p-new", 500, 0));

    ScaleUpPlan plan = plan();

    assertThat(plan.options()).isEmpty();
    assertThat(plan.chosen()).isNull();
    assertThat(plan.scaleUps()).isEmpty();
    assertThat(plan.skippedPools()).containsEntry("ng1", "no pending pod fits its template");

    // upstream's loop records NotTriggerScaleUp on the pod
    List<String> events = new java.util.ArrayList<>();
    ClusterAutoscaler.builder(store).clock(clock).seed(42).events((regarding, related, type, reason, action, note) ->
        events.add(reason + " " + regarding.name() + ": " + note)).build().runOnce();
    assertThat(events).singleElement().asString().startsWith("NotTriggerScaleUp p-new: pod didn't trigger scale-up: ")
        .contains("1 Insufficient cpu");
  }
}
