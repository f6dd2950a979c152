package io.fleetkit.autoscale.cluster;

import java.util.List;
import java.util.Objects;

/**
 * Machines of one pool the cloud refused in a loop, with one error code (upstream's {@code ScaleUpFailure}, as
 * {@code handleInstanceCreationErrorsForNodeGroup} registers it): the nodes were never created, the scale-up is undone
 * by as many nodes, and the pool is backed off with {@code error}.
 *
 * @param pool the NodePool
 * @param nodes the names the refused nodes would have had, in launch order
 * @param error the error: its class and code, and the distinct messages of the refusals joined by {@code ", "}
 */
public record ScaleUpFailure(String pool, List<String> nodes, InstanceErrorInfo error) {
  public ScaleUpFailure {
    Objects.requireNonNull(pool, "pool");
    nodes = List.copyOf(nodes);
    Objects.requireNonNull(error, "error");
  }

  /**
   * Upstream's {@code ScaleUpFailed} warning event text: the error code as its {@code errorCode.String()},
   * {@code <class>.<code>} (for example {@code OutOfResource.RESOURCE_POOL_EXHAUSTED}), then the refusals' messages.
   */
  public String eventMessage() {
    return "Failed adding " + nodes.size() + " nodes to group " + pool + " due to " + error.errorClass().upstreamName()
        + "." + error.errorCode() + "; source errors: " + error.errorMessage();
  }
}
