package io.fleetkit.reconcile.node;

import java.util.Optional;

/**
 * The cloud's answers about the machine behind a node, as the {@link CloudNodeLifecycleController} asks them (upstream
 * {@code cloudprovider.InstancesV2}'s {@code InstanceExists} and {@code InstanceShutdown}). An answer is empty when
 * the cloud cannot give one now (upstream: an error); the controller then leaves the node alone until its next pass.
 * A cloud that resolves a node's instance by name, because the node has no {@code spec.providerID} yet, answers
 * "does not exist" when that lookup finds none (upstream {@code InstanceNotFound}).
 *
 * <p>Implementations are called on the controller's thread and must not block for long; they need not be
 * thread-safe.
 */
public interface CloudInstances {
  /** A cloud whose machines all exist and run: the controller never deletes nor taints a node. */
  CloudInstances ALL_RUNNING = new CloudInstances() {
    @Override
    public Optional<Boolean> exists(String nodeName, String providerId) {
      return Optional.of(true);
    }

    @Override
    public Optional<Boolean> shutdown(String nodeName, String providerId) {
      return Optional.of(false);
    }
  };

  /**
   * Whether the machine of node {@code nodeName} still exists.
   *
   * @param providerId the node's {@code spec.providerID}, or {@code ""} when it has none
   * @return the answer, or empty when the cloud cannot tell now
   */
  Optional<Boolean> exists(String nodeName, String providerId);

  /**
   * Whether the machine of node {@code nodeName} exists but is shut down (stopped, not terminated).
   *
   * @param providerId the node's {@code spec.providerID}, or {@code ""} when it has none
   * @return the answer, or empty when the cloud cannot tell now
   */
  Optional<Boolean> shutdown(String nodeName, String providerId);
}
