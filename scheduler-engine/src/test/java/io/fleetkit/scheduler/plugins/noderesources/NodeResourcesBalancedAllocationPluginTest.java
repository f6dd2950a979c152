package io.fleetkit.scheduler.plugins.noderesources;

import static io.fleetkit.scheduler.plugins.noderesources.Fixtures.containerless;
import static io.fleetkit.scheduler.plugins.noderesources.Fixtures.info;
import static io.fleetkit.scheduler.plugins.noderesources.Fixtures.makeNode;
import static io.fleetkit.scheduler.plugins.noderesources.Fixtures.pod;
import static io.fleetkit.scheduler.plugins.noderesources.Fixtures.res;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.Status;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Cases ported from kubernetes/kubernetes pkg/scheduler/framework/plugins/noderesources/balanced_allocation_test.go
 * (TestNodeResourcesBalancedAllocation): 8 of 10; the 2 DRA extended-resource cases are skipped. Nodes use upstream's
 * makeNode (cpu in milli-cores, memory in bytes).
 */
final class NodeResourcesBalancedAllocationPluginTest {
  private static final NodeResourcesBalancedAllocationPlugin DEFAULT = new NodeResourcesBalancedAllocationPlugin();
  private static final NodeResourcesBalancedAllocationPlugin WITH_GPU =
      new NodeResourcesBalancedAllocationPlugin(NodeResourcesBalancedAllocationArgs.of("cpu", "memory", "nvidia.com/gpu"));

  private static PodInfo cpuOnly() {
    return info(res("cpu", "1000m", "memory", "0"), res("cpu", "2000m", "memory", "0"));
  }

  private static PodInfo cpuAndMemory() {
    return info(res("cpu", "1000m", "memory", "2000"), res("cpu", "2000m", "memory", "3000"));
  }

  private static PodInfo cpuAndMemoryAndGpu() {
    return info(res("cpu", "1000m", "memory", "2000"), res("cpu", "2000m", "memory", "3000", "nvidia.com/gpu", "3"));
  }

  @Test
  void preScore_bestEffortPod_skips() {
    // "nothing scheduled, nothing requested, skip in PreScore"
    ScoreHarness h = ScoreHarness.nodes(makeNode("node1", 4000, 10000), makeNode("node2", 4000, 10000));
    Status s = DEFAULT.preScore(new Fixtures.MapCycleState(), containerless(), h.nodeInfos());
    assertThat(s.isSkip()).isTrue();
    assertThat(DEFAULT.preScore(new Fixtures.MapCycleState(), info(pod()), h.nodeInfos()).isSkip()).isTrue();
  }

  @Test
  void score_podLevelRequests_scoreLikeTheSameRequestsOnAContainer() {
    // FleetKit's own case: pod-level requests take precedence over the containers' sum (4000m of cpu here, where
    // the containers ask 2000m), so the pod scores as a one-container pod asking 4000m / 5000 would.
    io.fleetkit.api.core.Pod p = pod(res("cpu", "1000m", "memory", "2000"), res("cpu", "1000m", "memory", "3000"));
    PodInfo podLevel = info(p.withSpec(p.spec().toBuilder()
        .resources(io.fleetkit.api.core.ResourceRequirements.ofRequests(res("cpu", "4000m"))).build()));
    PodInfo same = info(res("cpu", "4000m", "memory", "5000"));
    ScoreHarness h = ScoreHarness.nodes(makeNode("node1", 4000, 10000), makeNode("node2", 6000, 10000));
    assertThat(h.score(DEFAULT, podLevel)).isEqualTo(h.score(DEFAULT, same));
    assertThat(h.score(DEFAULT, podLevel)).isNotEqualTo(h.score(DEFAULT, info(p)));
  }

  @Test
  void score_nothingScheduledResourcesRequestedDifferentlySizedNodes_matchesUpstream() {
    ScoreHarness h = ScoreHarness.nodes(makeNode("node1", 4000, 10000), makeNode("node2", 6000, 10000));
    assertThat(h.score(DEFAULT, cpuAndMemory())).containsExactly(87L, 100L);
  }

