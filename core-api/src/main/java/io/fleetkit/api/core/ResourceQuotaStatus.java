package io.fleetkit.api.core;

import io.fleetkit.api.resource.ResourceList;
import java.util.Objects;

/**
 * The observed state of a {@link ResourceQuota}: the hard limits being enforced and the usage charged against them.
 * Admission updates {@code used} with a compare-and-set on the quota's resourceVersion, so concurrent creates never
 * overshoot a limit.
 */
public record ResourceQuotaStatus(ResourceList hard, ResourceList used) {
  /** Not yet computed. */
  public static final ResourceQuotaStatus EMPTY = new ResourceQuotaStatus(ResourceList.EMPTY, ResourceList.EMPTY);

  public ResourceQuotaStatus {
    Objects.requireNonNull(hard, "hard");
    Objects.requireNonNull(used, "used");
  }
}
