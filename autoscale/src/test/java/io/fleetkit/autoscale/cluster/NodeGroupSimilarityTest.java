package io.fleetkit.autoscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link NodeGroupSimilarity}, with the checks of kubernetes/autoscaler's
 * {@code cluster-autoscaler/processors/nodegroupset/compare_nodegroups_test.go} (commit
 * d58ba1b17bf5073c178acd8fd653eed89af640be): all 22 checks of its 7 functions; and the cases of
 * {@code processors/nodegroupset/label_nodegroups_test.go} (commit 378839bbef58a716401233aa1ce498deeb59f827,
 * TestNodeLabelComparison, 8 of 8) for {@code --balancing-label}.
 */
final class NodeGroupSimilarityTest {
  private static final NodeGroupSimilarity GENERIC = NodeGroupSimilarity.ignoring(List.of());
  private static final ResourceList NONE = ResourceList.EMPTY;

  /** Upstream's {@code BuildTestNode}: capacity cpu, memory and 100 pods, allocatable the same, a hostname label. */
  private static Node node(String name, long milliCpu, long mem) {
    ResourceList c = ResourceList.builder().put("cpu", Quantity.ofMilli(milliCpu)).put("memory", Quantity.of(mem))
        .put("pods", Quantity.of(100)).build();
    return Node.builder().name(name).label("kubernetes.io/hostname", name).capacity(c).allocatable(c).build();
  }

  private static Node withCapacity(Node n, String resource, Quantity q) {
    Map<String, Quantity> c = new HashMap<>(n.status().capacity().asMap());
    c.put(resource, q);
    return n.toBuilder().capacity(ResourceList.of(c)).build();
  }

  private static Node withAllocatable(Node n, String resource, Quantity q) {
    Map<String, Quantity> a = new HashMap<>(n.allocatable().asMap());
    a.put(resource, q);
    return n.toBuilder().allocatable(ResourceList.of(a)).build();
  }

  private static Node withLabels(Node n, Map<String, String> labels) {
    return n.toBuilder().labels(labels).build();
  }

  /** Upstream's {@code BuildTestPod} requests, as the node's pods request them. */
  private static ResourceList pod(long milliCpu, long mem) {
    return ResourceList.ofCpuMemory(milliCpu, mem);
  }

  private static long ki(long v) {
    return v * 1024;
  }

  @Test
  void identicalNodesSimilar() {
    assertThat(GENERIC.similar(node("node1", 1000, 2000), NONE, node("node2", 1000, 2000), NONE)).isTrue();
  }

  @Test
  void nodesSimilarVariousRequirements() {
    Node n1 = node("node1", 1000, 2000);
    // Different CPU capacity
    Node n2 = withCapacity(node("node2", 1000, 2000), "cpu", Quantity.ofMilli(1001));
    assertThat(GENERIC.similar(n1, NONE, n2, NONE)).isFalse();
    // Same CPU capacity, but slightly different allocatable
    Node n3 = withAllocatable(node("node3", 1000, 2000), "cpu", Quantity.ofMilli(999));
    assertThat(GENERIC.similar(n1, NONE, n3, NONE)).isTrue();
    // Same CPU capacity, significantly different allocatable
    Node n4 = withAllocatable(node("node4", 1000, 2000), "cpu", Quantity.ofMilli(500));
    assertThat(GENERIC.similar(n1, NONE, n4, NONE)).isFalse();
    // One with GPU, one without
    Node n5 = withAllocatable(withCapacity(node("node5", 1000, 2000), "nvidia.com/gpu", Quantity.of(1)),
        "nvidia.com/gpu", Quantity.of(1));
    assertThat(GENERIC.similar(n1, NONE, n5, NONE)).isFalse();
  }

  @Test
  void nodesSimilarVariousRequirementsAndPods() {
    Node n1 = node("node1", 1000, 2000);
    ResourceList p1 = pod(500, 1000);
    // Different allocatable, but same free
    Node n2 = withAllocatable(withAllocatable(node("node2", 1000, 2000), "cpu", Quantity.ofMilli(500)), "memory",
        Quantity.of(1000));
    assertThat(GENERIC.similar(n1, p1, n2, NONE)).isFalse();
    // Same requests of pods
    Node n3 = node("node3", 1000, 2000);
    assertThat(GENERIC.similar(n1, p1, n3, pod(500, 1000))).isTrue();
    // Similar allocatable, similar pods
    Node n4 = withAllocatable(node("node4", 1000, 2000), "cpu", Quantity.ofMilli(999));
    assertThat(GENERIC.similar(n1, p1, n4, pod(501, 1001))).isTrue();
  }

