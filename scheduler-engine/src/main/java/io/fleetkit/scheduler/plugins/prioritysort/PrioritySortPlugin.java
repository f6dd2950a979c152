package io.fleetkit.scheduler.plugins.prioritysort;

import io.fleetkit.api.framework.FrameworkHandle;
import io.fleetkit.api.framework.QueueSortPlugin;
import io.fleetkit.api.framework.QueuedPodInfo;

/**
 * Orders activeQ as kube-scheduler's {@code queuesort.PrioritySort}: the pod with the higher priority first, then the
 * one that entered the queue earlier. Stateless and thread-safe.
 */
public final class PrioritySortPlugin implements QueueSortPlugin {
  public static final String NAME = "PrioritySort";

  /** Creates the plugin; the handle is not needed. */
  public PrioritySortPlugin(FrameworkHandle handle) {}

  public PrioritySortPlugin() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public int compare(QueuedPodInfo a, QueuedPodInfo b) {
    int pa = a.podInfo().priority();
    int pb = b.podInfo().priority();
    if (pa != pb) {
      return pa > pb ? -1 : 1;
    }
    return Long.compare(a.timestampNanos(), b.timestampNanos());
  }
}
