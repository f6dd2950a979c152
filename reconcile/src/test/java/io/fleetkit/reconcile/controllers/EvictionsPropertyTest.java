package io.fleetkit.reconcile.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.policy.PodDisruptionBudget;
import io.fleetkit.api.policy.PodDisruptionBudgetSpec;
import io.fleetkit.api.policy.PodDisruptionBudgetStatus;
import io.fleetkit.api.policy.UnhealthyPodEvictionPolicyType;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.DeleteOptions;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.jspecify.annotations.Nullable;

/**
 * Invariants of the eviction subresource over any pod state and budget status, on a store nobody else writes: the
 * question ({@link Evictions#canEvict}) and the eviction agree; a refusal writes nothing; an allowed eviction leaves
 * the pod gone or Terminating with {@code DisruptionTarget=True} (EvictionByEvictionAPI) and takes at most one
 * disruption from the budget, which is never left negative.
 */
final class EvictionsPropertyTest {
  private static final Map<String, String> APP = Map.of("app", "web");
  private static final PodSpec SPEC = PodSpec.builder().container("c", "img", ResourceList.EMPTY).build();

  @Property(tries = 300)
  void canEvictAndEvict_agree_refusalWritesNothing_allowedMarksAndTakesAtMostOne(
      @ForAll PodPhase phase, @ForAll boolean ready, @ForAll boolean terminating, @ForAll boolean bound,
      @ForAll @IntRange(min = 0, max = 2) int budgets, @ForAll @IntRange(min = 0, max = 2) int policy,
      @ForAll @IntRange(min = 0, max = 2) int allowed, @ForAll @IntRange(min = 0, max = 3) int currentHealthy,
      @ForAll @IntRange(min = 0, max = 3) int desiredHealthy, @ForAll boolean observed) {
    ManualClock clock = ManualClock.atEpoch2026();
    try (ObjectStore store = Sim.store(clock)) {
      for (int i = 0; i < budgets; i++) {
        PodDisruptionBudget pdb = store.create(PodDisruptionBudget.of(ObjectMeta.of("default", "pdb-" + i),
            PodDisruptionBudgetSpec.maxUnavailable(LabelSelector.of(APP), IntOrPercent.ONE)
                .withUnhealthyPodEvictionPolicy(policy(policy))));
        store.updateStatus(pdb.withStatus(new PodDisruptionBudgetStatus(
            observed ? pdb.metadata().generation() : 0, Map.of(), allowed, currentHealthy, desiredHealthy, 3,
            List.of())));
      }
      Pod pod = store.create(Pod.builder().namespace("default").name("web-0").labels(APP).spec(SPEC).build());
      if (bound) {
        pod = store.updateWithStatus(pod.withNodeName("n1"));
      }
      pod = store.updateStatus(pod.withStatus(pod.status().withPhase(phase).withConditionUpdated(PodCondition.of(
          PodCondition.READY, ConditionStatus.of(ready), "", "", clock.now()))));
      if (terminating && bound && !phase.isTerminal()) {
        pod = store.delete(Pod.class, "default", "web-0", DeleteOptions.gracePeriod(30));
      }

      boolean may = Evictions.canEvict(store, pod).allowed();
      String before = store.resourceVersion();
      EvictionDecision d = Evictions.evict(store, pod, clock.now());

      assertThat(d.allowed()).as("evict agrees with canEvict: " + d.reason()).isEqualTo(may);
      List<PodDisruptionBudget> after = store.list(PodDisruptionBudget.class, "default").items();
      if (!d.allowed()) {
        assertThat(store.resourceVersion()).as("a refusal writes nothing").isEqualTo(before);
        return;
      }
      store.get(Pod.class, "default", "web-0").ifPresent(left -> {
        assertThat(left.metadata().deletionTimestamp()).as("terminating").isNotNull();
        PodCondition dt = left.status().condition(PodCondition.DISRUPTION_TARGET);
        assertThat(dt).isNotNull();
        assertThat(dt.status()).isEqualTo(ConditionStatus.True);
        assertThat(dt.reason()).isEqualTo(Evictions.REASON);
      });
      for (PodDisruptionBudget b : after) {
        assertThat(b.status().disruptionsAllowed()).isBetween(Math.max(0, allowed - 1), allowed);
        assertThat(b.status().disruptedPods().isEmpty()).isEqualTo(b.status().disruptionsAllowed() == allowed);
      }
    }
  }

  private static @Nullable UnhealthyPodEvictionPolicyType policy(int i) {
    return switch (i) {
      case 1 -> UnhealthyPodEvictionPolicyType.IfHealthyBudget;
      case 2 -> UnhealthyPodEvictionPolicyType.AlwaysAllow;
      default -> null;
    };
  }
}
