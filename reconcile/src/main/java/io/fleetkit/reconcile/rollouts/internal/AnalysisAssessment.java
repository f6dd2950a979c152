package io.fleetkit.reconcile.rollouts.internal;

import io.fleetkit.api.rollouts.AnalysisPhase;
import io.fleetkit.api.rollouts.AnalysisRun;
import io.fleetkit.api.rollouts.Measurement;
import io.fleetkit.api.rollouts.Metric;
import io.fleetkit.api.rollouts.MetricResult;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * How an analysis run is judged and scheduled, as Argo Rollouts' analysis controller does it
 * ({@code analysis/analysis.go}: {@code assessMetricStatus}, {@code assessMetricFailureInconclusiveOrError},
 * {@code assessRunStatus}, {@code generateMetricTasks}, {@code calculateNextReconcileTime}, the counter updates of
 * {@code runMeasurements}; {@code utils/analysis/helpers.go}: {@code IsWorse}, {@code IsTerminating}). Pure
 * functions over records. Stateless.
 */
public final class AnalysisAssessment {
  /** How long after an Error measurement the metric is measured again. */
  public static final Duration ERROR_RETRY_INTERVAL = Duration.ofSeconds(10);
  /** How many measurements a metric result keeps. */
  public static final int MEASUREMENT_HISTORY = 10;

  private static final List<AnalysisPhase> ORDER = List.of(AnalysisPhase.Successful, AnalysisPhase.Running,
      AnalysisPhase.Pending, AnalysisPhase.Inconclusive, AnalysisPhase.Error, AnalysisPhase.Failed);

  /** A run's phase and why. */
  public record RunVerdict(AnalysisPhase phase, String message) {}

  private AnalysisAssessment() {}

  /** {@code IsWorse}: whether {@code next} is worse than {@code current} (in the order Successful, Running, Pending, Inconclusive, Error, Failed). */
  public static boolean isWorse(AnalysisPhase current, AnalysisPhase next) {
    return ORDER.indexOf(next) > ORDER.indexOf(current);
  }

  /** {@code Worst} of two phases. */
  public static AnalysisPhase worst(AnalysisPhase left, AnalysisPhase right) {
    return isWorse(left, right) ? right : left;
  }

  /**
   * {@code IsTerminating}: terminate was requested, or a (non dry-run) metric already ended Failed, Error or
   * Inconclusive.
   */
  public static boolean isTerminating(boolean terminate, List<MetricResult> results) {
    if (terminate) {
      return true;
    }
    for (MetricResult r : results) {
      if (!r.dryRun() && (r.phase() == AnalysisPhase.Failed || r.phase() == AnalysisPhase.Error
          || r.phase() == AnalysisPhase.Inconclusive)) {
        return true;
      }
    }
    return false;
  }

  /**
   * {@code assessMetricFailureInconclusiveOrError}: Failed when {@code failed > failureLimit} (unless the limit is
   * negative), Inconclusive when {@code inconclusive > inconclusiveLimit}, Error when
   * {@code consecutiveError > consecutiveErrorLimit}; a later check overrides an earlier one. {@code null} when none
   * applies.
   */
  public static @Nullable RunVerdict failureInconclusiveOrError(Metric metric, MetricResult result) {
    RunVerdict v = null;
    if (metric.failureLimit() >= 0 && result.failed() > metric.failureLimit()) {
      v = new RunVerdict(AnalysisPhase.Failed, "failed (" + result.failed() + ") > failureLimit ("
          + metric.failureLimit() + ")");
    }
    if (result.inconclusive() > metric.inconclusiveLimit()) {
      v = new RunVerdict(AnalysisPhase.Inconclusive, "inconclusive (" + result.inconclusive()
          + ") > inconclusiveLimit (" + metric.inconclusiveLimit() + ")");
    }
    if (result.consecutiveError() > metric.consecutiveErrorLimit()) {
      v = new RunVerdict(AnalysisPhase.Error, "consecutiveErrors (" + result.consecutiveError()
          + ") > consecutiveErrorLimit (" + metric.consecutiveErrorLimit() + ")");
    }
    return v;
  }

