package io.fleetkit.reconcile.rollouts.internal;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.events.Event;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.rollouts.AnalysisPhase;
import io.fleetkit.api.rollouts.AnalysisRun;
import io.fleetkit.api.rollouts.AnalysisRunStatus;
import io.fleetkit.api.rollouts.Measurement;
import io.fleetkit.api.rollouts.Metric;
import io.fleetkit.api.rollouts.MetricResult;
import io.fleetkit.reconcile.ReconcileContext;
import io.fleetkit.reconcile.Reconciler;
import io.fleetkit.reconcile.Result;
import io.fleetkit.reconcile.rollouts.MeasurementProvider;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Argo Rollouts' analysis run reconcile ({@code analysis/analysis.go reconcileAnalysisRun}): take the measurements
 * that are due ({@link AnalysisAssessment#dueMetrics}) through the provider of each metric, count them, assess the
 * run, write the status, and come back when the next measurement is due. Once the status is written, records Argo's
 * {@code Metric<Phase>} and {@code AnalysisRun<Phase>} events for the metrics and the run it completed.
 */
public final class AnalysisRunReconciler implements Reconciler<AnalysisRun> {
  /** Reason prefix of a completed metric's event, followed by its phase ({@code MetricFailed}, ...). */
  static final String METRIC = "Metric";
  /** Reason prefix of a completed run's event, followed by its phase ({@code AnalysisRunSuccessful}, ...). */
  static final String ANALYSIS_RUN = "AnalysisRun";
  /** The action of the events; Argo's recorder has none. */
  static final String ASSESS = "Assess";

  private final Map<String, MeasurementProvider> providers;

  /** @param providers by {@link MeasurementProvider#type()} */
  public AnalysisRunReconciler(Map<String, MeasurementProvider> providers) {
    this.providers = Map.copyOf(providers);
  }

  @Override
  public Result reconcile(ReconcileContext<AnalysisRun> ctx) {
    AnalysisRun run = ctx.object().orElse(null);
    if (run == null || run.metadata().deletionTimestamp() != null || run.status().phase().completed()) {
      return Result.done();
    }
    Instant now = ctx.now();
    AnalysisPhase before = run.status().phase();
    AnalysisRunStatus s = run.status();
    if (s.startedAt() == null) {
      s = new AnalysisRunStatus(AnalysisPhase.Running, s.message(), s.metricResults(), now);
      run = run.withStatus(s);
    }
    List<MetricResult> results = new ArrayList<>(s.metricResults());
    for (AnalysisAssessment.Task task : AnalysisAssessment.dueMetrics(run, now)) {
      Metric metric = task.metric();
      Measurement m = measure(run, task, now);
      if (m.phase().completed() && m.finishedAt() == null) {
        m = m.withFinishedAt(now);
      }
      int i = indexOf(results, metric.name());
      MetricResult r = i < 0 ? MetricResult.start(metric.name(), false) : results.get(i);
      r = AnalysisAssessment.record(r, m, task.incomplete() != null);
      if (i < 0) {
        results.add(r);
      } else {
        results.set(i, r);
      }
    }
    List<MetricResult> measured = List.copyOf(results);
    AnalysisAssessment.RunVerdict v = AnalysisAssessment.assessRun(run.spec().metrics(), results,
        run.spec().terminate(), Set.of());
    AnalysisRun next = run.withStatus(new AnalysisRunStatus(v.phase(), v.message(), results, s.startedAt()));
    if (!next.status().equals(ctx.object().get().status())) {
      try {
        next = ctx.store().updateStatus(next);
      } catch (ConflictException | NotFoundException e) {
        return Result.requeue(); // nothing recorded: the next reconcile makes the same transitions again
      }
      EventRecorder events = ctx.events(); // best effort: the controller wraps its recorder
      if (events != EventRecorder.NOOP) {
        completionEvents(events, next, measured, before);
      }
    }
    if (next.status().phase().completed()) {
      return Result.done();
    }
    Instant at = AnalysisAssessment.nextMeasurementTime(next);
    if (at == null) {
      return Result.done();
    }
    Duration d = Duration.between(now, at);
    return Result.requeueAfter(d.isNegative() ? Duration.ZERO : d);
  }

  /**
   * Argo's events of {@code assessRunStatus} and {@code recordAnalysisRunCompletionEvent}, once the status that makes
   * the transitions is written: {@code Metric<Phase>} for each metric (in the spec's order) whose phase became a
   * completed one, then {@code AnalysisRun<Phase>} when the run's did; Warning for Failed and Error.
   *
   * @param measured the metric results before the assessment (with this reconcile's measurements)
   * @param before the run's phase before this reconcile
   */
  private static void completionEvents(EventRecorder events, AnalysisRun run, List<MetricResult> measured,
      AnalysisPhase before) {
    for (Metric metric : run.spec().metrics()) {
      int i = indexOf(run.status().metricResults(), metric.name());
      if (i < 0) {
        continue;
      }
      AnalysisPhase phase = run.status().metricResults().get(i).phase();
      int j = indexOf(measured, metric.name());
      if (phase.completed() && (j < 0 || measured.get(j).phase() != phase)) {
        events.event(run, type(phase), METRIC + phase.name(), ASSESS,
            "Metric '" + metric.name() + "' Completed. Result: " + phase.name());
      }
    }
    AnalysisPhase phase = run.status().phase();
    if (phase.completed() && phase != before) {
      events.event(run, type(phase), ANALYSIS_RUN + phase.name(), ASSESS,
          "Analysis Completed. Result: " + phase.name());
    }
  }

  private static String type(AnalysisPhase phase) {
    return phase == AnalysisPhase.Failed || phase == AnalysisPhase.Error ? Event.WARNING : Event.NORMAL;
  }

  private Measurement measure(AnalysisRun run, AnalysisAssessment.Task task, Instant now) {
    Metric metric = task.metric();
    MeasurementProvider p = providers.get(metric.provider().fieldName());
    if (p == null) {
      Measurement base = task.incomplete();
      return new Measurement(AnalysisPhase.Error, "", base != null ? base.startedAt() : now, now, null,
          "no measurement provider for " + metric.provider().fieldName() + " metrics");
    }
    boolean terminating = AnalysisAssessment.isTerminating(run.spec().terminate(), run.status().metricResults());
    try {
      if (task.incomplete() == null) {
        return p.run(run, metric, now);
      }
      return terminating ? p.terminate(run, metric, task.incomplete(), now)
          : p.resume(run, metric, task.incomplete(), now);
    } catch (RuntimeException e) {
      return new Measurement(AnalysisPhase.Error, "", now, now, null, metric.provider().fieldName()
          + " provider failed: " + e);
    }
  }

  private static int indexOf(List<MetricResult> results, String name) {
    for (int i = 0; i < results.size(); i++) {
      if (results.get(i).name().equals(name)) {
        return i;
      }
    }
    return -1;
  }
}
