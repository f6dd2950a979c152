package io.fleetkit.autoscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@link ScaleUpBalancing}, with the cases of kubernetes/autoscaler's
 * {@code cluster-autoscaler/processors/nodegroupset/balancing_processor_test.go} (commit
 * 6ef4e9b7c8ddf65e8be20f3341cb1649681e1ec3): TestFindSimilarNodeGroups, TestFindSimilarNodeGroupsCustomLabels,
 * TestBalanceSingleGroup, TestBalanceUnderMaxSize, TestBalanceHittingMaxSize (5 of 6 functions;
 * TestFindSimilarNodeGroupsCustomComparator is not ported: FleetKit has no pluggable comparator).
 */
final class ScaleUpBalancingTest {
  private static Node node(String name, long milliCpu, long mem, Map<String, String> extraLabels) {
    ResourceList c = ResourceList.builder().put("cpu", Quantity.ofMilli(milliCpu)).put("memory", Quantity.of(mem))
        .put("pods", Quantity.of(100)).build();
    Node.Builder b = Node.builder().name(name).label("kubernetes.io/hostname", name).capacity(c).allocatable(c);
    extraLabels.forEach(b::label);
    return b.build();
  }

  private static ScaleUpBalancing.Candidate candidate(String group, Node template, boolean... schedulable) {
    NodePool pool = NodePool.builder().name(group).capacity(template.status().capacity()).minSize(1).maxSize(10)
        .build();
    return new ScaleUpBalancing.Candidate(pool, template, ResourceList.EMPTY,
        schedulable.length == 0 ? new boolean[] {true} : schedulable);
  }

  /** Upstream's {@code basicSimilarNodeGroupsTest}: ng1 and ng2 alike, ng3 twice as large. */
  private static void basicSimilarNodeGroups(List<ScaleUpBalancing.Candidate> candidates, NodeGroupSimilarity cmp) {
    Map<String, List<String>> similar = ScaleUpBalancing.similarPools(candidates, cmp).entrySet().stream()
        .collect(Collectors.toMap(Map.Entry::getKey,
            e -> e.getValue().stream().map(p -> p.metadata().name()).toList()));
    assertThat(similar.get("ng1")).containsExactly("ng2");
    assertThat(similar.get("ng2")).containsExactly("ng1");
    assertThat(similar.get("ng3")).as("no similar pool: no entry").isNull();
  }

  @Test
  void findSimilarNodeGroups() {
    basicSimilarNodeGroups(List.of(candidate("ng1", node("n1", 1000, 1000, Map.of())),
        candidate("ng2", node("n2", 1000, 1000, Map.of())), candidate("ng3", node("n3", 2000, 2000, Map.of()))),
        NodeGroupSimilarity.ignoring(List.of()));
  }

  @Test
  void findSimilarNodeGroupsCustomLabels() {
    basicSimilarNodeGroups(List.of(candidate("ng1", node("n1", 1000, 1000, Map.of("example.com/ready", "true"))),
        candidate("ng2", node("n2", 1000, 1000, Map.of("example.com/ready", "false"))),
        candidate("ng3", node("n3", 2000, 2000, Map.of()))),
        NodeGroupSimilarity.ignoring(List.of("example.com/ready")));
  }

  @Test
  void similarPools_onlyPoolsThatTakeEveryPodGroupThePoolTakes() {
    // upstream's ComputeSimilarNodeGroups with matchingSchedulablePodGroups: ng2 takes only the first pod group
    ScaleUpBalancing.Candidate ng1 = candidate("ng1", node("n1", 1000, 1000, Map.of()), true, true);
    ScaleUpBalancing.Candidate ng2 = candidate("ng2", node("n2", 1000, 1000, Map.of()), true, false);
    ScaleUpBalancing.Candidate none = candidate("ng3", node("n3", 1000, 1000, Map.of()), false, false);
    Map<String, List<NodePool>> similar = ScaleUpBalancing.similarPools(List.of(ng1, ng2, none),
        NodeGroupSimilarity.ignoring(List.of()));
    assertThat(similar).doesNotContainKey("ng1").doesNotContainKey("ng3");
    assertThat(similar.get("ng2")).extracting(p -> p.metadata().name()).containsExactly("ng1");
  }

