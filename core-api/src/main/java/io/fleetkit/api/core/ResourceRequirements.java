package io.fleetkit.api.core;

import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A container's requests and limits. As Kubernetes defaults it, a resource with a limit and no request gets a
 * request equal to its limit; the canonical constructor applies that defaulting.
 */
public record ResourceRequirements(ResourceList requests, ResourceList limits) {
  public static final ResourceRequirements NONE = new ResourceRequirements(ResourceList.EMPTY, ResourceList.EMPTY);

  public ResourceRequirements {
    Objects.requireNonNull(requests, "requests");
    Objects.requireNonNull(limits, "limits");
    if (!limits.isEmpty()) {
      Map<String, Quantity> merged = null;
      for (Map.Entry<String, Quantity> e : limits.asMap().entrySet()) {
        if (!requests.has(e.getKey())) {
          if (merged == null) {
            merged = new LinkedHashMap<>(requests.asMap());
          }
          merged.put(e.getKey(), e.getValue());
        }
      }
      if (merged != null) {
        requests = ResourceList.of(merged);
      }
    }
  }

  public static ResourceRequirements of(ResourceList requests, ResourceList limits) {
    return new ResourceRequirements(requests, limits);
  }

  /**
   * Requests only, for tests and generators. Resources that Kubernetes does not let overcommit (extended resources
   * such as {@code nvidia.com/gpu}, and hugepages) also get an equal limit, since a request without a limit is
   * invalid for them.
   */
  public static ResourceRequirements ofRequests(ResourceList requests) {
    if (requests.isEmpty()) {
      return NONE;
    }
    Map<String, Quantity> limits = null;
    for (Map.Entry<String, Quantity> e : requests.asMap().entrySet()) {
      if (!isOvercommitAllowed(e.getKey())) {
        if (limits == null) {
          limits = new LinkedHashMap<>();
        }
        limits.put(e.getKey(), e.getValue());
      }
    }
    return new ResourceRequirements(requests, limits == null ? ResourceList.EMPTY : ResourceList.of(limits));
  }

  /**
   * Whether requests may be below limits for this resource: true for native resources ({@code cpu}, {@code memory},
   * {@code ephemeral-storage}, names in {@code kubernetes.io/}), false for hugepages and extended resources
   * (a domain-prefixed name such as {@code nvidia.com/gpu}), as Kubernetes' {@code IsOvercommitAllowed}.
   */
  public static boolean isOvercommitAllowed(String resourceName) {
    if (resourceName.startsWith("hugepages-")) {
      return false;
    }
    int slash = resourceName.indexOf('/');
    if (slash < 0) {
      return true;
    }
    String domain = resourceName.substring(0, slash);
    return domain.equals("kubernetes.io") || domain.endsWith(".kubernetes.io");
  }
}
