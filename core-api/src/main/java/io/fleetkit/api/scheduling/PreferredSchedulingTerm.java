package io.fleetkit.api.scheduling;

import java.util.Objects;

/** A weighted (1..100) node selector term for preferred node affinity. */
public record PreferredSchedulingTerm(int weight, NodeSelectorTerm preference) {
  public PreferredSchedulingTerm {
    Objects.requireNonNull(preference, "preference");
  }
}
