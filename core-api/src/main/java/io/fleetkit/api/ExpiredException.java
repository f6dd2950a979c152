package io.fleetkit.api;

/**
 * A watch asked for a {@code resourceVersion} older than the retained history ("too old"). Callers relist and
 * watch again from the list's version, as Kubernetes clients do on HTTP 410 Gone.
 */
public class ExpiredException extends FleetKitException {
  public ExpiredException(String message) {
    super(message);
  }
}
