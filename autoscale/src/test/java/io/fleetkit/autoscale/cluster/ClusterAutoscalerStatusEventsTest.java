package io.fleetkit.autoscale.cluster;

import static io.fleetkit.autoscale.cluster.CaFixtures.pod;
import static io.fleetkit.autoscale.cluster.CaFixtures.pool;
import static io.fleetkit.autoscale.cluster.CaFixtures.poolNode;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.events.ObjectReference;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The events a loop records on the status ConfigMap ({@link StatusEvents}; upstream's {@code LogRecorder.Eventf}
 * calls in kubernetes/autoscaler {@code cluster-autoscaler}, commit 0e20a385): type, reason, action, object and note
 * of each, once per decision.
 */
final class ClusterAutoscalerStatusEventsTest {
  private static final ObjectReference STATUS = new ObjectReference("v1", "ConfigMap", "kube-system",
      "cluster-autoscaler-status", "", "");
  private static final String CM = " ConfigMap kube-system/cluster-autoscaler-status: ";

  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build();
  /** Every event, {@code type reason action object: note}, in order. */
  private final List<String> all = new ArrayList<>();
  /** The objects the ConfigMap events are about, in order. */
  private final List<ObjectReference> configMapRefs = new ArrayList<>();
  private final EventRecorder recorder = (regarding, related, type, reason, action, note) -> {
    all.add(type + " " + reason + " " + action + " " + regarding + ": " + note);
    if (regarding.kind().equals("ConfigMap")) {
      assertThat(related).isNull();
      configMapRefs.add(regarding);
    }
  };

  @AfterEach
  void close() {
    store.close();
  }

  private ClusterAutoscaler ca(AutoscalerOptions options) {
    return ClusterAutoscaler.builder(store).clock(clock).seed(42).options(options).events(recorder).build();
  }

  private ClusterAutoscaler ca(AutoscalerOptions options, InstanceCreation cloud) {
    return ClusterAutoscaler.builder(store).clock(clock).seed(42).options(options).instanceCreation(cloud)
        .events(recorder).build();
  }

  /** The ConfigMap events, {@code type reason action: note}. */
  private List<String> status() {
    return all.stream().filter(e -> e.contains(CM)).map(e -> e.replace(CM, ": ")).toList();
  }

  @Test
  void scaleUp_scaledUpGroupBeforeAndAfterTheIncrease() {
    store.create(pool("small", 2000, 4096, 0, 10));
    store.create(pod("p0", 1000, 1024));
    store.create(pod("p1", 1000, 1024));
    store.create(pod("p2", 1000, 1024));

    LoopResult r = ca(AutoscalerOptions.defaults()).runOnce();

    assertThat(r.launchedNodes()).hasSize(2);
    assertThat(status()).containsExactly(
        "Normal ScaledUpGroup ScaleUp: Scale-up: setting group small size to 2 instead of 0 (max: 10)",
        "Normal ScaledUpGroup ScaleUp: Scale-up: group small size set to 2 instead of 0 (max: 10)");
    assertThat(configMapRefs).containsOnly(STATUS);
    // the pod events are still there
    assertThat(all).filteredOn(e -> e.startsWith("Normal TriggeredScaleUp")).hasSize(3);
  }

  @Test
  void scaleUp_balanced_oneEventPairPerPool_withItsSizes() {
    store.create(pool("a", 2000, 4096, 0, 10));
    store.create(pool("b", 2000, 4096, 0, 10));
    NodePool a = store.require(NodePool.class, "", "a");
    store.create(poolNode(a, "a-0"));
    for (int i = 0; i < 6; i++) {
      store.create(pod("p" + i, 1500, 1024));
    }

    LoopResult r = ca(AutoscalerOptions.defaults().withBalanceSimilarNodeGroups(true)).runOnce();

    assertThat(r.scaleUp().scaleUps()).hasSize(2);
    List<String> expected = new ArrayList<>();
    for (PoolScaleUp s : r.scaleUp().scaleUps()) {
      expected.add("Normal ScaledUpGroup ScaleUp: Scale-up: setting group " + s.pool() + " size to " + s.newSize()
          + " instead of " + s.currentSize() + " (max: 10)");
      expected.add("Normal ScaledUpGroup ScaleUp: Scale-up: group " + s.pool() + " size set to " + s.newSize()
          + " instead of " + s.currentSize() + " (max: 10)");
    }
    assertThat(status()).containsExactlyElementsOf(expected);
    assertThat(r.scaleUp().scaleUps()).extracting(PoolScaleUp::pool).containsExactlyInAnyOrder("a", "b");
  }

