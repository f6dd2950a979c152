package io.fleetkit.scheduler.plugins.noderesources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.FrameworkHandle;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.Snapshot;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.framework.WaitingPods;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

final class NodeResourcesFitArgsTest {

  private static void rejects(Map<String, Object> args, String message) {
    assertThatThrownBy(() -> NodeResourcesFitArgs.fromMap(args))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(message);
  }

  @Test
  void fromMap_empty_givesKubeDefaults() {
    NodeResourcesFitArgs a = NodeResourcesFitArgs.fromMap(Map.of());
    assertThat(a).isEqualTo(NodeResourcesFitArgs.DEFAULT);
    assertThat(a.scoringStrategy().type()).isEqualTo(ScoringStrategy.Type.LeastAllocated);
    assertThat(a.scoringStrategy().resources()).containsExactly(ResourceSpec.of("cpu", 1), ResourceSpec.of("memory", 1));
  }

  @Test
  void fromMap_fullStrategy_parsesEveryField() {
    NodeResourcesFitArgs a = NodeResourcesFitArgs.fromMap(Map.of(
        "ignoredResources", List.of("example.com/foo"),
        "ignoredResourceGroups", List.of("example.org"),
        "scoringStrategy", Map.of("type", "RequestedToCapacityRatio",
            "resources", List.of(Map.of("name", "cpu", "weight", 2), Map.of("name", "nvidia.com/gpu", "weight", 5.0)),
            "requestedToCapacityRatio", Map.of("shape",
                List.of(Map.of("utilization", 0, "score", 0), Map.of("utilization", 100, "score", 10))))));
    assertThat(a.ignoredResources()).containsExactly("example.com/foo");
    assertThat(a.ignoredResourceGroups()).containsExactly("example.org");
    assertThat(a.scoringStrategy()).isEqualTo(ScoringStrategy.requestedToCapacityRatio(
        List.of(ResourceSpec.of("cpu", 2), ResourceSpec.of("nvidia.com/gpu", 5)),
        List.of(UtilizationShapePoint.of(0, 0), UtilizationShapePoint.of(100, 10))));
  }

  @Test
  void fromMap_mostAllocatedWithoutResources_defaultsToCpuAndMemory() {
    ScoringStrategy s = NodeResourcesFitArgs.fromMap(Map.of("scoringStrategy", Map.of("type", "MostAllocated")))
        .scoringStrategy();
    assertThat(s).isEqualTo(ScoringStrategy.mostAllocated(ScoringStrategy.DEFAULT_RESOURCES));
  }

  @Test
  void fromMap_requestedToCapacityRatioWithoutShape_defaultsShape() {
    ScoringStrategy s = NodeResourcesFitArgs.fromMap(
        Map.of("scoringStrategy", Map.of("type", "RequestedToCapacityRatio"))).scoringStrategy();
    assertThat(s.shape()).isEqualTo(ScoringStrategy.DEFAULT_SHAPE);
  }

  @Test
  void fromMap_badArguments_failWithFieldRuleAndValue() {
    rejects(Map.of("scoringStrategy", Map.of("type", "Fancy")),
        "scoringStrategy.type \"Fancy\" is not supported (supported: LeastAllocated, MostAllocated, "
            + "RequestedToCapacityRatio)");
    rejects(Map.of("scoringStrategy", "LeastAllocated"), "scoringStrategy must be a map, not \"LeastAllocated\"");
    rejects(Map.of("scoringStrategy", Map.of("typ", "MostAllocated")), "scoringStrategy.typ is not a known field");
    rejects(Map.of("ignoredResourceGroups", List.of("example.com/x")),
        "ignoredResourceGroups entry \"example.com/x\" must be a non-empty domain without '/'");
    rejects(Map.of("scoringStrategy", Map.of("resources", List.of(Map.of("weight", 1)))),
        "scoringStrategy.resources[0].name must be a non-empty string, not null");
    rejects(Map.of("scoringStrategy", Map.of("resources", List.of(Map.of("name", "cpu", "weight", 1.5)))),
        "scoringStrategy.resources[0].weight must be an integer, not 1.5 (Double)");
    rejects(Map.of("scoringStrategy", Map.of("resources",
        List.of(Map.of("name", "cpu"), Map.of("name", "cpu")))), "scoringStrategy.resources[1].name \"cpu\" must be unique");
    rejects(Map.of("scoringStrategy", Map.of("type", "RequestedToCapacityRatio", "requestedToCapacityRatio",
            Map.of("shape", List.of(Map.of("utilization", 50, "score", 1), Map.of("utilization", 50, "score", 2))))),
        "shape[1].utilization 50 must be greater than the previous point's 50");
    rejects(Map.of("scoringStrategy", Map.of("type", "RequestedToCapacityRatio", "requestedToCapacityRatio",
        Map.of("shape", List.of(Map.of("utilization", 0, "score", 11))))), "shape[0].score 11 must be in [0, 10]");
    rejects(Map.of("scoringStrategy", Map.of("type", "RequestedToCapacityRatio", "requestedToCapacityRatio",
        Map.of("shape", List.of(Map.of("utilization", 101, "score", 1))))), "shape[0].utilization 101 must be in [0, 100]");
    rejects(Map.of("scoringStrategy", Map.of("type", "RequestedToCapacityRatio", "requestedToCapacityRatio",
        Map.of("shape", List.of()))), "shape must have at least one point");
    rejects(Map.of("scoringStrategy", Map.of("type", "MostAllocated", "requestedToCapacityRatio",
        Map.of("shape", List.of(Map.of("utilization", 0, "score", 1))))),
        "requestedToCapacityRatio is only allowed with type RequestedToCapacityRatio, not MostAllocated");
  }