  @ParameterizedTest(name = "runPreScore={0}")
  @ValueSource(booleans = {true, false})
  void score_resourcesRequestedPodsScheduledWithResources_matchesUpstream(boolean runPreScore) {
    ScoreHarness h = ScoreHarness.nodes(makeNode("node1", 10000, 20000), makeNode("node2", 10000, 20000))
        .on("node1", cpuOnly()).on("node2", cpuAndMemory());
    assertThat(h.score(DEFAULT, cpuAndMemory(), runPreScore)).containsExactly(82L, 95L);
  }

  @Test
  void score_resourcesRequestedPodsScheduledDifferentlySizedNodes_matchesUpstream() {
    ScoreHarness h = ScoreHarness.nodes(makeNode("node1", 10000, 20000), makeNode("node2", 10000, 50000))
        .on("node1", cpuOnly()).on("node2", cpuAndMemory());
    assertThat(h.score(DEFAULT, cpuAndMemory())).containsExactly(82L, 80L);
  }

  @Test
  void score_requestedResourcesAtNodeCapacity_matchesUpstream() {
    ScoreHarness h = ScoreHarness.nodes(makeNode("node1", 6000, 10000), makeNode("node2", 6000, 10000))
        .on("node1", cpuOnly()).on("node2", cpuAndMemory());
    assertThat(h.score(DEFAULT, cpuOnly())).containsExactly(50L, 75L);
  }

  @Test
  void score_includeScalarResource_usesStandardDeviationOverThree() {
    ScoreHarness h = ScoreHarness.nodes(makeNode("node1", 3500, 40000, "nvidia.com/gpu", "8"),
            makeNode("node2", 3500, 40000, "nvidia.com/gpu", "8"))
        .on("node2", cpuAndMemory()).on("node1", cpuAndMemoryAndGpu());
    assertThat(h.score(WITH_GPU, info(res("memory", "0", "nvidia.com/gpu", "1")))).containsExactly(70L, 65L);
  }

  @Test
  void score_nodeWithoutScalarResource_skipsIt() {
    ScoreHarness h = ScoreHarness.nodes(makeNode("node1", 3500, 40000, "nvidia.com/gpu", "8"),
        makeNode("node2", 3500, 40000));
    assertThat(h.score(WITH_GPU, cpuAndMemory())).containsExactly(63L, 63L);
  }

  @Test
  void score_usesRealRequestsNotNonZeroDefaults() {
    // A pod asking only for memory: cpu counts as 0 (not 100m) in the fractions.
    ScoreHarness h = ScoreHarness.nodes(makeNode("node1", 1000, 1000));
    assertThat(h.score(DEFAULT, info(res("memory", "500")))).containsExactly(75L);
  }

  @Test
  void args_fromMap_parsesResourcesAndRejectsWeights() {
    assertThat(NodeResourcesBalancedAllocationArgs.fromMap(Map.of())).isEqualTo(NodeResourcesBalancedAllocationArgs.DEFAULT);
    assertThat(NodeResourcesBalancedAllocationArgs.fromMap(
        Map.of("resources", List.of(Map.of("name", "cpu"), Map.of("name", "nvidia.com/gpu", "weight", 1)))).resources())
        .extracting(ResourceSpec::name).containsExactly("cpu", "nvidia.com/gpu");
    assertThatThrownBy(() -> NodeResourcesBalancedAllocationArgs.fromMap(
        Map.of("resources", List.of(Map.of("name", "cpu", "weight", 2)))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("resources[0].weight 2 must be 1");
    assertThatThrownBy(() -> NodeResourcesBalancedAllocationArgs.fromMap(
        Map.of("resources", List.of(Map.of("name", "cpu"), Map.of("name", "cpu")))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("resources[1].name \"cpu\" must be unique");
    assertThatThrownBy(() -> NodeResourcesBalancedAllocationArgs.fromMap(Map.of("resource", List.of())))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("resource is not a known field");
  }
}
