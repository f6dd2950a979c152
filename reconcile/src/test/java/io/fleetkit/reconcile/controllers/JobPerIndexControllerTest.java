package io.fleetkit.reconcile.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.batch.CompletionMode;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobCondition;
import io.fleetkit.api.batch.SuccessPolicy;
import io.fleetkit.api.batch.SuccessPolicyRule;
import io.fleetkit.api.core.ContainerState;
import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Indexed Jobs with {@code backoffLimitPerIndex} and a success policy over time: the Job controller in stepping mode
 * with a manual clock and a hand-operated kubelet.
 */
final class JobPerIndexControllerTest {
  private final ManualClock clock = ManualClock.atEpoch2026();

  private static Job.Builder indexed(int n) {
    return Job.builder().namespace("ns").name("shards").completionMode(CompletionMode.Indexed).completions(n)
        .parallelism(n)
        .podSpec(PodSpec.builder().container("c", "busybox", ResourceList.EMPTY).restartPolicy(RestartPolicy.Never)
            .build());
  }

  private JobController controller(ObjectStore store) {
    JobController c = JobController.builder(store).clock(clock).stepping().build();
    c.start().join();
    return c;
  }

  private static List<Pod> active(ObjectStore store) {
    return store.list(Pod.class, "ns").items().stream().filter(ActivePods::isActive).toList();
  }

  private static @Nullable Pod activeOf(ObjectStore store, int index) {
    return active(store).stream().filter(p -> Integer.toString(index)
        .equals(p.metadata().annotations().get(WorkloadLabels.JOB_COMPLETION_INDEX))).findFirst().orElse(null);
  }

  private void finish(ObjectStore store, Pod p, PodPhase phase) {
    Pod cur = store.require(Pod.class, "ns", p.metadata().name());
    ContainerState end = ContainerState.terminated(phase == PodPhase.Succeeded ? 0 : 1, "", clock.now());
    store.updateStatus(cur.withStatus(cur.status().withPhase(phase)
        .withContainerStatuses(List.of(new ContainerStatus("c", false, 0, end)))));
  }

  private static Job get(ObjectStore store) {
    return store.require(Job.class, "ns", "shards");
  }

  @Test
  void indexFailsTwice_indexFailedOthersGoOn_jobFailsWithFailedIndexes() {
    try (ObjectStore store = Sim.store(clock); JobController c = controller(store)) {
      store.create(indexed(3).backoffLimitPerIndex(1).build());
      c.runUntilIdle();
      assertThat(active(store)).hasSize(3).allSatisfy(p -> assertThat(p.metadata().annotations())
          .containsEntry(WorkloadLabels.JOB_INDEX_FAILURE_COUNT, "0"));
      Pod first = activeOf(store, 1);
      finish(store, first, PodPhase.Failed);
      c.runUntilIdle();
      assertThat(activeOf(store, 1)).as("index 1 waits its 10 s backoff").isNull();
      assertThat(active(store)).as("the other indexes keep running").hasSize(2);
      clock.advance(Duration.ofSeconds(10));
      c.runUntilIdle();
      Pod second = activeOf(store, 1);
      assertThat(second).isNotNull();
      assertThat(second.metadata().annotations()).containsEntry(WorkloadLabels.JOB_INDEX_FAILURE_COUNT, "1");
      assertThat(get(store).status().failedIndexes()).isEmpty();

      finish(store, second, PodPhase.Failed);
      clock.advance(Duration.ofMinutes(5));
      c.runUntilIdle();
      Job j = get(store);
      assertThat(j.status().failedIndexes()).isEqualTo("1");
      assertThat(activeOf(store, 1)).as("a failed index is not retried").isNull();
      assertThat(active(store)).hasSize(2);
      assertThat(j.status().isFinished()).isFalse();

      finish(store, activeOf(store, 0), PodPhase.Succeeded);
      finish(store, activeOf(store, 2), PodPhase.Succeeded);
      c.runUntilIdle();
      j = get(store);
      assertThat(j.status().completedIndexes()).isEqualTo("0,2");
      assertThat(j.status().failed()).isEqualTo(2);
      assertThat(j.status().conditions()).extracting(JobCondition::type, JobCondition::reason).containsExactly(
          org.assertj.core.groups.Tuple.tuple(JobCondition.FAILURE_TARGET, JobCondition.REASON_FAILED_INDEXES),
          org.assertj.core.groups.Tuple.tuple(JobCondition.FAILED, JobCondition.REASON_FAILED_INDEXES));
    }
  }

  @Test
  void maxFailedIndexesExceeded_runningPodsDeletedAndJobFails() {
    try (ObjectStore store = Sim.store(clock); JobController c = controller(store)) {
      store.create(indexed(4).backoffLimitPerIndex(0).maxFailedIndexes(1).build());
      c.runUntilIdle();
      finish(store, activeOf(store, 0), PodPhase.Failed);
      c.runUntilIdle();
      assertThat(get(store).status().failedIndexes()).isEqualTo("0");
      assertThat(get(store).status().isFinished()).isFalse();
      finish(store, activeOf(store, 3), PodPhase.Failed);
      c.runUntilIdle();
      Job j = get(store);
      assertThat(j.status().failedIndexes()).isEqualTo("0,3");
      assertThat(j.status().condition(JobCondition.FAILED).reason())
          .isEqualTo(JobCondition.REASON_MAX_FAILED_INDEXES_EXCEEDED);
      assertThat(j.status().condition(JobCondition.FAILED).message())
          .isEqualTo("Job has exceeded the specified maximal number of failed indexes");
      assertThat(active(store)).isEmpty();
      assertThat(j.status().failed()).as("the two failed pods and the two deleted").isEqualTo(4);
    }
  }

  @Test
  void successPolicyMet_remainingPodsDeletedAndJobComplete() {
    try (ObjectStore store = Sim.store(clock); JobController c = controller(store)) {
      store.create(indexed(4).successPolicy(SuccessPolicy.of(SuccessPolicyRule.indexes("2"),
          new SuccessPolicyRule("0-1", 2))).build());
      c.runUntilIdle();
      finish(store, activeOf(store, 0), PodPhase.Succeeded);
      c.runUntilIdle();
      assertThat(get(store).status().isFinished()).isFalse();
      assertThat(active(store)).hasSize(3);
      finish(store, activeOf(store, 1), PodPhase.Succeeded);
      c.runUntilIdle();
      Job j = get(store);
      assertThat(j.status().conditions()).extracting(JobCondition::type, JobCondition::reason,
          JobCondition::message).containsExactly(
          org.assertj.core.groups.Tuple.tuple(JobCondition.SUCCESS_CRITERIA_MET, JobCondition.REASON_SUCCESS_POLICY,
              "Matched rules at index 1"),
          org.assertj.core.groups.Tuple.tuple(JobCondition.COMPLETE, JobCondition.REASON_SUCCESS_POLICY,
              "Matched rules at index 1"));
      assertThat(j.status().completionTime()).isNotNull();
      assertThat(j.status().succeeded()).isEqualTo(2);
      assertThat(j.status().failed()).as("deleted pods are not failures").isZero();
      assertThat(active(store)).isEmpty();
    }
  }
}
