package io.fleetkit.api.core;

import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.ResourceNames;
import java.util.List;
import java.util.Objects;

/**
 * A container's requests and limits. As Kubernetes defaults it, a resource with a limit and no request gets a
 * request equal to its limit; the canonical constructor applies that defaulting.
 *
 * @param claims the pod's resource claims this container uses ({@code resources.claims}, Dynamic Resource
 *     Allocation): each names an entry of the pod's {@code spec.resourceClaims}, checked with the pod; empty when
 *     none ({@code null} becomes empty)
 */
public record ResourceRequirements(ResourceList requests, ResourceList limits, List<ContainerResourceClaim> claims) {
  public static final ResourceRequirements NONE = new ResourceRequirements(ResourceList.EMPTY, ResourceList.EMPTY);

  public ResourceRequirements {
    Objects.requireNonNull(requests, "requests");
    Objects.requireNonNull(limits, "limits");
    // an encoding written without the component (the store's JSON) decodes as none
    claims = claims == null || claims.isEmpty() ? List.of() : List.copyOf(claims);
    if (!limits.isEmpty()) {
      ResourceList.Builder missing = null;
      for (String name : limits.names()) {
        if (!requests.has(name)) {
          if (missing == null) {
            missing = ResourceList.builder();
          }
          missing.put(name, limits.get(name));
        }
      }
      if (missing != null) {
        requests = requests.add(missing.build());
      }
    }
  }

  /** Requests and limits, no claims. */
  public ResourceRequirements(ResourceList requests, ResourceList limits) {
    this(requests, limits, List.of());
  }

  /** These requirements using the pod's resource claims {@code newClaims}. */
  public ResourceRequirements withClaims(List<ContainerResourceClaim> newClaims) {
    return new ResourceRequirements(requests, limits, newClaims);
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
    if (onlyStandard(requests)) {
      return new ResourceRequirements(requests, ResourceList.EMPTY);
    }
    ResourceList.Builder limits = null;
    for (String name : requests.names()) {
      if (!isOvercommitAllowed(name)) {
        if (limits == null) {
          limits = ResourceList.builder();
        }
        limits.put(name, requests.get(name));
      }
    }
    return new ResourceRequirements(requests, limits == null ? ResourceList.EMPTY : limits.build());
  }

  /** Whether {@code list} holds only cpu, memory, ephemeral-storage and pods; answered without allocating. */
  public static boolean onlyStandard(ResourceList list) {
    int standard = (list.has(ResourceNames.CPU) ? 1 : 0) + (list.has(ResourceNames.MEMORY) ? 1 : 0)
        + (list.has(ResourceNames.EPHEMERAL_STORAGE) ? 1 : 0) + (list.has(ResourceNames.PODS) ? 1 : 0);
    return list.size() == standard;
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
