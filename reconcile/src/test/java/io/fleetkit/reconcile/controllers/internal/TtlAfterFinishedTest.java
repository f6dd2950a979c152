package io.fleetkit.reconcile.controllers.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobCondition;
import io.fleetkit.api.batch.JobStatus;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.resource.ResourceList;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link TtlAfterFinished}. Ported: kubernetes {@code pkg/controller/ttlafterfinished/ttlafterfinished_controller_test.go}
 * (commit 4a0608cb77f6a53af41cb4a453af104a4d4a0610; the arithmetic of {@code ttlafterfinished_controller.go} at
 * 003e86297d18a8538c9da3619871393f9703bf70), TestTimeLeft, all 9 cases, with upstream's checks: whether there is an
 * error, that its message contains the expected text, and otherwise the time left and the expiry instant. Upstream's
 * {@code now} is {@code metav1.Now()}; here a fixed instant. The {@code jobFinishTime} and {@code needsCleanup} cases
 * after it are FleetKit's own (upstream has no table for them).
 */
final class TtlAfterFinishedTest {
  private static final Instant NOW = Instant.parse("2026-12-04T12:00:00Z");

  /** Upstream's {@code newJob}: a Complete condition at {@code completionTime}, then a Failed one at {@code failedTime}. */
  private static Job newJob(@Nullable Instant completionTime, @Nullable Instant failedTime, @Nullable Integer ttl) {
    List<JobCondition> conditions = new ArrayList<>();
    if (completionTime != null) {
      conditions.add(new JobCondition(JobCondition.COMPLETE, ConditionStatus.True, "", "", null, completionTime));
    }
    if (failedTime != null) {
      conditions.add(new JobCondition(JobCondition.FAILED, ConditionStatus.True, "", "", null, failedTime));
    }
    return job(ttl, conditions);
  }

  private static Job job(@Nullable Integer ttl, List<JobCondition> conditions) {
    PodSpec pod = PodSpec.builder().restartPolicy(RestartPolicy.Never).container("c", "foo/bar", ResourceList.EMPTY)
        .build();
    return Job.builder().namespace("default").name("foobar").selector(LabelSelector.of(Map.of("foo", "bar")))
        .templateLabels(Map.of("foo", "bar")).podSpec(pod).ttlSecondsAfterFinished(ttl)
        .status(new JobStatus(0, 0, 0, null, conditions, null, null, "")).build();
  }

  static Stream<Arguments> timeLeftCases() {
    return Stream.of(
        // name, completionTime, failedTime, ttl, since, expectErrStr (null: no error), expectedTimeLeft (s), expectedExpireAt
        Arguments.of("Error case: Job unfinished", null, null, 100, NOW, "should not be cleaned up", null, null),
        Arguments.of("Error case: Job completed now, no TTL", NOW, null, null, NOW, "should not be cleaned up", null,
            null),
        Arguments.of("Job completed now, 0s TTL", NOW, null, 0, NOW, null, 0, NOW),
        Arguments.of("Job completed now, 10s TTL", NOW, null, 10, NOW, null, 10, NOW.plusSeconds(10)),
        Arguments.of("Job completed 10s ago, 15s TTL", NOW.minusSeconds(10), null, 15, NOW, null, 5,
            NOW.plusSeconds(5)),
        Arguments.of("Error case: Job failed now, no TTL", null, NOW, null, NOW, "should not be cleaned up", null, null),
        Arguments.of("Job failed now, 0s TTL", null, NOW, 0, NOW, null, 0, NOW),
        Arguments.of("Job failed now, 10s TTL", null, NOW, 10, NOW, null, 10, NOW.plusSeconds(10)),
        Arguments.of("Job failed 10s ago, 15s TTL", null, NOW.minusSeconds(10), 15, NOW, null, 5, NOW.plusSeconds(5)));
  }

