package io.fleetkit.scheduler.plugins.noderesources;

import static io.fleetkit.scheduler.plugins.noderesources.Fixtures.containerless;
import static io.fleetkit.scheduler.plugins.noderesources.Fixtures.info;
import static io.fleetkit.scheduler.plugins.noderesources.Fixtures.makeNode;
import static io.fleetkit.scheduler.plugins.noderesources.Fixtures.node;
import static io.fleetkit.scheduler.plugins.noderesources.Fixtures.pod;
import static io.fleetkit.scheduler.plugins.noderesources.Fixtures.res;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Score cases ported from kubernetes/kubernetes pkg/scheduler/framework/plugins/noderesources: fit_test.go
 * (TestFitScore), least_allocated_test.go (TestLeastAllocatedScoringStrategy), most_allocated_test.go
 * (TestMostAllocatedScoringStrategy) and requested_to_capacity_ratio_test.go
 * (TestRequestedToCapacityRatioScoringStrategy, TestBrokenLinearFunction, TestResourceBinPackingSingleExtended,
 * TestResourceBinPackingMultipleExtended). Quantities are upstream's: {@code "cpu": "4000"} is 4000 cores.
 */
final class NodeResourcesFitPluginScoreTest {
  private static final String EXT = "abc.com/xyz";
  private static final List<ResourceSpec> DEFAULT = ScoringStrategy.DEFAULT_RESOURCES;
  private static final List<ResourceSpec> EXTENDED_SET =
      List.of(ResourceSpec.of("cpu", 1), ResourceSpec.of("memory", 1), ResourceSpec.of(EXT, 1));

  private static NodeResourcesFitPlugin plugin(ScoringStrategy s) {
    return new NodeResourcesFitPlugin(NodeResourcesFitArgs.of(s));
  }

  private static NodeResourcesFitPlugin least(List<ResourceSpec> r) {
    return plugin(ScoringStrategy.leastAllocated(r));
  }

  private static NodeResourcesFitPlugin most(List<ResourceSpec> r) {
    return plugin(ScoringStrategy.mostAllocated(r));
  }

  private static NodeResourcesFitPlugin rtcr(List<ResourceSpec> r, int... shape) {
    List<UtilizationShapePoint> points = new java.util.ArrayList<>();
    for (int i = 0; i < shape.length; i += 2) {
      points.add(UtilizationShapePoint.of(shape[i], shape[i + 1]));
    }
    return plugin(ScoringStrategy.requestedToCapacityRatio(r, points));
  }

  private static Node n(String name, String cpu, String mem, String... ext) {
    String[] kv = new String[4 + ext.length];
    kv[0] = "cpu";
    kv[1] = cpu;
    kv[2] = "memory";
    kv[3] = mem;
    System.arraycopy(ext, 0, kv, 4, ext.length);
    return node(name, res(kv));
  }

  private static PodInfo req(String cpu, String mem, String... ext) {
    String[] kv = new String[4 + ext.length];
    kv[0] = "cpu";
    kv[1] = cpu;
    kv[2] = "memory";
    kv[3] = mem;
    System.arraycopy(ext, 0, kv, 4, ext.length);
    return info(res(kv));
  }

  /** st.MakePod().Req(1000/2000).Req(2000/3000): two containers. */
  private static PodInfo twoContainers() {
    return info(res("cpu", "1000", "memory", "2000"), res("cpu", "2000", "memory", "3000"));
  }

  // ---- fit_test.go TestFitScore (9 of 11; the 2 DRA extended-resource cases are skipped) ----

  private static ScoreHarness fitScoreCluster() {
    return ScoreHarness.nodes(n("node1", "4000", "10000"), n("node2", "6000", "10000"))
        .on("node1", req("2000", "4000")).on("node2", req("1000", "2000"));
  }

