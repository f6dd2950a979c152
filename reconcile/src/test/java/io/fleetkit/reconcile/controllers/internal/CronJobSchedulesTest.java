package io.fleetkit.reconcile.controllers.internal;

import static io.fleetkit.reconcile.controllers.internal.CronJobFixtures.TOP_OF_THE_HOUR;
import static io.fleetkit.reconcile.controllers.internal.CronJobFixtures.deltaTimeAfterTopOfTheHour;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.batch.CronJob;
import io.fleetkit.api.batch.CronJobStatus;
import io.fleetkit.api.batch.CronSchedule;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobStatus;
import io.fleetkit.api.events.Event;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.reconcile.controllers.internal.CronJobSchedules.Missed;
import io.fleetkit.reconcile.controllers.internal.CronJobSchedules.MostRecent;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Ported from Kubernetes' {@code pkg/controller/cronjob/utils_test.go} at commit
 * 8921bcdb70d8b3cc58dde1c47adfd68650219e25: TestGetJobFromTemplate2, TestNextScheduleTime, TestByJobStartTime,
 * TestMostRecentScheduleTime and TestNextScheduleTimeDuration, every case; and the three schedule-change cases of
 * {@code cronjob_controllerv2_test.go}'s TestControllerV2UpdateCronJob (commit
 * 1c9cf914f2f951313b8e9f7c321f5bd50b5e3d9f), whose delay is {@code nextScheduleTimeDuration} of the new schedule.
 */
final class CronJobSchedulesTest {
  private static final Duration DELTA = CronJobSchedules.NEXT_SCHEDULE_DELTA;

  private static Duration h(long n) {
    return Duration.ofHours(n);
  }

  private static Duration m(long n) {
    return Duration.ofMinutes(n);
  }

  // ---- TestGetJobFromTemplate2

  @Test
  void getJobFromTemplate2_utcTimezoneAndOneAnnotation() {
    assertJobFromTemplate("UTC", Map.of("x", "y"), "2016-05-19T10:00:00Z", 2);
  }

  @Test
  void getJobFromTemplate2_nilTimezoneAndOneAnnotation() {
    assertJobFromTemplate(null, Map.of("x", "y"), "2016-05-19T10:00:00Z", 2);
  }

  @Test
  void getJobFromTemplate2_correctTimezoneAndMultipleAnnotation() {
    assertJobFromTemplate("Europe/Rome", Map.of("x", "y", "z", "x"), "2016-05-19T12:00:00+02:00", 3);
  }

  private static void assertJobFromTemplate(@Nullable String tz, Map<String, String> annotations,
      String expectedScheduled, int expectedAnnotations) {
    CronJob cj = CronJob.builder().namespace("snazzycats").name("mycronjob").uid("1a2b3c").schedule("* * * * ?")
        .timeZone(tz).jobTemplateMetadata(ObjectMeta.builder().creationTimestamp(TOP_OF_THE_HOUR)
            .labels(Map.of("a", "b")).annotations(annotations).build())
        .jobSpec(CronJobFixtures.jobSpec()).build();
    Job job = CronJobSchedules.jobFromTemplate(cj, TOP_OF_THE_HOUR);
    assertThat(job.metadata().name()).startsWith("mycronjob-").isEqualTo("mycronjob-" + 1463652000L / 60);
    assertThat(job.metadata().labels()).hasSize(1);
    assertThat(job.metadata().annotations()).hasSize(expectedAnnotations);
    assertThat(job.metadata().annotations().get(CronJobSchedules.SCHEDULED_TIMESTAMP_ANNOTATION))
        .isEqualTo(expectedScheduled);
    OwnerReference ref = job.metadata().controllerRef();
    assertThat(ref).isEqualTo(new OwnerReference("batch/v1", "CronJob", "mycronjob", "1a2b3c", true, true));
    assertThat(job.metadata().namespace()).isEqualTo("snazzycats");
    assertThat(job.spec()).isEqualTo(cj.spec().jobTemplate().spec());
  }

  // ---- TestNextScheduleTime

