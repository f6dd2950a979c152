package io.fleetkit.reconcile.rollouts;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobCondition;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.rollouts.AnalysisPhase;
import io.fleetkit.api.rollouts.AnalysisRun;
import io.fleetkit.api.rollouts.Measurement;
import io.fleetkit.api.rollouts.Metric;
import io.fleetkit.api.rollouts.MetricProvider;
import io.fleetkit.api.store.DeleteOptions;
import io.fleetkit.api.store.ObjectStore;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Argo Rollouts' Job provider ({@code metricproviders/job/job.go}): each measurement runs a Job owned by the
 * analysis run, named {@code <run>-<metric>-<n>} (cut to 63 characters); the measurement is Running until the Job
 * has condition {@code Complete} (Successful) or {@code Failed} (Failed). Terminating deletes the Job and ends the
 * measurement Inconclusive. The {@link AnalysisRunController} owns the Jobs, so a Job finishing wakes the run.
 * Thread-safe.
 */
public final class JobMeasurementProvider implements MeasurementProvider {
  /** Label on the Job naming its analysis run. */
  public static final String RUN_LABEL = "analysisrun.argoproj.io/name";
  /** Label on the Job naming its metric. */
  public static final String METRIC_LABEL = "analysisrun.argoproj.io/metric-name";

  private final ObjectStore store;

  public JobMeasurementProvider(ObjectStore store) {
    this.store = Objects.requireNonNull(store, "store");
  }

  @Override
  public String type() {
    return "job";
  }

  @Override
  public Measurement run(AnalysisRun run, Metric metric, Instant now) {
    var r = run.status().result(metric.name());
    int n = r == null ? 1 : r.count() + r.error() + 1;
    String name = jobName(run, metric, n);
    MetricProvider.Job spec = (MetricProvider.Job) metric.provider();
    Job job = new Job(ObjectMeta.builder().namespace(run.metadata().namespace()).name(name)
        .label(RUN_LABEL, run.metadata().name()).label(METRIC_LABEL, metric.name())
        .ownerReference(OwnerReference.controllerOf(run)).build(), spec.spec(),
        io.fleetkit.api.batch.JobStatus.EMPTY);
    try {
      store.create(job);
    } catch (ConflictException e) {
      // created by an earlier attempt that did not get recorded: resume it
    } catch (RuntimeException e) {
      return Measurement.finished(AnalysisPhase.Error, "", now, "job " + name + ": " + e.getMessage());
    }
    return new Measurement(AnalysisPhase.Running, name, now, null, null, "");
  }

  @Override
  public Measurement resume(AnalysisRun run, Metric metric, Measurement inFlight, Instant now) {
    Optional<Job> job = store.get(Job.class, run.metadata().namespace(), inFlight.value());
    if (job.isEmpty()) {
      return new Measurement(AnalysisPhase.Error, inFlight.value(), inFlight.startedAt(), now, null,
          "job " + inFlight.value() + " not found");
    }
    if (job.get().status().isConditionTrue(JobCondition.COMPLETE)) {
      return new Measurement(AnalysisPhase.Successful, inFlight.value(), inFlight.startedAt(), now, null, "");
    }
    JobCondition failed = job.get().status().trueCondition(JobCondition.FAILED);
    if (failed != null) {
      return new Measurement(AnalysisPhase.Failed, inFlight.value(), inFlight.startedAt(), now, null,
          "job " + inFlight.value() + " failed: " + failed.reason());
    }
    return inFlight;
  }

  @Override
  public Measurement terminate(AnalysisRun run, Metric metric, Measurement inFlight, Instant now) {
    try {
      // Argo Rollouts' JobProvider.deleteJob: propagationPolicy Foreground
      store.delete(Job.class, run.metadata().namespace(), inFlight.value(), DeleteOptions.foreground());
    } catch (RuntimeException e) {
      // already gone
    }
    return new Measurement(AnalysisPhase.Inconclusive, inFlight.value(), inFlight.startedAt(), now, null,
        "Metric Terminated");
  }

  static String jobName(AnalysisRun run, Metric metric, int n) {
    String name = run.metadata().name() + "-" + metric.name() + "-" + n;
    if (name.length() > 63) {
      name = name.substring(name.length() - 63);
      while (!name.isEmpty() && !Character.isLetterOrDigit(name.charAt(0))) {
        name = name.substring(1);
      }
    }
    return name;
  }
}
