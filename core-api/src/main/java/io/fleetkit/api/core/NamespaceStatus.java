package io.fleetkit.api.core;

import java.util.Objects;

/** The observed state of a {@link Namespace}: its phase. */
public record NamespaceStatus(NamespacePhase phase) {
  public static final NamespaceStatus ACTIVE = new NamespaceStatus(NamespacePhase.Active);
  public static final NamespaceStatus TERMINATING = new NamespaceStatus(NamespacePhase.Terminating);

  public NamespaceStatus {
    Objects.requireNonNull(phase, "phase");
  }
}