  @Test
  void stockout_scaleUpFailedAfterTheScaledUpGroupPair_withUpstreamsErrorCode() {
    store.create(pool("small", 2000, 4096, 0, 10));
    store.create(pod("p0", 1000, 1024));
    store.create(pod("p1", 1000, 1024));
    store.create(pod("p2", 1000, 1024));
    InstanceErrorInfo stockout = new InstanceErrorInfo(InstanceErrorClass.OUT_OF_RESOURCES,
        "RESOURCE_POOL_EXHAUSTED", "no n2 machines in zone-a");

    ca(AutoscalerOptions.defaults(), (node, now) -> stockout).runOnce();

    assertThat(status()).containsExactly(
        "Normal ScaledUpGroup ScaleUp: Scale-up: setting group small size to 2 instead of 0 (max: 10)",
        "Normal ScaledUpGroup ScaleUp: Scale-up: group small size set to 2 instead of 0 (max: 10)",
        "Warning ScaleUpFailed ScaleUp: Failed adding 2 nodes to group small due to "
            + "OutOfResource.RESOURCE_POOL_EXHAUSTED; source errors: no n2 machines in zone-a");
  }

  @Test
  void otherInstanceError_classOther_oneEventPerErrorCode() {
    store.create(pool("small", 2000, 4096, 0, 10));
    for (int i = 0; i < 5; i++) {
      store.create(pod("p" + i, 1000, 1024));
    }
    int[] asked = {0};
    InstanceCreation cloud = (node, now) -> {
      int n = asked[0]++;
      return n == 0 ? null : n % 2 == 1 ? new InstanceErrorInfo(InstanceErrorClass.OTHER, "QUOTA", "quota " + n)
          : new InstanceErrorInfo(InstanceErrorClass.OUT_OF_RESOURCES, "STOCKOUT", "stockout");
    };

    ca(AutoscalerOptions.defaults(), cloud).runOnce();

    assertThat(status()).containsExactly(
        "Normal ScaledUpGroup ScaleUp: Scale-up: setting group small size to 3 instead of 0 (max: 10)",
        "Normal ScaledUpGroup ScaleUp: Scale-up: group small size set to 3 instead of 0 (max: 10)",
        "Warning ScaleUpFailed ScaleUp: Failed adding 1 nodes to group small due to Other.QUOTA; source errors: "
            + "quota 1",
        "Warning ScaleUpFailed ScaleUp: Failed adding 1 nodes to group small due to OutOfResource.STOCKOUT; source "
            + "errors: stockout");
  }

  /**
   * Upstream's {@code clusterstate/clusterstate_test.go} {@code TestExpiredScaleUpRevertsTargetSizeHandlesError}: a
   * scale-up of 4 nodes of ng1 registered 3 minutes ago, 2 minutes' provision time: {@code Warning ScaleUpTimedOut
   * Nodes added to group ng1 failed to register within 3m0s}, once for the group. (Its second event,
   * {@code FailedToRevertScaleUp}, needs a failing {@code DecreaseTargetSize}; FleetKit reverts by deleting the node
   * objects, which does not fail.)
   */
  @Test
  void expiredScaleUp_oneScaleUpTimedOutForThePool_withTheTimeSinceTheRequest() {
    store.create(CaFixtures.withDelay(pool("ng1", 2000, 2048, 0, 10), Duration.ofMinutes(20)));
    for (int i = 0; i < 4; i++) {
      store.create(pod("p" + i, 1500, 512)); // one node each
    }
    ClusterAutoscaler ca = ca(AutoscalerOptions.defaults().withMaxTotalUnreadyPercentage(10)
        .withOkTotalUnreadyCount(1).withMaxNodeProvisionTime(Duration.ofMinutes(2)));
    assertThat(ca.runOnce().launchedNodes()).hasSize(4);
    clock.advance(Duration.ofMinutes(3));
    all.clear();

    LoopResult r = ca.runOnce();

    assertThat(r.timedOutNodes()).hasSize(4);
    assertThat(status()).containsExactly(
        "Warning ScaleUpTimedOut ScaleUp: Nodes added to group ng1 failed to register within 3m0s");
    // upstream's scale-up failure record (its Delta of 4 aside: FleetKit times out each node by itself)
    assertThat(ca.backoffStatus("ng1")).isEqualTo(new InstanceErrorInfo(InstanceErrorClass.OTHER, "timeout",
        "Scale-up timed out for node group ng1 after 3m0s"));
  }