  /** A pod-group row of upstream's TestComputeSimilarNodeGroups: which of its pod groups p1, p2, p3 a pool takes. */
  private static boolean[] takes(int... groups) {
    boolean[] out = new boolean[3];
    for (int g : groups) {
      out[g - 1] = true;
    }
    return out;
  }

  /**
   * Upstream's TestComputeSimilarNodeGroups (kubernetes/autoscaler
   * {@code cluster-autoscaler/core/scaleup/orchestrator/orchestrator_test.go}, commit 0e20a385): the rows with
   * balancing on, ng1's similar pools. ng2 and ng3 are similar to ng1 and pg1 and pg2 are not (upstream's comparator
   * stub says so; here pg1 and pg2 have a label the others lack); a pool a row gives no pod groups takes none. The row
   * with balancing off is in {@code ScaleUpSchedulablePodGroupsTest}, where the planner reads that option.
   */
  @Test
  void computeSimilarNodeGroups() {
    record Row(String name, Map<String, boolean[]> takes, List<String> want) {}
    List<Row> rows = List.of(
        new Row("no similar node groups", Map.of(), List.of()),
        new Row("some similar node groups, but no schedulable pods", Map.of(), List.of()),
        new Row("some similar node groups and same schedulable pods", Map.of("ng1", takes(1), "ng2", takes(1),
            "ng3", takes(1), "pg1", takes(1), "pg2", takes(1)), List.of("ng2", "ng3")),
        new Row("similar node groups can schedule more pods", Map.of("ng1", takes(1), "ng2", takes(1, 2),
            "ng3", takes(1, 2, 3), "pg1", takes(1, 2), "pg2", takes(1, 2, 3)), List.of("ng2", "ng3")),
        new Row("similar node groups can schedule different/no pods", Map.of("ng1", takes(1, 2), "ng2", takes(1),
            "pg1", takes(1)), List.of()));
    for (Row row : rows) {
      // the first row has no similar pools at all: ng2 and ng3 are then as unlike ng1 as pg1 and pg2
      boolean similarExist = !row.name().equals("no similar node groups");
      List<ScaleUpBalancing.Candidate> candidates = new java.util.ArrayList<>();
      for (String ng : List.of("ng1", "ng2", "ng3", "pg1", "pg2")) {
        boolean alike = ng.equals("ng1") || (similarExist && ng.startsWith("ng"));
        Map<String, String> labels = alike ? Map.of() : Map.of("example.com/other", ng);
        candidates.add(candidate(ng, node(ng + "-node", 100, 1000, labels),
            row.takes().getOrDefault(ng, new boolean[3])));
      }
      Map<String, List<NodePool>> similar = ScaleUpBalancing.similarPools(candidates,
          NodeGroupSimilarity.ignoring(List.of()));
      assertThat(similar.getOrDefault("ng1", List.of())).as(row.name()).extracting(p -> p.metadata().name())
          .containsExactlyElementsOf(row.want());
    }
  }

  private static ScaleUpBalancing.Group g(String name, int max, int size) {
    return new ScaleUpBalancing.Group(name, size, max);
  }

  private static Map<String, Integer> newSizes(List<PoolScaleUp> ups) {
    return ups.stream().collect(Collectors.toMap(PoolScaleUp::pool, PoolScaleUp::newSize));
  }

