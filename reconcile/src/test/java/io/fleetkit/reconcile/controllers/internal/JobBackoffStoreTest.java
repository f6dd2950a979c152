package io.fleetkit.reconcile.controllers.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.ContainerState;
import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.reconcile.ObjectKey;
import io.fleetkit.reconcile.controllers.WorkloadLabels;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ported from kubernetes {@code pkg/controller/job/backoff_utils_test.go} (commit
 * 0bee0bcaa7ddf245d967776b158f2affb7b9c5f3; code read at {@code backoff_utils.go}
 * 21da0b6d5b46d36ada23854eadba50f069910829): TestNewBackoffRecord,
 * TestGetFinishedTime, TestGetRemainingBackoffTime, TestGetRemainingBackoffTimePerIndex, each case by upstream's
 * name. Upstream's {@code "key"} is the Job key {@code default/key}; its fake clock at the case's time truncated to the
 * second is {@code now}.
 */
final class JobBackoffStoreTest {
  private static final Instant T = Instant.parse("2009-11-10T23:00:00Z"); // upstream's defaultTestTime
  private static final ObjectKey KEY = ObjectKey.of("default", "key");

  // --- TestNewBackoffRecord ---

  /** A pod in {@code phase} whose one container terminated at {@code finishedAt}, as upstream's test builds it. */
  private static Pod finished(PodPhase phase, Instant finishedAt) {
    return pod(ObjectMeta.builder().namespace("default").name("p").build(), List.of(),
        new PodStatus(phase, List.of(), "", "", null, List.of(), "", "").withContainerStatuses(List.of(
            new ContainerStatus("", false, 0, ContainerState.terminated(phase == PodPhase.Failed ? 1 : 0, "",
                finishedAt)))));
  }

  private static Instant ms(long millis) {
    return T.plusMillis(millis);
  }

