package io.fleetkit.queueing.controller;

import static io.fleetkit.queueing.controller.QueueFixtures.NS;
import static io.fleetkit.queueing.controller.QueueFixtures.job;
import static io.fleetkit.queueing.controller.QueueFixtures.quotaReserved;
import static io.fleetkit.queueing.controller.QueueFixtures.running;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.batch.CompletionMode;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobCondition;
import io.fleetkit.api.batch.JobSpec;
import io.fleetkit.api.batch.JobStatus;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.queueing.AdmissionEngine;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Jobs admitted partially ({@value QueueLabels#JOB_MIN_PARALLELISM}), after Kueue's batch/v1 Job integration
 * ({@code pkg/controller/jobs/job/job_controller.go}: {@code PodSets} takes the annotation as the pod set's
 * {@code minCount}; {@code RunWithPodSetsInfo} sets parallelism, and completions with
 * {@value QueueLabels#JOB_COMPLETIONS_EQUAL_PARALLELISM}, to the admitted count; {@code RestorePodSetsInfo} puts them
 * back), and its webhook's rules for the annotations ({@code job_webhook.go}).
 */
final class QueuePartialAdmissionTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build();
  private AdmissionEngine engine;
  private QueueAdmissionController ctl;

  private void start(String cpus) {
    engine = QueueFixtures.engine(clock.asClock(), cpus);
    ctl = QueueAdmissionController.builder(store, engine).clock(clock).stepping().build();
    ctl.start().join();
  }

  @AfterEach
  void close() {
    if (ctl != null) {
      ctl.close();
    }
    store.close();
  }

  private Job get(String name) {
    return store.require(Job.class, NS, name);
  }

  private static Job partial(String name, int parallelism, String minParallelism, int priority) {
    Job j = job(name, "lq", parallelism, "1", priority, true, 10);
    return j.withMetadata(j.metadata().toBuilder().annotation(QueueLabels.JOB_MIN_PARALLELISM, minParallelism)
        .build());
  }

  private static Job indexedInSync(Job j) {
    JobSpec s = j.spec();
    return j.withMetadata(j.metadata().toBuilder()
            .annotation(QueueLabels.JOB_COMPLETIONS_EQUAL_PARALLELISM, "true").build())
        .withSpec(new JobSpec(s.parallelism(), s.completions(), CompletionMode.Indexed, s.backoffLimit(),
            s.activeDeadlineSeconds(), s.ttlSecondsAfterFinished(), s.suspend(), s.selector(), s.template()));
  }

  // kueue job_controller_test.go TestPodSets "partial admission" and TestPodSetsInfo "parallelism": the annotation is
  // the pod set's minCount; the Job runs with the admitted count and gets its own parallelism back when stopped
  @Test
  void aJobThatDoesNotFitRunsWithTheAdmittedCountAsParallelism() {
    start("8");
    store.create(partial("a", 10, "5", 0));
    ctl.runUntilIdle();

    Job a = get("a");
    assertThat(running(a)).isTrue();
    assertThat(a.spec().parallelism()).isEqualTo(8);
    assertThat(a.spec().completions()).isEqualTo(10);
    assertThat(a.metadata().annotations()).containsEntry(QueueLabels.ORIGINAL_PARALLELISM, "10");
    assertThat(engine.admission("default/a").orElseThrow().podSets().get(0).count()).isEqualTo(8);
    assertThat(engine.usage("cq", "batch", "cpu")).isEqualTo(Quantity.parse("8"));

    // preempted: suspended with its own parallelism, queued again with all 10 pods
    clock.advance(Duration.ofSeconds(5));
    store.create(job("high", "lq", 1, "6", 100, true, 10));
    ctl.runUntilIdle();
    a = get("a");
    assertThat(a.spec().suspend()).isTrue();
    assertThat(a.spec().parallelism()).isEqualTo(10);
    assertThat(a.metadata().annotations()).doesNotContainKeys(QueueLabels.ORIGINAL_PARALLELISM, QueueLabels.ADMISSION);
    assertThat(quotaReserved(a).reason()).isEqualTo(QueueLabels.REASON_PREEMPTED);
    assertThat(running(get("high"))).isTrue();
  }

  @Test
  void aJobThatFitsRunsWithItsOwnParallelism() {
    start("8");
    store.create(partial("a", 6, "2", 0));
    ctl.runUntilIdle();
    Job a = get("a");
    assertThat(running(a)).isTrue();
    assertThat(a.spec().parallelism()).isEqualTo(6);
    assertThat(a.metadata().annotations()).doesNotContainKey(QueueLabels.ORIGINAL_PARALLELISM);
  }

  @Test
  void belowItsMinimumTheJobWaits() {
    start("4");
    store.create(partial("a", 10, "5", 0));
    ctl.runUntilIdle();
    Job a = get("a");
    assertThat(a.spec().suspend()).isTrue();
    assertThat(a.spec().parallelism()).isEqualTo(10);
    assertThat(quotaReserved(a).reason()).isEqualTo(QueueLabels.REASON_PENDING);
  }

  @Test
  void completionsFollowParallelismWhenTheAnnotationSaysSo() {
    start("8");
    store.create(indexedInSync(partial("a", 10, "5", 0)));
    ctl.runUntilIdle();
    Job a = get("a");
    assertThat(running(a)).isTrue();
    assertThat(a.spec().parallelism()).isEqualTo(8);
    assertThat(a.spec().completions()).isEqualTo(8);

    store.create(job("high", "lq", 1, "6", 100, true, 10));
    ctl.runUntilIdle();
    a = get("a");
    assertThat(a.spec().suspend()).isTrue();
    assertThat(a.spec().parallelism()).isEqualTo(10);
    assertThat(a.spec().completions()).isEqualTo(10);
  }

  @Test
  void aRestartRestoresThePartialAdmissionWithItsCount() {
    start("8");
    store.create(partial("a", 10, "5", 0));
    ctl.runUntilIdle();
    Job a = get("a");
    ctl.close();

    start("8");
    ctl.runUntilIdle();
    assertThat(get("a")).isEqualTo(a);
    assertThat(engine.admission("default/a").orElseThrow().podSets().get(0).count()).isEqualTo(8);
    assertThat(engine.usage("cq", "batch", "cpu")).isEqualTo(Quantity.parse("8"));

    store.updateStatus(get("a").withStatus(new JobStatus(0, 8, 0, null, List.of(new JobCondition(
        JobCondition.COMPLETE, ConditionStatus.True, "", "", clock.now(), clock.now())), null, clock.now(), "")));
    ctl.runUntilIdle();
    assertThat(engine.usage("cq", "batch", "cpu")).isEqualTo(Quantity.ZERO);
  }

  // kueue job_webhook.go validatePartialAdmissionCreate: from 1 to one less than the pod count
  @Test
  void aMinimumNotBelowParallelismIsInadmissibleNamingTheAnnotation() {
    start("8");
    store.create(partial("a", 4, "4", 0));
    store.create(partial("b", 4, "0", 0));
    store.create(partial("c", 4, "two", 0));
    ctl.runUntilIdle();
    for (String name : List.of("a", "b", "c")) {
      Job j = get(name);
      assertThat(j.spec().suspend()).isTrue();
      assertThat(quotaReserved(j).reason()).isEqualTo(QueueLabels.REASON_INADMISSIBLE);
      assertThat(quotaReserved(j).message()).contains("metadata.annotations[" + QueueLabels.JOB_MIN_PARALLELISM + "]");
    }
    assertThat(quotaReserved(get("a")).message()).contains("must be from 1 to 3");
    assertThat(quotaReserved(get("c")).message()).contains("must be an integer");
  }

  // kueue job_webhook.go validatePartialAdmissionCreate reads the annotation with strconv.Atoi: ASCII digits and an
  // optional sign, no spaces ("\u0662" was 2 to Integer.parseInt, " 2" was 2 after a trim)
  @Test
  void aMinimumInDigitsOfAnotherScriptOrWithSpacesIsInadmissible() {
    start("8");
    store.create(partial("a", 4, "\u0662", 0));
    store.create(partial("b", 4, " 2", 0));
    store.create(partial("c", 4, "+2", 0));
    ctl.runUntilIdle();
    for (String name : List.of("a", "b")) {
      assertThat(quotaReserved(get(name)).reason()).isEqualTo(QueueLabels.REASON_INADMISSIBLE);
      assertThat(quotaReserved(get(name)).message()).contains("metadata.annotations["
          + QueueLabels.JOB_MIN_PARALLELISM + "]").contains("must be an integer");
    }
    assertThat(get("c").spec().suspend()).as("Atoi takes a sign").isFalse();
  }

  // kueue job_webhook.go validateSyncCompletionCreate
  @Test
  void completionsEqualParallelismOnANonIndexedJobIsInadmissible() {
    start("8");
    Job j = partial("a", 10, "5", 0);
    store.create(j.withMetadata(j.metadata().toBuilder()
        .annotation(QueueLabels.JOB_COMPLETIONS_EQUAL_PARALLELISM, "true").build()));
    ctl.runUntilIdle();
    assertThat(quotaReserved(get("a")).reason()).isEqualTo(QueueLabels.REASON_INADMISSIBLE);
    assertThat(quotaReserved(get("a")).message()).contains("should not be enabled for NonIndexed jobs");
  }
}
