package io.fleetkit.api.core;

import io.fleetkit.api.resource.ResourceList;
import java.util.List;
import java.util.Objects;

/**
 * The desired state of a {@link ResourceQuota}: hard limits per quota resource ({@code requests.cpu},
 * {@code limits.memory}, {@code pods}, {@code count/deployments.apps}, {@code requests.nvidia.com/gpu},
 * {@code <class>.storageclass.storage.k8s.io/requests.storage}, ...) and the scopes it applies to; {@code scopes}
 * and {@code scopeSelector} are ANDed. Rules are checked by {@link ResourceQuota}.
 *
 * @param scopeSelector requirements on the scopes; an empty list selects everything
 */
public record ResourceQuotaSpec(ResourceList hard, List<ResourceQuotaScope> scopes,
    List<ScopedResourceSelectorRequirement> scopeSelector) {
  public ResourceQuotaSpec {
    Objects.requireNonNull(hard, "hard");
    scopes = List.copyOf(scopes);
    scopeSelector = List.copyOf(scopeSelector);
  }

  /** Hard limits for every object of the namespace (no scopes). */
  public static ResourceQuotaSpec of(ResourceList hard) {
    return new ResourceQuotaSpec(hard, List.of(), List.of());
  }
}
