package io.fleetkit.reconcile.rollouts.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.rollouts.AnalysisPhase;
import io.fleetkit.api.rollouts.AnalysisRun;
import io.fleetkit.api.rollouts.AnalysisRunSpec;
import io.fleetkit.api.rollouts.AnalysisRunStatus;
import io.fleetkit.api.rollouts.Measurement;
import io.fleetkit.api.rollouts.Metric;
import io.fleetkit.api.rollouts.MetricProvider;
import io.fleetkit.api.rollouts.MetricResult;
import io.fleetkit.reconcile.rollouts.internal.AnalysisAssessment.RunVerdict;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/** Cases ported from argoproj/argo-rollouts {@code analysis/analysis_test.go}. */
final class AnalysisAssessmentTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
  private static final MetricProvider P = new MetricProvider.Simulated("error-rate");

  private static Metric metric(String name) {
    return Metric.of(name, P);
  }

  private static Metric every60s(String name) {
    return metric(name).withInterval(Duration.ofSeconds(60));
  }

  private static Measurement done(AnalysisPhase phase, long secondsAgo) {
    Instant t = NOW.minusSeconds(secondsAgo);
    return new Measurement(phase, "99", t, t, null, "");
  }

  private static Measurement inFlight(long secondsAgo, @Nullable Instant resumeAt) {
    return new Measurement(AnalysisPhase.Successful, "99", NOW.minusSeconds(secondsAgo), null, resumeAt, "");
  }

  private static MetricResult result(String name, AnalysisPhase phase, int count, int successful, int failed,
      int inconclusive, int error, int consecutiveError, int consecutiveSuccess, Measurement... ms) {
    return new MetricResult(name, phase, List.of(ms), count, successful, failed, inconclusive, error,
        consecutiveError, consecutiveSuccess, "", false);
  }

  private static MetricResult counts(int count, int successful, int failed, int inconclusive,
      int consecutiveError, int consecutiveSuccess, AnalysisPhase lastPhase) {
    return result("m", AnalysisPhase.Running, count, successful, failed, inconclusive, 0, consecutiveError,
        consecutiveSuccess, done(lastPhase, 60));
  }

  private static AnalysisRun run(List<Metric> metrics, List<MetricResult> results, @Nullable Instant startedAt) {
    return new AnalysisRun(ObjectMeta.of("default", "run"), new AnalysisRunSpec(metrics, List.of(), false),
        new AnalysisRunStatus(AnalysisPhase.Running, "", results, startedAt));
  }

  private static List<String> due(AnalysisRun run) {
    return AnalysisAssessment.dueMetrics(run, NOW).stream().map(t -> t.metric().name()).toList();
  }

  // TestGenerateMetricTasksInterval
  @Test
  void generateTasks_interval() {
    List<Metric> ms = List.of(every60s("success-rate"));
    assertThat(due(run(ms, List.of(result("success-rate", AnalysisPhase.Running, 0, 0, 0, 0, 0, 0, 0,
        done(AnalysisPhase.Successful, 50))), null))).isEmpty();
    assertThat(due(run(ms, List.of(result("success-rate", AnalysisPhase.Running, 0, 0, 0, 0, 0, 0, 0,
        done(AnalysisPhase.Successful, 61))), null))).containsExactly("success-rate");
  }

  // TestGenerateMetricTasksFailing
  @Test
  void generateTasks_noneOnceAMetricFailed() {
    List<Metric> ms = List.of(metric("success-rate"), metric("latency"));
    assertThat(due(run(ms, List.of(result("latency", AnalysisPhase.Failed, 0, 0, 0, 0, 0, 0, 0)), null)))
        .isEmpty();
    assertThat(due(run(ms, List.of(), null))).hasSize(2);
  }

  // TestGenerateMetricTasksNoIntervalOrCount
  @Test
  void generateTasks_noIntervalOrCount_oneMeasurement() {
    List<Metric> ms = List.of(metric("success-rate"));
    assertThat(due(run(ms, List.of(result("success-rate", AnalysisPhase.Running, 1, 0, 0, 0, 0, 0, 0,
        done(AnalysisPhase.Successful, 50))), null))).isEmpty();
    assertThat(due(run(ms, List.of(result("success-rate", AnalysisPhase.Running, 0, 0, 0, 0, 0, 0, 0)), null)))
        .hasSize(1);
  }

  // TestGenerateMetricTasksIncomplete
  @Test
  void generateTasks_inFlight_isResumed() {
    List<AnalysisAssessment.Task> tasks = AnalysisAssessment.dueMetrics(run(List.of(metric("success-rate")),
        List.of(result("success-rate", AnalysisPhase.Running, 0, 0, 0, 0, 0, 0, 0, inFlight(50, null))), null), NOW);
    assertThat(tasks).hasSize(1);
    assertThat(tasks.get(0).incomplete()).isNotNull();
  }

  // TestGenerateMetricTasksHonorInitialDelay (3 of 4: an invalid delay string cannot be built here)
  @Test
  void generateTasks_honorInitialDelay() {
    List<Metric> ms = List.of(metric("success-rate").withInitialDelay(Duration.ofSeconds(20)));
    assertThat(due(run(ms, List.of(), null))).isEmpty();
    assertThat(due(run(ms, List.of(), NOW.minusSeconds(10)))).isEmpty();
    assertThat(due(run(ms, List.of(), NOW.minusSeconds(20)))).hasSize(1);
  }

  // TestGenerateMetricTasksHonorResumeAt
  @Test
  void generateTasks_honorResumeAt() {
    List<Metric> ms = List.of(metric("success-rate"), metric("success-rate2"));
    AnalysisRun r = run(ms, List.of(
        result("success-rate", AnalysisPhase.Running, 0, 0, 0, 0, 0, 0, 0, inFlight(50, NOW.plusSeconds(10))),
        result("success-rate2", AnalysisPhase.Running, 0, 0, 0, 0, 0, 0, 0, inFlight(50, NOW.minusSeconds(10)))),
        null);
    assertThat(due(r)).containsExactly("success-rate2");
  }

  // TestGenerateMetricTasksError
  @Test
  void generateTasks_afterError_retriesAfter10s() {
    MetricResult errored = result("success-rate", AnalysisPhase.Running, 0, 0, 0, 0, 1, 1, 0,
        done(AnalysisPhase.Error, 120));
    assertThat(due(run(List.of(metric("success-rate")), List.of(errored), null))).hasSize(1);
    assertThat(due(run(List.of(metric("success-rate").withInterval(Duration.ofMinutes(5))), List.of(errored),
        null))).hasSize(1);
  }

  // TestAssessRunStatus
  @Test
  void assessRun_runningWhileAnyRuns_thenWorst() {
    List<Metric> ms = List.of(metric("latency"), metric("success-rate"));
    List<MetricResult> rs = new ArrayList<>(List.of(result("latency", AnalysisPhase.Successful, 0, 0, 0, 0, 0, 0,
        0), result("success-rate", AnalysisPhase.Running, 0, 0, 0, 0, 0, 0, 0)));
    assertThat(AnalysisAssessment.assessRun(ms, rs, false, Set.of()))
        .isEqualTo(new RunVerdict(AnalysisPhase.Running, ""));
    rs = new ArrayList<>(List.of(result("latency", AnalysisPhase.Successful, 0, 0, 0, 0, 0, 0, 0),
        result("success-rate", AnalysisPhase.Failed, 0, 0, 0, 0, 0, 0, 0)));
    assertThat(AnalysisAssessment.assessRun(ms, rs, false, Set.of()))
        .isEqualTo(new RunVerdict(AnalysisPhase.Failed, ""));
  }

  // TestAssessRunStatusUpdateResult
  @Test
  void assessRun_updatesMetricPhases() {
    List<Metric> ms = List.of(metric("sleep-infinity"), metric("fail-after-30"));
    Measurement running = new Measurement(AnalysisPhase.Running, "", NOW.minusSeconds(60), null, null, "");
    List<MetricResult> rs = new ArrayList<>(List.of(
        result("sleep-infinity", AnalysisPhase.Running, 0, 0, 0, 0, 0, 0, 0, running),
        result("fail-after-30", AnalysisPhase.Running, 1, 0, 1, 0, 0, 0, 0, done(AnalysisPhase.Failed, 60))));
    assertThat(AnalysisAssessment.assessRun(ms, rs, false, Set.of()))
        .isEqualTo(new RunVerdict(AnalysisPhase.Running, ""));
    assertThat(rs.get(1).phase()).isEqualTo(AnalysisPhase.Failed);
  }

  // TestAssessMetricStatusNoMeasurements, TestAssessMetricStatusInFlightMeasurement
  @Test
  void assessMetric_noMeasurements_andInFlight() {
    MetricResult none = result("m", AnalysisPhase.Running, 0, 0, 0, 0, 0, 0, 0);
    assertThat(AnalysisAssessment.assessMetric(metric("m"), none, false)).isEqualTo(AnalysisPhase.Pending);
    assertThat(AnalysisAssessment.assessMetric(metric("m"), none, true)).isEqualTo(AnalysisPhase.Successful);
    MetricResult flying = result("m", AnalysisPhase.Running, 0, 0, 0, 0, 0, 0, 0,
        done(AnalysisPhase.Successful, 60), new Measurement(AnalysisPhase.Running, "99", NOW, null, null, ""));
    assertThat(AnalysisAssessment.assessMetric(metric("m"), flying, false)).isEqualTo(AnalysisPhase.Running);
    assertThat(AnalysisAssessment.assessMetric(metric("m"), flying, true)).isEqualTo(AnalysisPhase.Running);
  }

  private static void expect(Metric m, MetricResult r, AnalysisPhase notTerminating, AnalysisPhase terminating) {
    assertThat(AnalysisAssessment.assessMetric(m, r, false)).as("not terminating: " + r).isEqualTo(notTerminating);
    assertThat(AnalysisAssessment.assessMetric(m, r, true)).as("terminating: " + r).isEqualTo(terminating);
  }

  // TestAssessMetricStatusFailureLimit
  @Test
  void assessMetric_failureLimit() {
    MetricResult r = counts(3, 0, 3, 0, 0, 0, AnalysisPhase.Failed);
    expect(every60s("m").withLimits(2, 0, 4, 0), r, AnalysisPhase.Failed, AnalysisPhase.Failed);
    expect(every60s("m").withLimits(3, 0, 4, 0), r, AnalysisPhase.Running, AnalysisPhase.Successful);
  }

  // TestAssessMetricStatusConsecutiveSuccessLimit
  @Test
  void assessMetric_consecutiveSuccessLimit() {
    MetricResult r = counts(7, 4, 3, 0, 0, 3, AnalysisPhase.Failed);
    Metric m = every60s("m").withLimits(-1, 0, 4, 3);
    expect(m, r, AnalysisPhase.Successful, AnalysisPhase.Successful);
    m = m.withLimits(-1, 0, 4, 5);
    expect(m, r, AnalysisPhase.Running, AnalysisPhase.Successful);
    expect(m.withCount(7), r, AnalysisPhase.Failed, AnalysisPhase.Failed);
    expect(m.withCount(7).withLimits(-1, 0, 4, 3), r, AnalysisPhase.Successful, AnalysisPhase.Successful);
    expect(m.withCount(9).withLimits(-1, 0, 4, 3), r, AnalysisPhase.Successful, AnalysisPhase.Successful);
    expect(m.withCount(9).withLimits(-1, 0, 4, 5), r, AnalysisPhase.Running, AnalysisPhase.Successful);
  }

  // TestAssessMetricStatusFailureLimitAndConsecutiveSuccessLimit (12 checks)
  @Test
  void assessMetric_failureLimitAndConsecutiveSuccessLimit() {
    Metric m = every60s("m").withLimits(4, 0, 4, 4);
    AnalysisPhase run = AnalysisPhase.Running;
    AnalysisPhase ok = AnalysisPhase.Successful;
    AnalysisPhase fail = AnalysisPhase.Failed;
    AnalysisPhase inc = AnalysisPhase.Inconclusive;
    expect(m, counts(7, 4, 3, 0, 0, 3, fail), run, ok);
    expect(m, counts(9, 9, 5, 0, 0, 0, fail), fail, fail);
    expect(m, counts(8, 5, 3, 0, 0, 4, fail), ok, ok);
    expect(m, counts(10, 5, 5, 0, 0, 4, fail), fail, fail);
    Metric c = m.withCount(10);
    expect(c, counts(10, 6, 4, 0, 0, 3, fail), inc, inc);
    expect(c, counts(10, 5, 5, 0, 0, 3, fail), fail, fail);
    expect(c, counts(10, 6, 4, 0, 0, 4, fail), ok, ok);
    expect(c, counts(10, 5, 5, 0, 0, 4, fail), fail, fail);
    expect(c, counts(8, 5, 3, 0, 0, 3, fail), run, ok);
    expect(c, counts(8, 3, 5, 0, 0, 3, fail), fail, fail);
    expect(c, counts(8, 5, 3, 0, 0, 4, fail), ok, ok);
    expect(c, counts(9, 4, 5, 0, 0, 4, fail), fail, fail);
  }

  // TestAssessMetricStatusInconclusiveLimit
  @Test
  void assessMetric_inconclusiveLimit() {
    MetricResult r = counts(3, 0, 0, 3, 0, 0, AnalysisPhase.Inconclusive);
    expect(every60s("m").withLimits(0, 2, 4, 0), r, AnalysisPhase.Inconclusive, AnalysisPhase.Inconclusive);
    expect(every60s("m").withLimits(0, 3, 4, 0), r, AnalysisPhase.Running, AnalysisPhase.Successful);
  }

  // TestAssessMetricStatusConsecutiveErrors
  @Test
  void assessMetric_consecutiveErrors() {
    expect(every60s("m"), counts(5, 0, 0, 0, 5, 0, AnalysisPhase.Error), AnalysisPhase.Error, AnalysisPhase.Error);
    expect(every60s("m"), counts(5, 0, 0, 0, 4, 0, AnalysisPhase.Error), AnalysisPhase.Running,
        AnalysisPhase.Successful);
  }

  // TestAssessMetricStatusCountReached
  @Test
  void assessMetric_countReached() {
    Metric m = metric("m").withCount(10);
    assertThat(AnalysisAssessment.assessMetric(m, counts(10, 10, 0, 0, 0, 0, AnalysisPhase.Successful), false))
        .isEqualTo(AnalysisPhase.Successful);
    assertThat(AnalysisAssessment.assessMetric(m, counts(10, 5, 0, 5, 0, 0, AnalysisPhase.Successful), false))
        .isEqualTo(AnalysisPhase.Inconclusive);
  }

  // TestCalculateNextReconcileTimeInterval
  @Test
  void nextReconcile_interval_inFlight_completed() {
    List<Metric> ms = List.of(every60s("success-rate"));
    assertThat(AnalysisAssessment.nextMeasurementTime(run(ms, List.of(result("success-rate",
        AnalysisPhase.Running, 0, 0, 0, 0, 0, 0, 0, done(AnalysisPhase.Successful, 30))), null)))
        .isEqualTo(NOW.plusSeconds(30));
    assertThat(AnalysisAssessment.nextMeasurementTime(run(ms, List.of(result("success-rate",
        AnalysisPhase.Running, 0, 0, 0, 0, 0, 0, 0, new Measurement(AnalysisPhase.Running, "99",
            NOW.minusSeconds(30), null, null, ""))), null))).isNull();
    assertThat(AnalysisAssessment.nextMeasurementTime(run(ms, List.of(result("success-rate",
        AnalysisPhase.Successful, 0, 0, 0, 0, 0, 0, 0, done(AnalysisPhase.Successful, 120))), null))).isNull();
  }

  // TestCalculateNextReconcileTimeInitialDelay (1 of 2: an invalid delay string cannot be built here)
  @Test
  void nextReconcile_initialDelay() {
    List<Metric> ms = List.of(every60s("success-rate"),
        every60s("start-delay").withInitialDelay(Duration.ofSeconds(40)));
    assertThat(AnalysisAssessment.nextMeasurementTime(run(ms, List.of(result("success-rate",
        AnalysisPhase.Running, 0, 0, 0, 0, 0, 0, 0, done(AnalysisPhase.Successful, 30))), NOW.minusSeconds(30))))
        .isEqualTo(NOW.plusSeconds(10));
  }

  // TestCalculateNextReconcileTimeNoInterval
  @Test
  void nextReconcile_noInterval_none() {
    assertThat(AnalysisAssessment.nextMeasurementTime(run(List.of(metric("success-rate").withCount(1)),
        List.of(result("success-rate", AnalysisPhase.Successful, 0, 0, 0, 0, 0, 0, 0,
            done(AnalysisPhase.Successful, 0))), null))).isNull();
  }

  // TestCalculateNextReconcileEarliestMetric
  @Test
  void nextReconcile_earliestMetric() {
    List<Metric> ms = List.of(every60s("success-rate"), every60s("latency"));
    assertThat(AnalysisAssessment.nextMeasurementTime(run(ms, List.of(
        result("success-rate", AnalysisPhase.Running, 0, 0, 0, 0, 0, 0, 0, done(AnalysisPhase.Successful, 30)),
        result("latency", AnalysisPhase.Running, 0, 0, 0, 0, 0, 0, 0, done(AnalysisPhase.Successful, 50))), null)))
        .isEqualTo(NOW.plusSeconds(10));
  }

  // TestCalculateNextReconcileHonorResumeAt
  @Test
  void nextReconcile_honorResumeAt() {
    assertThat(AnalysisAssessment.nextMeasurementTime(run(List.of(every60s("success-rate")), List.of(
        result("success-rate", AnalysisPhase.Running, 0, 0, 0, 0, 0, 0, 0, inFlight(30, NOW.plusSeconds(10)))),
        null))).isEqualTo(NOW.plusSeconds(10));
  }

  // TestCalculateNextReconcileUponError
  @Test
  void nextReconcile_uponError_10s() {
    MetricResult errored = result("success-rate", AnalysisPhase.Running, 0, 0, 0, 0, 1, 1, 0,
        done(AnalysisPhase.Error, 0));
    assertThat(AnalysisAssessment.nextMeasurementTime(run(List.of(metric("success-rate")), List.of(errored),
        null))).isEqualTo(NOW.plusSeconds(10));
    assertThat(AnalysisAssessment.nextMeasurementTime(run(List.of(metric("success-rate")
        .withInterval(Duration.ofMinutes(5))), List.of(errored), null))).isEqualTo(NOW.plusSeconds(10));
  }

  // TestRunMeasurementsResetConsecutiveErrorCounter (the counter rules of runMeasurements)
  @Test
  void record_successResetsConsecutiveErrors() {
    MetricResult r = result("m", AnalysisPhase.Running, 0, 0, 0, 0, 2, 2, 0, done(AnalysisPhase.Error, 10));
    MetricResult after = AnalysisAssessment.record(r, done(AnalysisPhase.Successful, 0), false);
    assertThat(after.consecutiveError()).isZero();
    assertThat(after.count()).isEqualTo(1);
    assertThat(after.successful()).isEqualTo(1);
    assertThat(after.error()).isEqualTo(2);
    MetricResult err = AnalysisAssessment.record(after, done(AnalysisPhase.Error, 0), false);
    assertThat(err.count()).as("errors are not counted").isEqualTo(1);
    assertThat(err.consecutiveError()).isEqualTo(1);
    assertThat(err.consecutiveSuccess()).isZero();
  }

  // TestTrimMeasurementHistory
  @Test
  void record_keepsTenMeasurements() {
    MetricResult r = MetricResult.start("m", false);
    for (int i = 0; i < 12; i++) {
      r = AnalysisAssessment.record(r, done(AnalysisPhase.Successful, 12 - i), false);
    }
    assertThat(r.measurements()).hasSize(10);
    assertThat(r.measurements().get(0).finishedAt()).isEqualTo(NOW.minusSeconds(10));
    assertThat(r.count()).isEqualTo(12);
  }

  // TestAssessMetricFailureInconclusiveOrError
  @Test
  void failureInconclusiveOrError_messages() {
    Metric m = metric("m");
    MetricResult failed = result("m", AnalysisPhase.Running, 0, 0, 1, 0, 0, 0, 0, done(AnalysisPhase.Failed, 0));
    assertThat(AnalysisAssessment.failureInconclusiveOrError(m, failed))
        .isEqualTo(new RunVerdict(AnalysisPhase.Failed, "failed (1) > failureLimit (0)"));
    assertThat(AnalysisAssessment.assessMetric(m, failed, true)).isEqualTo(AnalysisPhase.Failed);
    MetricResult inconclusive = result("m", AnalysisPhase.Running, 0, 0, 0, 1, 0, 0, 0,
        done(AnalysisPhase.Inconclusive, 0));
    assertThat(AnalysisAssessment.failureInconclusiveOrError(m, inconclusive))
        .isEqualTo(new RunVerdict(AnalysisPhase.Inconclusive, "inconclusive (1) > inconclusiveLimit (0)"));
    assertThat(AnalysisAssessment.assessMetric(m, inconclusive, true)).isEqualTo(AnalysisPhase.Inconclusive);
    MetricResult errors = result("m", AnalysisPhase.Running, 0, 0, 0, 0, 0, 5, 0, done(AnalysisPhase.Error, 0));
    assertThat(AnalysisAssessment.failureInconclusiveOrError(m, errors))
        .isEqualTo(new RunVerdict(AnalysisPhase.Error, "consecutiveErrors (5) > consecutiveErrorLimit (4)"));
    assertThat(AnalysisAssessment.assessMetric(m, errors, true)).isEqualTo(AnalysisPhase.Error);
    assertThat(AnalysisAssessment.failureInconclusiveOrError(m, counts(1, 1, 0, 0, 0, 1, AnalysisPhase.Successful)))
        .isNull();
  }

  /** newTerminatingRun(Failed, dryRun) with the first metric already Successful, as the Go helper sets it. */
  private static List<MetricResult> terminatingRun(boolean dryRun, String providerMessage) {
    Measurement running = new Measurement(AnalysisPhase.Running, "", NOW.minusSeconds(60), null, null, "");
    return new ArrayList<>(List.of(
        new MetricResult("run-forever", AnalysisPhase.Successful, List.of(running), 0, 0, 0, 0, 0, 0, 0, "", dryRun),
        new MetricResult("failed-metric", AnalysisPhase.Failed, List.of(done(AnalysisPhase.Failed, 60)), 1, 0, 1, 0,
            0, 0, 0, providerMessage, dryRun)));
  }

  // TestAssessRunStatusErrorMessageAnalysisPhaseFail, ...InDryRunMode, ...FromProvider, ...FromProviderInDryRunMode
  @Test
  void assessRun_failureMessages_andDryRun() {
    List<Metric> ms = List.of(metric("run-forever"), metric("failed-metric"));
    assertThat(AnalysisAssessment.assessRun(ms, terminatingRun(false, ""), false, Set.of()))
        .isEqualTo(new RunVerdict(AnalysisPhase.Failed,
            "Metric \"failed-metric\" assessed Failed due to failed (1) > failureLimit (0)"));
    Set<String> both = Set.of("run-forever", "failed-metric");
    List<MetricResult> dry = terminatingRun(true, "");
    assertThat(AnalysisAssessment.assessRun(ms, dry, false, both))
        .isEqualTo(new RunVerdict(AnalysisPhase.Successful, ""));
    assertThat(dry.get(1).message()).isEqualTo("Metric assessed Failed due to failed (1) > failureLimit (0)");
    assertThat(AnalysisAssessment.assessRun(ms, terminatingRun(false, "Provider Error"), false, Set.of()))
        .isEqualTo(new RunVerdict(AnalysisPhase.Failed, "Metric \"failed-metric\" assessed Failed due to failed (1)"
            + " > failureLimit (0): \"Error Message: Provider Error\""));
    assertThat(AnalysisAssessment.assessRun(ms, terminatingRun(true, "Provider Error"), false, both))
        .isEqualTo(new RunVerdict(AnalysisPhase.Successful, ""));
  }

  @Test
  void worst_order() {
    assertThat(AnalysisAssessment.worst(AnalysisPhase.Successful, AnalysisPhase.Inconclusive))
        .isEqualTo(AnalysisPhase.Inconclusive);
    assertThat(AnalysisAssessment.worst(AnalysisPhase.Failed, AnalysisPhase.Error)).isEqualTo(AnalysisPhase.Failed);
    assertThat(AnalysisAssessment.isWorse(AnalysisPhase.Running, AnalysisPhase.Successful)).isFalse();
  }

  // utils/analysis/helpers_test.go TestIsWorst: all 16 pairs of Successful, Inconclusive, Error, Failed
  @Test
  void isWorse_helpersTestIsWorst_all16Pairs() {
    AnalysisPhase[] order = {AnalysisPhase.Successful, AnalysisPhase.Inconclusive, AnalysisPhase.Error,
        AnalysisPhase.Failed};
    for (int i = 0; i < order.length; i++) {
      for (int j = 0; j < order.length; j++) {
        assertThat(AnalysisAssessment.isWorse(order[i], order[j])).as("%s -> %s", order[i], order[j])
            .isEqualTo(j > i);
      }
    }
  }

  // utils/analysis/helpers_test.go TestWorst
  @Test
  void worst_helpersTestWorst_eitherOrder() {
    assertThat(AnalysisAssessment.worst(AnalysisPhase.Successful, AnalysisPhase.Failed))
        .isEqualTo(AnalysisPhase.Failed);
    assertThat(AnalysisAssessment.worst(AnalysisPhase.Failed, AnalysisPhase.Successful))
        .isEqualTo(AnalysisPhase.Failed);
  }
}