  @Test
  void expiredScaleUps_ofTwoPools_oneEventEach() {
    store.create(CaFixtures.withDelay(pool("a", 2000, 2048, 0, 10), Duration.ofMinutes(20)));
    store.create(CaFixtures.withDelay(pool("b", 4000, 2048, 0, 10), Duration.ofMinutes(20)));
    store.create(pod("small", 1500, 512)); // least waste: a
    ClusterAutoscaler ca = ca(AutoscalerOptions.defaults().withMaxNodeProvisionTime(Duration.ofMinutes(2)));
    assertThat(ca.runOnce().launchedNodes()).containsExactly("a-1");
    clock.advance(Duration.ofSeconds(30));
    store.create(pod("big", 3500, 512)); // only b takes it
    assertThat(ca.runOnce().launchedNodes()).containsExactly("b-1");
    clock.advance(Duration.ofMinutes(2));
    all.clear();

    LoopResult r = ca.runOnce();

    assertThat(r.timedOutNodes()).containsExactly("a-1");
    // a is backed off: b takes the pod a's node was for
    assertThat(status()).containsExactly(
        "Warning ScaleUpTimedOut ScaleUp: Nodes added to group a failed to register within 2m30s",
        "Normal ScaledUpGroup ScaleUp: Scale-up: setting group b size to 2 instead of 1 (max: 10)",
        "Normal ScaledUpGroup ScaleUp: Scale-up: group b size set to 2 instead of 1 (max: 10)");
    clock.advance(Duration.ofSeconds(30));
    all.clear();
    assertThat(ca.runOnce().timedOutNodes()).containsExactly("b-1"); // b-2, requested 30 s ago, is not late yet
    assertThat(status()).filteredOn(e -> e.startsWith("Warning ScaleUpTimedOut")).containsExactly(
        "Warning ScaleUpTimedOut ScaleUp: Nodes added to group b failed to register within 2m30s");
  }

  @Test
  void maxNodesTotalReached_withPendingPods_oncePerLoop() {
    NodePool small = store.create(pool("small", 2000, 4096, 0, 10));
    store.create(poolNode(small, "small-1"));
    store.create(pod("p1", 1500, 1024));
    store.create(pod("p2", 1500, 1024));
    ClusterAutoscaler ca = ca(AutoscalerOptions.defaults().withMaxNodesTotal(1));

    ca.runOnce();

    assertThat(status()).containsExactly("Warning MaxNodesTotalReached ScaleUp: Max total nodes in cluster reached: 1");
    clock.advance(Duration.ofSeconds(10));
    all.clear();
    ca.runOnce();
    assertThat(status()).containsExactly("Warning MaxNodesTotalReached ScaleUp: Max total nodes in cluster reached: 1");
  }

  @Test
  void maxNodesTotalReached_notWithoutUnschedulablePods() {
    NodePool small = store.create(pool("small", 2000, 4096, 0, 10));
    store.create(poolNode(small, "small-1"));
    store.create(pod("p0", 1000, 1024)); // fits the node there is

    ca(AutoscalerOptions.defaults().withMaxNodesTotal(1)).runOnce();

    assertThat(status()).isEmpty();
  }

  @Test
  void enforcedMinSize_cappedByMaxNodesTotal_asUpstreamsGetCappedNewNodeCount() {
    store.create(pool("small", 2000, 4096, 3, 10));

    LoopResult r = ca(AutoscalerOptions.defaults().withEnforceNodeGroupMinSize(true).withMaxNodesTotal(2)).runOnce();

    assertThat(r.launchedNodes()).containsExactly("small-1", "small-2");
    assertThat(status()).containsExactly(
        "Warning MaxNodesTotalReached ScaleUp: Max total nodes in cluster reached: 2",
        "Normal ScaledUpGroup ScaleUp: Scale-up: setting group small size to 2 instead of 0 (max: 10)",
        "Normal ScaledUpGroup ScaleUp: Scale-up: group small size set to 2 instead of 0 (max: 10)");
  }

