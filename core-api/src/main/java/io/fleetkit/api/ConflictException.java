package io.fleetkit.api;

/** An update was based on a stale {@code resourceVersion}, or a create found the name taken. Re-read and retry. */
public class ConflictException extends FleetKitException {
  public ConflictException(String message) {
    super(message);
  }
}