  @ParameterizedTest(name = "runPreScore={0}")
  @ValueSource(booleans = {true, false})
  void score_fitScoreRequestedToCapacityRatioCase1_matchesUpstream(boolean runPreScore) {
    assertThat(fitScoreCluster().score(rtcr(DEFAULT, 0, 10, 100, 0), req("3000", "5000"), runPreScore))
        .containsExactly(10L, 32L);
  }

  @Test
  void score_fitScoreRequestedToCapacityRatioCase2_matchesUpstream() {
    assertThat(fitScoreCluster().score(rtcr(DEFAULT, 0, 0, 100, 10), req("3000", "5000")))
        .containsExactly(95L, 68L);
  }

  @ParameterizedTest(name = "runPreScore={0}")
  @ValueSource(booleans = {true, false})
  void score_fitScoreMostAllocated_matchesUpstream(boolean runPreScore) {
    assertThat(fitScoreCluster().score(most(DEFAULT), req("1000", "2000"), runPreScore)).containsExactly(67L, 36L);
  }

  @ParameterizedTest(name = "runPreScore={0}")
  @ValueSource(booleans = {true, false})
  void score_fitScoreLeastAllocated_matchesUpstream(boolean runPreScore) {
    assertThat(fitScoreCluster().score(least(DEFAULT), req("1000", "2000"), runPreScore)).containsExactly(32L, 63L);
  }

  private static ScoreHarness sidecarCluster() {
    PodInfo withSidecar = PodInfos.of(pod(res("cpu", "1000", "memory", "2000")).toBuilder()
        .initContainer(Container.sidecar("sidecar", "pause", res("cpu", "1000", "memory", "2000"))).build());
    return ScoreHarness.nodes(n("node1", "4000", "10000"), n("node2", "4000", "10000"))
        .on("node1", withSidecar).on("node2", req("1000", "2000"));
  }

  @Test
  void score_fitScoreMostAllocatedWithSidecar_matchesUpstream() {
    assertThat(sidecarCluster().score(most(DEFAULT), req("1000", "2000"))).containsExactly(67L, 45L);
  }

  @Test
  void score_fitScoreLeastAllocatedWithSidecar_matchesUpstream() {
    assertThat(sidecarCluster().score(least(DEFAULT), req("1000", "2000"))).containsExactly(32L, 55L);
  }

  // ---- least_allocated_test.go and most_allocated_test.go, shared clusters ----

  @Test
  void score_nothingScheduledNothingRequested_matchesUpstream() {
    ScoreHarness h = ScoreHarness.nodes(n("node1", "4000", "10000"), n("node2", "4000", "10000"));
    assertThat(h.score(least(DEFAULT), containerless())).containsExactly(100L, 100L);
    assertThat(h.score(most(DEFAULT), containerless())).containsExactly(0L, 0L);
  }

  @Test
  void score_nothingScheduledResourcesRequestedDifferentlySizedNodes_matchesUpstream() {
    ScoreHarness h = ScoreHarness.nodes(n("node1", "4000", "10000"), n("node2", "6000", "10000"));
    assertThat(h.score(least(DEFAULT), twoContainers())).containsExactly(37L, 50L);
    assertThat(h.score(most(DEFAULT), twoContainers())).containsExactly(62L, 50L);
  }

