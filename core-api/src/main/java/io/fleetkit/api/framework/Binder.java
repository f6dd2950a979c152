package io.fleetkit.api.framework;

import io.fleetkit.api.core.Pod;

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
}