  @Test
  void nextScheduleTime_upstreamCases() {
    List<String> events = new ArrayList<>();
    EventRecorder recorder = (regarding, related, type, reason, action, note) -> events.add(type + " " + reason);
    CronSchedule sched = CronSchedule.parse("0 * * * ?");
    Instant t1 = TOP_OF_THE_HOUR;
    Instant t2 = deltaTimeAfterTopOfTheHour(h(1));
    CronJob.Builder b = CronJob.builder().namespace("default").name("mycronjob").uid("1a2b3c").schedule("0 * * * ?")
        .jobSpec(CronJobFixtures.jobSpec());
    // Case 1: no known start times, and none needed yet
    CronJob cj = b.creationTimestamp(t1.minus(m(10))).build();
    assertThat(CronJobSchedules.nextScheduleTime(cj, t1.minus(m(7)), sched, recorder).scheduled()).isNull();
    // Case 2: no known start times, and one needed
    assertThat(CronJobSchedules.nextScheduleTime(cj, t1.plusSeconds(2), sched, recorder).scheduled()).isEqualTo(t1);
    // Case 3: known LastScheduleTime, no start needed
    cj = b.status(new CronJobStatus(List.of(), t1, null)).build();
    assertThat(CronJobSchedules.nextScheduleTime(cj, t1.plus(m(2)), sched, recorder).scheduled()).isNull();
    // Case 4: known LastScheduleTime, a start needed
    assertThat(CronJobSchedules.nextScheduleTime(cj, t2.plus(m(5)), sched, recorder).scheduled()).isEqualTo(t2);
    // Case 5: known LastScheduleTime, two starts needed
    cj = b.creationTimestamp(t1.minus(h(2))).status(new CronJobStatus(List.of(), t1.minus(h(1)), null)).build();
    assertThat(CronJobSchedules.nextScheduleTime(cj, t2.plus(m(5)), sched, recorder).scheduled()).isEqualTo(t2);
    // Case 6: now is way way ahead of last start time, and there is no deadline
    Instant now = t2.plus(h(10 * 24));
    assertThat(CronJobSchedules.nextScheduleTime(cj, now, sched, recorder).scheduled()).isNotNull();
    // Case 7: now is way way ahead of last start time, but there is a short deadline
    cj = b.startingDeadlineSeconds(2L * 60 * 60).build();
    assertThat(CronJobSchedules.nextScheduleTime(cj, now, sched, recorder).scheduled()).isNotNull();
    // Case 8: the error from mostRecentScheduleTime gets populated up (a rogue schedule)
    cj = b.creationTimestamp(t1.plusSeconds(10)).status(CronJobStatus.EMPTY).build();
    CronJobSchedules.Next rogue = CronJobSchedules.nextScheduleTime(cj, deltaTimeAfterTopOfTheHour(h(1)),
        CronSchedule.parse("59 23 31 2 *"), recorder);
    assertThat(rogue.scheduled()).isNull();
    assertThat(rogue.error()).isNotNull();
    // case 6 missed 240 schedules: the only event, a TooManyMissedTimes warning
    assertThat(events).containsExactly(Event.WARNING + " TooManyMissedTimes");
  }

  // ---- TestByJobStartTime

  @Test
  void byJobStartTime_upstreamCases() {
    Instant now = Instant.parse("2018-01-01T02:03:04.000000005Z");
    Instant later = Instant.parse("2019-01-01T02:03:04.000000005Z");
    Job aNil = job("a", null);
    Job bNil = job("b", null);
    Job aSet = job("a", now);
    Job bSet = job("b", now);
    Job aSetLater = job("a", later);
    assertThat(sorted(bNil, aNil)).as("both have nil start times").containsExactly(aNil, bNil);
    assertThat(sorted(aNil, bSet)).as("only the first has a nil start time").containsExactly(bSet, aNil);
    assertThat(sorted(aSet, bNil)).as("only the second has a nil start time").containsExactly(aSet, bNil);
    assertThat(sorted(bSet, aSet)).as("both have non-nil, equal start time").containsExactly(aSet, bSet);
    assertThat(sorted(aSetLater, bSet)).as("both have non-nil, different start time")
        .containsExactly(bSet, aSetLater);
  }

  private static Job job(String name, @Nullable Instant start) {
    Job j = Job.builder().namespace("default").name(name).podSpec(CronJobFixtures.jobSpec().template().spec())
        .build();
    return j.withStatus(new JobStatus(0, 0, 0, null, List.of(), start, null, ""));
  }