  /** {@code assessMetricStatus}: the phase of one metric from its result and the run's terminating state. */
  public static AnalysisPhase assessMetric(Metric metric, MetricResult result, boolean terminating) {
    if (result.phase().completed()) {
      return result.phase();
    }
    if (result.measurements().isEmpty()) {
      return terminating ? AnalysisPhase.Successful : AnalysisPhase.Pending;
    }
    Measurement last = result.measurements().get(result.measurements().size() - 1);
    if (!last.phase().completed()) {
      return AnalysisPhase.Running;
    }
    RunVerdict v = failureInconclusiveOrError(metric, result);
    if (v != null) {
      return v.phase();
    }
    boolean successApplicable = metric.consecutiveSuccessLimit() > 0;
    if (successApplicable && result.consecutiveSuccess() >= metric.consecutiveSuccessLimit()) {
      return AnalysisPhase.Successful;
    }
    Integer count = metric.effectiveCount();
    if (count != null && result.count() >= count) {
      boolean failureApplicable = metric.failureLimit() >= 0;
      if (failureApplicable && successApplicable) {
        return AnalysisPhase.Inconclusive;
      } else if (successApplicable) {
        return AnalysisPhase.Failed;
      }
      return AnalysisPhase.Successful;
    }
    return terminating ? AnalysisPhase.Successful : AnalysisPhase.Running;
  }

  /**
   * {@code assessRunStatus}: updates each metric result's phase and returns the run's phase: Running while any
   * metric is not complete (or no metric has completed), otherwise the worst completed phase of the non dry-run
   * metrics; a terminating run with nothing completed is Successful.
   *
   * @param results the metric results, updated in place (phases and messages)
   * @param dryRun names of dry-run metrics
   */
  public static RunVerdict assessRun(List<Metric> metrics, List<MetricResult> results, boolean terminate,
      Set<String> dryRun) {
    boolean terminating = isTerminating(terminate, results);
    boolean everythingCompleted = true;
    AnalysisPhase worst = null;
    String worstMessage = terminate ? "Run Terminated" : "";
    for (Metric metric : metrics) {
      int i = indexOf(results, metric.name());
      if (i < 0) {
        everythingCompleted = false;
        continue;
      }
      MetricResult result = results.get(i);
      AnalysisPhase phase = assessMetric(metric, result, terminating);
      if (result.phase() != phase) {
        String message = result.measurements().isEmpty() ? result.message()
            : result.measurements().get(result.measurements().size() - 1).message();
        result = result.withPhase(phase).withMessage(message);
        results.set(i, result);
      }
      if (!phase.completed()) {
        everythingCompleted = false;
        continue;
      }
      RunVerdict v = failureInconclusiveOrError(metric, result);
      if (!dryRun.contains(metric.name())) {
        if (worst == null || isWorse(worst, phase)) {
          worst = phase;
          if (v != null) {
            worstMessage = "Metric \"" + metric.name() + "\" assessed " + phase + " due to " + v.message();
            if (!result.message().isEmpty()) {
              worstMessage += ": \"Error Message: " + result.message() + "\"";
            }
          }
        }
      } else {
        if (worst == null) {
          worst = AnalysisPhase.Successful;
        }
        if (v != null) {
          results.set(i, result.withMessage("Metric assessed " + phase + " due to " + v.message()));
        }
      }
    }
    worstMessage = worstMessage.trim();
    if (terminating) {
      return worst == null ? new RunVerdict(AnalysisPhase.Successful, worstMessage)
          : new RunVerdict(worst, worstMessage);
    }
    if (!everythingCompleted || worst == null) {
      return new RunVerdict(AnalysisPhase.Running, "");
    }
    return new RunVerdict(worst, worstMessage);
  }

  /**
   * A metric due for work: a new measurement, or (with {@code incomplete}) resuming or terminating the in-flight
   * one.
   */
  public record Task(Metric metric, @Nullable Measurement incomplete) {}

