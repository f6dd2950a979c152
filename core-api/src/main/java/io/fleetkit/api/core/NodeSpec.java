package io.fleetkit.api.core;

import io.fleetkit.api.scheduling.Taint;
import java.util.List;
import java.util.Objects;

/**
 * The desired part of a node.
 *
 * @param providerID the cloud or pool identity of the machine; empty when none
 * @param podCIDRs the ranges pod IPs on this node come from ({@code spec.podCIDRs}), at most one per IP family;
 *     empty until the node IPAM controller assigns them
 */
public record NodeSpec(boolean unschedulable, List<Taint> taints, String providerID, List<String> podCIDRs) {
  public static final NodeSpec EMPTY = new NodeSpec(false, List.of(), "");

  public NodeSpec {
    taints = List.copyOf(taints);
    Objects.requireNonNull(providerID, "providerID");
    podCIDRs = List.copyOf(podCIDRs);
  }

  /** A spec without pod CIDRs. */
  public NodeSpec(boolean unschedulable, List<Taint> taints, String providerID) {
    this(unschedulable, taints, providerID, List.of());
  }

  public NodeSpec withPodCIDRs(List<String> cidrs) {
    return new NodeSpec(unschedulable, taints, providerID, cidrs);
  }
}