  private static List<Job> sorted(Job... jobs) {
    List<Job> l = new ArrayList<>(List.of(jobs));
    l.sort(CronJobSchedules.BY_START_TIME);
    return l;
  }

  // ---- TestMostRecentScheduleTime

  private record MostRecentCase(String name, String schedule, Instant created, @Nullable Instant lastSchedule,
      @Nullable Long sds, boolean includeSds, Instant now, Instant expectedEarliest, @Nullable Instant expectedRecent,
      Missed expectedMissed, boolean wantErr) {}

  @Test
  void mostRecentScheduleTime_upstreamTable() {
    Instant top = TOP_OF_THE_HOUR;
    Instant halfPast = deltaTimeAfterTopOfTheHour(m(30));
    Instant minuteAfter = deltaTimeAfterTopOfTheHour(m(1));
    List<MostRecentCase> cases = List.of(
        new MostRecentCase("now before next schedule", "0 * * * *", top, null, null, false,
            top.plusSeconds(30), top, null, Missed.NONE, false),
        new MostRecentCase("now just after next schedule", "0 * * * *", top, null, null, false,
            top.plus(m(61)), top, deltaTimeAfterTopOfTheHour(m(60)), Missed.NONE, false),
        new MostRecentCase("missed 5 schedules", "0 * * * *", top.plusSeconds(10), null, null, false,
            deltaTimeAfterTopOfTheHour(m(301)), top.plusSeconds(10), deltaTimeAfterTopOfTheHour(m(300)),
            Missed.FEW, false),
        new MostRecentCase("complex schedule", "30 6-16/4 * * 1-5", top, halfPast, null, false,
            deltaTimeAfterTopOfTheHour(h(24).plus(m(31))), halfPast, deltaTimeAfterTopOfTheHour(h(24).plus(m(30))),
            Missed.FEW, false),
        new MostRecentCase("another complex schedule", "30 10,11,12 * * 1-5", top, halfPast, null, false,
            deltaTimeAfterTopOfTheHour(h(30).plus(m(30))), halfPast, null, Missed.FEW, false),
        new MostRecentCase("complex schedule with longer diff between executions", "30 6-16/4 * * 1-5", top,
            halfPast, null, false, deltaTimeAfterTopOfTheHour(h(96).plus(m(31))), halfPast,
            deltaTimeAfterTopOfTheHour(h(96).plus(m(30))), Missed.FEW, false),
        new MostRecentCase("complex schedule with shorter diff between executions", "30 6-16/4 * * 1-5", top,
            null, null, false, deltaTimeAfterTopOfTheHour(h(24).plus(m(31))), top,
            deltaTimeAfterTopOfTheHour(h(24).plus(m(30))), Missed.FEW, false),
        new MostRecentCase("@every schedule", "@every 1h", deltaTimeAfterTopOfTheHour(m(-59)), minuteAfter, 10L,
            false, deltaTimeAfterTopOfTheHour(h(7 * 24)),
            minuteAfter, deltaTimeAfterTopOfTheHour(h(6 * 24 + 23).plus(m(1))), Missed.MANY, false),
        new MostRecentCase("rogue cronjob", "59 23 31 2 *", top.plusSeconds(10), null, null, false,
            deltaTimeAfterTopOfTheHour(h(1)), top.plusSeconds(10), null, Missed.NONE, true),
        new MostRecentCase("earliestTime being CreationTimestamp and LastScheduleTime", "0 * * * *", top, top, null,
            false, top.plusSeconds(30), top, null, Missed.NONE, false),
        new MostRecentCase("earliestTime being LastScheduleTime", "*/5 * * * *", top, halfPast, null, false,
            deltaTimeAfterTopOfTheHour(m(31)), halfPast, null, Missed.NONE, false),
        new MostRecentCase("earliestTime being LastScheduleTime (within StartingDeadlineSeconds)", "*/5 * * * *",
            top, halfPast, 60L, false, deltaTimeAfterTopOfTheHour(m(31)), halfPast, null, Missed.NONE, false),
        new MostRecentCase("earliestTime being LastScheduleTime (outside StartingDeadlineSeconds)", "*/5 * * * *",
            top, halfPast, 60L, true, deltaTimeAfterTopOfTheHour(m(32)), deltaTimeAfterTopOfTheHour(m(31)), null,
            Missed.NONE, false));
    for (MostRecentCase c : cases) {
      CronJob cj = CronJob.builder().name("cj").schedule(c.schedule()).creationTimestamp(c.created())
          .startingDeadlineSeconds(c.sds()).status(new CronJobStatus(List.of(), c.lastSchedule(), null))
          .jobSpec(CronJobFixtures.jobSpec()).build();
      MostRecent got = CronJobSchedules.mostRecentScheduleTime(cj, c.now(), CronSchedule.parse(c.schedule()),
          c.includeSds());
      if (c.wantErr()) {
        assertThat(got.error()).as(c.name()).isNotNull();
        continue;
      }
      assertThat(got.error()).as(c.name()).isNull();
      assertThat(got.earliest()).as(c.name()).isEqualTo(c.expectedEarliest());
      assertThat(got.mostRecent()).as(c.name()).isEqualTo(c.expectedRecent());
      assertThat(got.missed()).as(c.name()).isEqualTo(c.expectedMissed());
    }
  }

