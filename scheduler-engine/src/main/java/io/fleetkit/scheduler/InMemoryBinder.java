package io.fleetkit.scheduler;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.Binder;
import io.fleetkit.api.framework.Status;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The default binder: records each binding in memory ({@code namespace/name → node}) and always succeeds. Useful for
 * simulations and tests. Thread-safe.
 */
public final class InMemoryBinder implements Binder {
  private final Map<String, String> bindings = new LinkedHashMap<>();

  @Override
  public synchronized Status bind(Pod pod, String nodeName) {
    bindings.put(pod.metadata().key(), nodeName);
    return Status.success();
  }

  /** A copy of the bindings so far, in binding order. */
  public synchronized Map<String, String> bindings() {
    return Collections.unmodifiableMap(new LinkedHashMap<>(bindings));
  }

  /** Forgets a pod's binding (when it is deleted), so that {@link #bindings()} stays small. */
  public synchronized void forget(String podKey) {
    bindings.remove(podKey);
  }
}