  /** Upstream TestTimeLeft. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("timeLeftCases")
  void timeLeft_upstreamCases(String name, @Nullable Instant completionTime, @Nullable Instant failedTime,
      @Nullable Integer ttl, Instant since, @Nullable String expectErrStr, @Nullable Integer expectedTimeLeft,
      @Nullable Instant expectedExpireAt) {
    Job job = newJob(completionTime, failedTime, ttl);
    if (expectErrStr != null) {
      assertThatThrownBy(() -> TtlAfterFinished.timeLeft(job, since)).as(name)
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(expectErrStr)
          .hasMessageContaining("default/foobar");
      return;
    }
    TtlAfterFinished.TimeLeft got = TtlAfterFinished.timeLeft(job, since);
    assertThat(got.left()).as(name + ": time left").isEqualTo(Duration.ofSeconds(expectedTimeLeft));
    assertThat(got.expireAt()).as(name + ": expire at").isEqualTo(expectedExpireAt);
    assertThat(got.expired()).as(name + ": expired").isEqualTo(expectedTimeLeft <= 0);
  }

  @Test
  void timeLeft_finishedInTheFuture_moreThanTheTtlLeft() {
    TtlAfterFinished.TimeLeft got = TtlAfterFinished.timeLeft(newJob(NOW.plusSeconds(30), null, 10), NOW);
    assertThat(got.left()).isEqualTo(Duration.ofSeconds(40));
    assertThat(got.expired()).isFalse();
  }

  @Test
  void timeLeft_pastExpiry_negative_expired() {
    TtlAfterFinished.TimeLeft got = TtlAfterFinished.timeLeft(newJob(NOW.minusSeconds(100), null, 10), NOW);
    assertThat(got.left()).isEqualTo(Duration.ofSeconds(-90));
    assertThat(got.expired()).isTrue();
  }

  @Test
  void jobFinishTime_completeCondition_itsTransitionTime() {
    assertThat(TtlAfterFinished.jobFinishTime(newJob(NOW.minusSeconds(3), null, 1))).isEqualTo(NOW.minusSeconds(3));
  }

  @Test
  void jobFinishTime_falseConditionsSkipped_theTrueOneCounts() {
    Job j = job(5, List.of(
        new JobCondition(JobCondition.SUSPENDED, ConditionStatus.True, "", "", null, NOW.minusSeconds(50)),
        new JobCondition(JobCondition.COMPLETE, ConditionStatus.False, "", "", null, NOW.minusSeconds(40)),
        new JobCondition(JobCondition.FAILED, ConditionStatus.True, "", "", null, NOW.minusSeconds(20))));
    assertThat(TtlAfterFinished.jobFinishTime(j)).isEqualTo(NOW.minusSeconds(20));
    assertThat(TtlAfterFinished.needsCleanup(j)).isTrue();
  }

  @Test
  void jobFinishTime_noTransitionTime_errorNamingJobAndField() {
    Job j = job(5, List.of(new JobCondition(JobCondition.COMPLETE, ConditionStatus.True, "", "", null, null)));
    assertThatThrownBy(() -> TtlAfterFinished.jobFinishTime(j)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("job default/foobar: unable to find the time when the Job finished: "
            + "status.conditions[type=Complete] has no lastTransitionTime");
    assertThatThrownBy(() -> TtlAfterFinished.timeLeft(j, NOW)).hasMessageContaining("unable to find the time");
  }

  @Test
  void jobFinishTime_unfinished_error() {
    Job j = job(5, List.of(new JobCondition(JobCondition.FAILED, ConditionStatus.False, "", "", null, NOW)));
    assertThatThrownBy(() -> TtlAfterFinished.jobFinishTime(j)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unable to find the status of the finished Job");
  }

  @Test
  void needsCleanup_requiresTtlAndFinished() {
    assertThat(TtlAfterFinished.needsCleanup(newJob(NOW, null, 0))).isTrue();
    assertThat(TtlAfterFinished.needsCleanup(newJob(null, NOW, 7))).isTrue();
    assertThat(TtlAfterFinished.needsCleanup(newJob(NOW, null, null))).as("no TTL").isFalse();
    assertThat(TtlAfterFinished.needsCleanup(newJob(null, null, 7))).as("unfinished").isFalse();
  }

  @Test
  void finishAndExpireTime_expiresTtlSecondsAfterFinish() {
    TtlAfterFinished.Expiry e = TtlAfterFinished.finishAndExpireTime(newJob(NOW, null, 3600));
    assertThat(e.finishAt()).isEqualTo(NOW);
    assertThat(e.expireAt()).isEqualTo(NOW.plus(Duration.ofHours(1)));
  }
}
