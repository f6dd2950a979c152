package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * {@link RolloutSummary#stepProgress}: Argo's {@code Step} of {@code kubectl argo rollouts get rollout}
 * ({@code pkg/kubectl-argo-rollouts/info/rollout_info.go}: {@code "%d/%d"} of the current step index and the number
 * of steps, only for a canary with steps and a current index).
 */
final class RolloutSummaryTest {
  private static RolloutSummary at(Integer step, int steps) {
    return new RolloutSummary("default/web", "Paused", "abc", 20, false, step, steps, "");
  }

  @Test
  void stepProgress_indexOverStepCount() {
    assertThat(at(0, 3).stepProgress()).isEqualTo("0/3");
    assertThat(at(1, 4).stepProgress()).isEqualTo("1/4");
    assertThat(at(3, 3).stepProgress()).isEqualTo("3/3"); // every step done
  }

  @Test
  void stepProgress_noIndexOrNoSteps_none() {
    assertThat(at(null, 3).stepProgress()).isNull();
    assertThat(at(0, 0).stepProgress()).isNull(); // a canary without steps
    assertThat(new RolloutSummary("default/web", "Healthy", "abc", 0, false).stepProgress()).isNull();
  }
}