  static Stream<Arguments> newBackoffRecord() {
    JobBackoffRecord none = JobBackoffRecord.empty(KEY);
    return Stream.of(
        Arguments.of("Empty backoff store and one new failure", null, List.of(), List.of(T),
            new JobBackoffRecord(KEY, 1, T)),
        Arguments.of("Empty backoff store and two new failures", null, List.of(), List.of(T, ms(-1)),
            new JobBackoffRecord(KEY, 2, T)),
        Arguments.of("Empty backoff store, two failures followed by success", null, List.of(T),
            List.of(ms(-2), ms(-1)), new JobBackoffRecord(KEY, 0, null)),
        Arguments.of("Empty backoff store, two failures, one success and two more failures", null, List.of(ms(-2)),
            List.of(T, ms(-4), ms(-3), ms(-1)), new JobBackoffRecord(KEY, 2, T)),
        Arguments.of("Backoff store having failure count 2 and one new failure", new JobBackoffRecord(KEY, 2, null),
            List.of(), List.of(T), new JobBackoffRecord(KEY, 3, T)),
        Arguments.of("Empty backoff store with success and failure at same timestamp", null, List.of(T), List.of(T),
            new JobBackoffRecord(KEY, 0, null)),
        Arguments.of("Empty backoff store with no success/failure", null, List.of(), List.of(), none),
        Arguments.of("Empty backoff store with one success", null, List.of(T), List.of(), none));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("newBackoffRecord")
  void newBackoffRecord_upstreamTable(String name, @Nullable JobBackoffRecord stored, List<Instant> succeeded,
      List<Instant> failed, JobBackoffRecord want) {
    JobBackoffStore store = new JobBackoffStore();
    if (stored != null) {
      store.update(stored);
    }
    List<Pod> newSucceeded = new ArrayList<>();
    for (Instant t : succeeded) {
      newSucceeded.add(finished(PodPhase.Succeeded, t));
    }
    List<Pod> newFailed = new ArrayList<>();
    for (Instant t : failed) {
      newFailed.add(finished(PodPhase.Failed, t));
    }
    assertThat(store.newRecord(KEY, newSucceeded, newFailed)).isEqualTo(want);
    assertThat(store.get(KEY)).as("newRecord stores nothing").isEqualTo(stored);
  }

  // --- TestGetFinishedTime ---

  private static Pod pod(ObjectMeta meta, List<Container> initContainers, PodStatus status) {
    PodSpec spec = PodSpec.builder().container("c", "image", ResourceList.EMPTY).initContainers(initContainers)
        .build();
    return Pod.of(meta, spec).withStatus(status);
  }

  private static ContainerStatus terminatedAt(@Nullable Instant t) {
    return new ContainerStatus("", false, 0, ContainerState.terminated(0, "", t));
  }

  private static ContainerStatus running() {
    return new ContainerStatus("", false, 0, ContainerState.running(null));
  }

  private static PodStatus containers(ContainerStatus... statuses) {
    return PodStatus.PENDING.withContainerStatuses(List.of(statuses));
  }

  private static ObjectMeta.Builder meta() {
    return ObjectMeta.builder().namespace("default").name("p");
  }

  static Stream<Arguments> finishedTime() {
    Instant minus30s = T.minusSeconds(30);
    Pod allTerminated = pod(meta().build(), List.of(),
        containers(terminatedAt(T.minusSeconds(1)), terminatedAt(T), terminatedAt(T.minusSeconds(2))));
    Pod oneRunning = pod(meta().deletionTimestamp(T).build(), List.of(),
        containers(terminatedAt(T.minusSeconds(1)), running(), terminatedAt(T.minusSeconds(2))));
    Pod deleted = pod(meta().deletionTimestamp(T).build(), List.of(), containers(running()));
    Pod deletedWithGrace = pod(meta().deletionTimestamp(T).deletionGracePeriodSeconds(30L).build(), List.of(),
        containers(running()));
    Pod readyFalse = pod(meta().build(), List.of(), containers(terminatedAt(null)).withCondition(
        new PodCondition(PodCondition.READY, ConditionStatus.False, "PodFailed", "", null, T)));
    Pod readyTrue = pod(meta().deletionTimestamp(T).build(), List.of(), containers(terminatedAt(null)).withCondition(
        new PodCondition(PodCondition.READY, ConditionStatus.True, "", "", null, minus30s)));
    Pod created = pod(meta().creationTimestamp(T).build(), List.of(), containers(terminatedAt(null)));
    Pod sidecar = pod(meta().build(), List.of(Container.sidecar("sidecar", "image", ResourceList.EMPTY)),
        containers(terminatedAt(T.minusSeconds(1))).withInitContainerStatuses(List.of(
            new ContainerStatus("sidecar", false, 0, ContainerState.terminated(0, "", T)))));
    return Stream.of(
        Arguments.of("Pod with multiple containers and all containers terminated", allTerminated, T),
        Arguments.of("Pod with multiple containers; two containers in terminated state and one in running state; "
            + "fallback to deletionTimestamp", oneRunning, T),
        Arguments.of("fallback to deletionTimestamp", deleted, T),
        Arguments.of("fallback to deletionTimestamp, decremented by grace period", deletedWithGrace, minus30s),
        Arguments.of("fallback to PodReady.LastTransitionTime when status of the condition is False", readyFalse, T),
        Arguments.of("skip fallback to PodReady.LastTransitionTime when status of the condition is True", readyTrue,
            T),
        Arguments.of("fallback to creationTimestamp", created, T),
        // the sidecar (a restartable init container) stops after the regular containers
        Arguments.of("Pod with sidecar container and all containers terminated", sidecar, T));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("finishedTime")
  void getFinishedTime_upstreamTable(String name, Pod pod, Instant want) {
    assertThat(JobBackoffStore.finishedTime(pod)).isEqualTo(want);
  }

  // --- TestGetRemainingBackoffTime ---

  private static final Duration FIVE_S = Duration.ofSeconds(5);
  private static final Duration MAX_700S = Duration.ofSeconds(700);

  static Stream<Arguments> remainingBackoffTime() {
    return Stream.of(
        Arguments.of("no failures", new JobBackoffRecord(KEY, 0, null), Instant.EPOCH, 0),
        Arguments.of("one failure; current time and failure time are same", new JobBackoffRecord(KEY, 1, T), T, 5),
        Arguments.of("one failure; current time == 1 second + failure time", new JobBackoffRecord(KEY, 1, T),
            T.plusSeconds(1), 4),
        Arguments.of("one failure; current time == expected backoff time", new JobBackoffRecord(KEY, 1, T),
            T.plusSeconds(5), 0),
        Arguments.of("one failure; current time == expected backoff time + 1 Second",
            new JobBackoffRecord(KEY, 1, T), T.plusSeconds(6), 0),
        Arguments.of("three failures; current time and failure time are same", new JobBackoffRecord(KEY, 3, T), T,
            20),
        Arguments.of("eight failures; current time and failure time are same; backoff not exceeding maxBackoff",
            new JobBackoffRecord(KEY, 8, T), T, 640),
        Arguments.of("nine failures; current time and failure time are same; backoff exceeding maxBackoff",
            new JobBackoffRecord(KEY, 9, T), T, 700));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("remainingBackoffTime")
  void getRemainingBackoffTime_upstreamTable(String name, JobBackoffRecord record, Instant now, long wantSeconds) {
    assertThat(record.remainingTime(now.truncatedTo(ChronoUnit.SECONDS), FIVE_S, MAX_700S))
        .isEqualTo(Duration.ofSeconds(wantSeconds));
  }

  // --- TestGetRemainingBackoffTimePerIndex ---

  /** Upstream's {@code buildPod().phase(Failed).indexFailureCount(..)...customDeletionTimestamp(T)}. */
  private static Pod lastFailed(String failureCount, @Nullable String ignoredFailureCount) {
    ObjectMeta.Builder m = meta().deletionTimestamp(T).annotation(WorkloadLabels.JOB_INDEX_FAILURE_COUNT,
        failureCount);
    if (ignoredFailureCount != null) {
      m.annotation(WorkloadLabels.JOB_INDEX_IGNORED_FAILURE_COUNT, ignoredFailureCount);
    }
    return pod(m.build(), List.of(), PodStatus.of(PodPhase.Failed));
  }

  static Stream<Arguments> remainingBackoffTimePerIndex() {
    return Stream.of(
        Arguments.of("no failures", null, Instant.EPOCH, 0),
        Arguments.of("two prev failures; current time and failure time are same", lastFailed("2", null), T, 20),
        Arguments.of("one prev failure counted and one ignored; current time and failure time are same",
            lastFailed("1", "1"), T, 20));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("remainingBackoffTimePerIndex")
  void getRemainingBackoffTimePerIndex_upstreamTable(String name, @Nullable Pod lastFailedPod, Instant now,
      long wantSeconds) {
    assertThat(IndexFailures.remainingBackoff(lastFailedPod, now.truncatedTo(ChronoUnit.SECONDS), FIVE_S, MAX_700S))
        .isEqualTo(Duration.ofSeconds(wantSeconds));
  }

  // --- FleetKit's own cases ---

  @Test
  void updateThenRemove_recordKeptUntilRemoved() {
    JobBackoffStore store = new JobBackoffStore();
    JobBackoffRecord r = store.newRecord(KEY, List.of(), List.of(finished(PodPhase.Failed, T)));
    assertThat(store.get(KEY)).isNull();
    store.update(r);
    assertThat(store.newRecord(KEY, List.of(), List.of())).as("no new pods: the stored record").isEqualTo(r);
    store.remove(KEY);
    assertThat(store.get(KEY)).isNull();
    assertThat(store.newRecord(KEY, List.of(), List.of())).isEqualTo(JobBackoffRecord.empty(KEY));
  }

  @Test
  void negativeFailures_refusedNamingTheJob() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> new JobBackoffRecord(KEY, -1, null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("default/key")
        .hasMessageContaining("failuresAfterLastSuccess -1");
  }

  /** The remaining time never exceeds the capped delay and reaches zero once it has passed. */
  @Property
  void remainingTime_boundedByTheDelay(@ForAll @IntRange(min = 0, max = 40) int failures,
      @ForAll @IntRange(min = 0, max = 2000) int elapsedSeconds) {
    Duration delay = JobBackoffRecord.delay(failures, FIVE_S, MAX_700S);
    Duration left = JobBackoffRecord.remainingTime(failures, T, T.plusSeconds(elapsedSeconds), FIVE_S, MAX_700S);
    assertThat(left).isBetween(Duration.ZERO, delay);
    assertThat(delay).isLessThanOrEqualTo(MAX_700S);
    if (elapsedSeconds >= delay.getSeconds()) {
      assertThat(left).isZero();
    } else {
      assertThat(left).isEqualTo(delay.minusSeconds(elapsedSeconds));
    }
  }
}