  // ---- TestNextScheduleTimeDuration

  @Test
  void nextScheduleTimeDuration_upstreamTable() {
    Instant halfPast = deltaTimeAfterTopOfTheHour(m(30));
    Instant twoHoursLater = deltaTimeAfterTopOfTheHour(h(2));
    assertDuration("complex schedule skipping weekend", "30 6-16/4 * * 1-5", halfPast,
        deltaTimeAfterTopOfTheHour(h(24).plus(m(31))), h(3).plus(m(59)).plus(DELTA));
    assertDuration("another complex schedule skipping weekend", "30 10,11,12 * * 1-5", halfPast,
        deltaTimeAfterTopOfTheHour(h(30).plus(m(30))), h(66).plus(DELTA));
    assertDuration("once a week cronjob, missed two runs", "0 12 * * 4", twoHoursLater,
        deltaTimeAfterTopOfTheHour(h(19 * 24 + 1).plus(m(30))), h(48).plus(m(30)).plus(DELTA));
    assertDuration("no previous run of a cronjob", "0 12 * * 5", null, deltaTimeAfterTopOfTheHour(h(6)),
        h(20).plus(DELTA));
  }

  private static void assertDuration(String name, String schedule, @Nullable Instant lastSchedule, Instant now,
      Duration expected) {
    CronJob cj = CronJob.builder().name("cj").schedule(schedule).creationTimestamp(TOP_OF_THE_HOUR)
        .status(new CronJobStatus(List.of(), lastSchedule, null)).jobSpec(CronJobFixtures.jobSpec()).build();
    Duration got = CronJobSchedules.nextScheduleTimeDuration(cj, now, CronSchedule.parse(schedule));
    assertThat(got).as(name).isNotNull();
    assertThat(got.isNegative()).as(name + ": never negative").isFalse();
    assertThat(got).as(name).isEqualTo(expected);
  }

  // ---- cronjob_controllerv2_test.go TestControllerV2UpdateCronJob: the delay after a schedule change

  @Test
  void updateCronJob_scheduleChanged_requeuedForTheNewSchedule() {
    Instant now = CronJobFixtures.JUST_A_SECOND_BEFORE_THE_HOUR;
    assertUpdateDelay("spec.schedule changed", "*/1 * * * *", now, Duration.ofSeconds(1).plus(DELTA));
    assertUpdateDelay("spec.schedule with @every changed - cadence decrease", "@every 3m", now,
        m(2).plusSeconds(1).plus(DELTA));
    assertUpdateDelay("spec.schedule with @every changed - cadence increase", "@every 1m", now,
        Duration.ofSeconds(1).plus(DELTA));
  }

  private static void assertUpdateDelay(String name, String newSchedule, Instant now, Duration expected) {
    CronJob cj = CronJob.builder().name("cj").schedule(newSchedule)
        .status(new CronJobStatus(List.of(), CronJobFixtures.JUST_BEFORE_THE_HOUR, null))
        .jobSpec(CronJobFixtures.jobSpec()).build();
    Duration got = CronJobSchedules.nextScheduleTimeDuration(cj, now, CronSchedule.parse(newSchedule));
    assertThat(got).as(name).isEqualTo(expected);
  }
}
