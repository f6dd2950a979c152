package io.fleetkit.api.resource.dra;

import io.fleetkit.api.FleetKitException;

/**
 * A device selector that cannot be compiled (outside the supported CEL subset, a syntax or type error) or that
 * failed while evaluating against one device (a missing attribute, values of different types), as CEL reports
 * compile and runtime errors.
 */
public class DeviceSelectorException extends FleetKitException {
  public DeviceSelectorException(String message) {
    super(message);
  }
}
