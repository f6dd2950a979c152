package io.fleetkit.autoscale.cluster;

import static io.fleetkit.autoscale.cluster.CaFixtures.resources;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Scale-down eligibility, ported from kubernetes/autoscaler
 * {@code cluster-autoscaler/core/scaledown/eligibility/eligibility_test.go} (commit 6302b220), TestFilterOutUnremovable:
 * nodes of 1000m CPU and 10 bytes of memory in one pool (upstream's ng1, min 1, max 10), the case's pods on
 * {@code regular}; a node is eligible when one loop reports no eligibility reason for it (FleetKit goes on to simulate
 * its removal (names lower-cased as FleetKit's validation wants: {@code no-scale-down}, {@code big-pod}, ...), which for a node with pods and no other node says {@link ClusterAutoscaler#NO_PLACE_TO_MOVE_PODS}: a
 * simulation outcome, not an eligibility one). Upstream runs the base cases under both
 * {@code IgnoreDaemonSetsUtilization} values; so does this. Not ported: "recently deleted node is filtered out"
 * (upstream's {@code IsNodeBeingDeleted} reads a {@code ToBeDeletedByClusterAutoscaler} taint put by another
 * autoscaler instance; FleetKit's planner knows the deletions from its own actuator).
 */
final class ScaleDownEligibilityTest {
  private static final Set<String> ELIGIBILITY_REASONS = Set.of(ClusterAutoscaler.NOT_UNDERUTILIZED,
      ClusterAutoscaler.SCALE_DOWN_DISABLED_ANNOTATION, ClusterAutoscaler.SCALE_DOWN_UNREADY_DISABLED,
      ClusterAutoscaler.RECENTLY_UNREMOVABLE);
  private static final OwnerReference RS = CaFixtures.RS;
  private static final OwnerReference DS = new OwnerReference("apps/v1", "DaemonSet", "ds", "ds-uid", true, true);

  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build();

  @AfterEach
  void close() {
    store.close();
  }

  private static final NodePool NG1 = NodePool.builder().name("ng1").capacity(resources(1000, 10, 110)).minSize(1)
      .maxSize(10).build();

  private static Node regular() {
    return ClusterAutoscaler.templateNode(NG1, "regular");
  }

  private static Node noScaleDown() {
    return ClusterAutoscaler.templateNode(NG1, "no-scale-down").toBuilder()
        .annotation(ClusterAutoscaler.SCALE_DOWN_DISABLED, "true").build();
  }

  private static Node unready() {
    return ClusterAutoscalerUnreadyTest.unready(ClusterAutoscaler.templateNode(NG1, "unready"));
  }

  private static Pod onRegular(String name, long milliCpu, OwnerReference owner) {
    return Pod.builder().name(name).ownerReference(owner).nodeName("regular")
        .container("app", "pause", ResourceList.ofCpuMemory(milliCpu, 0)).build();
  }

  static Stream<Arguments> cases() {
    Pod bigPod = onRegular("big-pod", 600, RS);
    Pod smallPod = onRegular("small-pod", 100, RS);
    Pod dsPod = onRegular("ds-pod", 500, DS);
    Function<Boolean, Stream<Arguments>> base = ignoreDs -> Stream.of(
        Arguments.of("regular node stays", List.of(regular()), List.of(), List.of("regular"), true, ignoreDs),
        Arguments.of("marked no scale down is filtered out", List.of(noScaleDown(), regular()), List.of(),
            List.of("regular"), true, ignoreDs),
        Arguments.of("highly utilized node is filtered out", List.of(regular()), List.of(bigPod), List.of(), true,
            ignoreDs),
        Arguments.of("underutilized node stays", List.of(regular()), List.of(smallPod), List.of("regular"), true,
            ignoreDs),
        Arguments.of("unready node stays", List.of(unready()), List.of(), List.of("unready"), true, ignoreDs),
        Arguments.of("unready node is filtered oud when scale-down of unready is disabled", List.of(unready()),
            List.of(), List.of(), false, ignoreDs));
    return Stream.of(base.apply(false), base.apply(true), Stream.of(
        Arguments.of("high utilization daemonsets node is filtered out", List.of(regular()),
            List.of(smallPod, dsPod), List.of(), true, false),
        Arguments.of("high utilization daemonsets node stays", List.of(regular()), List.of(smallPod, dsPod),
            List.of("regular"), true, true))).flatMap(s -> s);
  }

  @ParameterizedTest(name = "{0} (ignoreDaemonSetsUtilization={5})")
  @MethodSource("cases")
  void filterOutUnremovable(String desc, List<Node> nodes, List<Pod> pods, List<String> want,
      boolean scaleDownUnready, boolean ignoreDaemonSetsUtilization) {
    store.create(NG1);
    nodes.forEach(store::create);
    pods.forEach(store::create);
    AutoscalerOptions options = AutoscalerOptions.defaults().withScaleDownUnreadyEnabled(scaleDownUnready)
        .withIgnoreDaemonSetsUtilization(ignoreDaemonSetsUtilization);
    LoopResult r = ClusterAutoscaler.builder(store).clock(clock).options(options).build().runOnce();
    List<String> eligible = nodes.stream().map(Node::name)
        .filter(n -> !r.unremovableNodes().containsKey(n)
        || !ELIGIBILITY_REASONS.contains(r.unremovableNodes().get(n))).toList();
    assertThat(eligible).containsExactlyElementsOf(want);
    for (Node n : nodes) {
      if (!want.contains(n.name())) {
        assertThat(r.unremovableNodes()).containsKey(n.name());
      }
    }
  }
}
