package io.fleetkit.reconcile.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobCondition;
import io.fleetkit.api.batch.PodFailurePolicy;
import io.fleetkit.api.batch.PodFailurePolicyAction;
import io.fleetkit.api.batch.PodFailurePolicyOnPodConditionsPattern;
import io.fleetkit.api.batch.PodFailurePolicyRule;
import io.fleetkit.api.core.ContainerState;
import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.DeleteOptions;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * A Job's pods deleted by someone else (a user, the pod garbage collector, an eviction, the taint-eviction
 * controller) while they still have the {@value Job#TRACKING_FINALIZER} finalizer: the Job controller counts each
 * before it lets it go, as upstream's {@code isPodFailed} and {@code trackJobStatusAndRemoveFinalizers}: a pod that
 * did not succeed is failed, a succeeded one succeeded, and only then is its finalizer removed. The pods are bound,
 * so their deletion is graceful: they stay Terminating until their kubelet (here the test) ends them.
 */
final class JobPodDeletionTrackingTest {
  private final ManualClock clock = ManualClock.atEpoch2026();

  private static Job job(int parallelism, int completions, @Nullable PodFailurePolicy policy) {
    return Job.builder().namespace("ns").name("calc").parallelism(parallelism).completions(completions)
        .backoffLimit(6).podFailurePolicy(policy)
        .podSpec(PodSpec.builder().container("c", "busybox", ResourceList.EMPTY).restartPolicy(RestartPolicy.Never)
            .build()).build();
  }

  private JobController controller(ObjectStore store) {
    JobController c = JobController.builder(store).clock(clock).stepping().build();
    c.start().join();
    return c;
  }

  private static Job get(ObjectStore store) {
    return store.require(Job.class, "ns", "calc");
  }

  private static List<Pod> pods(ObjectStore store) {
    return store.list(Pod.class, "ns").items();
  }

  /** The kubelet ends a pod being deleted: its terminal status, then its own deletion with grace period 0. */
  private Pod kubeletEnds(ObjectStore store, Pod p, PodPhase phase) {
    Pod cur = store.require(Pod.class, "ns", p.metadata().name());
    ContainerState end = ContainerState.terminated(phase == PodPhase.Succeeded ? 0 : 137, "", clock.now());
    cur = store.updateStatus(cur.withStatus(cur.status().withPhase(phase)
        .withContainerStatuses(List.of(new ContainerStatus("c", false, 0, end)))));
    return store.delete(Pod.class, "ns", cur.metadata().name(), DeleteOptions.gracePeriod(0));
  }

  @Test
  void runningPodDeletedByAUser_countedAsFailedAtOnce_releasedAndReplaced() {
    try (ObjectStore store = Sim.store(clock); JobController c = controller(store)) {
      store.create(job(1, 1, null));
      c.runUntilIdle();
      Pod p = Sim.run(store, pods(store).get(0), "n1");
      c.runUntilIdle();
      assertThat(store.require(Pod.class, "ns", p.metadata().name()).metadata().finalizers())
          .contains(Job.TRACKING_FINALIZER);

      store.delete(Pod.class, "ns", p.metadata().name()); // graceful: the kubelet has not ended it yet
      c.runUntilIdle();

      Job j = get(store);
      assertThat(j.status().failed()).as("a deleted pod that did not succeed is failed").isEqualTo(1);
      assertThat(j.status().uncountedTerminatedPods().isEmpty()).isTrue();
      Pod deleted = store.require(Pod.class, "ns", p.metadata().name());
      assertThat(deleted.metadata().finalizers()).as("released once counted").doesNotContain(Job.TRACKING_FINALIZER);
      // podReplacementPolicy TerminatingOrFailed: replaced without waiting for the kubelet, but after the failure
      // backoff, as upstream's backoff record counts the deleted pod: 10 s from its deletion
      assertThat(pods(store)).as("the replacement waits the failure backoff").hasSize(1);
      clock.advance(Duration.ofSeconds(9));
      c.runUntilIdle();
      assertThat(pods(store)).as("9 s after the deletion").hasSize(1);
      clock.advance(Duration.ofSeconds(1));
      c.runUntilIdle();
      assertThat(pods(store)).as("replaced while the deleted pod terminates").hasSize(2);
      assertThat(store.require(Pod.class, "ns", p.metadata().name()).status().phase())
          .as("the deleted pod still terminates").isNotEqualTo(PodPhase.Failed);

      kubeletEnds(store, deleted, PodPhase.Failed);
      c.runUntilIdle();
      assertThat(store.get(Pod.class, "ns", p.metadata().name())).isEmpty();
      assertThat(get(store).status().failed()).as("not counted twice").isEqualTo(1);
    }
  }

  @Test
  void succeededPodDeletedBeforeTheSync_countedAsSucceeded_jobCompletes() {
    try (ObjectStore store = Sim.store(clock); JobController c = controller(store)) {
      store.create(job(1, 1, null));
      c.runUntilIdle();
      Pod p = Sim.run(store, pods(store).get(0), "n1");
      // the pod succeeds and is deleted (say by the pod garbage collector) before the controller looks
      Pod cur = store.require(Pod.class, "ns", p.metadata().name());
      store.updateStatus(cur.withStatus(cur.status().withPhase(PodPhase.Succeeded).withContainerStatuses(List.of(
          new ContainerStatus("c", false, 0, ContainerState.terminated(0, "", clock.now()))))));
      store.delete(Pod.class, "ns", p.metadata().name(), DeleteOptions.gracePeriod(0));
      assertThat(store.require(Pod.class, "ns", p.metadata().name()).metadata().deletionTimestamp())
          .as("the finalizer holds it").isNotNull();
      c.runUntilIdle();

      Job j = get(store);
      assertThat(j.status().succeeded()).isEqualTo(1);
      assertThat(j.status().failed()).isZero();
      assertThat(j.status().condition(JobCondition.COMPLETE)).isNotNull();
      assertThat(store.get(Pod.class, "ns", p.metadata().name())).as("released, then gone").isEmpty();
    }
  }

  @Test
  void podFailurePolicy_deletedPodStaysTerminatingUntilTerminal_thenCountedAsThePolicySays() {
    PodFailurePolicy ignoreDisruptions = PodFailurePolicy.of(PodFailurePolicyRule.onPodConditions(
        PodFailurePolicyAction.Ignore, PodFailurePolicyOnPodConditionsPattern.of(PodCondition.DISRUPTION_TARGET)));
    try (ObjectStore store = Sim.store(clock); JobController c = controller(store)) {
      store.create(job(1, 1, ignoreDisruptions));
      c.runUntilIdle();
      Pod p = Sim.run(store, pods(store).get(0), "n1");
      // evicted through the eviction subresource, as a drain does: DisruptionTarget, then a graceful deletion (upstream
      // test/e2e/apps/job.go, "should allow to use a pod failure policy to ignore failure for an evicted pod; matching
      // on the DisruptionTarget condition", evicts through the API and relies on that condition)
      EvictionDecision evicted = Evictions.evict(store, store.require(Pod.class, "ns", p.metadata().name()),
          clock.now());
      assertThat(evicted.allowed()).as(evicted.reason()).isTrue();
      assertThat(store.require(Pod.class, "ns", p.metadata().name()).status().condition(
          PodCondition.DISRUPTION_TARGET)).extracting(PodCondition::reason).isEqualTo("EvictionByEvictionAPI");
      c.runUntilIdle();

      Job j = get(store);
      assertThat(j.status().terminating()).isEqualTo(1);
      assertThat(j.status().failed()).as("podReplacementPolicy Failed: not failed until terminal").isZero();
      assertThat(store.require(Pod.class, "ns", p.metadata().name()).metadata().finalizers())
          .as("kept until counted").contains(Job.TRACKING_FINALIZER);
      assertThat(pods(store)).as("not replaced while terminating").hasSize(1);

      kubeletEnds(store, p, PodPhase.Failed);
      clock.advance(Duration.ofMinutes(1));
      c.runUntilIdle();
      j = get(store);
      assertThat(j.status().failed()).as("the Ignore rule matched").isZero();
      assertThat(j.status().terminating()).isZero();
      assertThat(store.get(Pod.class, "ns", p.metadata().name())).as("released, then gone").isEmpty();
      assertThat(pods(store)).as("replaced").hasSize(1);
    }
  }

  @Test
  void jobDeletedWithForegroundPropagation_runningPodsLoseTheFinalizerUncounted() {
    try (ObjectStore store = Sim.store(clock); JobController c = controller(store)) {
      store.create(job(2, 2, null));
      c.runUntilIdle();
      for (Pod p : pods(store)) {
        Sim.run(store, p, "n1");
      }
      c.runUntilIdle();
      store.delete(Job.class, "ns", "calc", DeleteOptions.foreground());
      c.runUntilIdle();
      assertThat(pods(store)).hasSize(2).allSatisfy(p ->
          assertThat(p.metadata().finalizers()).doesNotContain(Job.TRACKING_FINALIZER));
      assertThat(get(store).status().failed()).as("a deleted Job's running pods are not failures").isZero();
    }
  }
}
