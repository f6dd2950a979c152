package io.fleetkit.api.rollouts;

import io.fleetkit.api.Violations;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Rules shared by {@link AnalysisTemplate} and {@link AnalysisRun} (Argo Rollouts' {@code ValidateMetrics}). */
final class AnalysisChecks {
  private AnalysisChecks() {}

  static void metrics(List<Metric> metrics, String path, Violations v) {
    if (metrics.isEmpty()) {
      v.required(path, "at least one metric is required");
    }
    Set<String> names = new HashSet<>();
    for (int i = 0; i < metrics.size(); i++) {
      Metric m = metrics.get(i);
      String at = path + "[" + i + "]";
      if (m.name().isEmpty()) {
        v.required(at + ".name");
      } else if (!names.add(m.name())) {
        v.add(at + ".name", Violations.DUPLICATE, m.name());
      }
      metric(m, at, v);
      if (m.provider() instanceof MetricProvider.Prometheus p) {
        if (p.address().isEmpty()) {
          v.required(at + ".provider.prometheus.address");
        }
        if (p.query().isEmpty()) {
          v.required(at + ".provider.prometheus.query");
        }
      }
    }
  }

  /** Argo Rollouts' {@code ValidateMetric} ({@code utils/analysis/factory.go}), with its messages. */
  private static void metric(Metric m, String at, Violations v) {
    v.nonNegative(at + ".count", m.count());
    if (m.consecutiveSuccessLimit() < 0) {
      v.add(at + ".consecutiveSuccessLimit", "consecutiveSuccessLimit must be >= 0", m.consecutiveSuccessLimit());
    }
    if (m.failureLimit() < -1) {
      v.add(at + ".failureLimit", "failureLimit must be >= 0, or -1 to be disabled", m.failureLimit());
    }
    if (m.consecutiveSuccessLimit() == 0 && m.failureLimit() == -1) {
      v.add(at + ".failureLimit", "failureLimit and consecutiveSuccessLimit cannot both be disabled",
          m.failureLimit());
    }
    if (m.inconclusiveLimit() < 0) {
      v.add(at + ".inconclusiveLimit", "inconclusiveLimit must be >= 0", m.inconclusiveLimit());
    }
    if (m.consecutiveErrorLimit() < 0) {
      v.add(at + ".consecutiveErrorLimit", "consecutiveErrorLimit must be >= 0", m.consecutiveErrorLimit());
    }
    int count = m.count();
    if (count > 0) {
      if (m.consecutiveSuccessLimit() >= 0 && m.failureLimit() >= 0) {
        if (count < m.failureLimit() + m.consecutiveSuccessLimit()) {
          v.add(at + ".count", "count (" + count + ") must be >= failureLimit + consecutiveSuccessLimit ("
              + m.failureLimit() + " + " + m.consecutiveSuccessLimit() + ") if both >= 0", count);
        }
      } else if (m.consecutiveSuccessLimit() >= 0 && count < m.consecutiveSuccessLimit()) {
        v.add(at + ".count", "count must be >= consecutiveSuccessLimit", count);
      }
      if (count < m.inconclusiveLimit()) {
        v.add(at + ".count", "count must be >= inconclusiveLimit", count);
      }
    }
    if (count > 1 && m.interval() == null) {
      v.add(at + ".interval", "interval must be specified when count > 1", null);
    }
    if (m.interval() != null && (m.interval().isNegative() || m.interval().isZero())) {
      v.add(at + ".interval", "must be positive", m.interval());
    }
    if (m.initialDelay() != null && m.initialDelay().isNegative()) {
      v.add(at + ".initialDelay", Violations.NON_NEGATIVE, m.initialDelay());
    }
  }

  static void args(List<AnalysisArgument> args, String path, Violations v) {
    Set<String> names = new HashSet<>();
    for (int i = 0; i < args.size(); i++) {
      String n = args.get(i).name();
      if (n.isEmpty()) {
        v.required(path + "[" + i + "].name");
      } else if (!names.add(n)) {
        v.add(path + "[" + i + "].name", Violations.DUPLICATE, n);
      }
    }
  }
}