  @Test
  void balanceSingleGroup() {
    List<ScaleUpBalancing.Group> groups = List.of(g("ng1", 10, 1));
    // just one node
    assertThat(ScaleUpBalancing.balance(groups, 1)).containsExactly(new PoolScaleUp("ng1", 1, 2, 10));
    // multiple nodes
    assertThat(ScaleUpBalancing.balance(groups, 4)).containsExactly(new PoolScaleUp("ng1", 1, 5, 10));
  }

  @Test
  void balanceUnderMaxSize() {
    List<ScaleUpBalancing.Group> groups = List.of(g("ng1", 10, 1), g("ng2", 10, 3), g("ng3", 10, 5), g("ng4", 10, 5));
    // add a single node
    assertThat(ScaleUpBalancing.balance(groups, 1)).containsExactly(new PoolScaleUp("ng1", 1, 2, 10));
    // add multiple nodes to single group
    assertThat(ScaleUpBalancing.balance(groups, 2)).containsExactly(new PoolScaleUp("ng1", 1, 3, 10));
    // add nodes to groups of different sizes, divisible
    assertThat(newSizes(ScaleUpBalancing.balance(groups, 4))).isEqualTo(Map.of("ng1", 4, "ng2", 4));
    // add nodes to groups of different sizes, non-divisible: 4 and 5, whichever gets which
    List<PoolScaleUp> five = ScaleUpBalancing.balance(groups, 5);
    assertThat(five).hasSize(2).extracting(PoolScaleUp::pool).containsExactlyInAnyOrder("ng1", "ng2");
    assertThat(five.get(0).newSize() + five.get(1).newSize()).isEqualTo(9);
    assertThat(five.get(0).newSize()).isIn(4, 5);
    // add nodes to all groups, divisible
    assertThat(newSizes(ScaleUpBalancing.balance(groups, 10)))
        .isEqualTo(Map.of("ng1", 6, "ng2", 6, "ng3", 6, "ng4", 6));
  }

  @Test
  void balanceHittingMaxSize() {
    ScaleUpBalancing.Group ng1 = g("ng1", 1, 1);
    ScaleUpBalancing.Group ng2 = g("ng2", 3, 1);
    ScaleUpBalancing.Group ng3 = g("ng3", 10, 3);
    ScaleUpBalancing.Group ng4 = g("ng4", 7, 5);
    ScaleUpBalancing.Group ng5 = g("ng5", 3, 6);
    // Just one maxed out group
    assertThat(ScaleUpBalancing.balance(List.of(ng1), 1)).isEmpty();
    // Smallest group already maxed out, add one node
    assertThat(ScaleUpBalancing.balance(List.of(ng1, ng2), 1)).containsExactly(new PoolScaleUp("ng2", 1, 2, 3));
    // Smallest group already maxed out, too many nodes (should cap to max capacity)
    assertThat(ScaleUpBalancing.balance(List.of(ng1, ng2), 5)).containsExactly(new PoolScaleUp("ng2", 1, 3, 3));
    // First group maxes out before proceeding to next one
    assertThat(newSizes(ScaleUpBalancing.balance(List.of(ng2, ng3), 4))).isEqualTo(Map.of("ng2", 3, "ng3", 5));
    // Last group maxes out before previous one
    assertThat(newSizes(ScaleUpBalancing.balance(List.of(ng2, ng3, ng4), 9)))
        .isEqualTo(Map.of("ng2", 3, "ng3", 8, "ng4", 7));
    // Use all capacity, cap to max
    assertThat(newSizes(ScaleUpBalancing.balance(List.of(ng2, ng3, ng4), 900)))
        .isEqualTo(Map.of("ng2", 3, "ng3", 10, "ng4", 7));
    // One node group exceeds max.
    assertThat(newSizes(ScaleUpBalancing.balance(List.of(ng2, ng5), 1))).isEqualTo(Map.of("ng2", 2));
  }

  @Test
  void balance_noGroups_isAnError() {
    assertThatThrownBy(() -> ScaleUpBalancing.balance(List.of(), 1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no pools given");
  }
}
