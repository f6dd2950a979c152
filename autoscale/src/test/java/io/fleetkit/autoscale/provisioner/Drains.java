package io.fleetkit.autoscale.provisioner;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.store.DeleteOptions;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;

/** The provisioner tests' stand-in for the kubelet and the time a drain takes. */
final class Drains {
  private Drains() {}

  /**
   * The loop after a termination began: the pods being deleted end (the kubelet's part, absent in these tests) and
   * Karpenter's minimum drain time passes.
   */
  static ProvisionerResult drainLoop(ObjectStore store, ManualClock clock, Provisioner p) {
    for (Pod pod : store.list(Pod.class).items()) {
      if (pod.metadata().deletionTimestamp() != null) {
        store.delete(Pod.class, pod.metadata().namespace(), pod.metadata().name(), DeleteOptions.gracePeriod(0));
      }
    }
    clock.advance(NodeTermination.MIN_DRAIN_TIME);
    return p.runOnce();
  }
}
