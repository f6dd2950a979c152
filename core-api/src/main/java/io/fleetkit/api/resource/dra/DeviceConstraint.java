package io.fleetkit.api.resource.dra;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A constraint across the devices of a claim ({@code DeviceConstraint}): all devices allocated for the named
 * requests (every request when empty) must have the attribute {@code matchAttribute}, with the same value.
 *
 * @param requests the requests it applies to; empty for all
 * @param matchAttribute a fully qualified attribute name ({@code domain/name}); {@code null} is refused by
 *     validation, as an empty constraint is in Kubernetes
 */
public record DeviceConstraint(List<String> requests, @Nullable String matchAttribute) {
  public DeviceConstraint {
    requests = List.copyOf(requests);
  }

  /** A constraint over all requests. */
  public static DeviceConstraint matchAttribute(String attribute) {
    return new DeviceConstraint(List.of(), attribute);
  }
}
