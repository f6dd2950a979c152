package io.fleetkit.api.core;

/** How a {@link ScopedResourceSelectorRequirement} relates its scope to its values. */
public enum ScopeSelectorOperator {
  In,
  NotIn,
  Exists,
  DoesNotExist
}
