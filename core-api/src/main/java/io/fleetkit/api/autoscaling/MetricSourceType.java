package io.fleetkit.api.autoscaling;

/** The kind of metric an HPA scales on, spelled as in {@code autoscaling/v2}. */
public enum MetricSourceType {
  /** A single metric describing another object (e.g. requests per second of an Ingress). */
  Object("object"),
  /** A custom metric averaged over the target's pods. */
  Pods("pods"),
  /** A resource (cpu, memory) of the target's pods, as known from requests and limits. */
  Resource("resource"),
  /** A resource of one container of each of the target's pods. */
  ContainerResource("containerResource"),
  /** A metric from outside the cluster (e.g. queue length). */
  External("external");

  private final String field;

  MetricSourceType(String field) {
    this.field = field;
  }

  /** The name of the field that holds this source, e.g. {@code containerResource}. */
  public String field() {
    return field;
  }
}
