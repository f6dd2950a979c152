package io.fleetkit.autoscale.cluster;

import static io.fleetkit.autoscale.cluster.CaFixtures.MI;
import static io.fleetkit.autoscale.cluster.CaFixtures.pool;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.ResourceList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class ExpandersTest {
  private static Pod pod(long milliCpu, long memBytes) {
    return Pod.builder().name("p").container("c", "i", ResourceList.ofCpuMemory(milliCpu, memBytes)).build();
  }

  private static ScaleUpOption option(String pool, int nodes, int pods) {
    Pod p = pod(100, MI);
    return new ScaleUpOption(pool(pool, 1000, 1000, 0, 10), nodes, java.util.Collections.nCopies(pods, p));
  }

  // Ported from kubernetes/autoscaler cluster-autoscaler/expander/waste/waste_test.go, TestLeastWaste (4 asserts).
  @Test
  void leastWaste_upstreamTestLeastWaste_picksTheOptionWastingLeast() {
    long cpuPerPod = 500;
    long memPerPod = 1000 * MI;
    Expander e = Expanders.leastWaste();
    NodePool balanced = nodePool("balanced", 16 * cpuPerPod, 16 * memPerPod);
    ScaleUpOption balancedNoPods = new ScaleUpOption(balanced, 1, List.of());
    assertThat(e.bestOptions(List.of(balancedNoPods))).containsExactly(balancedNoPods);

    Pod pod = pod(cpuPerPod, memPerPod);
    ScaleUpOption balancedOpt = new ScaleUpOption(balanced, 1, List.of(pod));
    assertThat(e.bestOptions(List.of(balancedOpt))).containsExactly(balancedOpt);

    ScaleUpOption highmem = new ScaleUpOption(nodePool("highmem", 16 * cpuPerPod, 32 * memPerPod), 1, List.of(pod));
    assertThat(e.bestOptions(List.of(balancedOpt, highmem))).containsExactly(balancedOpt);

    ScaleUpOption lowcpu = new ScaleUpOption(nodePool("lowcpu", 8 * cpuPerPod, 16 * memPerPod), 1, List.of(pod));
    assertThat(e.bestOptions(List.of(balancedOpt, highmem, lowcpu))).containsExactly(lowcpu);
  }

  private static NodePool nodePool(String name, long milliCpu, long memBytes) {
    return NodePool.builder().name(name).capacity(CaFixtures.resources(milliCpu, memBytes, 100)).maxSize(2).minSize(1)
        .build();
  }

  @Test
  void wastedScore_handComputed_matchesFormula() {
    // 2 nodes of 4000m/8Gi, pods 3000m/4Gi in total: (8000-3000)/8000 + (16-4)/16 = 0.625 + 0.75
    NodePool p = pool("a", 4000, 8 * 1024, 0, 5);
    ScaleUpOption o = new ScaleUpOption(p, 2, List.of(pod(1000, 1024 * MI), pod(2000, 3072 * MI)));
    assertThat(Expanders.wastedScore(o)).isEqualTo(1.375);
  }

  // Ported from kubernetes/autoscaler cluster-autoscaler/expander/mostpods/mostpods_test.go, TestMostPods (3 asserts).
  @Test
  void mostPods_upstreamTestMostPods_keepsTheOptionsWithMostPods() {
    Expander e = Expanders.mostPods();
    ScaleUpOption eo0 = option("eo0", 1, 0);
    assertThat(e.bestOptions(List.of(eo0))).containsExactly(eo0);
    ScaleUpOption eo1 = option("eo1", 1, 1);
    assertThat(e.bestOptions(List.of(eo0, eo1))).containsExactly(eo1);
    ScaleUpOption eo1b = option("eo1b", 1, 1);
    assertThat(e.bestOptions(List.of(eo0, eo1, eo1b))).containsExactly(eo1, eo1b);
  }

  private static final Map<Integer, List<String>> CONFIG = Map.of(
      5, List.of(".*t2\\.micro.*"),
      10, List.of(".*t2\\.large.*", ".*t3\\.large.*"),
      50, List.of(".*m4\\.4xlarge.*"));

  // Ported from kubernetes/autoscaler cluster-autoscaler/expander/priority/priority_test.go (6 cases).
  @Test
  void priority_upstreamCases_keepTheHighestPriorityMatches() {
    ScaleUpOption t2Micro = option("my-asg.t2.micro", 1, 1);
    ScaleUpOption t2Large = option("my-asg.t2.large", 1, 1);
    ScaleUpOption t3Large = option("my-asg.t3.large", 1, 1);
    ScaleUpOption m4 = option("my-asg.m4.4xlarge", 1, 1);
    Expander e = Expanders.priority(CONFIG);
    // TestPriorityExpanderCorrecltyFiltersSingleMatchingOptionOutOfOne
    assertThat(e.bestOptions(List.of(t2Large))).containsExactly(t2Large);
    // TestPriorityExpanderCorrecltyFiltersSingleMatchingOptionOutOfMany
    assertThat(e.bestOptions(List.of(t2Large, m4))).containsExactly(m4);
    // TestPriorityExpanderFiltersToHigherPriorityMatch (wildcardMatchConfig)
    Expander wildcard = Expanders.priority(Map.of(5, List.of(".*"), 10, List.of(".t2\\.large.*")));
    assertThat(wildcard.bestOptions(List.of(t2Large, t2Micro))).containsExactly(t2Large);
    // TestPriorityExpanderCorrecltyFiltersTwoMatchingOptionsOutOfMany
    assertThat(e.bestOptions(List.of(t2Large, t3Large, t2Micro))).containsExactly(t2Large, t3Large);
    // TestPriorityExpanderCorrecltyFallsBackToAllWhenNoMatches
    assertThat(e.bestOptions(List.of(t2Large, t3Large))).containsExactly(t2Large, t3Large);
    // TestPriorityExpanderCorrecltyHandlesConfigUpdate (first configuration: oneEntryConfig)
    Expander oneEntry = Expanders.priority(Map.of(10, List.of(".*t2\\.large.*")));
    assertThat(oneEntry.bestOptions(List.of(t2Large, t3Large, m4))).containsExactly(t2Large);
  }

  @Test
  void priority_noOptionMatches_keepsAll() {
    ScaleUpOption a = option("a", 1, 1);
    ScaleUpOption b = option("b", 1, 1);
    Expander notMatching = Expanders.priority(Map.of(5, List.of(".*t\\.micro.*"), 10, List.of(".*t\\.large.*")));
    assertThat(notMatching.bestOptions(List.of(a, b))).containsExactly(a, b);
  }

  @Test
  void price_cheapestPerPod_wins() {
    ScaleUpOption cheapPerPod = new ScaleUpOption(pool("big", 8000, 8192, 0, 5, 4.0), 1,
        java.util.Collections.nCopies(8, pod(100, MI)));
    ScaleUpOption dearPerPod = new ScaleUpOption(pool("small", 2000, 2048, 0, 5, 1.0), 1,
        java.util.Collections.nCopies(1, pod(100, MI)));
    // 4.0/8 = 0.5 per pod beats 1.0/1
    assertThat(Expanders.price().bestOptions(List.of(dearPerPod, cheapPerPod))).containsExactly(cheapPerPod);
  }

  @Test
  void leastNodes_andChain_narrowInOrder() {
    ScaleUpOption a = option("a", 2, 3);
    ScaleUpOption b = option("b", 1, 3);
    ScaleUpOption c = option("c", 1, 2);
    assertThat(Expanders.leastNodes().bestOptions(List.of(a, b, c))).containsExactly(b, c);
    assertThat(Expanders.chain(Expanders.mostPods(), Expanders.leastNodes()).bestOptions(List.of(a, b, c)))
        .containsExactly(b);
    assertThat(Expanders.named("most-pods,least-nodes").bestOptions(List.of(a, b, c))).containsExactly(b);
    assertThat(Expanders.random().bestOptions(List.of(a, b, c))).containsExactly(a, b, c);
  }

  @Test
  void named_unknown_isRejectedWithTheName() {
    assertThatThrownBy(() -> Expanders.named("least-waste,grpc")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"grpc\"");
  }
}
