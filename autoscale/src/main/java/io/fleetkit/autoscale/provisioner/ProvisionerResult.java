package io.fleetkit.autoscale.provisioner;

import io.fleetkit.autoscale.cluster.InstanceErrorInfo;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one {@link Provisioner#runOnce()} did.
 *
 * @param readyNodes launched nodes that finished starting
 * @param batchOpen whether pending pods are being batched (the window has not closed yet)
 * @param launched nodes launched for pending pods, node name to instance type
 * @param unschedulablePods pending pods no instance type can take
 * @param commands consolidation decisions made in this loop: their nodes' termination began (a replaced node's once
 *     its replacement is Ready)
 * @param deletedNodes nodes deleted in this loop once their drain finished (consolidated, replaced or expired nodes)
 * @param timedOutNodes launched nodes deleted in this loop because they were not Ready {@link
 *     Provisioner#REGISTRATION_TTL} after their request
 * @param launchFailures the launches the cloud refused in this loop (those nodes were never created)
 * @param expiredNodes nodes whose termination (taint and drain) began in this loop because their
 *     {@link ProvisionerOptions#expireAfter} had passed
 * @param drainEvents what the drains of the nodes being terminated did in this loop, in order
 */
public record ProvisionerResult(List<String> readyNodes, boolean batchOpen, Map<String, String> launched,
    List<String> unschedulablePods, List<ConsolidationCommand> commands, List<String> deletedNodes,
    List<String> timedOutNodes, List<LaunchFailure> launchFailures, List<String> expiredNodes,
    List<DrainEvent> drainEvents) {
  public ProvisionerResult {
    readyNodes = List.copyOf(readyNodes);
    launched = Map.copyOf(launched);
    unschedulablePods = List.copyOf(unschedulablePods);
    commands = List.copyOf(commands);
    deletedNodes = List.copyOf(deletedNodes);
    timedOutNodes = List.copyOf(timedOutNodes);
    launchFailures = List.copyOf(launchFailures);
    expiredNodes = List.copyOf(expiredNodes);
    drainEvents = List.copyOf(drainEvents);
  }

  /**
   * A launch the cloud refused: Karpenter's NodeClaim whose launch failed, deleted.
   *
   * @param node the name the node would have had
   * @param instanceType its instance type
   * @param zone the zone of its offering, {@code ""} when the type names none
   * @param error the cloud's error
   */
  public record LaunchFailure(String node, String instanceType, String zone, InstanceErrorInfo error) {
    public LaunchFailure {
      Objects.requireNonNull(node, "node");
      Objects.requireNonNull(instanceType, "instanceType");
      Objects.requireNonNull(zone, "zone");
      Objects.requireNonNull(error, "error");
    }
  }
}