  @Test
  void nodesSimilarVariousMemoryRequirements() {
    Node n1 = node("node1", 1000, 1000);
    // Different memory capacity within tolerance
    long within = (long) (1000 - (1000 * NodeGroupSimilarity.MAX_CAPACITY_MEMORY_DIFFERENCE_RATIO) + 1);
    Node n2 = withCapacity(node("node2", 1000, 1000), "memory", Quantity.of(within));
    assertThat(GENERIC.similar(n1, NONE, n2, NONE)).isTrue();
    // Different memory capacity exceeds tolerance
    long beyond = (long) (1000 - (1000 * NodeGroupSimilarity.MAX_CAPACITY_MEMORY_DIFFERENCE_RATIO) - 1);
    Node n3 = withCapacity(node("node3", 1000, 1000), "memory", Quantity.of(beyond));
    assertThat(GENERIC.similar(n1, NONE, n3, NONE)).isFalse();
  }

  @Test
  void nodesSimilarVariousLargeMemoryRequirementsM5XLarge() {
    // realistic capacities of m5.xlarge nodes in two zones, then the first times 1.02
    Node n1 = node("node1", 1000, ki(16116152));
    assertThat(GENERIC.similar(n1, NONE, node("node2", 1000, ki(15944120)), NONE)).isTrue();
    assertThat(GENERIC.similar(n1, NONE, node("node3", 1000, ki(16438475)), NONE)).isFalse();
  }

  @Test
  void nodesSimilarVariousLargeMemoryRequirementsM516XLarge() {
    // m5.16xlarge
    Node n1 = node("node1", 1000, ki(259970052));
    assertThat(GENERIC.similar(n1, NONE, node("node2", 1000, ki(257217528)), NONE)).isTrue();
    assertThat(GENERIC.similar(n1, NONE, node("node3", 1000, ki(265169453)), NONE)).isFalse();
  }

  @Test
  void nodesSimilarVariousLabels() {
    NodeGroupSimilarity comparator = NodeGroupSimilarity.ignoring(List.of("example.com/ready"));
    // upstream's value "winnie-the-pooh" is no valid label value (FleetKit's nodes validate): dashes for spaces
    Map<String, String> l1 = new HashMap<>(Map.of("kubernetes.io/hostname", "node1", "test-label", "test-value",
        "character", "winnie-the-pooh"));
    Map<String, String> l2 = new HashMap<>(Map.of("kubernetes.io/hostname", "node2", "test-label", "test-value"));
    Node base1 = node("node1", 1000, 2000);
    Node base2 = node("node2", 1000, 2000);
    // Missing character label
    assertThat(comparator.similar(withLabels(base1, l1), NONE, withLabels(base2, l2), NONE)).isFalse();
    l2.put("character", "winnie-the-pooh");
    assertThat(comparator.similar(withLabels(base1, l1), NONE, withLabels(base2, l2), NONE)).isTrue();
    // Different hostname labels shouldn't matter
    l1.put("kubernetes.io/hostname", "node1");
    l2.put("kubernetes.io/hostname", "node2");
    assertThat(comparator.similar(withLabels(base1, l1), NONE, withLabels(base2, l2), NONE)).isTrue();
    // Different zone shouldn't matter either
    l1.put("failure-domain.beta.kubernetes.io/zone", "mars-olympus-mons1-b");
    l2.put("failure-domain.beta.kubernetes.io/zone", "us-houston1-a");
    assertThat(comparator.similar(withLabels(base1, l1), NONE, withLabels(base2, l2), NONE)).isTrue();
    // Different beta.kubernetes.io/fluentd-ds-ready should not matter
    l1.put("beta.kubernetes.io/fluentd-ds-ready", "true");
    l2.put("beta.kubernetes.io/fluentd-ds-ready", "false");
    assertThat(comparator.similar(withLabels(base1, l1), NONE, withLabels(base2, l2), NONE)).isTrue();
    l2.remove("beta.kubernetes.io/fluentd-ds-ready");
    assertThat(comparator.similar(withLabels(base1, l1), NONE, withLabels(base2, l2), NONE)).isTrue();
    // Different custom labels should not matter
    l1.put("example.com/ready", "true");
    l2.put("example.com/ready", "false");
    assertThat(comparator.similar(withLabels(base1, l1), NONE, withLabels(base2, l2), NONE)).isTrue();
    // ... unless not ignored (FleetKit's check: the generic comparator does not ignore it)
    assertThat(GENERIC.similar(withLabels(base1, l1), NONE, withLabels(base2, l2), NONE)).isFalse();
  }

