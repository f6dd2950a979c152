package io.fleetkit.api.core;

import io.fleetkit.api.scheduling.Taint;
import java.util.List;
import java.util.Objects;

/**
 * The desired part of a node.
 *
 * @param providerID the cloud or pool identity of the machine; empty when none
 */
public record NodeSpec(boolean unschedulable, List<Taint> taints, String providerID) {
  public static final NodeSpec EMPTY = new NodeSpec(false, List.of(), "");

  public NodeSpec {
    taints = List.copyOf(taints);
    Objects.requireNonNull(providerID, "providerID");
  }
}
