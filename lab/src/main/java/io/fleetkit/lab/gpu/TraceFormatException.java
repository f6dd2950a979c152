package io.fleetkit.lab.gpu;

import io.fleetkit.api.FleetKitException;

/** A trace file that cannot be loaded; the message names the file and the line. Nothing was loaded. */
public final class TraceFormatException extends FleetKitException {
  private static final long serialVersionUID = 1L;

  public TraceFormatException(String message) {
    super(message);
  }

  public TraceFormatException(String message, Throwable cause) {
    super(message, cause);
  }
}
