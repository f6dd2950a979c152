package io.fleetkit.api.framework;

import io.fleetkit.api.core.Pod;

/** Gates a pod before it enters activeQ; a non-success status parks it until a cluster event. */
public interface PreEnqueuePlugin extends Plugin {
  Status preEnqueue(Pod pod);
}