  @Test
  void poolLabel_ignored() {
    Node a = node("a", 1000, 2000).toBuilder().label("fleetkit.io/node-pool", "a").build();
    Node b = node("b", 1000, 2000).toBuilder().label("fleetkit.io/node-pool", "b").build();
    assertThat(GENERIC.similar(a, NONE, b, NONE)).isTrue();
  }

  // ---- label_nodegroups_test.go TestNodeLabelComparison ----

  static Stream<Arguments> nodeLabelComparison() {
    String it = "node.kubernetes.io/instance-type";
    String arch = "kubernetes.io/arch";
    return Stream.of(
        Arguments.of("both labels match",
            Map.of(it, "m5.4xlarge", arch, "amd64"), Map.of(it, "m5.4xlarge", arch, "amd64"), true),
        Arguments.of("one label doesn't match",
            Map.of(it, "m5.4xlarge", arch, "amd64"), Map.of(it, "m5.4xlarge", arch, "i386"), false),
        Arguments.of("unspecified labels are not considered",
            Map.of(it, "m5.4xlarge", arch, "amd64", "unspecified-label", "eu-west1"),
            Map.of(it, "m5.4xlarge", arch, "amd64", "unspecified-label", "eu-west2"), true),
        Arguments.of("no labels are set", Map.of(), Map.of(), false),
        Arguments.of("single label matches, label is unset on second group",
            Map.of(it, "m5.4xlarge", arch, "amd64"), Map.of(arch, "amd64"), false),
        Arguments.of("single label matches, label is unset on first group",
            Map.of(arch, "amd64"), Map.of(it, "m5.4xlarge", arch, "amd64"), false),
        Arguments.of("labels are explicitly set to be empty",
            Map.of(it, "", arch, ""), Map.of(it, "", arch, ""), true),
        Arguments.of("one labels is explicitly set to be empty",
            Map.of(it, "", arch, "amd64"), Map.of(it, "", arch, "amd64"), true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void nodeLabelComparison(String description, Map<String, String> labels1, Map<String, String> labels2,
      boolean similar) {
    NodeGroupSimilarity comparator = NodeGroupSimilarity.byLabels(
        List.of("node.kubernetes.io/instance-type", "kubernetes.io/arch"));
    Node n1 = withLabels(node("node1", 1000, 2000), labels1);
    Node n2 = withLabels(node("node2", 1000, 2000), labels2);
    assertThat(comparator.similar(n1, NONE, n2, NONE)).isEqualTo(similar);
  }

  @Test
  void byLabels_resourcesNotCompared_ratiosFromTheOptions() {
    Node small = withLabels(node("a", 1000, 2000), Map.of("tier", "x"));
    Node large = withLabels(node("b", 8000, 16000), Map.of("tier", "x"));
    assertThat(GENERIC.similar(small, NONE, large, NONE)).isFalse();
    AutoscalerOptions o = AutoscalerOptions.defaults().withBalancingLabels(List.of("tier"));
    assertThat(NodeGroupSimilarity.of(o).similar(small, NONE, large, NONE)).isTrue();
    // allocatable cpu half of the other: beyond 5 %, within a ratio of 0.5
    Node n1 = node("node1", 1000, 2000);
    Node half = withAllocatable(node("node4", 1000, 2000), "cpu", Quantity.ofMilli(500));
    assertThat(NodeGroupSimilarity.of(AutoscalerOptions.defaults()).similar(n1, NONE, half, NONE)).isFalse();
    assertThat(NodeGroupSimilarity.of(AutoscalerOptions.defaults().withDifferenceRatios(0.5, 0.5, 0.015))
        .similar(n1, NONE, half, NONE)).isTrue();
    assertThatThrownBy(
        () -> AutoscalerOptions.defaults().withDifferenceRatios(0.05, 1.5, 0.015))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("autoscaler options: maxFreeDifferenceRatio 1.5 must be between 0 and 1");
  }
}
