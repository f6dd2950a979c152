package io.fleetkit.optimizer.internal;

import org.jspecify.annotations.Nullable;

/**
 * One PodGroup: its members among the planned pods are placed all-or-nothing (none, or enough that with the members
 * already running at least {@code minMember} run), optionally inside one domain of a node label.
 */
public final class GangFact {
  final String key;
  final int minMember;
  final int running;
  final @Nullable String topologyKey;
  final boolean topologyRequired;

  GangFact(String key, int minMember, int running, @Nullable String topologyKey, boolean topologyRequired) {
    this.key = key;
    this.minMember = minMember;
    this.running = running;
    this.topologyKey = topologyKey;
    this.topologyRequired = topologyRequired;
  }

  /** Members still needed among the planned pods for the gang to run. */
  int needed() {
    return Math.max(0, minMember - running);
  }

  /** The node's domain of this gang's topology label; a node without the label is a domain of its own. */
  String domainOf(NodeFact node) {
    String v = topologyKey == null ? null : node.labels.get(topologyKey);
    return v == null ? "\u0000" + node.name : v;
  }

  @Override
  public String toString() {
    return key;
  }
}
