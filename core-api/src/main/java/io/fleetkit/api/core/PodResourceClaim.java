package io.fleetkit.api.core;

import java.util.Objects;

/**
 * One entry of a pod's {@code spec.resourceClaims} (core/v1 {@code PodResourceClaim}): a name unique in the pod,
 * which containers use in {@code resources.claims}, and exactly one source, an existing ResourceClaim of the pod's
 * namespace or a ResourceClaimTemplate from which the resource-claim controller makes one claim for this pod. The
 * rules (DNS-label name, unique, exactly one source) are checked with the pod; strings are empty when unset.
 *
 * @param name the name containers refer to ({@code name}); a DNS label
 * @param resourceClaimName the ResourceClaim to use ({@code resourceClaimName}), empty when a template is named
 * @param resourceClaimTemplateName the template to make a claim from ({@code resourceClaimTemplateName}), empty when
 *     a claim is named
 */
public record PodResourceClaim(String name, String resourceClaimName, String resourceClaimTemplateName) {
  public PodResourceClaim {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(resourceClaimName, "resourceClaimName");
    Objects.requireNonNull(resourceClaimTemplateName, "resourceClaimTemplateName");
  }

  /** An entry using the existing ResourceClaim {@code claimName}. */
  public static PodResourceClaim ofClaim(String name, String claimName) {
    return new PodResourceClaim(name, claimName, "");
  }

  /** An entry whose claim is made for the pod from the ResourceClaimTemplate {@code templateName}. */
  public static PodResourceClaim ofTemplate(String name, String templateName) {
    return new PodResourceClaim(name, "", templateName);
  }

  /** Whether the claim is made from a template (and then named in the pod's {@code status.resourceClaimStatuses}). */
  public boolean fromTemplate() {
    return !resourceClaimTemplateName.isEmpty();
  }
}
