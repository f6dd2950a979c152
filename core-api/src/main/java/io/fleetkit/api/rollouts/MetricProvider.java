package io.fleetkit.api.rollouts;

import io.fleetkit.api.batch.JobSpec;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** Where a metric's measurements come from (one of Argo Rollouts' providers, or FleetKit's simulation). */
public sealed interface MetricProvider {
  /** The provider's field name in the manifest, e.g. {@code prometheus}. */
  String fieldName();

  /**
   * Runs a Job per measurement: Successful when it completes, Failed when it fails.
   */
  record Job(JobSpec spec) implements MetricProvider {
    public Job {
      Objects.requireNonNull(spec, "spec");
    }

    @Override
    public String fieldName() {
      return "job";
    }
  }

  /**
   * Queries a Prometheus server's HTTP API ({@code /api/v1/query}) and hands the value to the conditions as
   * {@code result}.
   *
   * @param address base URL, e.g. {@code http://prometheus.monitoring:9090}
   * @param query PromQL; may use {@code {{args.NAME}}}
   * @param timeout per query; {@code null} means 30 s
   */
  record Prometheus(String address, String query, @Nullable Duration timeout) implements MetricProvider {
    public Prometheus {
      Objects.requireNonNull(address, "address");
      Objects.requireNonNull(query, "query");
    }

    @Override
    public String fieldName() {
      return "prometheus";
    }
  }

  /**
   * Reads a metric of the simulated application version under test ({@code error-rate} or {@code latency-ms}),
   * as the simulation models it; for simulations only.
   */
  record Simulated(String metric) implements MetricProvider {
    public Simulated {
      Objects.requireNonNull(metric, "metric");
    }

    @Override
    public String fieldName() {
      return "simulated";
    }
  }
}
