package io.fleetkit.reconcile.rollouts;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.rollouts.CanaryStep;
import io.fleetkit.api.rollouts.CanaryStrategy;
import io.fleetkit.api.rollouts.Rollout;
import io.fleetkit.api.rollouts.RolloutStatus;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.reconcile.controllers.internal.TemplateHash;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A canary rollout's step index where no step runs: the first template becomes stable at once with every step
 * counted done, and so does a return to the stable template. Cases of argo-rollouts {@code rollout/canary_test.go}
 * (commit 9f8d111d): TestCanaryRolloutCreateFirstReplicasetNoSteps, TestCanaryRolloutCreateFirstReplicasetWithSteps
 * (their expected status patches: {@code stableRS} and {@code currentPodHash} the new hash, {@code currentStepIndex}
 * absent without steps and 1 with one step) and TestRollBackToStable's step index (stepping mode, no ReplicaSet
 * controller: the status is what is looked at).
 */
final class RolloutFirstSyncTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = RolloutControllerClaimTest.store(clock);
  private final RolloutController rc = RolloutController.builder(store).clock(clock).stepping().build();

  RolloutFirstSyncTest() {
    rc.start().join();
  }

  @AfterEach
  void close() {
    rc.close();
    store.close();
  }

  private static Rollout canary(String image, CanaryStep... steps) {
    return Rollout.builder().namespace("default").name("foo").replicas(10).matchLabels(Map.of("app", "web"))
        .podSpec(PodSpec.builder().container("app", image, ResourceList.EMPTY).build())
        .canary(CanaryStrategy.of(steps)).build();
  }

  private RolloutStatus status() {
    return store.require(Rollout.class, "default", "foo").status();
  }

  @Test
  void firstTemplate_noSteps_stableAtOnceWithoutStepIndex() {
    Rollout r = store.create(canary("web:1"));
    rc.runUntilIdle();
    String hash = TemplateHash.compute(r.spec().template(), null);
    assertThat(status().stableRs()).isEqualTo(hash);
    assertThat(status().currentPodHash()).isEqualTo(hash);
    assertThat(status().currentStepIndex()).isNull();
  }

  @Test
  void firstTemplate_withSteps_stableAtOnceWithEveryStepDone() {
    Rollout r = store.create(canary("web:1", new CanaryStep.SetWeight(10)));
    rc.runUntilIdle();
    String hash = TemplateHash.compute(r.spec().template(), null);
    assertThat(status().stableRs()).isEqualTo(hash);
    assertThat(status().currentPodHash()).isEqualTo(hash);
    assertThat(status().currentStepIndex()).isEqualTo(1);
  }

  @Test
  void newTemplate_stepsFromZero_thenBackToStable_everyStepDone() {
    store.create(canary("web:1", new CanaryStep.SetWeight(10), CanaryStep.Pause.indefinite()));
    rc.runUntilIdle();
    String stable = status().stableRs();
    Rollout cur = store.require(Rollout.class, "default", "foo");
    store.update(cur.withSpec(canary("web:2", new CanaryStep.SetWeight(10), CanaryStep.Pause.indefinite()).spec()));
    rc.runUntilIdle();
    assertThat(status().stableRs()).isEqualTo(stable);
    assertThat(status().currentStepIndex()).as("steps from the first").isEqualTo(0);
    cur = store.require(Rollout.class, "default", "foo");
    store.update(cur.withSpec(canary("web:1", new CanaryStep.SetWeight(10), CanaryStep.Pause.indefinite()).spec()));
    rc.runUntilIdle();
    assertThat(status().currentPodHash()).isEqualTo(stable);
    assertThat(status().stableRs()).isEqualTo(stable);
    assertThat(status().currentStepIndex()).isEqualTo(2);
    assertThat(status().pauseConditions()).isEmpty();
  }
}
