package io.fleetkit.autoscale.cluster;

import static io.fleetkit.autoscale.cluster.CaFixtures.MI;
import static io.fleetkit.autoscale.cluster.CaFixtures.pod;
import static io.fleetkit.autoscale.cluster.CaFixtures.pool;
import static io.fleetkit.autoscale.cluster.CaFixtures.poolNode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.fleetkit.api.apps.DaemonSet;
import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.framework.NodeInfos;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Affinity;
import io.fleetkit.api.scheduling.NodeAffinity;
import io.fleetkit.api.scheduling.NodeSelector;
import io.fleetkit.api.scheduling.NodeSelectorOperator;
import io.fleetkit.api.scheduling.NodeSelectorRequirement;
import io.fleetkit.api.scheduling.NodeSelectorTerm;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.reconcile.controllers.DaemonSetPlacement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The DaemonSet pods a new node would run count in scale-up (template nodes, upcoming nodes) and, with
 * {@code ignoreDaemonSetsUtilization}, not in scale-down's utilization.
 */
final class ClusterAutoscalerDaemonSetTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build();

  @AfterEach
  void close() {
    store.close();
  }

  private ClusterAutoscaler ca() {
    return ca(AutoscalerOptions.defaults());
  }

  private ClusterAutoscaler ca(AutoscalerOptions o) {
    return ClusterAutoscaler.builder(store).clock(clock).expander(Expanders.leastWaste()).options(o).seed(42).build();
  }

  /** A DaemonSet whose pods request {@code milliCpu} and {@code memMi}, on the nodes {@code selector} matches. */
  private DaemonSet daemonSet(String name, long milliCpu, long memMi, @Nullable Map<String, String> selector) {
    PodSpec.Builder spec = PodSpec.builder().container("agent", "agent",
        ResourceList.ofCpuMemory(milliCpu, memMi * MI));
    if (selector != null) {
      spec.nodeSelector(selector);
    }
    return store.create(DaemonSet.builder().name(name).namespace("kube-system").matchLabels(Map.of("app", name))
        .podSpec(spec.build()).build());
  }

  /** Small (2 CPU, cheaper per node) and large (4 CPU) pools and one pending 1800m pod. */
  private void smallAndLargePools() {
    store.create(pool("small", 2000, 4096, 0, 10, 1.0));
    store.create(pool("large", 4000, 8192, 0, 10, 2.0));
    store.create(pod("web", 1800, 1024));
  }

  @Test
  void scaleUp_withoutDaemonSets_smallPoolWinsOnWaste() {
    smallAndLargePools();
    ScaleUpPlan plan = ca().planScaleUp();
    assertThat(plan.chosen()).isNotNull();
    assertThat(plan.chosen().poolName()).isEqualTo("small");
  }

  @Test
  void scaleUp_daemonOverhead_podNoLongerFitsTheSmallTemplate_largePoolChosen() {
    smallAndLargePools();
    daemonSet("logging", 500, 256, null);
    ScaleUpPlan plan = ca().planScaleUp();
    assertThat(plan.options()).extracting(ScaleUpOption::poolName).containsExactly("large");
    assertThat(plan.skippedPools()).containsEntry("small", "no pending pod fits its template");
    assertThat(plan.chosen()).isNotNull();
    assertThat(plan.chosen().poolName()).isEqualTo("large");
    assertThat(plan.chosen().pods()).extracting(p -> p.metadata().name()).as("only pending pods, no daemon pod")
        .containsExactly("web");
  }

  @Test
  void scaleUp_daemonSetSelectingOnlyTheLargePool_leavesTheSmallTemplateFree() {
    smallAndLargePools();
    daemonSet("gpu-agent", 500, 256, Map.of(NodePool.POOL_LABEL, "large"));
    ScaleUpPlan plan = ca().planScaleUp();
    assertThat(plan.chosen()).isNotNull();
    assertThat(plan.chosen().poolName()).isEqualTo("small");
  }

  @Test
  void scaleUp_daemonOverhead_needsMoreNodes() {
    store.create(pool("p", 4000, 8192, 0, 10));
    for (int i = 0; i < 4; i++) {
      store.create(pod("w" + i, 1000, 1024));
    }
    assertThat(ca().planScaleUp().chosen().nodeCount()).as("without daemons: 4 pods on one node").isEqualTo(1);
    daemonSet("logging", 1000, 512, null);
    ScaleUpOption o = ca().planScaleUp().chosen();
    assertThat(o).isNotNull();
    assertThat(o.nodeCount()).as("3 pods and the daemon per node").isEqualTo(2);
    assertThat(o.pods()).hasSize(4);
  }

  @Test
  void scaleUp_pendingDaemonPod_isNotAReasonToScaleUp() {
    store.create(pool("p", 4000, 8192, 0, 10));
    DaemonSet ds = daemonSet("logging", 1000, 512, null);
    // the controller's pod for a node that is gone: pinned to it, it fits no new node
    Affinity pinned = new Affinity(new NodeAffinity(new NodeSelector(List.of(new NodeSelectorTerm(List.of(),
        List.of(new NodeSelectorRequirement(DaemonSetPlacement.OBJECT_NAME_FIELD, NodeSelectorOperator.In,
            List.of("gone")))))), List.of()), null, null);
    store.create(DaemonSetPlacement.newPod(ds, "gone", "logging-x").toBuilder().nodeName("").affinity(pinned)
        .build());
    ScaleUpPlan plan = ca().planScaleUp();
    assertThat(plan.unschedulablePods()).isEmpty();
    assertThat(plan.chosen()).isNull();
  }

  @Test
  void scaleUp_upcomingNode_holdsItsDaemonPods() {
    store.create(CaFixtures.withDelay(pool("p", 4000, 8192, 0, 10), Duration.ofMinutes(3)));
    daemonSet("logging", 1000, 512, null);
    store.create(pod("a", 1000, 1024));
    ClusterAutoscaler ca = ca();
    assertThat(ca.runOnce().launchedNodes()).containsExactly("p-1");
    clock.advance(Duration.ofSeconds(10));
    // p-1 is starting: 4000m less the daemon's 1000m and a's 1000m leaves 2000m, too little for b; without its daemon
    // pod the upcoming node would seem to have 3000m and b would wait for nothing
    store.create(pod("b", 2500, 1024));
    LoopResult r = ca.runOnce();
    assertThat(r.scaleUp().unschedulablePods()).containsExactly("default/b");
    assertThat(r.launchedNodes()).containsExactly("p-2");
  }

  @Test
  void scaleUp_upcomingNodeWithItsDaemonPodBound_isNotCountedTwice() {
    store.create(CaFixtures.withDelay(pool("p", 4000, 8192, 0, 10), Duration.ofMinutes(3)));
    DaemonSet ds = daemonSet("logging", 1000, 512, null);
    store.create(pod("a", 1000, 1024));
    ClusterAutoscaler ca = ca();
    assertThat(ca.runOnce().launchedNodes()).containsExactly("p-1");
    clock.advance(Duration.ofSeconds(10));
    store.create(DaemonSetPlacement.newPod(ds, "p-1", "logging-p-1"));
    store.create(pod("b", 2000, 1024)); // fits exactly: 4000 - 1000 (daemon) - 1000 (a)
    LoopResult r = ca.runOnce();
    assertThat(r.scaleUp().unschedulablePods()).isEmpty();
    assertThat(r.launchedNodes()).isEmpty();
  }

  // ---- scale-down ----

  private Pod daemonPodOn(DaemonSet ds, String node) {
    return DaemonSetPlacement.newPod(ds, node, ds.metadata().name() + "-" + node);
  }

  @Test
  void nodeUtilization_ignoringDaemonSetPods_takesThemOutOfTheAllocatable() {
    NodePool p = pool("p", 4000, 8192, 0, 10);
    Node n = poolNode(p, "n1");
    OwnerReference dsRef = new OwnerReference("apps/v1", "DaemonSet", "ds", "ds-uid", true, true);
    Pod daemon = Pod.builder().name("d").ownerReference(dsRef).nodeName("n1")
        .container("agent", "agent", ResourceList.ofCpuMemory(1500, 0)).build();
    Pod app = pod("app", 500, 0).toBuilder().nodeName("n1").build();
    var info = NodeInfos.of(n, List.of(PodInfos.of(daemon), PodInfos.of(app)));
    Instant now = Instant.parse("2026-01-01T00:00:00Z");
    assertThat(NodeUtilization.of(info, now).cpu()).isCloseTo(2000.0 / 4000, within(1e-9));
    assertThat(NodeUtilization.of(info, true, false, now).cpu()).isCloseTo(500.0 / 2500, within(1e-9));
    assertThat(NodeUtilization.of(info, false, false, now)).isEqualTo(NodeUtilization.of(info, now));
  }

  @Test
  void scaleDown_ignoreDaemonSetsUtilization_makesADaemonHeavyNodeUnderused() {
    NodePool p = pool("p", 4000, 8192, 0, 10);
    store.create(p);
    store.create(poolNode(p, "n1"));
    store.create(poolNode(p, "n2"));
    DaemonSet ds = daemonSet("logging", 1500, 0, null);
    store.create(daemonPodOn(ds, "n1"));
    store.create(daemonPodOn(ds, "n2"));
    store.create(pod("app", 600, 0).toBuilder().nodeName("n1").build());
    store.create(pod("busy", 1000, 0).toBuilder().nodeName("n2").build());
    // counted: n1 2100/4000, n2 2500/4000: both above the 0.5 threshold
    LoopResult counted = ca().runOnce();
    assertThat(counted.unremovableNodes()).containsEntry("n1", ClusterAutoscaler.NOT_UNDERUTILIZED)
        .containsEntry("n2", ClusterAutoscaler.NOT_UNDERUTILIZED);
    // ignored: n1 600/2500 = 0.24, n2 1000/2500 = 0.4, both candidates. n1 (first by name) is unneeded: app moves to
    // n2 (1500m free); its daemon pod is not moved, it goes with the node. n2's busy pod then has nowhere to go
    LoopResult ignored = ca(AutoscalerOptions.defaults().withIgnoreDaemonSetsUtilization(true)).runOnce();
    assertThat(ignored.unneededNodes()).containsExactly("n1");
    assertThat(ignored.unremovableNodes()).containsEntry("n2", ClusterAutoscaler.NO_PLACE_TO_MOVE_PODS);
  }
}