  @Test
  void enforcedMinSize_poolAtMaxNodesTotal_notGrown() {
    NodePool small = store.create(pool("small", 2000, 4096, 3, 10));
    store.create(poolNode(small, "small-1"));
    store.create(poolNode(small, "small-2"));

    LoopResult r = ca(AutoscalerOptions.defaults().withEnforceNodeGroupMinSize(true).withMaxNodesTotal(2)).runOnce();

    assertThat(r.launchedNodes()).isEmpty();
    assertThat(status()).containsExactly("Warning MaxNodesTotalReached ScaleUp: Max total nodes in cluster reached: 2");
  }

  @Test
  void enforcedMinSize_withoutALimit_scaledUpGroupPair() {
    store.create(pool("small", 2000, 4096, 2, 10));

    ca(AutoscalerOptions.defaults().withEnforceNodeGroupMinSize(true)).runOnce();

    assertThat(status()).containsExactly(
        "Normal ScaledUpGroup ScaleUp: Scale-up: setting group small size to 2 instead of 0 (max: 10)",
        "Normal ScaledUpGroup ScaleUp: Scale-up: group small size set to 2 instead of 0 (max: 10)");
  }

  @Test
  void unhealthyCluster_clusterUnhealthyInEachHaltedLoop() {
    NodePool p = store.create(pool("p", 4000, 8192, 0, 10));
    store.create(poolNode(p, "n1"));
    for (String n : List.of("n2", "n3", "n4")) {
      store.create(ClusterAutoscalerUnreadyTest.unready(poolNode(p, n)));
    }
    ClusterAutoscaler ca = ca(AutoscalerOptions.defaults().withOkTotalUnreadyCount(2));
    ca.runOnce(); // the unready nodes are still starting: no halt
    assertThat(status()).isEmpty();
    clock.advance(Duration.ofMinutes(15));

    assertThat(ca.runOnce().halted()).isNotNull();
    assertThat(status()).containsExactly("Warning ClusterUnhealthy Autoscale: Cluster is unhealthy");
    clock.advance(Duration.ofSeconds(10));
    ca.runOnce();
    assertThat(status()).containsExactly("Warning ClusterUnhealthy Autoscale: Cluster is unhealthy",
        "Warning ClusterUnhealthy Autoscale: Cluster is unhealthy");
  }

  @Test
  void scaleDown_emptyAndDrainedNodes_removingThenRemoved() {
    NodePool p = store.create(pool("p", 4000, 8192, 0, 10));
    for (String n : List.of("n1", "n2", "n3")) {
      store.create(poolNode(p, n));
    }
    store.create(pod("small", 500, 512).toBuilder().nodeName("n1").build()); // cpu 0.125, memory 0.0625
    store.create(pod("big", 2500, 1024).toBuilder().nodeName("n2").build()); // 0.625: needed
    ClusterAutoscaler ca = ca(AutoscalerOptions.defaults().withNodeDeleteDelayAfterTaint(Duration.ZERO));
    ca.runOnce();
    clock.advance(Duration.ofMinutes(10));
    all.clear();

    LoopResult r = ca.runOnce();

    assertThat(r.deletedNodes()).containsExactlyInAnyOrder("n1", "n3");
    List<String> status = status();
    assertThat(status).containsExactlyInAnyOrder(
        "Normal ScaleDownEmpty ScaleDown: Scale-down: removing empty node \"n3\"",
        "Normal ScaleDown ScaleDown: Scale-down: removing node n1, utilization: {0.125 0.0625 0 0 cpu 0.125}, "
            + "pods to reschedule: small",
        "Normal ScaleDownEmpty ScaleDown: Scale-down: empty node n3 removed",
        "Normal ScaleDown ScaleDown: Scale-down: node n1 removed with drain");
    // each node's deletion starts (after its taint) before it ends
    assertThat(status.subList(0, 2)).allMatch(e -> e.contains("removing"));
    assertThat(all.indexOf("Normal ScaleDown ScaleDown Node n1: marked the node as toBeDeleted/unschedulable"))
        .isLessThan(all.indexOf("Normal ScaleDown ScaleDown" + CM + "Scale-down: removing node n1, utilization: "
            + "{0.125 0.0625 0 0 cpu 0.125}, pods to reschedule: small"));
    assertThat(all.indexOf("Normal ScaleDown ScaleDown Node n1: nodes removed by cluster autoscaler"))
        .isLessThan(all.indexOf("Normal ScaleDown ScaleDown" + CM + "Scale-down: node n1 removed with drain"));
  }

