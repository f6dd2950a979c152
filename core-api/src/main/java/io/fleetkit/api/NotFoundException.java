package io.fleetkit.api;

/** The named object does not exist (or no longer exists). */
public class NotFoundException extends FleetKitException {
  public NotFoundException(String message) {
    super(message);
  }
}
