package io.fleetkit.scheduler.plugins.coscheduling;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.scheduling.RequiredNodeAffinity;
import io.fleetkit.api.scheduling.Taints;

/**
 * How many copies of a gang member fit a node, by resources and pod slots, on the nodes the member may use at all
 * (schedulable, matching its node selector and required node affinity, tolerating the node's NoSchedule/NoExecute
 * taints). An estimate for whole-gang decisions (topology domains, gang preemption): Filter still checks each
 * placement. Immutable; built once per decision.
 */
final class MemberFit {
  private final PodInfo member;
  private final String[] resources;
  private final long[] perPod;
  private final RequiredNodeAffinity affinity;

  MemberFit(PodInfo member) {
    this.member = member;
    ResourceList req = member.requests();
    resources = req.names().toArray(new String[0]);
    perPod = new long[resources.length];
    for (int i = 0; i < resources.length; i++) {
      perPod[i] = req.milliValue(resources[i]);
    }
    affinity = RequiredNodeAffinity.fromAffinity(member.pod().spec().nodeSelector(), member.pod().spec().affinity());
  }

  /** Whether the member may use the node at all (not counting resources). */
  boolean eligible(NodeInfo ni) {
    Node node = ni.node();
    return !node.spec().unschedulable()
        && affinity.match(ni.name(), ni.labels())
        && Taints.findMatchingUntoleratedTaint(node.spec().taints(), member.pod().spec().tolerations(),
            Taints.NO_SCHEDULE_OR_NO_EXECUTE).isEmpty();
  }

  /** The resources the fit counts, in a fixed order. */
  String[] resources() {
    return resources;
  }

  /** What one member requests of {@code resources()[i]} (milli units). */
  long perPod(int i) {
    return perPod[i];
  }

  /** The node's free amount of each of {@link #resources()} (milli units), plus free pod slots last. */
  long[] free(NodeInfo ni) {
    ResourceList alloc = ni.allocatable();
    ResourceList used = ni.requested();
    long[] f = new long[resources.length + 1];
    for (int i = 0; i < resources.length; i++) {
      f[i] = Math.max(0, alloc.milliValue(resources[i]) - used.milliValue(resources[i]));
    }
    f[resources.length] = Math.max(0, alloc.pods() - ni.pods().size());
    return f;
  }

  /** Adds what {@code pod} holds of each of {@link #resources()}, plus its pod slot, back to {@code free}. */
  void giveBack(long[] free, PodInfo pod) {
    add(free, pod, 1);
  }

  /** Takes what {@code pod} holds, plus its pod slot, from {@code free} again (undoes {@link #giveBack}). */
  void takeAgain(long[] free, PodInfo pod) {
    add(free, pod, -1);
  }

  private void add(long[] free, PodInfo pod, int sign) {
    ResourceList r = pod.requests();
    for (int i = 0; i < resources.length; i++) {
      free[i] += sign * r.milliValue(resources[i]);
    }
    free[resources.length] += sign;
  }

  /** How many copies fit into {@code free}. */
  long copies(long[] free) {
    long n = free[resources.length];
    for (int i = 0; i < resources.length; i++) {
      if (perPod[i] > 0) {
        n = Math.min(n, free[i] / perPod[i]);
      }
    }
    return Math.max(0, n);
  }
}
