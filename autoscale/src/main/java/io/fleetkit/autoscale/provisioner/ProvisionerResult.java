package io.fleetkit.autoscale.provisioner;

import java.util.List;
import java.util.Map;

/**
 * What one {@link Provisioner#runOnce()} did.
 *
 * @param readyNodes launched nodes that finished starting
 * @param batchOpen whether pending pods are being batched (the window has not closed yet)
 * @param launched nodes launched for pending pods, node name to instance type
 * @param unschedulablePods pending pods no instance type can take
 * @param commands consolidation decisions carried out (or started, for replacements still starting)
 * @param deletedNodes nodes removed in this loop by consolidation
 * @param timedOutNodes launched nodes deleted in this loop because they were not Ready {@link
 *     Provisioner#REGISTRATION_TTL} after their request
 */
public record ProvisionerResult(List<String> readyNodes, boolean batchOpen, Map<String, String> launched,
    List<String> unschedulablePods, List<ConsolidationCommand> commands, List<String> deletedNodes,
    List<String> timedOutNodes) {
  public ProvisionerResult {
    readyNodes = List.copyOf(readyNodes);
    launched = Map.copyOf(launched);
    unschedulablePods = List.copyOf(unschedulablePods);
    commands = List.copyOf(commands);
    deletedNodes = List.copyOf(deletedNodes);
    timedOutNodes = List.copyOf(timedOutNodes);
  }
}
