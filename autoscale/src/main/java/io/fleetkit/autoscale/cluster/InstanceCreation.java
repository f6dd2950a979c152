package io.fleetkit.autoscale.cluster;

import io.fleetkit.api.core.Node;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * The cloud's answer to an autoscaler's request for a machine: the seam where a simulated cloud refuses one (a
 * capacity stockout). The {@link ClusterAutoscaler} and the {@link io.fleetkit.autoscale.provisioner.Provisioner} ask
 * it for every node they launch, before the node enters the store; a refused node is never stored.
 *
 * <p>Called on the autoscaler's thread, under its lock; an implementation may record what it refused.
 */
@FunctionalInterface
public interface InstanceCreation {
  /** A cloud that creates every machine asked for. */
  InstanceCreation ALWAYS = (node, now) -> null;

  /**
   * Creates the machine of {@code node} (the node as it would be launched: its pool, instance type and zone labels
   * set) at {@code now}.
   *
   * @return {@code null} when the machine is created, else the error the cloud refused it with
   */
  @Nullable InstanceErrorInfo create(Node node, Instant now);
}
