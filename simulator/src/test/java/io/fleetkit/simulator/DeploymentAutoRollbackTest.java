package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.apps.DeploymentCondition;
import io.fleetkit.api.apps.DeploymentSpec;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.reconcile.controllers.WorkloadLabels;
import io.fleetkit.reconcile.node.HealthSource;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The opt-in automatic undo of a Deployment whose progress deadline is exceeded. */
final class DeploymentAutoRollbackTest {

  private static Deployment deployment(boolean optIn) {
    Deployment d = SimFixtures.deployment("web", 4);
    DeploymentSpec s = d.spec();
    d = d.withSpec(new DeploymentSpec(s.replicas(), s.selector(), s.template(), s.strategy(), 0,
        s.revisionHistoryLimit(), 60, false));
    return optIn ? d.withMetadata(d.metadata().toBuilder()
        .annotation(WorkloadLabels.ROLLBACK_ON_PROGRESS_DEADLINE, "true").build()) : d;
  }

  private static void brokenUpdate(Simulation sim) {
    Deployment d = sim.store().require(Deployment.class, "default", "web");
    PodTemplateSpec t = d.spec().template();
    PodTemplateSpec broken = new PodTemplateSpec(t.metadata().toBuilder()
        .annotation(HealthSource.READY_AFTER, "never").build(), t.spec());
    DeploymentSpec s = d.spec();
    sim.store().update(d.withSpec(new DeploymentSpec(s.replicas(), s.selector(), broken, s.strategy(),
        s.minReadySeconds(), s.revisionHistoryLimit(), s.progressDeadlineSeconds(), s.paused())));
  }

  @Test
  void optedIn_deadlineExceeded_rolledBackToPreviousTemplate() {
    try (Simulation sim = Simulation.builder().objects(SimFixtures.nodes(2)).object(deployment(true)).seed(1)
        .build()) {
      sim.runFor(Duration.ofSeconds(5));
      brokenUpdate(sim);
      sim.runFor(Duration.ofSeconds(120));
      Deployment d = sim.store().require(Deployment.class, "default", "web");
      assertThat(d.spec().template().metadata().annotations()).doesNotContainKey(HealthSource.READY_AFTER);
      assertThat(SimFixtures.readyPods(sim, "web")).hasSize(4);
      assertThat(SimFixtures.readyPods(sim, "web")).allMatch(p -> !p.metadata().annotations()
          .containsKey(HealthSource.READY_AFTER));
    }
  }

  @Test
  void notOptedIn_deadlineExceeded_staysOnNewTemplate() {
    try (Simulation sim = Simulation.builder().objects(SimFixtures.nodes(2)).object(deployment(false)).seed(1)
        .build()) {
      sim.runFor(Duration.ofSeconds(5));
      brokenUpdate(sim);
      sim.runFor(Duration.ofSeconds(120));
      Deployment d = sim.store().require(Deployment.class, "default", "web");
      assertThat(d.spec().template().metadata().annotations()).containsEntry(HealthSource.READY_AFTER, "never");
      assertThat(d.status().condition(DeploymentCondition.PROGRESSING).reason())
          .isEqualTo(WorkloadLabels.REASON_PROGRESS_DEADLINE_EXCEEDED);
    }
  }
}
