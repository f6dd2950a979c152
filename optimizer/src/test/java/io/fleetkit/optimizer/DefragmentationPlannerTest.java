package io.fleetkit.optimizer;

import static io.fleetkit.optimizer.Fixtures.node;
import static io.fleetkit.optimizer.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

final class DefragmentationPlannerTest {
  private static DefragmentationPlanner planner(int budget) {
    return DefragmentationPlanner.builder().moveBudget(budget).seed(3).stepLimit(500)
        .timeLimit(Duration.ofSeconds(20)).build();
  }

  @Test
  void plan_twoHalfUsedNodes_movesOnePodToFreeAWholeNode() {
    List<Node> nodes = List.of(node("n1", 16000, 64, 4), node("n2", 16000, 64, 4));
    List<Pod> running = List.of(pod("a", 1000, 1, 2, 0).nodeName("n1").build(),
        pod("b", 1000, 1, 2, 0).nodeName("n2").build());
    DefragmentationPlan plan = planner(5).plan(nodes, running);
    assertThat(plan.moves()).hasSize(1);
    assertThat(plan.emptiedNodes()).hasSize(1);
    assertThat(plan.freeWholeGpusAfter()).isEqualTo(plan.freeWholeGpusBefore());
  }

  @Test
  void plan_scatteredSharesBesideGangs_consolidatesThemToFreeAWholeGpu() {
    // Both nodes keep a pinned gang member (1 of 2 GPUs); a 300-milli share on each node's other device. Moving one
    // share next to the other frees a whole GPU (nodes cannot be freed: the gang pins them).
    List<Node> nodes = List.of(node("n1", 16000, 64, 2), node("n2", 16000, 64, 2));
    List<Pod> running = List.of(pod("g-0", 1000, 1, 1, 0).podGroup("g").nodeName("n1").build(),
        pod("g-1", 1000, 1, 1, 0).podGroup("g").nodeName("n2").build(),
        pod("s1", 100, 1, 0, 300).nodeName("n1").build(), pod("s2", 100, 1, 0, 300).nodeName("n2").build());
    DefragmentationPlan plan = planner(3).plan(nodes, running);
    assertThat(plan.moves()).hasSize(1);
    assertThat(plan.freeWholeGpusBefore()).isZero();
    assertThat(plan.freeWholeGpusAfter()).isEqualTo(1);
    assertThat(plan.emptiedNodes()).isEmpty();
  }

  @Test
  void plan_zeroBudget_movesNothing() {
    List<Node> nodes = List.of(node("n1", 16000, 64, 4), node("n2", 16000, 64, 4));
    List<Pod> running = List.of(pod("a", 1000, 1, 2, 0).nodeName("n1").build(),
        pod("b", 1000, 1, 2, 0).nodeName("n2").build());
    DefragmentationPlan plan = planner(0).plan(nodes, running);
    assertThat(plan.moves()).isEmpty();
    assertThat(plan.emptiedNodes()).isEmpty();
  }

  @Test
  void plan_budgetOfTwo_neverExceedsIt() {
    List<Node> nodes = List.of(node("n1", 16000, 64, 8), node("n2", 16000, 64, 8), node("n3", 16000, 64, 8),
        node("n4", 16000, 64, 8));
    List<Pod> running = List.of(pod("a", 500, 1, 1, 0).nodeName("n1").build(),
        pod("b", 500, 1, 1, 0).nodeName("n2").build(), pod("c", 500, 1, 1, 0).nodeName("n3").build(),
        pod("d", 500, 1, 1, 0).nodeName("n4").build());
    DefragmentationPlan plan = planner(2).plan(nodes, running);
    assertThat(plan.moves()).hasSize(2);
    assertThat(plan.emptiedNodes()).hasSize(2);
  }

  @Test
  void plan_gangMembers_stayPutWhileOthersMove() {
    List<Node> nodes = List.of(node("n1", 16000, 64, 4), node("n2", 16000, 64, 4), node("n3", 16000, 64, 4));
    List<Pod> running = List.of(pod("g-0", 1000, 1, 1, 0).podGroup("g").nodeName("n1").build(),
        pod("g-1", 1000, 1, 1, 0).podGroup("g").nodeName("n2").build(),
        pod("solo", 1000, 1, 1, 0).nodeName("n3").build());
    DefragmentationPlan plan = planner(5).plan(nodes, running);
    assertThat(plan.moves()).extracting(PodMove::pod).containsExactly("default/solo");
    assertThat(plan.emptiedNodes()).containsExactly("n3");
  }

  @Test
  void builder_negativeBudget_isRejected() {
    assertThatThrownBy(() -> DefragmentationPlanner.builder().moveBudget(-1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("moveBudget must not be negative, got -1");
  }
}
