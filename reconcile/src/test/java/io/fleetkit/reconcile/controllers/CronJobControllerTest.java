package io.fleetkit.reconcile.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.batch.ConcurrencyPolicy;
import io.fleetkit.api.batch.CronJob;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobCondition;
import io.fleetkit.api.batch.JobStatus;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.events.ObjectReference;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.DeleteOptions;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.reconcile.controllers.internal.CronJobSchedules;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The CronJob controller over time in stepping mode against a real store: a manual clock decides when runs come due
 * (the controller reads no other clock), and finished Jobs are marked by hand (no Job controller runs).
 */
final class CronJobControllerTest {
  private static final Instant START = Instant.parse("2026-03-02T09:30:00Z");
  private final ManualClock clock = new ManualClock(START);
  private final List<String> events = new ArrayList<>();
  private final EventRecorder recorder = (regarding, related, type, reason, action, note) ->
      events.add(reason + ": " + note);

  private static CronJob.Builder cron(String schedule) {
    PodSpec pod = PodSpec.builder().restartPolicy(RestartPolicy.Never).container("c", "busybox", ResourceList.EMPTY)
        .build();
    return CronJob.builder().namespace("ns").name("report").schedule(schedule)
        .jobTemplateLabels(Map.of("app", "report")).jobSpec(Job.builder().name("x").podSpec(pod).build().spec());
  }

  private CronJobController controller(ObjectStore store) {
    CronJobController c = CronJobController.builder(store).clock(clock).events(recorder).stepping().build();
    c.start().join();
    return c;
  }

  private static List<Job> jobs(ObjectStore store) {
    return store.list(Job.class, "ns").items().stream()
        .sorted(Comparator.comparing(j -> j.metadata().name())).toList();
  }

  private static CronJob get(ObjectStore store) {
    return store.require(CronJob.class, "ns", "report");
  }

  /** Moves the clock {@code d} and one second more (the controller requeues 100 ms after a scheduled time). */
  private void advance(CronJobController c, Duration d) {
    clock.advance(d.plusSeconds(1));
    c.runUntilIdle();
  }

  private Job finish(ObjectStore store, Job j, String type, @Nullable Instant start) {
    Job cur = store.require(Job.class, "ns", j.metadata().name());
    return store.updateStatus(cur.withStatus(new JobStatus(0, type.equals(JobCondition.COMPLETE) ? 1 : 0,
        type.equals(JobCondition.FAILED) ? 1 : 0, null,
        List.of(new JobCondition(type, ConditionStatus.True, "", "", clock.now(), clock.now())), start,
        type.equals(JobCondition.COMPLETE) ? clock.now() : null, "")));
  }

  @Test
  void hourly_createsOneJobPerHour_namedByScheduledMinute_onTheManualClock() {
    try (ObjectStore store = Sim.store(clock); CronJobController c = controller(store)) {
      store.create(cron("0 * * * *").build());
      c.runUntilIdle();
      assertThat(jobs(store)).isEmpty();
      clock.advance(Duration.ofMinutes(30));
      c.runUntilIdle();
      assertThat(jobs(store)).as("10:00:00, due at 10:00:00.1").isEmpty();
      clock.advance(Duration.ofMillis(100));
      c.runUntilIdle();
      Instant ten = Instant.parse("2026-03-02T10:00:00Z");
      assertThat(jobs(store)).singleElement().satisfies(j -> {
        assertThat(j.metadata().name()).isEqualTo("report-" + ten.getEpochSecond() / 60);
        assertThat(j.metadata().annotations())
            .containsEntry(CronJobSchedules.SCHEDULED_TIMESTAMP_ANNOTATION, "2026-03-02T10:00:00Z");
        assertThat(j.metadata().labels()).containsEntry("app", "report");
        OwnerReference ref = j.metadata().controllerRef();
        assertThat(ref.kind()).isEqualTo("CronJob");
        assertThat(ref.uid()).isEqualTo(get(store).metadata().uid());
      });
      CronJob cj = get(store);
      assertThat(cj.status().lastScheduleTime()).isEqualTo(ten);
      assertThat(cj.status().active()).extracting(ObjectReference::name)
          .containsExactly(jobs(store).get(0).metadata().name());
      assertThat(events).containsExactly("SuccessfulCreate: Created job report-" + ten.getEpochSecond() / 60);

      advance(c, Duration.ofHours(1));
      assertThat(jobs(store)).hasSize(2);
      assertThat(get(store).status().active()).hasSize(2);
    }
  }

