package io.fleetkit.api.simulation;

import java.util.Objects;

/**
 * The load on one workload: requests/s over time, spread evenly over its ready pods; each request/s costs
 * {@code cpuMilliPerRequest} millicores and {@code memoryPerRequest} bytes of usage, on top of the pods' idle usage
 * (none), so that the usage metrics the autoscalers read follow the load.
 *
 * @param kind {@code Deployment} or {@code StatefulSet}
 */
public record WorkloadLoad(String kind, String namespace, String name, LoadPattern pattern,
    double cpuMilliPerRequest, double memoryPerRequest) {
  public WorkloadLoad {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(pattern, "pattern");
  }

  /** {@code Kind/namespace/name}, as the timeline names objects. */
  public String target() {
    return kind + "/" + namespace + "/" + name;
  }
}
