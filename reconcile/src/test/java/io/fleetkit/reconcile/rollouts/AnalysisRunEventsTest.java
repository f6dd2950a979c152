package io.fleetkit.reconcile.rollouts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.rollouts.AnalysisPhase;
import io.fleetkit.api.rollouts.AnalysisRun;
import io.fleetkit.api.rollouts.AnalysisRunSpec;
import io.fleetkit.api.rollouts.AnalysisRunStatus;
import io.fleetkit.api.rollouts.Measurement;
import io.fleetkit.api.rollouts.Metric;
import io.fleetkit.api.rollouts.MetricProvider;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The analysis run controller's events, with Argo Rollouts' types, reasons and notes ({@code analysis/analysis.go}
 * at commit 9f8d111d: {@code assessRunStatus}'s {@code Metric<Phase>} and {@code recordAnalysisRunCompletionEvent}'s
 * {@code AnalysisRun<Phase>}), each once, when the status that completes the metric or the run is written. Upstream's
 * {@code analysis_test.go} asserts none of these events (its fake recorder is never read); these cases are FleetKit's,
 * the measurements scripted per metric.
 */
final class AnalysisRunEventsTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = RolloutControllerClaimTest.store(clock);
  private final List<String> events = new ArrayList<>();
  private final Scripted provider = new Scripted();
  private final AnalysisRunController ac = AnalysisRunController.builder(store).clock(clock).stepping()
      .provider(provider).events((regarding, related, type, reason, action, note) -> events.add(type + " " + reason
          + " " + action + " " + regarding.kind() + "/" + regarding.name() + ": " + note)).build();

  AnalysisRunEventsTest() {
    ac.start().join();
  }

  @AfterEach
  void close() {
    ac.close();
    store.close();
  }

  /** Measures each simulated metric with the next phase scripted for it (Successful when none is left). */
  static final class Scripted implements MeasurementProvider {
    final Map<String, Deque<AnalysisPhase>> phases = new HashMap<>();

    void script(String metric, AnalysisPhase... next) {
      phases.computeIfAbsent(metric, k -> new ArrayDeque<>()).addAll(List.of(next));
    }

    @Override
    public String type() {
      return "simulated";
    }

    @Override
    public Measurement run(AnalysisRun run, Metric metric, Instant now) {
      Deque<AnalysisPhase> q = phases.get(metric.name());
      AnalysisPhase p = q == null || q.isEmpty() ? AnalysisPhase.Successful : q.poll();
      return Measurement.finished(p, "1", now, p == AnalysisPhase.Error ? "query failed" : "");
    }
  }

  private static Metric metric(String name) {
    return Metric.of(name, new MetricProvider.Simulated(name));
  }

  private AnalysisRun run(Metric... metrics) {
    return store.create(new AnalysisRun(ObjectMeta.of("default", "run"),
        new AnalysisRunSpec(List.of(metrics), List.of(), false), AnalysisRunStatus.EMPTY));
  }

  private AnalysisRun current() {
    return store.require(AnalysisRun.class, "default", "run");
  }

  /** Wakes the controller on the run again: a reconcile that has nothing to change. */
  private void touch(String value) {
    AnalysisRun r = current();
    store.update(r.withMetadata(r.metadata().toBuilder().annotation("touched", value).build()));
    ac.runUntilIdle();
  }

  @Test
  void oneMetricSucceedsOneFails_metricEventsInSpecOrder_thenTheRunFailed() {
    provider.script("bad", AnalysisPhase.Failed);
    run(metric("ok"), metric("bad"));
    ac.runUntilIdle();
    assertThat(current().status().phase()).isEqualTo(AnalysisPhase.Failed);
    assertThat(events).containsExactly(
        "Normal MetricSuccessful Assess AnalysisRun/run: Metric 'ok' Completed. Result: Successful",
        "Warning MetricFailed Assess AnalysisRun/run: Metric 'bad' Completed. Result: Failed",
        "Warning AnalysisRunFailed Assess AnalysisRun/run: Analysis Completed. Result: Failed");
    events.clear();
    touch("1");
    assertThat(events).as("a completed run records nothing again").isEmpty();
  }

  @Test
  void intervalMetric_nothingWhileRunning_thenSuccessfulOnce() {
    run(metric("ok").withInterval(Duration.ofSeconds(10)).withCount(2));
    ac.runUntilIdle();
    assertThat(current().status().phase()).isEqualTo(AnalysisPhase.Running);
    assertThat(events).isEmpty();
    touch("1");
    assertThat(events).isEmpty();
    clock.advance(Duration.ofSeconds(10));
    ac.runUntilIdle();
    assertThat(current().status().metricResults().get(0).count()).isEqualTo(2);
    assertThat(events).containsExactly(
        "Normal MetricSuccessful Assess AnalysisRun/run: Metric 'ok' Completed. Result: Successful",
        "Normal AnalysisRunSuccessful Assess AnalysisRun/run: Analysis Completed. Result: Successful");
  }

  @Test
  void inconclusiveMetric_normalEvents() {
    provider.script("maybe", AnalysisPhase.Inconclusive);
    run(metric("maybe"));
    ac.runUntilIdle();
    assertThat(events).containsExactly(
        "Normal MetricInconclusive Assess AnalysisRun/run: Metric 'maybe' Completed. Result: Inconclusive",
        "Normal AnalysisRunInconclusive Assess AnalysisRun/run: Analysis Completed. Result: Inconclusive");
  }

  @Test
  void erroringMetricPastItsLimit_warningEvents() {
    provider.script("flaky", AnalysisPhase.Error);
    run(metric("flaky").withLimits(0, 0, 0, 0));
    ac.runUntilIdle();
    assertThat(current().status().phase()).isEqualTo(AnalysisPhase.Error);
    assertThat(events).containsExactly(
        "Warning MetricError Assess AnalysisRun/run: Metric 'flaky' Completed. Result: Error",
        "Warning AnalysisRunError Assess AnalysisRun/run: Analysis Completed. Result: Error");
  }

  @Test
  void terminatedBeforeAnyMeasurement_runSuccessfulWithoutMetricEvents() {
    store.create(new AnalysisRun(ObjectMeta.of("default", "run"),
        new AnalysisRunSpec(List.of(metric("ok")), List.of(), true), AnalysisRunStatus.EMPTY));
    ac.runUntilIdle();
    assertThat(current().status().phase()).isEqualTo(AnalysisPhase.Successful);
    assertThat(events).containsExactly(
        "Normal AnalysisRunSuccessful Assess AnalysisRun/run: Analysis Completed. Result: Successful");
  }

  @Test
  void faultyRecorder_runStillCompletes() {
    try (ObjectStore s = RolloutControllerClaimTest.store(clock);
        AnalysisRunController faulty = AnalysisRunController.builder(s).clock(clock).stepping().provider(provider)
            .events((regarding, related, type, reason, action, note) -> {
              throw new IllegalStateException("recorder down");
            }).build()) {
      faulty.start().join();
      s.create(new AnalysisRun(ObjectMeta.of("default", "run"),
          new AnalysisRunSpec(List.of(metric("ok")), List.of(), false), AnalysisRunStatus.EMPTY));
      faulty.runUntilIdle();
      assertThat(s.require(AnalysisRun.class, "default", "run").status().phase())
          .isEqualTo(AnalysisPhase.Successful);
    }
  }

  @Test
  void events_givenTwice_failsNamingTheOldRecorder() {
    AnalysisRunController.Builder b = AnalysisRunController.builder(store).events(EventRecorder.NOOP);
    assertThatThrownBy(() -> b.events(EventRecorder.NOOP)).isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("analysis run controller: events was already set to ");
  }
}
