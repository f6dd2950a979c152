package io.fleetkit.reconcile.rollouts;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.rollouts.AnalysisPhase;
import io.fleetkit.api.rollouts.AnalysisRun;
import io.fleetkit.api.rollouts.Measurement;
import io.fleetkit.api.rollouts.Metric;
import io.fleetkit.api.rollouts.MetricProvider;
import io.fleetkit.api.rollouts.Rollout;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.text.GoFloats;
import io.fleetkit.reconcile.rollouts.internal.MetricConditions;
import java.time.Instant;
import java.util.Objects;

/**
 * Reads the simulated application metrics of the version under test: the running pods carrying the run's
 * {@value Rollout#POD_TEMPLATE_HASH_LABEL} label, averaged. Metric {@code error-rate} reads the pod annotation
 * {@value #ERROR_RATE} (a fraction, default 0; a container whose image is listed in
 * {@code simulate.fleetkit.io/unhealthy-images} counts as 1), {@code latency-ms} reads {@value #LATENCY_MS}
 * (default 0). The value is judged by the metric's conditions as {@code result}. No running pod of the version is
 * an Error measurement. Thread-safe.
 */
public final class SimulatedMeasurementProvider implements MeasurementProvider {
  /** Pod annotation: the fraction of requests the version fails, e.g. {@code 0.05}. */
  public static final String ERROR_RATE = "simulate.fleetkit.io/error-rate";
  /** Pod annotation: the version's latency in milliseconds. */
  public static final String LATENCY_MS = "simulate.fleetkit.io/latency-ms";
  private static final String UNHEALTHY_IMAGES = "simulate.fleetkit.io/unhealthy-images";

  private final ObjectStore store;

  public SimulatedMeasurementProvider(ObjectStore store) {
    this.store = Objects.requireNonNull(store, "store");
  }

  @Override
  public String type() {
    return "simulated";
  }

  @Override
  public Measurement run(AnalysisRun run, Metric metric, Instant now) {
    String metricName = ((MetricProvider.Simulated) metric.provider()).metric();
    String hash = run.metadata().labels().getOrDefault(Rollout.POD_TEMPLATE_HASH_LABEL, "");
    double sum = 0;
    int n = 0;
    for (Pod p : store.list(Pod.class, run.metadata().namespace()).items()) {
      if (!hash.equals(p.metadata().labels().get(Rollout.POD_TEMPLATE_HASH_LABEL))
          || p.status().phase() != PodPhase.Running || p.metadata().deletionTimestamp() != null) {
        continue;
      }
      Double v;
      try {
        v = value(p, metricName);
      } catch (NumberFormatException e) {
        return Measurement.finished(AnalysisPhase.Error, "", now, "pod " + p.metadata().key() + ": "
            + e.getMessage());
      }
      if (v == null) {
        return Measurement.finished(AnalysisPhase.Error, "", now, "simulated metric \"" + metricName
            + "\" is not modelled; use error-rate or latency-ms");
      }
      sum += v;
      n++;
    }
    if (n == 0) {
      return Measurement.finished(AnalysisPhase.Error, "", now, "no running pod of version " + hash);
    }
    double value = sum / n;
    MetricConditions.Verdict verdict = MetricConditions.evaluate(value, metric);
    return Measurement.finished(verdict.phase(), Double.toString(value), now, verdict.message());
  }

  private static Double value(Pod p, String metric) {
    var a = p.metadata().annotations();
    switch (metric) {
      case "error-rate" -> {
        String images = a.get(UNHEALTHY_IMAGES);
        if (images != null) {
          for (String img : images.split(",")) {
            for (var c : p.spec().containers()) {
              if (c.image().equals(img.trim())) {
                return 1.0;
              }
            }
          }
        }
        return parse(a.get(ERROR_RATE), ERROR_RATE);
      }
      case "latency-ms" -> {
        return parse(a.get(LATENCY_MS), LATENCY_MS);
      }
      default -> {
        return null;
      }
    }
  }

  private static double parse(String v, String key) {
    if (v == null) {
      return 0;
    }
    try {
      return GoFloats.parseFloat(v.trim()); // Go's float text: no d/f suffix
    } catch (NumberFormatException e) {
      throw new NumberFormatException("annotation " + key + " \"" + v + "\" must be a number");
    }
  }
}
