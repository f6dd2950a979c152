package io.fleetkit.api;

import org.jspecify.annotations.Nullable;

/**
 * The root of FleetKit's own failures. Unchecked: expected outcomes (a pod is unschedulable, a plugin says wait)
 * are values, never exceptions; this family is for library failures and rejected input.
 */
public class FleetKitException extends RuntimeException {
  public FleetKitException(String message) {
    super(message);
  }

  public FleetKitException(String message, @Nullable Throwable cause) {
    super(message, cause);
  }
}
