package io.fleetkit.reconcile.controllers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import org.junit.jupiter.api.Test;

/** The settings the five workload controllers share through {@link WorkloadControllerBuilder}. */
final class WorkloadControllerBuilderTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = Sim.store(clock);

  @Test
  void build_noName_namesEachControllerAfterItsKind() {
    try (JobController job = JobController.builder(store).stepping().build();
        StatefulSetController sts = StatefulSetController.builder(store).stepping().build();
        DeploymentController dep = DeploymentController.builder(store).stepping().build();
        ReplicaSetController rs = ReplicaSetController.builder(store).stepping().build();
        DisruptionController pdb = DisruptionController.builder(store).stepping().build()) {
      assertThat(job.controller().name()).isEqualTo("job");
      assertThat(sts.controller().name()).isEqualTo("statefulset");
      assertThat(dep.controller().name()).isEqualTo("deployment");
      assertThat(rs.controller().name()).isEqualTo("replicaset");
      assertThat(pdb.controller().name()).isEqualTo("disruption");
    }
  }

  @Test
  void build_name_namesTheRuntimeController() {
    try (JobController job = JobController.builder(store).name("batch-jobs").seed(7).stepping().build()) {
      assertThat(job.controller().name()).isEqualTo("batch-jobs");
    }
  }

  @Test
  void clock_setTwice_failsNamingControllerAndOldClock() {
    DeploymentController.Builder b = DeploymentController.builder(store).clock(clock);
    assertThatThrownBy(() -> b.clock(ManualClock.atEpoch2026())).isInstanceOf(IllegalStateException.class)
        .hasMessage("DeploymentController: clock was already set to " + clock);
  }

  @Test
  void workers_belowOne_failsNamingController() {
    assertThatThrownBy(() -> StatefulSetController.builder(store).workers(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("StatefulSetController: workers must be at least 1 but was 0");
  }

  @Test
  void build_steppingAfterWorkers_steppingWins() {
    try (ReplicaSetController rs = ReplicaSetController.builder(store).clock(clock).workers(3).stepping()
        .burstReplicas(10).build()) {
      rs.start().join();
      assertThat(rs.runUntilIdle()).isZero();
    }
  }

  @Test
  void runUntilIdle_threadedMode_fails() {
    try (DisruptionController pdb = DisruptionController.builder(store).clock(clock).workers(2).build()) {
      assertThatThrownBy(pdb::runUntilIdle).isInstanceOf(IllegalStateException.class);
    }
  }
}
