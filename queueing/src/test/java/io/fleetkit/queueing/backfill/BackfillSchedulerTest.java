package io.fleetkit.queueing.backfill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class BackfillSchedulerTest {
  private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
  private static final Partition BATCH = Partition.of("batch", Duration.ofMinutes(30), Duration.ofHours(4));
  private final BackfillScheduler backfill = new BackfillScheduler(BackfillConfig.DEFAULT, List.of(BATCH));

  private static BatchJob job(String id, int nodes, int minutes) {
    return BatchJob.of(id, nodes, Duration.ofMinutes(minutes), NOW);
  }

  private static Instant at(int minutes) {
    return NOW.plus(Duration.ofMinutes(minutes));
  }

  /**
   * 4 nodes: r1 holds 2 until +60, r2 holds 1 until +30. Pending in priority order: A (4 nodes, 60 min), B (1, 20), C
   * (1, 90), D (2, 30).
   */
  @Test
  void plan_fourNodes_startsOnlyJobsThatFinishBeforeTheReservations() {
    List<RunningJob> running = List.of(
        new RunningJob("r1", 2, NOW.minus(Duration.ofMinutes(60)), Duration.ofMinutes(120)),
        new RunningJob("r2", 1, NOW.minus(Duration.ofMinutes(10)), Duration.ofMinutes(40)));
    BackfillPlan plan = backfill.plan(NOW, 4, running,
        List.of(job("A", 4, 60), job("B", 1, 20), job("C", 1, 90), job("D", 2, 30)));
    // A waits for the whole machine at +60; B fits in the one free node and ends at +20, before A.
    // C (90 min) would still run at +60, so it goes after A; D fits the two nodes free in [+30, +60).
    assertThat(plan.startNow()).containsExactly("B");
    assertThat(plan.expectedStart()).containsExactlyInAnyOrderEntriesOf(Map.of(
        "A", at(60), "B", at(0), "C", at(120), "D", at(30)));
    assertThat(plan.pendingReasons()).containsExactlyInAnyOrderEntriesOf(Map.of(
        "A", "Resources", "C", "Resources", "D", "Resources"));
  }

  @Test
  void plan_lowerPriorityJobWouldOverlapTheTopReservation_waits() {
    List<RunningJob> running = List.of(new RunningJob("r", 3, NOW, Duration.ofMinutes(30)));
    BackfillPlan plan = backfill.plan(NOW, 4, running, List.of(job("top", 4, 60), job("long", 1, 31)));
    assertThat(plan.startNow()).isEmpty();
    assertThat(plan.expectedStart()).containsEntry("top", at(30)).containsEntry("long", at(90));
    BackfillPlan shorter = backfill.plan(NOW, 4, running, List.of(job("top", 4, 60), job("short", 1, 30)));
    assertThat(shorter.startNow()).containsExactly("short");
    assertThat(shorter.expectedStart()).containsEntry("top", at(30));
  }

  @Test
  void plan_jobWithoutTimeLimit_usesThePartitionDefaultTime() {
    List<RunningJob> running = List.of(new RunningJob("r", 3, NOW, Duration.ofMinutes(45)));
    BatchJob noLimit = BatchJob.of("default-time", 1, null, NOW);
    BackfillPlan plan = backfill.plan(NOW, 4, running, List.of(job("top", 4, 10), noLimit));
    // DefaultTime 30 min ends before the top job's reservation at +45.
    assertThat(plan.startNow()).containsExactly("default-time");
    BackfillPlan tight = new BackfillScheduler(BackfillConfig.DEFAULT,
        List.of(Partition.of("batch", Duration.ofMinutes(50), Duration.ofHours(4))))
        .plan(NOW, 4, running, List.of(job("top", 4, 10), noLimit));
    assertThat(tight.startNow()).isEmpty();
    assertThat(tight.expectedStart()).containsEntry("default-time", at(55));
  }

  @Test
  void plan_timeLimitAboveMaxTime_isPendingWithPartitionTimeLimit() {
    BackfillPlan plan = backfill.plan(NOW, 4, List.of(), List.of(job("huge", 1, 5 * 60), job("big", 5, 10)));
    assertThat(plan.startNow()).isEmpty();
    assertThat(plan.pendingReasons())
        .containsEntry("huge", "PartitionTimeLimit").containsEntry("big", "PartitionNodeLimit");
  }

  @Test
  void plan_startBeyondTheWindow_getsNoReservationAndDoesNotBlockOthers() {
    BackfillScheduler shortWindow =
        new BackfillScheduler(BackfillConfig.DEFAULT.withWindow(Duration.ofMinutes(60)), List.of(BATCH));
    List<RunningJob> running = List.of(new RunningJob("r", 4, NOW, Duration.ofMinutes(120)));
    BackfillPlan plan = shortWindow.plan(NOW, 6, running, List.of(job("wide", 6, 10), job("small", 2, 180)));
    assertThat(plan.pendingReasons()).containsEntry("wide", "BackfillWindow");
    assertThat(plan.startNow()).containsExactly("small");
  }

  @Test
  void plan_runningJobPastItsLimit_freesItsNodesAtTheNextResolutionStep() {
    List<RunningJob> running = List.of(new RunningJob("late", 4, NOW.minus(Duration.ofHours(2)),
        Duration.ofMinutes(60)));
    BackfillPlan plan = backfill.plan(NOW, 4, running, List.of(job("next", 4, 10)));
    assertThat(plan.expectedStart()).containsEntry("next", NOW.plusSeconds(60));
  }

  @Test
  void plan_resolution_roundsEndTimesUp() {
    List<RunningJob> running = List.of(new RunningJob("r", 4, NOW, Duration.ofSeconds(61)));
    BackfillPlan plan = backfill.plan(NOW, 4, running, List.of(job("next", 1, 1)));
    assertThat(plan.expectedStart()).containsEntry("next", NOW.plusSeconds(120));
  }

  @Test
  void plan_maxJobTest_leavesTheRestUntested() {
    BackfillScheduler one = new BackfillScheduler(new BackfillConfig(Duration.ofDays(1), Duration.ofSeconds(60), 1),
        List.of(BATCH));
    BackfillPlan plan = one.plan(NOW, 4, List.of(), List.of(job("a", 1, 10), job("b", 1, 10)));
    assertThat(plan.startNow()).containsExactly("a");
    assertThat(plan.pendingReasons()).containsEntry("b", "NotTested");
  }

  @Test
  void plan_runningJobsExceedThePool_isRejected() {
    assertThatThrownBy(() -> backfill.plan(NOW, 2, List.of(new RunningJob("r", 3, NOW, null)), List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("running jobs hold 3 nodes but the pool has 2");
  }
}