  @Test
  void finishedJob_leavesActive_setsLastSuccessfulTime_andHistoryLimitDeletesOldest() {
    try (ObjectStore store = Sim.store(clock); CronJobController c = controller(store)) {
      store.create(cron("*/10 * * * *").successfulJobsHistoryLimit(2).build());
      c.runUntilIdle();
      for (int i = 0; i < 4; i++) {
        advance(c, Duration.ofMinutes(10));
        Job newest = jobs(store).stream().filter(j -> !j.status().isFinished()).findFirst().orElseThrow();
        finish(store, newest, JobCondition.COMPLETE, clock.now());
        c.runUntilIdle();
      }
      CronJob cj = get(store);
      assertThat(cj.status().active()).isEmpty();
      assertThat(cj.status().lastSuccessfulTime()).isEqualTo(clock.now());
      assertThat(jobs(store)).as("successfulJobsHistoryLimit 2 keeps the two newest").hasSize(2);
      assertThat(jobs(store)).extracting(j -> j.metadata().name()).containsExactly(
          "report-" + Instant.parse("2026-03-02T10:00:00Z").getEpochSecond() / 60,
          "report-" + Instant.parse("2026-03-02T10:10:00Z").getEpochSecond() / 60);
      assertThat(events).filteredOn(e -> e.startsWith("SawCompletedJob")).hasSize(4);
      assertThat(events).filteredOn(e -> e.startsWith("SuccessfulDelete")).hasSize(2);
    }
  }

  @Test
  void forbid_skipsWhileActive_replace_deletesTheActiveJob() {
    try (ObjectStore store = Sim.store(clock); CronJobController c = controller(store)) {
      store.create(cron("*/15 * * * *").concurrencyPolicy(ConcurrencyPolicy.Forbid).build());
      c.runUntilIdle();
      advance(c, Duration.ofMinutes(15));
      advance(c, Duration.ofMinutes(15));
      assertThat(jobs(store)).hasSize(1);
      assertThat(events).contains("JobAlreadyActive: Not starting job because prior execution is running and "
          + "concurrency policy is Forbid");
      CronJob cj = get(store);
      store.update(cj.withSpec(new io.fleetkit.api.batch.CronJobSpec(cj.spec().schedule(), null, null,
          ConcurrencyPolicy.Replace, false, cj.spec().jobTemplate(), 3, 1)));
      c.runUntilIdle();
      String first = jobs(store).get(0).metadata().name();
      advance(c, Duration.ofMinutes(15));
      assertThat(jobs(store)).extracting(j -> j.metadata().name()).doesNotContain(first).hasSize(1);
      assertThat(get(store).status().active()).hasSize(1);
      assertThat(events).contains("SuccessfulDelete: Deleted job " + first);
    }
  }

  @Test
  void suspended_startsNothing_resumed_runsOnlyTheMostRecentMissedTime() {
    try (ObjectStore store = Sim.store(clock); CronJobController c = controller(store)) {
      store.create(cron("*/5 * * * *").suspend(true).build());
      c.runUntilIdle();
      advance(c, Duration.ofHours(1));
      assertThat(jobs(store)).isEmpty();
      CronJob cj = get(store);
      store.update(cj.withSpec(cj.spec().withSuspend(false)));
      c.runUntilIdle();
      assertThat(jobs(store)).singleElement().satisfies(j -> assertThat(j.metadata().annotations())
          .containsEntry(CronJobSchedules.SCHEDULED_TIMESTAMP_ANNOTATION, "2026-03-02T10:30:00Z"));
    }
  }

  @Test
  void startingDeadline_tooLate_missSchedule() {
    try (ObjectStore store = Sim.store(clock); CronJobController c = controller(store)) {
      store.create(cron("0 10 * * *").suspend(true).startingDeadlineSeconds(60L).build());
      c.runUntilIdle();
      clock.advance(Duration.ofMinutes(30).plusSeconds(30)); // 10:00:30
      CronJob cj = get(store);
      store.update(cj.withSpec(cj.spec().withSuspend(false)));
      c.runUntilIdle();
      assertThat(jobs(store)).as("30 s late, within 60 s").hasSize(1);
    }
  }

  @Test
  void timeZone_scheduleReadInTheZone() {
    try (ObjectStore store = Sim.store(clock); CronJobController c = controller(store)) {
      store.create(cron("0 11 * * *").timeZone("Europe/Rome").build()); // 11:00 in Rome is 10:00Z in March
      c.runUntilIdle();
      advance(c, Duration.ofMinutes(30));
      assertThat(jobs(store)).singleElement().satisfies(j -> assertThat(j.metadata().annotations())
          .containsEntry(CronJobSchedules.SCHEDULED_TIMESTAMP_ANNOTATION, "2026-03-02T11:00:00+01:00"));
    }
  }

  @Test
  void deletedActiveJob_missingJobLeavesTheActiveList() {
    try (ObjectStore store = Sim.store(clock); CronJobController c = controller(store)) {
      store.create(cron("0 * * * *").build());
      c.runUntilIdle();
      advance(c, Duration.ofMinutes(30));
      Job j = jobs(store).get(0);
      store.delete(Job.class, "ns", j.metadata().name(), DeleteOptions.background()); // as kubectl delete
      c.runUntilIdle();
      assertThat(get(store).status().active()).isEmpty();
    }
  }
}
