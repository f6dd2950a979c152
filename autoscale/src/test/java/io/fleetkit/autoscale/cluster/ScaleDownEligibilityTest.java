package io.fleetkit.autoscale.cluster;

import static io.fleetkit.autoscale.cluster.CaFixtures.resources;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.dra.Device;
import io.fleetkit.api.resource.dra.ResourcePool;
import io.fleetkit.api.resource.dra.ResourceSlice;
import io.fleetkit.api.resource.dra.ResourceSliceSpec;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Scale-down eligibility, ported from kubernetes/autoscaler
 * {@code cluster-autoscaler/core/scaledown/eligibility/eligibility_test.go} (branch cluster-autoscaler-release-1.37,
 * commit a16f0ae8; the file as of fd873dcd), TestFilterOutUnremovable: nodes of 1000m CPU and 10 bytes of memory in
 * one pool (upstream's ng1, min 1, max 10), the case's pods on {@code regular}; a node is eligible when one loop
 * reports no eligibility reason for it (FleetKit goes on to simulate its removal, which for a node with pods and no
 * other node says {@link ClusterAutoscaler#NO_PLACE_TO_MOVE_PODS}: a simulation outcome, not an eligibility one), and
 * a node upstream reports unremovable has upstream's reason. Names are lower-cased as FleetKit's validation wants
 * ({@code no-scale-down}, {@code big-pod}, ...). As upstream, the base cases run in the {@code [base]} suite and again,
 * with the DaemonSet cases, in the {@code [ignore-daemonsets=true]} suite, whose cases may override the suite's
 * option. Not ported: "recently deleted node is filtered out" (upstream's {@code IsNodeBeingDeleted} reads a
 * {@code ToBeDeletedByClusterAutoscaler} taint put by another autoscaler instance; FleetKit's planner knows the
 * deletions from its own actuator) and "Node is not filtered out because of DRA issues if DRA is disabled" (FleetKit
 * has no switch turning DRA off: a node with node-local slices is always judged by its devices), each in both suites.
 * Its DRA case "Node is filtered out because of DRA issues if DRA is enabled" is the version of the file of the search
 * index's blob 2824785993 (the same test function with {@code draSnapshot} and {@code draEnabled}).
 */
final class ScaleDownEligibilityTest {
  private static final Set<String> ELIGIBILITY_REASONS = Set.of(ClusterAutoscaler.NOT_UNDERUTILIZED,
      ClusterAutoscaler.SCALE_DOWN_DISABLED_ANNOTATION, ClusterAutoscaler.SCALE_DOWN_UNREADY_DISABLED,
      ClusterAutoscaler.RECENTLY_UNREMOVABLE, ClusterAutoscaler.UNEXPECTED_ERROR);
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

  /** Upstream's {@code brokenUtilNode}: no CPU and no memory, so no utilization can be calculated. */
  private static Node brokenUtil() {
    NodePool broken = NodePool.builder().name("ng1").capacity(resources(0, 0, 110)).minSize(1).maxSize(10).build();
    return ClusterAutoscaler.templateNode(broken, "regular");
  }

  /**
   * Upstream's {@code regularNodeIncompleteResourceSlice}: a slice local to {@code regular} of a pool that says it has
   * 999 slices, so the node's device utilization cannot be known.
   */
  private static ResourceSlice regularNodeIncompleteResourceSlice() {
    return ResourceSlice.of("regular-node-incomplete-resource-slice", ResourceSliceSpec.builder("driver.foo.com",
        new ResourcePool("regular-pool", 0, 999)).nodeName("regular").device(Device.of("dev1")).build());
  }

  /** One run: the options' patches, the nodes, the pods, the eligible nodes, the unremovable ones with reasons. */
  private record Case(String desc, List<Node> nodes, List<Pod> pods, List<String> wantUnneeded,
      Map<String, String> wantUnremovable, UnaryOperator<AutoscalerOptions> patch, List<ResourceSlice> slices) {
    Case(String desc, List<Node> nodes, List<Pod> pods, List<String> wantUnneeded,
        Map<String, String> wantUnremovable, UnaryOperator<AutoscalerOptions> patch) {
      this(desc, nodes, pods, wantUnneeded, wantUnremovable, patch, List.of());
    }

    Case suite(String name, UnaryOperator<AutoscalerOptions> suitePatch) {
      return new Case(desc + " " + name, nodes, pods, wantUnneeded, wantUnremovable,
          o -> patch.apply(suitePatch.apply(o)), slices); // the case's patch after the suite's, as upstream's
    }

    @Override
    public String toString() {
      return desc;
    }
  }

  private static Case c(String desc, List<Node> nodes, List<Pod> pods, List<String> wantUnneeded,
      Map<String, String> wantUnremovable) {
    return new Case(desc, nodes, pods, wantUnneeded, wantUnremovable, UnaryOperator.identity());
  }

  static Stream<Case> cases() {
    Pod bigPod = onRegular("big-pod", 600, RS);
    Pod smallPod = onRegular("small-pod", 100, RS);
    Pod dsPod = onRegular("ds-pod", 500, DS);
    List<Case> base = List.of(
        c("regular node stays", List.of(regular()), List.of(), List.of("regular"), Map.of()),
        c("marked no scale down is filtered out", List.of(noScaleDown(), regular()), List.of(), List.of("regular"),
            Map.of("no-scale-down", ClusterAutoscaler.SCALE_DOWN_DISABLED_ANNOTATION)),
        c("highly utilized node is filtered out", List.of(regular()), List.of(bigPod), List.of(),
            Map.of("regular", ClusterAutoscaler.NOT_UNDERUTILIZED)),
        c("underutilized node stays", List.of(regular()), List.of(smallPod), List.of("regular"), Map.of()),
        c("node is filtered out if utilization can't be calculated", List.of(brokenUtil()), List.of(smallPod),
            List.of(), Map.of("regular", ClusterAutoscaler.UNEXPECTED_ERROR)),
        c("unready node stays", List.of(unready()), List.of(), List.of("unready"), Map.of()),
        new Case("unready node is filtered oud when scale-down of unready is disabled", List.of(unready()),
            List.of(), List.of(), Map.of("unready", ClusterAutoscaler.SCALE_DOWN_UNREADY_DISABLED),
            o -> o.withScaleDownUnreadyEnabled(false)),
        new Case("Node is filtered out because of DRA issues if DRA is enabled", List.of(regular()),
            List.of(smallPod), List.of(), Map.of("regular", ClusterAutoscaler.UNEXPECTED_ERROR),
            UnaryOperator.identity(), List.of(regularNodeIncompleteResourceSlice())));
    List<Case> daemonSetCases = List.of(
        c("high utilization daemonsets node stays", List.of(regular()), List.of(smallPod, dsPod),
            List.of("regular"), Map.of()),
        new Case("high utilization daemonsets node is filtered out, when IgnoreDaemonSets is disabled",
            List.of(regular()), List.of(smallPod, dsPod), List.of(),
            Map.of("regular", ClusterAutoscaler.NOT_UNDERUTILIZED), o -> o.withIgnoreDaemonSetsUtilization(false)),
        new Case("only daemonsets pods on this node (threshold=0)", List.of(regular()), List.of(dsPod),
            List.of("regular"), Map.of(), o -> o.withScaleDownUtilizationThreshold(0)));
    return Stream.concat(base.stream().map(k -> k.suite("[base]", UnaryOperator.identity())),
        Stream.concat(base.stream(), daemonSetCases.stream())
            .map(k -> k.suite("[ignore-daemonsets=true]", o -> o.withIgnoreDaemonSetsUtilization(true))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void filterOutUnremovable(Case tc) {
    store.create(NG1);
    tc.nodes().forEach(store::create);
    tc.pods().forEach(store::create);
    tc.slices().forEach(store::create);
    AutoscalerOptions options = tc.patch().apply(AutoscalerOptions.defaults());
    LoopResult r = ClusterAutoscaler.builder(store).clock(clock).options(options).build().runOnce();
    List<String> eligible = tc.nodes().stream().map(Node::name)
        .filter(n -> !r.unremovableNodes().containsKey(n)
        || !ELIGIBILITY_REASONS.contains(r.unremovableNodes().get(n))).toList();
    assertThat(eligible).containsExactlyElementsOf(tc.wantUnneeded());
    tc.wantUnremovable().forEach((node, reason) -> assertThat(r.unremovableNodes()).containsEntry(node, reason));
  }

  /** Upstream's rule at the threshold itself: a node at exactly 50 % is a candidate, one just above is not. */
  @ParameterizedTest(name = "{0}m requested")
  @org.junit.jupiter.params.provider.CsvSource({"500, true", "501, false"})
  void atTheThreshold(long milliCpu, boolean eligible) {
    store.create(NG1);
    store.create(regular());
    store.create(onRegular("half", milliCpu, RS));
    LoopResult r = ClusterAutoscaler.builder(store).clock(clock).options(AutoscalerOptions.defaults()).build()
        .runOnce();
    assertThat(ClusterAutoscaler.NOT_UNDERUTILIZED.equals(r.unremovableNodes().get("regular"))).isNotEqualTo(eligible);
  }
}
