package io.fleetkit.reconcile.rollouts;

import io.fleetkit.api.batch.Job;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.rollouts.AnalysisRun;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.reconcile.Controller;
import io.fleetkit.api.time.TimerClock;
import io.fleetkit.reconcile.ControllerHandle;
import io.fleetkit.reconcile.rollouts.internal.AnalysisRunReconciler;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Measures and judges {@link AnalysisRun}s, as Argo Rollouts' analysis controller: each metric is measured on its
 * schedule through the {@link MeasurementProvider} for its provider type, its measurements are counted against its
 * limits, and the run ends Successful, Failed, Error or Inconclusive (the worst of its metrics). Owns the Jobs of
 * the Job provider. Built with the Job, Prometheus and simulation providers; {@link Builder#provider} adds or
 * replaces one.
 *
 * <p>Thread-safe. In stepping mode drive it with {@link #runUntilIdle()} on one thread.
 */
public final class AnalysisRunController extends ControllerHandle<AnalysisRun> {
  private AnalysisRunController(Builder b) {
    super(runtime(b));
  }

  private static Controller<AnalysisRun> runtime(Builder b) {
    var cb = Controller.builder(b.store, AnalysisRun.class).name(b.name)
        .reconciler(new AnalysisRunReconciler(b.providers)).owns(Job.class);
    cb.clock(b.clock != null ? b.clock : TimerClock.system())
        .events(b.events != null ? b.events : EventRecorder.NOOP); // ControllerBuilder makes it best effort
    if (b.stepping) {
      cb.stepping();
    }
    return cb.build();
  }

  public static Builder builder(ObjectStore store) {
    return new Builder(store);
  }

  /** Builder; not thread-safe. */
  public static final class Builder {
    private final ObjectStore store;
    private final Map<String, MeasurementProvider> providers = new LinkedHashMap<>();
    private String name = "analysisrun";
    private TimerClock clock;
    private boolean stepping;
    private @Nullable EventRecorder events;

    private Builder(ObjectStore store) {
      this.store = Objects.requireNonNull(store, "store");
      provider(new JobMeasurementProvider(store));
      provider(new PrometheusMeasurementProvider());
      provider(new SimulatedMeasurementProvider(store));
    }

    /** Adds {@code p}, replacing the provider of the same {@link MeasurementProvider#type()}. */
    public Builder provider(MeasurementProvider p) {
      providers.put(p.type(), Objects.requireNonNull(p, "provider"));
      return this;
    }

    public Builder name(String v) {
      name = Objects.requireNonNull(v, "name");
      return this;
    }

    /** The clock for measurement times and schedules; default the system clock. */
    public Builder clock(TimerClock v) {
      clock = Objects.requireNonNull(v, "clock");
      return this;
    }

    /** Stepping mode: no threads; drive with {@link AnalysisRunController#runUntilIdle()}. */
    public Builder stepping() {
      stepping = true;
      return this;
    }

    /**
     * Where the controller records its events on each AnalysisRun, with Argo Rollouts' reasons and notes
     * ({@code analysis/analysis.go}): {@code Metric<Phase>} when a metric completes ({@code Metric 'NAME' Completed.
     * Result: PHASE}) and {@code AnalysisRun<Phase>} when the run does ({@code Analysis Completed. Result: PHASE}),
     * Warning for Failed and Error, once each, when the status saying so is written; default
     * {@link EventRecorder#NOOP}, which records nothing and builds no message. What the recorder throws is logged at
     * DEBUG and ignored ({@link EventRecorder#bestEffort}).
     *
     * @throws IllegalStateException if a recorder was already given
     */
    public Builder events(EventRecorder v) {
      Objects.requireNonNull(v, "events");
      if (events != null) {
        throw new IllegalStateException("analysis run controller: events was already set to " + events);
      }
      events = v;
      return this;
    }

    public AnalysisRunController build() {
      return new AnalysisRunController(this);
    }
  }
}
