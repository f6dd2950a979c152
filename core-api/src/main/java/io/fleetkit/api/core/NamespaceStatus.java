package io.fleetkit.api.core;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The observed state of a {@link Namespace}: its phase and, while it is being deleted, the namespace controller's
 * conditions (see {@link NamespaceCondition}).
 */
public record NamespaceStatus(NamespacePhase phase, List<NamespaceCondition> conditions) {
  public static final NamespaceStatus ACTIVE = new NamespaceStatus(NamespacePhase.Active);
  public static final NamespaceStatus TERMINATING = new NamespaceStatus(NamespacePhase.Terminating);

  public NamespaceStatus {
    Objects.requireNonNull(phase, "phase");
    conditions = List.copyOf(conditions);
  }

  /** A status in {@code phase} without conditions. */
  public NamespaceStatus(NamespacePhase phase) {
    this(phase, List.of());
  }

  public NamespaceStatus withPhase(NamespacePhase p) {
    return new NamespaceStatus(p, conditions);
  }

  public NamespaceStatus withConditions(List<NamespaceCondition> c) {
    return new NamespaceStatus(phase, c);
  }

  /** The condition of {@code type}, or {@code null} if there is none. */
  public @Nullable NamespaceCondition condition(String type) {
    for (NamespaceCondition c : conditions) {
      if (c.type().equals(type)) {
        return c;
      }
    }
    return null;
  }
}