  @Test
  void scaleDown_podsToReschedule_namesWithoutNamespace_commaJoined() {
    NodePool p = store.create(pool("p", 4000, 8192, 0, 10));
    for (String n : List.of("n1", "n2")) {
      store.create(poolNode(p, n));
    }
    store.create(pod("web-0", 500, 1024).toBuilder().namespace("shop").nodeName("n1").build());
    store.create(pod("web-1", 500, 1024).toBuilder().namespace("shop").nodeName("n1").build());
    store.create(pod("big", 2500, 1024).toBuilder().nodeName("n2").build());
    ClusterAutoscaler ca = ca(AutoscalerOptions.defaults().withNodeDeleteDelayAfterTaint(Duration.ZERO));
    ca.runOnce();
    clock.advance(Duration.ofMinutes(10));
    all.clear();

    ca.runOnce();

    assertThat(status()).contains("Normal ScaleDown ScaleDown: Scale-down: removing node n1, utilization: "
        + "{0.25 0.25 0 0 memory 0.25}, pods to reschedule: web-0,web-1");
  }

  @Test
  void writeStatusConfigMapOff_noStatusEvents_podAndNodeEventsStill() {
    store.create(pool("small", 2000, 4096, 0, 10));
    store.create(pod("p0", 1000, 1024));

    ca(AutoscalerOptions.defaults().withWriteStatusConfigMap(false)).runOnce();

    assertThat(status()).isEmpty();
    assertThat(all).containsExactly("Normal TriggeredScaleUp ScaleUp Pod default/p0: pod triggered scale-up: "
        + "[{small 0->1 (max: 10)}]");
  }

  @Test
  void statusConfigMapNamed_eventsAboutIt() {
    store.create(pool("small", 2000, 4096, 0, 10));
    store.create(pod("p0", 1000, 1024));

    ca(AutoscalerOptions.defaults().withStatusConfigMap("autoscaling", "ca-status")).runOnce();

    assertThat(configMapRefs).hasSize(2)
        .containsOnly(new ObjectReference("v1", "ConfigMap", "autoscaling", "ca-status", "", ""));
  }

  @Test
  void throwingRecorder_swallowed_loopDecidesAsWithout() {
    store.create(pool("small", 2000, 4096, 0, 10));
    store.create(pod("p0", 1000, 1024));
    store.create(pod("p1", 1000, 1024));
    int[] calls = {0};
    EventRecorder failing = (regarding, related, type, reason, action, note) -> {
      calls[0]++;
      throw new IllegalStateException("recorder down");
    };
    ClusterAutoscaler ca = ClusterAutoscaler.builder(store).clock(clock).seed(42).events(failing).build();

    LoopResult r = ca.runOnce();

    assertThat(r.launchedNodes()).containsExactly("small-1");
    assertThat(calls[0]).as("two pod events, two status events, each tried once").isEqualTo(4);
  }

  @Test
  void noRecorder_noStatusEventsObject() {
    assertThat(StatusEvents.of(EventRecorder.NOOP, AutoscalerOptions.defaults())).isSameAs(StatusEvents.NONE);
    assertThat(StatusEvents.of(recorder, AutoscalerOptions.defaults().withWriteStatusConfigMap(false)))
        .isSameAs(StatusEvents.NONE);
    assertThat(StatusEvents.NONE.enabled()).isFalse();
    StatusEvents on = StatusEvents.of(recorder, AutoscalerOptions.defaults());
    assertThat(on.enabled()).isTrue();
    assertThat(on.configMap()).isEqualTo(STATUS);
  }

  @Test
  void bareStoreAutoscaler_noRecorder_recordsNothing() {
    store.create(pool("small", 2000, 4096, 0, 10));
    store.create(pod("p0", 1000, 1024));

    LoopResult r = ClusterAutoscaler.builder(store).clock(clock).seed(42).build().runOnce();

    assertThat(r.launchedNodes()).containsExactly("small-1");
    assertThat(all).isEmpty();
    assertThat(store.list(Pod.class).items()).hasSize(1);
  }
}