  @Test
  void score_resourcesNotSet_isRejectedAtConstruction() {
    // Upstream: "Resources not set, pods scheduled with error" (Score returns Error); here the strategy cannot be built.
    assertThatThrownBy(() -> ScoringStrategy.leastAllocated(List.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("resources must not be empty");
    assertThatThrownBy(() -> ScoringStrategy.mostAllocated(List.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("resources must not be empty");
  }

  @Test
  void score_noResourcesRequestedPodsScheduled_matchesUpstream() {
    ScoreHarness h = ScoreHarness.nodes(n("node1", "4000", "10000"), n("node2", "4000", "10000"))
        .on("node1", containerless()).on("node1", containerless())
        .on("node2", containerless()).on("node2", containerless());
    assertThat(h.score(least(DEFAULT), containerless())).containsExactly(100L, 100L);
  }

  private static ScoreHarness cpuHeavy(String node2Memory) {
    return ScoreHarness.nodes(n("node1", "10000", "20000"), n("node2", "10000", node2Memory))
        .on("node1", req("3000", "0")).on("node2", req("3000", "5000"));
  }

  @Test
  void score_noResourcesRequestedPodsScheduledWithResources_matchesUpstream() {
    ScoreHarness h = ScoreHarness.nodes(n("node1", "10000", "20000"), n("node2", "10000", "20000"))
        .on("node1", req("3000", "0")).on("node1", req("3000", "0"))
        .on("node2", req("3000", "0")).on("node2", req("3000", "5000"));
    assertThat(h.score(least(DEFAULT), containerless())).containsExactly(70L, 57L);
    assertThat(h.score(most(DEFAULT), containerless())).containsExactly(30L, 42L);
  }

  @Test
  void score_resourcesRequestedPodsScheduledWithResources_matchesUpstream() {
    assertThat(cpuHeavy("20000").score(least(DEFAULT), twoContainers())).containsExactly(57L, 45L);
    assertThat(cpuHeavy("20000").score(most(DEFAULT), twoContainers())).containsExactly(42L, 55L);
  }

  @Test
  void score_leastAllocatedDifferentlySizedNodesWithPods_matchesUpstream() {
    assertThat(cpuHeavy("50000").score(least(DEFAULT), twoContainers())).containsExactly(57L, 60L);
  }

  @Test
  void score_leastAllocatedRequestExceedsCapacity_matchesUpstream() {
    ScoreHarness h = ScoreHarness.nodes(n("node1", "4000", "10000"), n("node2", "4000", "10000"))
        .on("node1", req("3000", "0")).on("node2", req("3000", "5000"));
    assertThat(h.score(least(DEFAULT), req("3000", "0"))).containsExactly(50L, 25L);
  }

  @Test
  void score_leastAllocatedZeroNodeResources_matchesUpstream() {
    ScoreHarness h = ScoreHarness.nodes(node("node1", res()), node("node2", res()))
        .on("node1", req("3000", "0")).on("node2", req("3000", "5000"));
    assertThat(h.score(least(DEFAULT), containerless())).containsExactly(0L, 0L);
  }

  @Test
  void score_differentWeightsOnCpuAndMemory_matchesUpstream() {
    List<ResourceSpec> weights = List.of(ResourceSpec.of("memory", 2), ResourceSpec.of("cpu", 1));
    ScoreHarness h = ScoreHarness.nodes(n("node1", "4000", "10000"), n("node2", "6000", "10000"));
    assertThat(h.score(least(weights), twoContainers())).containsExactly(41L, 50L);
    assertThat(h.score(most(weights), twoContainers())).containsExactly(58L, 50L);
  }

  @ParameterizedTest(name = "weight {0}")
  @ValueSource(longs = {-1, 0, 101})
  void resourceSpec_weightOutOfRange_isRejected(long weight) {
    // Upstream: "resource with negative weight", "resource with zero weight", "resource weight larger than
    // MaxNodeScore" (in both least_ and most_allocated_test.go).
    assertThatThrownBy(() -> ResourceSpec.of("memory", weight))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must be in [1, 100]");
    Map<String, Object> args = Map.of("scoringStrategy", Map.of("type", "MostAllocated",
        "resources", List.of(Map.of("name", "memory", "weight", weight), Map.of("name", "cpu", "weight", 1))));
    assertThatThrownBy(() -> NodeResourcesFitArgs.fromMap(args))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("scoringStrategy.resources[0].weight " + weight);
  }

  @Test
  void score_bypassExtendedResourceIfPodDoesNotRequest_matchesUpstream() {
    ScoreHarness h = ScoreHarness.nodes(n("node1", "6000", "10000"), n("node2", "6000", "10000", EXT, "4"));
    assertThat(h.score(least(EXTENDED_SET), twoContainers())).containsExactly(50L, 50L);
    assertThat(h.score(most(EXTENDED_SET), twoContainers())).containsExactly(50L, 50L);
  }

  @Test
  void score_honorExtendedResourceIfPodRequests_matchesUpstream() {
    ScoreHarness h = ScoreHarness.nodes(n("node1", "6000", "10000", EXT, "4"), n("node2", "6000", "10000", EXT, "10"));
    PodInfo pod = req("3000", "5000", EXT, "2");
    assertThat(h.score(least(EXTENDED_SET), pod)).containsExactly(50L, 60L);
    assertThat(h.score(most(EXTENDED_SET), pod)).containsExactly(50L, 40L);
  }

  @Test
  void score_nodeWithoutAResource_leavesItOut() {
    List<ResourceSpec> r = List.of(ResourceSpec.of(EXT, 2), ResourceSpec.of("cpu", 1), ResourceSpec.of("memory", 1));
    ScoreHarness h = ScoreHarness.nodes(n("node1", "6000", "10000"), n("node2", "6000", "10000", EXT, "4"));
    assertThat(h.score(least(r), req("3000", "4000"))).containsExactly(55L, 55L);
    assertThat(h.score(most(r), req("3000", "4000"))).containsExactly(45L, 45L);
  }

  @Test
  void score_mostAllocatedResourcesRequestedEqualNodeCapacity_matchesUpstream() {
    ScoreHarness h = ScoreHarness.nodes(n("node1", "5000", "10000"), n("node2", "10000", "9000"));
    PodInfo pod = info(res("cpu", "2000", "memory", "4000"), res("cpu", "3000", "memory", "5000"));
    assertThat(h.score(most(DEFAULT), pod)).containsExactly(95L, 75L);
  }

  @Test
  void score_mostAllocatedNonZeroRequestForResource_usesDefaults() {
    // Upstream: "no resources requested, pods scheduled, nonzero request for resource": 100m / 200Mi per pod.
    ScoreHarness h = ScoreHarness.nodes(n("node1", "250m", "1000Mi"), n("node2", "250m", "1000Mi"))
        .on("node1", info(pod())).on("node1", info(pod()));
    assertThat(h.score(most(DEFAULT), info(pod()))).containsExactly(80L, 30L);
  }

  // ---- requested_to_capacity_ratio_test.go ----

  @Test
  void score_rtcrNothingScheduledNothingRequested_matchesUpstream() {
    ScoreHarness h = ScoreHarness.nodes(n("node1", "4000", "10000"), n("node2", "4000", "10000"))
        .on("node1", containerless()).on("node1", containerless());
    assertThat(h.score(rtcr(DEFAULT, 0, 10, 100, 0), containerless())).containsExactly(100L, 100L);
  }

  @Test
  void score_rtcrResourcesRequestedDifferentlySizedNodes_matchesUpstream() {
    ScoreHarness h = ScoreHarness.nodes(n("node1", "4000", "10000"), n("node2", "6000", "10000"))
        .on("node1", containerless()).on("node1", containerless());
    assertThat(h.score(rtcr(DEFAULT, 0, 10, 100, 0), twoContainers())).containsExactly(38L, 50L);
  }

  @Test
  void score_rtcrNoResourcesRequestedPodsScheduledWithResources_matchesUpstream() {
    ScoreHarness h = ScoreHarness.nodes(n("node1", "4000", "10000"), n("node2", "6000", "10000"))
        .on("node1", req("3000", "5000")).on("node2", req("3000", "5000"));
    assertThat(h.score(rtcr(DEFAULT, 0, 10, 100, 0), containerless())).containsExactly(38L, 50L);
  }

  private static long[] brokenLinear(long[] util, long[] score, long... ps) {
    long[] out = new long[ps.length];
    for (int i = 0; i < ps.length; i++) {
      out[i] = RequestedToCapacityRatioScorer.brokenLinear(util, score, ps[i]);
    }
    return out;
  }

  @Test
  void brokenLinearFunction_upstreamTable_matches() {
    assertThat(brokenLinear(new long[] {10, 90}, new long[] {1, 9}, -10, 0, 9, 10, 15, 19, 20, 89, 90, 99, 100, 110))
        .containsExactly(1, 1, 1, 1, 1, 1, 2, 8, 9, 9, 9, 9);
    assertThat(brokenLinear(new long[] {0, 40, 100}, new long[] {2, 10, 0}, -10, 0, 20, 30, 40, 70, 100, 110))
        .containsExactly(2, 2, 6, 8, 10, 5, 0, 0);
    assertThat(brokenLinear(new long[] {0, 40, 100}, new long[] {2, 2, 2}, -10, 0, 20, 30, 40, 70, 100, 110))
        .containsExactly(2, 2, 2, 2, 2, 2, 2, 2);
  }

  private static Node binNode(String name, String... ext) {
    return makeNode(name, 4000, 10000L * 1024 * 1024, ext);
  }

  @Test
  void score_binPackingSingleExtended_matchesUpstream() {
    NodeResourcesFitPlugin p = rtcr(List.of(ResourceSpec.of("intel.com/foo", 1)), 0, 0, 100, 1);
    ScoreHarness empty = ScoreHarness.nodes(binNode("node1", "intel.com/foo", "8"), binNode("node2", "intel.com/foo", "4"));
    assertThat(empty.score(p, containerless())).as("nothing scheduled, nothing requested").containsExactly(0L, 0L);
    assertThat(empty.score(p, info(res("intel.com/foo", "2"))))
        .as("resources requested, pods scheduled with less resources").containsExactly(2L, 5L);
    ScoreHarness busy = ScoreHarness.nodes(binNode("node1", "intel.com/foo", "8"), binNode("node2", "intel.com/foo", "4"))
        .on("node2", info(res("intel.com/foo", "2")));
    assertThat(busy.score(p, info(res("intel.com/foo", "2"))))
        .as("resources requested, pods scheduled with resources, on node with existing pod running")
        .containsExactly(2L, 10L);
    assertThat(empty.score(p, info(res("intel.com/foo", "4"))))
        .as("resources requested, pods scheduled with more resources").containsExactly(5L, 10L);
  }

  @Test
  void score_binPackingMultipleExtended_matchesUpstream() {
    NodeResourcesFitPlugin p = rtcr(List.of(ResourceSpec.of("intel.com/foo", 3), ResourceSpec.of("intel.com/bar", 5)),
        0, 0, 100, 1);
    Node node1 = binNode("node1", "intel.com/foo", "8", "intel.com/bar", "4");
    Node node2 = binNode("node2", "intel.com/foo", "4", "intel.com/bar", "8");
    PodInfo pod1 = info(res("intel.com/foo", "2", "intel.com/bar", "2"));
    PodInfo pod2 = info(res("intel.com/foo", "4", "intel.com/bar", "2"));
    ScoreHarness empty = ScoreHarness.nodes(node1, node2);
    assertThat(empty.score(p, containerless())).as("nothing scheduled, nothing requested").containsExactly(0L, 0L);
    assertThat(empty.score(p, pod1)).as("resources requested, pods scheduled with less resources")
        .containsExactly(4L, 3L);
    assertThat(ScoreHarness.nodes(node1, node2).on("node2", pod2).score(p, pod1))
        .as("resources requested, pods scheduled with resources, on node with existing pod running")
        .containsExactly(4L, 7L);
    assertThat(empty.score(p, pod2)).as("resources requested, pods scheduled with more resources")
        .containsExactly(5L, 5L);
  }
}
