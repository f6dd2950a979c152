package io.fleetkit.autoscale.cluster;

import static io.fleetkit.autoscale.cluster.CaFixtures.barePod;
import static io.fleetkit.autoscale.cluster.CaFixtures.pod;
import static io.fleetkit.autoscale.cluster.CaFixtures.pool;
import static io.fleetkit.autoscale.cluster.CaFixtures.poolNode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.policy.PodDisruptionBudget;
import io.fleetkit.api.policy.PodDisruptionBudgetSpec;
import io.fleetkit.api.policy.PodDisruptionBudgetStatus;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.autoscale.cluster.simulator.SimulatedNodes;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

final class ClusterAutoscalerTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build();

  @AfterEach
  void close() {
    store.close();
  }

  private ClusterAutoscaler ca(Expander e) {
    // deletions in the loop that decides them (the delay after the taint is ClusterAutoscalerDeleteDelayTest's)
    return ClusterAutoscaler.builder(store).clock(clock).expander(e).seed(42)
        .options(AutoscalerOptions.defaults().withNodeDeleteDelayAfterTaint(Duration.ZERO)).build();
  }

  private List<String> nodesOf(String pool) {
    return store.list(Node.class).items().stream()
        .filter(n -> pool.equals(n.metadata().labels().get(NodePool.POOL_LABEL))).map(Node::name).sorted().toList();
  }

  /** Three pools and four 1000m/1Gi pods; the waste of each option is computed by hand in the test below. */
  private void threePoolsFourPods(double smallPrice, double largePrice, double highmemPrice) {
    store.create(pool("small", 2000, 4096, 0, 10, smallPrice));
    store.create(pool("large", 8000, 8192, 0, 10, largePrice));
    store.create(pool("highmem", 4000, 32768, 0, 10, highmemPrice));
    for (int i = 0; i < 4; i++) {
      store.create(pod("p" + i, 1000, 1024));
    }
  }

  @Test
  void scaleUp_leastWaste_picksThePoolAHandComputedLeastWastePicks() {
    threePoolsFourPods(1, 1, 1);
    ScaleUpPlan plan = ca(Expanders.leastWaste()).planScaleUp();
    assertThat(plan.unschedulablePods()).hasSize(4);
    // small: 2 nodes (2 pods each), cpu (4000-4000)/4000 = 0, mem (8192-4096)/8192 = 0.5 -> 0.5
    // large: 1 node, cpu (8000-4000)/8000 = 0.5, mem (8192-4096)/8192 = 0.5 -> 1.0
    // highmem: 1 node, cpu 0, mem (32768-4096)/32768 = 0.875 -> 0.875
    Map<String, ScaleUpOption> byPool = plan.options().stream()
        .collect(java.util.stream.Collectors.toMap(ScaleUpOption::poolName, o -> o));
    assertThat(byPool.get("small").nodeCount()).isEqualTo(2);
    assertThat(byPool.get("large").nodeCount()).isEqualTo(1);
    assertThat(byPool.get("highmem").nodeCount()).isEqualTo(1);
    assertThat(Expanders.wastedScore(byPool.get("small"))).isCloseTo(0.5, within(1e-9));
    assertThat(Expanders.wastedScore(byPool.get("large"))).isCloseTo(1.0, within(1e-9));
    assertThat(Expanders.wastedScore(byPool.get("highmem"))).isCloseTo(0.875, within(1e-9));
    assertThat(plan.chosen()).isNotNull();
    assertThat(plan.chosen().poolName()).isEqualTo("small");

    LoopResult r = ca(Expanders.leastWaste()).runOnce();
    assertThat(r.launchedNodes()).containsExactly("small-1", "small-2");
    assertThat(nodesOf("small")).containsExactly("small-1", "small-2");
    assertThat(nodesOf("large")).isEmpty();
    assertThat(store.require(NodePool.class, "", "small").status().currentSize()).isEqualTo(2);
  }

  static Stream<Arguments> expanders() {
    return Stream.of(
        // price per pod: small 2 nodes x 1.0 / 4 = 0.5, large 3.0 / 4 = 0.75, highmem 1.5 / 4 = 0.375
        Arguments.of("price", Expanders.price(), "highmem"),
        Arguments.of("priority", Expanders.priority(Map.of(10, List.of("^large$"), 1, List.of(".*"))), "large"),
        // the default expander again, with prices that do not matter to it
        Arguments.of("least-waste", Expanders.leastWaste(), "small"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("expanders")
  void scaleUp_eachExpander_picksItsPool(String name, Expander e, String expected) {
    threePoolsFourPods(1.0, 3.0, 1.5);
    ScaleUpPlan plan = ca(e).planScaleUp();
    assertThat(plan.options()).hasSize(3);
    assertThat(plan.chosen()).isNotNull();
    assertThat(plan.chosen().poolName()).isEqualTo(expected);
  }

  @Test
  void scaleUp_mostPods_picksThePoolThatTakesMostPods() {
    store.create(pool("a", 2000, 4096, 0, 1)); // at most 1 node: 2 pods
    store.create(pool("b", 8000, 8192, 0, 1)); // 1 node: 4 pods
    for (int i = 0; i < 4; i++) {
      store.create(pod("p" + i, 1000, 1024));
    }
    ScaleUpPlan plan = ca(Expanders.mostPods()).planScaleUp();
    assertThat(plan.options()).extracting(o -> o.pods().size()).containsExactly(2, 4);
    assertThat(plan.chosen().poolName()).isEqualTo("b");
    // least-waste would have taken a (waste 0 + 0.5 against 0.5 + 0.5)
    assertThat(ca(Expanders.leastWaste()).planScaleUp().chosen().poolName()).isEqualTo("a");
  }

  @Test
  void scaleUp_random_isSeededAndPicksAnOption() {
    threePoolsFourPods(1, 1, 1);
    String first = ca(Expanders.random()).planScaleUp().chosen().poolName();
    for (int i = 0; i < 5; i++) {
      assertThat(ca(Expanders.random()).planScaleUp().chosen().poolName()).isEqualTo(first);
    }
    assertThat(first).isIn("small", "large", "highmem");
  }

  @Test
  void scaleUp_fromZero_usesThePoolTemplate_labelsAndTaints() {
    store.create(pool("cpu", 8000, 16384, 0, 10));
    store.create(NodePool.builder().name("gpu").capacity(CaFixtures.gpuResources(16000, 65536 * CaFixtures.MI, 110, 4))
        .nodeLabel("accelerator", "a100").nodeTaint(Taint.of("nvidia.com/gpu", "present", TaintEffect.NoSchedule))
        .minSize(0).maxSize(3).build());
    Pod train = pod("train", 4000, 8192).toBuilder().nodeSelector("accelerator", "a100")
        .toleration(Toleration.exists("nvidia.com/gpu", TaintEffect.NoSchedule)).build();
    store.create(train);
    LoopResult r = ca(Expanders.leastWaste()).runOnce();
    assertThat(r.scaleUp().skippedPools()).containsKey("cpu");
    assertThat(r.launchedNodes()).containsExactly("gpu-1");
    Node n = store.require(Node.class, "", "gpu-1");
    assertThat(n.metadata().labels()).containsEntry("accelerator", "a100").containsEntry(NodePool.POOL_LABEL, "gpu")
        .containsEntry("kubernetes.io/hostname", "gpu-1");
    assertThat(n.spec().taints()).extracting(Taint::key).contains("nvidia.com/gpu");
    assertThat(n.isReady()).isTrue(); // no start-up delay
  }

  @Test
  void scaleUp_upcomingNode_isNotRequestedTwice() {
    store.create(CaFixtures.withDelay(pool("p", 4000, 8192, 0, 10), Duration.ofMinutes(3)));
    store.create(pod("a", 1000, 1024));
    ClusterAutoscaler ca = ca(Expanders.leastWaste());
    assertThat(ca.runOnce().launchedNodes()).containsExactly("p-1");
    clock.advance(Duration.ofSeconds(10));
    LoopResult r = ca.runOnce();
    assertThat(r.launchedNodes()).isEmpty();
    assertThat(r.scaleUp().unschedulablePods()).isEmpty();
    assertThat(SimulatedNodes.isStarting(store.require(Node.class, "", "p-1"))).isTrue();
  }

  @Test
  void scaleUp_neverPastMax_orMaxNodesTotal() {
    store.create(pool("p", 1000, 8192, 0, 3));
    for (int i = 0; i < 10; i++) {
      store.create(pod("p" + i, 1000, 1024));
    }
    LoopResult r = ca(Expanders.leastWaste()).runOnce();
    assertThat(r.launchedNodes()).hasSize(3);
    clock.advance(Duration.ofSeconds(10));
    LoopResult again = ca(Expanders.leastWaste()).runOnce();
    assertThat(again.launchedNodes()).isEmpty();
    assertThat(again.scaleUp().skippedPools()).containsEntry("p", ClusterAutoscaler.MAX_LIMIT_REACHED_REASON + ": 3");
  }

  @Test
  void scaleUp_nodeNotReadyWithinMaxProvisionTime_isRemovedAndPoolBackedOff() {
    // "slow" wastes less and is chosen first, but its nodes take 20 min: past the 15 min max provision time
    store.create(CaFixtures.withDelay(pool("slow", 2000, 2048, 0, 10), Duration.ofMinutes(20)));
    store.create(CaFixtures.withDelay(pool("fast", 4000, 8192, 0, 10), Duration.ofMinutes(1)));
    store.create(pod("a", 2000, 2048));
    ClusterAutoscaler ca = ca(Expanders.leastWaste());
    assertThat(ca.runOnce().launchedNodes()).containsExactly("slow-1");
    for (int m = 1; m <= 15; m++) { // at exactly 15 min not yet timed out: upstream's expected add time is not before
      clock.set(ManualClock.atEpoch2026().instant().plus(Duration.ofMinutes(m)));
      LoopResult r = ca.runOnce();
      assertThat(r.launchedNodes()).as("minute %d", m).isEmpty();
      assertThat(r.timedOutNodes()).isEmpty();
    }
    clock.set(ManualClock.atEpoch2026().instant().plus(Duration.ofMinutes(15).plusSeconds(10))); // the next loop
    LoopResult r = ca.runOnce();
    assertThat(r.timedOutNodes()).containsExactly("slow-1");
    assertThat(ca.isBackedOff("slow")).isTrue();
    assertThat(r.scaleUp().skippedPools().get("slow")).startsWith(ClusterAutoscaler.BACKOFF_REASON + ": until");
    assertThat(r.launchedNodes()).containsExactly("fast-1");
    assertThat(store.get(Node.class, "", "slow-1")).isEmpty();
    clock.advance(Duration.ofMinutes(1));
    assertThat(ca.runOnce().readyNodes()).containsExactly("fast-1");
    clock.advance(Duration.ofMinutes(4)); // the 5 min initial backoff ends now: still backed off at its end
    assertThat(ca.isBackedOff("slow")).isTrue();
    clock.advance(Duration.ofSeconds(1));
    assertThat(ca.isBackedOff("slow")).isFalse();
  }

  /**
   * kubernetes/autoscaler {@code cluster-autoscaler/clusterstate/clusterstate_test.go} TestScaleUpBackoff (branch
   * cluster-autoscaler-release-1.37, commit a16f0ae8): ng1 with three ready nodes; a scale-up not done within
   * {@code MaxNodeProvisionTime} (2 min) leaves the group healthy but backed off for 5 min; after 5 min 1 s it is safe to
   * scale up; a second timeout backs it off for longer (still backed off 5 min 1 s later), each with upstream's error
   * (class Other, code {@code timeout}, the message with Go's duration). FleetKit's scale-up is a launched node that
   * is removed at the timeout.
   */
  @Test
  void scaleUpBackoff_upstreamTimeline_healthyButBackedOffLongerAfterSecondTimeout() {
    NodePool ng1 = CaFixtures.withDelay(pool("ng1", 2000, 2048, 0, 10), Duration.ofMinutes(20));
    store.create(ng1);
    for (int i = 1; i <= 3; i++) {
      store.create(CaFixtures.poolNode(ng1, "ng1-" + i));
      store.create(pod("busy-" + i, 1500, 512).toBuilder().nodeName("ng1-" + i).build());
    }
    store.create(pod("pending", 1000, 512));
    ClusterAutoscaler ca = ClusterAutoscaler.builder(store).clock(clock).seed(42)
        .options(AutoscalerOptions.defaults().withMaxTotalUnreadyPercentage(10).withOkTotalUnreadyCount(1)
            .withMaxNodeProvisionTime(Duration.ofMinutes(2)))
        .build();
    assertThat(ca.runOnce().launchedNodes()).containsExactly("ng1-4");
    clock.advance(Duration.ofMinutes(2));
    assertThat(ca.runOnce().timedOutNodes()).isEmpty(); // at exactly MaxNodeProvisionTime: not yet
    clock.advance(Duration.ofMinutes(1)); // upstream's scale-up registered 180 s before
    LoopResult r = ca.runOnce();
    assertThat(r.timedOutNodes()).containsExactly("ng1-4");
    assertThat(ca.backoffStatus("ng1")).isEqualTo(new InstanceErrorInfo(InstanceErrorClass.OTHER,
        "timeout", "Scale-up timed out for node group ng1 after 3m0s"));
    assertThat(r.halted()).isNull(); // IsClusterHealthy
    assertThat(r.scaleUp().skippedPools().get("ng1")).startsWith(ClusterAutoscaler.BACKOFF_REASON + ": until"); // healthy, backed off
    assertThat(ca.isBackedOff("ng1")).isTrue();
    clock.advance(Duration.ofMinutes(5).plusSeconds(1)); // InitialNodeGroupBackoffDuration over: safe to scale up
    assertThat(ca.isBackedOff("ng1")).isFalse();
    r = ca.runOnce();
    assertThat(r.scaleUp().skippedPools()).doesNotContainKey("ng1");
    assertThat(r.launchedNodes()).containsExactly("ng1-5");
    clock.advance(Duration.ofMinutes(2).plusSeconds(1)); // upstream's second scale-up registered 121 s before
    assertThat(ca.runOnce().timedOutNodes()).containsExactly("ng1-5");
    assertThat(ca.backoffStatus("ng1")).isEqualTo(new InstanceErrorInfo(InstanceErrorClass.OTHER,
        "timeout", "Scale-up timed out for node group ng1 after 2m1s"));
    clock.advance(Duration.ofMinutes(5).plusSeconds(1)); // the second backoff is 10 min
    assertThat(ca.isBackedOff("ng1")).isTrue();
    r = ca.runOnce();
    assertThat(r.halted()).isNull();
    assertThat(r.scaleUp().skippedPools().get("ng1")).startsWith(ClusterAutoscaler.BACKOFF_REASON + ": until");
    assertThat(r.launchedNodes()).isEmpty();
  }

  // ---- scale-down ----

  private NodePool scaleDownPool(int min) {
    NodePool p = pool("p", 4000, 8192, min, 10);
    store.create(p);
    return p;
  }

  private Pod bound(Pod p, String node) {
    return store.create(p.toBuilder().nodeName(node).build());
  }

  @Test
  void scaleDown_underusedNodes_removedAfterUnneededTime_podsMovedElsewhere() {
    NodePool p = scaleDownPool(0);
    for (String n : List.of("n1", "n2", "n3")) {
      store.create(poolNode(p, n));
    }
    bound(pod("small", 500, 512), "n1"); // 0.125
    bound(pod("big", 2500, 1024), "n2"); // 0.625
    ClusterAutoscaler ca = ca(Expanders.leastWaste());
    LoopResult first = ca.runOnce();
    // the empty n3 is simulated first (upstream's candidate sorting), then n1, whose pod goes to n2 in the
    // simulation: n1 and n3 are unneeded, n2 (0.625 before any simulated removal) is not
    assertThat(first.unneededNodes()).containsExactly("n3", "n1");
    assertThat(first.unremovableNodes()).containsEntry("n2", ClusterAutoscaler.NOT_UNDERUTILIZED);
    assertThat(first.deletedNodes()).isEmpty();
    clock.advance(Duration.ofMinutes(9));
    assertThat(ca.runOnce().deletedNodes()).isEmpty();
    clock.advance(Duration.ofMinutes(1));
    LoopResult r = ca.runOnce();
    assertThat(r.deletedNodes()).containsExactlyInAnyOrder("n1", "n3");
    assertThat(store.list(Node.class).items()).extracting(Node::name).containsExactly("n2");
    assertThat(store.get(Pod.class, "default", "small")).as("evicted").isEmpty();
    assertThat(store.require(NodePool.class, "", "p").status().currentSize()).isEqualTo(1);
  }

  @Test
  void scaleDown_evaluationIsRedoneWhenAPodOrNodeChanges() {
    NodePool p = scaleDownPool(0);
    store.create(poolNode(p, "n1"));
    store.create(poolNode(p, "n2"));
    bound(pod("w", 500, 512), "n1");
    bound(pod("keep", 2500, 1024), "n2");
    ClusterAutoscaler ca = ca(Expanders.leastWaste());
    assertThat(ca.runOnce().unneededNodes()).containsExactly("n1");
    clock.advance(Duration.ofSeconds(10));
    assertThat(ca.runOnce().unneededNodes()).as("nothing changed").containsExactly("n1");
    // the pod becomes unevictable: the next loop must see it, not reuse the last evaluation
    Pod w = store.require(Pod.class, "default", "w");
    store.update(w.toBuilder().annotation(Drainability.SAFE_TO_EVICT, "false").build());
    clock.advance(Duration.ofSeconds(10));
    LoopResult blocked = ca.runOnce();
    assertThat(blocked.unneededNodes()).isEmpty();
    assertThat(blocked.unremovableNodes()).containsEntry("n1", Drainability.NOT_SAFE_TO_EVICT);
    // a node annotated against scale-down: its reason changes although no pod did
    Node n2 = store.require(Node.class, "", "n2");
    store.update(n2.withMetadata(n2.metadata().toBuilder()
        .annotations(Map.of(ClusterAutoscaler.SCALE_DOWN_DISABLED, "true")).build()));
    clock.advance(Duration.ofSeconds(10));
    assertThat(ca.runOnce().unremovableNodes()).containsEntry("n2", ClusterAutoscaler.SCALE_DOWN_DISABLED_ANNOTATION);
  }

  @Test
  void scaleDown_neverBelowMin() {
    NodePool p = scaleDownPool(2);
    store.create(poolNode(p, "n1"));
    store.create(poolNode(p, "n2"));
    ClusterAutoscaler ca = ca(Expanders.leastWaste());
    ca.runOnce();
    clock.advance(Duration.ofMinutes(11));
    LoopResult r = ca.runOnce();
    assertThat(r.deletedNodes()).isEmpty();
    assertThat(r.unremovableNodes()).containsEntry("n1", ClusterAutoscaler.NODE_GROUP_MIN_SIZE_REACHED);
  }

  @Test
  void scaleDown_podWithNowhereToGo_keepsItsNode() {
    NodePool p = scaleDownPool(0);
    store.create(poolNode(p, "n1"));
    store.create(poolNode(p, "n2"));
    bound(pod("a", 1500, 512), "n1"); // 0.375
    bound(pod("b", 1900, 512), "n2"); // 0.475: a does not fit next to b (3400 + 1500 > 4000)? it does: 3400 < 4000
    bound(pod("c", 1000, 512), "n2"); // n2 now 0.725: a (1500) does not fit on n2 (2900 + 1500 > 4000)
    LoopResult r = ca(Expanders.leastWaste()).runOnce();
    assertThat(r.unremovableNodes()).containsEntry("n1", ClusterAutoscaler.NO_PLACE_TO_MOVE_PODS);
  }

  static Stream<Arguments> blockers() {
    UnaryOperator<Pod> noController = p -> barePod(p.metadata().name(), 500, 512);
    return Stream.of(
        Arguments.of("no controller", noController, Drainability.NOT_REPLICATED),
        Arguments.of("local storage", (UnaryOperator<Pod>) p -> p.toBuilder().volume(Volume.emptyDir("cache")).build(),
            Drainability.LOCAL_STORAGE_REQUESTED),
        Arguments.of("safe-to-evict=false",
            (UnaryOperator<Pod>) p -> p.toBuilder().annotation(Drainability.SAFE_TO_EVICT, "false").build(),
            Drainability.NOT_SAFE_TO_EVICT),
        Arguments.of("PDB with no disruption left", (UnaryOperator<Pod>) p -> p.toBuilder().label("app", "db").build(),
            Drainability.NOT_ENOUGH_PDB),
        Arguments.of("safe-to-evict=true on a bare pod with local storage", (UnaryOperator<Pod>) p ->
            barePod("x", 500, 512).toBuilder().annotation(Drainability.SAFE_TO_EVICT, "true")
                .volume(Volume.emptyDir("cache")).build(), ""));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("blockers")
  void scaleDown_drainabilityRules_blockOrAllowRemoval(String name, UnaryOperator<Pod> shape, String reason) {
    NodePool p = scaleDownPool(0);
    store.create(poolNode(p, "n1"));
    store.create(poolNode(p, "n2"));
    store.create(PodDisruptionBudget.of(ObjectMeta.of("default", "db"),
        PodDisruptionBudgetSpec.minAvailable(LabelSelector.of(Map.of("app", "db")), IntOrPercent.of(1)))
        .withStatus(new PodDisruptionBudgetStatus(1, Map.of(), 0, 1, 1, 1, List.of())));
    bound(shape.apply(pod("w", 500, 512)), "n1");
    bound(pod("keep", 2500, 1024), "n2"); // n2 is busy; n1 is the only candidate
    ClusterAutoscaler ca = ca(Expanders.leastWaste());
    ca.runOnce();
    clock.advance(Duration.ofMinutes(10));
    LoopResult r = ca.runOnce();
    if (reason.isEmpty()) {
      assertThat(r.deletedNodes()).containsExactly("n1");
    } else {
      assertThat(r.unremovableNodes()).containsEntry("n1", reason);
      assertThat(r.deletedNodes()).isEmpty();
      assertThat(store.get(Node.class, "", "n1")).isPresent();
    }
  }

  @Test
  void scaleDown_gpuNode_judgedByGpuUtilization() {
    NodePool gpu = NodePool.builder().name("gpu")
        .capacity(CaFixtures.gpuResources(32000, 131072 * CaFixtures.MI, 110, 2)).minSize(0).maxSize(4).build();
    store.create(gpu);
    store.create(poolNode(gpu, "g1"));
    store.create(poolNode(gpu, "g2"));
    // g1: both GPUs used but hardly any CPU: GPU utilization 1.0 keeps it
    bound(CaFixtures.gpuPod("train", 1000, 1024, 2), "g1");
    LoopResult r = ca(Expanders.leastWaste()).runOnce();
    assertThat(r.unremovableNodes()).containsEntry("g1", ClusterAutoscaler.NOT_UNDERUTILIZED);
    assertThat(r.unneededNodes()).containsExactly("g2");
  }

  @Test
  void scaleDown_deletesNothingRightAfterScaleUp_butKeepsTrackingUnneededNodes() {
    NodePool p = scaleDownPool(0);
    store.create(poolNode(p, "idle"));
    store.create(pod("huge", 3900, 1024).toBuilder().nodeSelector("never", "matches-idle").build());
    store.create(pool("other", 4000, 8192, 0, 5).withSpec(new io.fleetkit.api.autoscaling.NodePoolSpec(
        io.fleetkit.api.autoscaling.NodeTemplate.of(Map.of("never", "matches-idle"),
            CaFixtures.resources(4000, 8192 * CaFixtures.MI, 110)), 0, 5, Duration.ZERO, 0)));
    ClusterAutoscaler ca = ca(Expanders.leastWaste());
    LoopResult r = ca.runOnce();
    assertThat(r.launchedNodes()).containsExactly("other-1");
    // upstream's planner still updates in the cooldown: idle is unneeded from the first loop, but not deleted
    assertThat(r.unneededNodes()).contains("idle");
    assertThat(r.deletedNodes()).isEmpty();
    clock.advance(Duration.ofMinutes(5));
    assertThat(ca.runOnce().deletedNodes()).as("scale-down-delay-after-add 10 min").isEmpty();
    clock.advance(Duration.ofMinutes(5));
    assertThat(ca.runOnce().deletedNodes()).as("unneeded since the first loop").contains("idle");
  }

  @Test
  void scaleDown_podsMovedTwice_stillHaveAPlace_simulationsCappedByTheUnneededNodesLimit_unremovableRechecked() {
    NodePool p = scaleDownPool(0);
    for (int i = 0; i < 35; i++) {
      String n = String.format("n%02d", i);
      store.create(poolNode(p, n));
      bound(pod("w" + i, 100, 64), n);
    }
    ClusterAutoscaler ca = ca(Expanders.leastWaste());
    LoopResult r = ca.runOnce();
    // every node is underused before any simulated removal; the first loop knows no loop interval yet (upstream
    // starts from the unneeded time), so the limit is min(0 + 2 x 10, 10 x (10 min / 10 min) + 10) = 20
    assertThat(r.unneededNodes()).hasSize(20).startsWith("n00", "n01").endsWith("n19");
    assertThat(r.unremovableNodes()).isEmpty();
    clock.advance(Duration.ofSeconds(10));
    r = ca.runOnce();
    // 10 s loops: limit min(20 + 20, 10 x 60 + 10) = 40. The pods travel on with the nodes they were moved to
    // (round-robin), and are never lost with them: the last node simulated holds them all and has no place left
    assertThat(r.unneededNodes()).hasSize(34).startsWith("n00").doesNotContain("n34");
    assertThat(r.unremovableNodes()).containsExactly(Map.entry("n34", ClusterAutoscaler.NO_PLACE_TO_MOVE_PODS));
    clock.advance(Duration.ofSeconds(10));
    r = ca.runOnce();
    assertThat(r.unremovableNodes()).as("not simulated again within --unremovable-node-recheck-timeout")
        .containsExactly(Map.entry("n34", ClusterAutoscaler.RECENTLY_UNREMOVABLE));
    assertThat(r.unneededNodes()).hasSize(34);
    clock.advance(Duration.ofMinutes(5));
    r = ca.runOnce();
    assertThat(r.unremovableNodes()).as("rechecked after 5 minutes")
        .containsExactly(Map.entry("n34", ClusterAutoscaler.NO_PLACE_TO_MOVE_PODS));
  }

  /**
   * An atomic pool ({@code zeroOrMaxNodeScaling}, upstream's node group option) scales from zero to its max size in
   * one step, however few nodes the pending pods need, and is not scaled again while it has nodes.
   */
  @Test
  void scaleUp_atomicPool_goesFromZeroToItsMaxSizeAtOnce() {
    NodePool slice = pool("slice", 4000, 8192, 0, 4).withSpec(pool("slice", 4000, 8192, 0, 4).spec()
        .withZeroOrMaxNodeScaling(true));
    store.create(slice);
    store.create(pod("p0", 1000, 1024));
    ClusterAutoscaler ca = ca(Expanders.random());
    ScaleUpPlan plan = ca.planScaleUp();
    assertThat(plan.chosen()).isNotNull();
    assertThat(plan.chosen().nodeCount()).isEqualTo(4);
    ca.runOnce();
    assertThat(nodesOf("slice")).hasSize(4);
    store.create(pod("p1", 4000, 8192));
    store.create(pod("p2", 4000, 8192));
    store.create(pod("p3", 4000, 8192));
    store.create(pod("p4", 4000, 8192));
    assertThat(ca.planScaleUp().skippedPools()).containsEntry("slice", ClusterAutoscaler.MAX_LIMIT_REACHED_REASON + ": 4");
  }

  @Test
  void scaleUp_atomicPoolThatCannotReachItsMaxIsSkipped() {
    NodePool slice = pool("slice", 4000, 8192, 0, 4).withSpec(pool("slice", 4000, 8192, 0, 4).spec()
        .withZeroOrMaxNodeScaling(true));
    store.create(slice);
    store.create(pod("p0", 1000, 1024));
    ClusterAutoscaler ca = ClusterAutoscaler.builder(store).clock(clock).expander(Expanders.random()).seed(42)
        .options(AutoscalerOptions.defaults().withMaxNodesTotal(3)).build();
    ScaleUpPlan plan = ca.planScaleUp();
    assertThat(plan.chosen()).isNull();
    assertThat(plan.skippedPools()).containsEntry("slice", "atomic pool needs 4 nodes, only 3 allowed");
  }
}