  @Test
  void factories_readTheirArgsFromTheHandle() {
    FrameworkHandle handle = handle(Map.of(
        NodeResourcesFitPlugin.NAME, Map.of("scoringStrategy", Map.of("type", "MostAllocated")),
        NodeResourcesBalancedAllocationPlugin.NAME, Map.of("resources", List.of(Map.of("name", "cpu")))));
    NodeResourcesFitPlugin fit = (NodeResourcesFitPlugin) NodeResourcesFitPlugin.FACTORY.create(handle);
    assertThat(fit.name()).isEqualTo("NodeResourcesFit");
    assertThat(fit.args().scoringStrategy().type()).isEqualTo(ScoringStrategy.Type.MostAllocated);
    NodeResourcesBalancedAllocationPlugin ba =
        (NodeResourcesBalancedAllocationPlugin) NodeResourcesBalancedAllocationPlugin.FACTORY.create(handle);
    assertThat(ba.name()).isEqualTo("NodeResourcesBalancedAllocation");
    assertThat(ba.args().resources()).containsExactly(ResourceSpec.of("cpu", 1));
    assertThat(((NodeResourcesFitPlugin) NodeResourcesFitPlugin.FACTORY.create(handle(Map.of()))).args())
        .isEqualTo(NodeResourcesFitArgs.DEFAULT);
  }

  @Test
  void ignored_onlyExtendedResourcesCanBeIgnored() {
    assertThat(PodResourceRequest.isIgnored("example.com/foo", Set.of("example.com/foo"), Set.of())).isTrue();
    assertThat(PodResourceRequest.isIgnored("example.com/foo", Set.of(), Set.of("example.com"))).isTrue();
    assertThat(PodResourceRequest.isIgnored("kubernetes.io/foo", Set.of("kubernetes.io/foo"), Set.of("kubernetes.io")))
        .isFalse();
    assertThat(PodResourceRequest.isIgnored("hugepages-2Mi", Set.of("hugepages-2Mi"), Set.of())).isFalse();
  }

  private static FrameworkHandle handle(Map<String, Map<String, Object>> args) {
    return new FrameworkHandle() {
      @Override public Clock clock() { throw new UnsupportedOperationException(); }
      @Override public Snapshot snapshot() { throw new UnsupportedOperationException(); }
      @Override public WaitingPods waitingPods() { throw new UnsupportedOperationException(); }
      @Override public <T> List<T> list(Class<T> kind) { throw new UnsupportedOperationException(); }
      @Override public Status runFilterPlugins(CycleState state, PodInfo pod, NodeInfo node) {
        throw new UnsupportedOperationException();
      }
      @Override public Status runPreFilterExtensionAddPod(CycleState s, PodInfo p, PodInfo o, NodeInfo n) {
        throw new UnsupportedOperationException();
      }
      @Override public Status runPreFilterExtensionRemovePod(CycleState s, PodInfo p, PodInfo o, NodeInfo n) {
        throw new UnsupportedOperationException();
      }
      @Override public Map<String, Object> pluginArgs(String pluginName) {
        return args.getOrDefault(pluginName, Map.of());
      }
    };
  }
}
