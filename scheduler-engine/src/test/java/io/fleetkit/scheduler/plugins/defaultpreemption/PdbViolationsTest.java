package io.fleetkit.scheduler.plugins.defaultpreemption;

import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.pdb;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.policy.PodDisruptionBudget;
import io.fleetkit.api.policy.PodDisruptionBudgetSpec;
import io.fleetkit.api.policy.PodDisruptionBudgetStatus;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Upstream {@code filterPodsWithPDBViolation} rules not covered by the ported tables. */
final class PdbViolationsTest {
  private static PodInfo labelled(String name, String namespace) {
    var p = pod(name).label("app", "foo").obj();
    return PodInfos.of(p.withMetadata(p.metadata().toBuilder().namespace(namespace).build()));
  }

  private static List<String> violating(List<PodDisruptionBudget> pdbs, List<PodInfo> pods) {
    return PdbViolations.of(pdbs).split(pods).violating().stream().map(PodInfo::key).toList();
  }

  @Test
  void split_budgetExhausted_laterPodsViolateInOrder() {
    List<PodInfo> pods = List.of(labelled("a", "default"), labelled("b", "default"), labelled("c", "default"));
    PdbViolations.Split s = PdbViolations.of(List.of(pdb("x", "app", "foo", 1, Map.of()))).split(pods);
    assertThat(s.violating()).extracting(PodInfo::key).containsExactly("default/b", "default/c");
    assertThat(s.nonViolating()).extracting(PodInfo::key).containsExactly("default/a");
  }

  @Test
  void split_otherNamespace_doesNotCount() {
    assertThat(violating(List.of(pdb("x", "app", "foo", 0, Map.of())), List.of(labelled("a", "other")))).isEmpty();
  }

  @Test
  void split_podWithoutLabels_matchesNoBudget() {
    PodInfo bare = PodInfos.of(pod("a").obj());
    assertThat(violating(List.of(pdb("x", "app", "foo", 0, Map.of())), List.of(bare))).isEmpty();
  }

  @Test
  void split_emptyOrNullSelector_matchesNothing() {
    PodDisruptionBudget empty = new PodDisruptionBudget(ObjectMeta.of("default", "empty"),
        PodDisruptionBudgetSpec.minAvailable(LabelSelector.EVERYTHING, IntOrPercent.of(1)),
        new PodDisruptionBudgetStatus(0, Map.of(), 0, 0, 0, 0, List.of()));
    PodDisruptionBudget none = new PodDisruptionBudget(ObjectMeta.of("default", "none"),
        new PodDisruptionBudgetSpec(IntOrPercent.of(1), null, null, null),
        new PodDisruptionBudgetStatus(0, Map.of(), 0, 0, 0, 0, List.of()));
    assertThat(violating(List.of(empty, none), List.of(labelled("a", "default")))).isEmpty();
  }

  @Test
  void split_twoBudgets_anyExhaustedOneViolates() {
    PodInfo a = labelled("a", "default");
    assertThat(violating(List.of(pdb("loose", "app", "foo", 5, Map.of()), pdb("tight", "app", "foo", 0, Map.of())),
        List.of(a))).containsExactly("default/a");
  }
}