  /**
   * {@code generateMetricTasks}: the metrics due at {@code now}. An in-flight measurement is resumed once its
   * {@code resumeAt} has passed (or at once while terminating); otherwise nothing new is measured while
   * terminating. A first measurement waits for the initial delay (and for the run to have started); later ones
   * wait until the last finished plus the interval (10 s after an Error), and stop at the count. A measurement
   * exactly at the end of the interval is due (upstream requires strictly after; simulated clocks land exactly on
   * it).
   */
  public static List<Task> dueMetrics(AnalysisRun run, Instant now) {
    List<Task> due = new ArrayList<>();
    boolean terminating = isTerminating(run.spec().terminate(), run.status().metricResults());
    for (Metric m : run.spec().metrics()) {
      MetricResult r = run.status().result(m.name());
      if (r != null && r.phase().completed()) {
        continue;
      }
      Measurement last = r == null || r.measurements().isEmpty() ? null
          : r.measurements().get(r.measurements().size() - 1);
      if (last != null && last.finishedAt() == null) {
        if (terminating || last.resumeAt() == null || !last.resumeAt().isAfter(now)) {
          due.add(new Task(m, last));
        }
        continue;
      }
      if (terminating) {
        continue;
      }
      if (last == null) {
        Instant started = run.status().startedAt();
        if (m.initialDelay() != null && (started == null || started.plus(m.initialDelay()).isAfter(now))) {
          continue;
        }
        due.add(new Task(m, null));
        continue;
      }
      Integer count = m.effectiveCount();
      if (count != null && r.count() >= count) {
        continue;
      }
      Duration interval = last.phase() == AnalysisPhase.Error || m.interval() == null ? ERROR_RETRY_INTERVAL
          : m.interval();
      if (!now.isBefore(last.finishedAt().plus(interval))) {
        due.add(new Task(m, null));
      }
    }
    return due;
  }

  /** {@code calculateNextReconcileTime}: when the earliest metric next needs a measurement; {@code null} if none. */
  public static @Nullable Instant nextMeasurementTime(AnalysisRun run) {
    Instant next = null;
    for (Metric m : run.spec().metrics()) {
      MetricResult r = run.status().result(m.name());
      if (r != null && r.phase().completed()) {
        continue;
      }
      Measurement last = r == null || r.measurements().isEmpty() ? null
          : r.measurements().get(r.measurements().size() - 1);
      Instant t = null;
      if (last == null) {
        if (m.initialDelay() != null && run.status().startedAt() != null) {
          t = run.status().startedAt().plus(m.initialDelay());
        }
      } else if (last.finishedAt() == null) {
        t = last.resumeAt();
      } else {
        Integer count = m.effectiveCount();
        if (count != null && r.count() >= count) {
          continue;
        }
        if (last.phase() == AnalysisPhase.Error) {
          t = last.finishedAt().plus(ERROR_RETRY_INTERVAL);
        } else if (m.interval() != null) {
          t = last.finishedAt().plus(m.interval());
        }
      }
      if (t != null && (next == null || t.isBefore(next))) {
        next = t;
      }
    }
    return next;
  }

  /**
   * The counter updates of {@code runMeasurements}: adds (or, for a finished in-flight one, replaces) a measurement
   * and counts it: Successful/Failed/Inconclusive count and reset the error run; Error counts only as an error.
   * Keeps the last {@link #MEASUREMENT_HISTORY} measurements.
   *
   * @param replacesLast whether {@code m} completes the last (in-flight) measurement
   */
  public static MetricResult record(MetricResult r, Measurement m, boolean replacesLast) {
    int count = r.count();
    int successful = r.successful();
    int failed = r.failed();
    int inconclusive = r.inconclusive();
    int error = r.error();
    int consecutiveError = r.consecutiveError();
    int consecutiveSuccess = r.consecutiveSuccess();
    if (m.phase().completed()) {
      switch (m.phase()) {
        case Successful -> {
          successful++;
          count++;
          consecutiveError = 0;
          consecutiveSuccess++;
        }
        case Failed -> {
          failed++;
          count++;
          consecutiveError = 0;
          consecutiveSuccess = 0;
        }
        case Inconclusive -> {
          inconclusive++;
          count++;
          consecutiveError = 0;
          consecutiveSuccess = 0;
        }
        default -> {
          error++;
          consecutiveError++;
          consecutiveSuccess = 0;
        }
      }
    }
    List<Measurement> ms = new ArrayList<>(r.measurements());
    if (replacesLast && !ms.isEmpty()) {
      ms.set(ms.size() - 1, m);
    } else {
      ms.add(m);
    }
    while (ms.size() > MEASUREMENT_HISTORY) {
      ms.remove(0);
    }
    return new MetricResult(r.name(), r.phase(), ms, count, successful, failed, inconclusive, error,
        consecutiveError, consecutiveSuccess, r.message(), r.dryRun());
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
