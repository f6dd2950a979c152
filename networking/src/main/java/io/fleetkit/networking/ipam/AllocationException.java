package io.fleetkit.networking.ipam;

import io.fleetkit.api.FleetKitException;
import java.util.Objects;

/**
 * An address or port could not be allocated. {@link #reason()} tells why; the message is upstream's
 * ({@code range is full}, {@code provided IP is already allocated}, {@code the provided IP (x) is not in the valid
 * range. The range of valid IPs is y}).
 */
public final class AllocationException extends FleetKitException {
  private static final long serialVersionUID = 1L;

  /** Why an allocation failed. */
  public enum Reason {
    /** No free value is left. */
    FULL,
    /** The requested value is taken. */
    ALREADY_ALLOCATED,
    /** The requested value lies outside the range (or is its network/broadcast address). */
    NOT_IN_RANGE
  }

  private final Reason reason;

  public AllocationException(Reason reason, String message) {
    super(message);
    this.reason = Objects.requireNonNull(reason, "reason");
  }

  public Reason reason() {
    return reason;
  }
}
