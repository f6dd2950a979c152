package io.fleetkit.queueing;

import io.fleetkit.api.resource.ResourceList;
import java.util.Objects;

/**
 * A set of identical pods of a {@link Workload} (Kueue {@code PodSet}).
 *
 * @param name the pod set's name, unique in its workload (e.g. {@code main}, {@code launcher}, {@code workers})
 * @param count how many pods
 * @param requests what each pod requests
 */
public record PodSet(String name, int count, ResourceList requests) {
  public PodSet {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(requests, "requests");
  }

  public static PodSet of(String name, int count, ResourceList requests) {
    return new PodSet(name, count, requests);
  }

  /** {@code count × requests[resource]} in milli-units. */
  public long totalMilli(String resource) {
    return Math.multiplyExact(requests.milliValue(resource), (long) count);
  }
}
