package io.fleetkit.api.framework;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.store.ObjectStore;
import java.util.Optional;

/**
 * Where bindings go: the embedded object store by default, a Kubernetes API server or Slurm through adapters.
 * Implementations are called from binding threads and must be thread-safe.
 */
public interface Binder {
  /**
   * Binds {@code pod} to {@code nodeName}.
   *
   * @return success, or a rejected/error status with the reason (the pod is then unreserved and requeued)
   */
  Status bind(Pod pod, String nodeName);

  /**
   * The object store this binder writes bindings to, when it has one: plugins that write other objects of the same
   * cluster use it (DynamicResources writes the ResourceClaims it allocates). Empty by default.
   */
  default Optional<ObjectStore> objectStore() {
    return Optional.empty();
  }
}
