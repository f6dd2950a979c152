package io.fleetkit.autoscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.dra.Device;
import io.fleetkit.api.resource.dra.ResourcePool;
import io.fleetkit.api.resource.dra.ResourceSlice;
import io.fleetkit.api.resource.dra.ResourceSliceSpec;
import io.fleetkit.api.scheduling.NodeSelector;
import io.fleetkit.api.scheduling.NodeSelectorOperator;
import io.fleetkit.api.scheduling.NodeSelectorRequirement;
import io.fleetkit.api.scheduling.NodeSelectorTerm;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link TemplateNodes#sanitizedNodeResourceSlices}, ported from kubernetes/autoscaler
 * {@code cluster-autoscaler/simulator/dynamicresources/utils/sanitize_test.go} {@code TestSanitizedNodeResourceSlices}
 * (all 5 cases). Upstream also asserts each copy got a new, non-empty UID; FleetKit's copies carry no uid (the store
 * assigns one on create), so the case asserts the original's uid is not kept. Upstream's names are camel case
 * ({@code oldNode}, {@code pool1Slice1}), which FleetKit's slices refuse as Kubernetes' validation would; they are
 * lower-cased here.
 */
final class TemplateNodesSlicesTest {
  private static final String OLD = "oldnode";
  private static final String NEW = "newnode";
  private static final String SUFFIX = "abc";
  private static final List<Device> DEVICES = List.of(Device.of("device1"), Device.of("device2"));

  private static ResourceSlice slice(String name, String uid, @Nullable String node, @Nullable NodeSelector selector,
      boolean allNodes, String pool) {
    return new ResourceSlice(ObjectMeta.builder().name(name).uid(uid).build(), new ResourceSliceSpec(
        "driver.example.com", new ResourcePool(pool, 13, 37), node, selector, allNodes, DEVICES));
  }

  private static final ResourceSlice ALL_NODES = slice("allnodesslice", "allNodesSlice", null, null, true,
      "all-nodes-pool1");
  // upstream's selector is empty; FleetKit's slices need exactly one term
  private static final ResourceSlice MULTIPLE_NODES = slice("multiplenodesslice", "multipleNodesSlice", null,
      new NodeSelector(List.of(new NodeSelectorTerm(List.of(new NodeSelectorRequirement("rack",
          NodeSelectorOperator.Exists, List.of())), List.of()))), false, "multiple-nodes-pool1");
  private static final ResourceSlice POOL1_SLICE1 = slice("pool1slice1", "pool1Slice1", OLD, null, false,
      "oldnode-pool1");
  private static final ResourceSlice POOL1_SLICE2 = slice("pool1slice2", "pool1Slice2", OLD, null, false,
      "oldnode-pool1");
  private static final ResourceSlice POOL2_SLICE1 = slice("pool2slice1", "pool2Slice1", OLD, null, false,
      "oldnode-pool2");
  private static final ResourceSlice POOL2_SLICE2 = slice("pool2slice2", "pool2Slice2", OLD, null, false,
      "oldnode-pool2");

  private static ResourceSlice sanitized(String name, String pool) {
    return slice(name, "", NEW, null, false, pool);
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("single node-local slice", List.of(POOL1_SLICE1),
            List.of(sanitized("pool1slice1-abc", "oldnode-pool1-abc")), Set.of("oldnode-pool1")),
        Arguments.of("multiple node-local slices from single pool", List.of(POOL1_SLICE1, POOL1_SLICE2),
            List.of(sanitized("pool1slice1-abc", "oldnode-pool1-abc"), sanitized("pool1slice2-abc",
                "oldnode-pool1-abc")), Set.of("oldnode-pool1")),
        Arguments.of("multiple node-local slices from multiple pools",
            List.of(POOL1_SLICE1, POOL1_SLICE2, POOL2_SLICE1, POOL2_SLICE2),
            List.of(sanitized("pool1slice1-abc", "oldnode-pool1-abc"),
                sanitized("pool1slice2-abc", "oldnode-pool1-abc"), sanitized("pool2slice1-abc", "oldnode-pool2-abc"),
                sanitized("pool2slice2-abc", "oldnode-pool2-abc")), Set.of("oldnode-pool1", "oldnode-pool2")),
        Arguments.of("global slices are an error",
            List.of(POOL1_SLICE1, POOL1_SLICE2, POOL2_SLICE1, POOL2_SLICE2, ALL_NODES), null, null),
        Arguments.of("multi-node slices are an error",
            List.of(POOL1_SLICE1, POOL1_SLICE2, POOL2_SLICE1, POOL2_SLICE2, MULTIPLE_NODES), null, null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void sanitizedNodeResourceSlices(String name, List<ResourceSlice> slices, @Nullable List<ResourceSlice> want,
      @Nullable Set<String> wantPools) {
    if (want == null) {
      assertThatThrownBy(() -> TemplateNodes.sanitizedNodeResourceSlices(slices, NEW, SUFFIX))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("because it isn't node-local");
      return;
    }
    TemplateNodes.SanitizedSlices got = TemplateNodes.sanitizedNodeResourceSlices(slices, NEW, SUFFIX);
    for (int i = 0; i < got.slices().size(); i++) {
      assertThat(got.slices().get(i).metadata().uid()).isNotEqualTo(slices.get(i).metadata().uid());
    }
    assertThat(got.slices()).isEqualTo(want);
    assertThat(got.oldPoolNames()).isEqualTo(wantPools);
  }
}
