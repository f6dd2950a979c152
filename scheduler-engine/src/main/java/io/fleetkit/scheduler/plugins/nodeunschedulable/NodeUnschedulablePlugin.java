package io.fleetkit.scheduler.plugins.nodeunschedulable;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.ClusterEvent;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.EnqueueExtensions;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PluginFactory;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.scheduling.Taints;
import io.fleetkit.scheduler.nodetable.NodeTable;
import io.fleetkit.scheduler.nodetable.TableFilter;
import io.fleetkit.scheduler.plugins.helper.ObjectChange;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Filters out nodes with {@code spec.unschedulable} set (cordoned), unless the pod tolerates the taint
 * {@value #TAINT_NODE_UNSCHEDULABLE}{@code :NoSchedule} (kube-scheduler's {@code NodeUnschedulable},
 * {@code pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go}).
 *
 * <p>Queueing hints ({@link EnqueueExtensions}): a pod this plugin rejected is retried when a node is added
 * schedulable or uncordoned, not for other node changes, and when the pod itself starts tolerating the
 * unschedulable taint.
 *
 * <p>Stateless and thread-safe; {@link #filter} allocates nothing. The toleration check runs only for cordoned
 * nodes, so no per-pod precomputation is needed.
 */
public final class NodeUnschedulablePlugin implements TableFilter, EnqueueExtensions {
  /** The name this plugin is registered under. */
  public static final String NAME = "NodeUnschedulable";
  /** The rejection reason, verbatim from kube-scheduler ({@code ErrReasonUnschedulable}). */
  public static final String ERR_REASON_UNSCHEDULABLE = "node(s) were unschedulable";
  /** The taint key a pod tolerates to be placed on cordoned nodes ({@code v1.TaintNodeUnschedulable}). */
  public static final String TAINT_NODE_UNSCHEDULABLE = "node.kubernetes.io/unschedulable";

  /** The single instance: the plugin has no state. */
  public static final NodeUnschedulablePlugin INSTANCE = new NodeUnschedulablePlugin();
  /** Creates the plugin for a profile. */
  public static final PluginFactory FACTORY = handle -> INSTANCE;

  private static final Taint UNSCHEDULABLE_TAINT = Taint.of(TAINT_NODE_UNSCHEDULABLE, "", TaintEffect.NoSchedule);
  private static final Status REJECTED =
      new Status(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE, List.of(ERR_REASON_UNSCHEDULABLE), NAME);

  private NodeUnschedulablePlugin() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    if (node.unschedulable()
        && !Taints.tolerationsTolerateTaint(pod.pod().spec().tolerations(), UNSCHEDULABLE_TAINT)) {
      return REJECTED;
    }
    return Status.success();
  }

  @Override
  public Status filter(CycleState state, PodInfo pod, NodeTable table, int node) {
    return table.unschedulable(node) ? filter(state, pod, table.view(node)) : Status.success();
  }

  /** Over a range: schedulable nodes pass on their flag, cordoned ones are judged on their view. */
  @Override
  public void filterAll(CycleState state, PodInfo pod, NodeTable table, int[] nodes, int from, int to, int[] failed,
      int mark, Status[] statuses) {
    if (table.unschedulableCount() == 0) {
      return; // no node is unschedulable: every node passes
    }
    for (int pos = from; pos < to; pos++) {
      int node = nodes[pos];
      if (failed[pos] < 0 && table.unschedulable(node)) {
        Status s = filter(state, pod, table.view(node));
        if (s.code() != Status.Code.SUCCESS) {
          failed[pos] = mark;
          statuses[pos] = s;
        }
      }
    }
  }

  /**
   * Upstream's {@code Node/Add} and {@code Node/UpdateNodeTaint} (a change of {@code spec.unschedulable} is one):
   * {@link ClusterEvent#NODE_ADD} and {@link ClusterEvent#NODE_UPDATE}, FleetKit's single update event for every node
   * change a plugin reads, which {@link #isSchedulableAfter} narrows; and upstream's
   * {@code TargetPod/UpdatePodToleration}, {@link ClusterEvent#TARGET_POD_UPDATE_TOLERATION}.
   */
  @Override
  public Set<ClusterEvent> eventsToRegister() {
    return EnumSet.of(ClusterEvent.NODE_ADD, ClusterEvent.NODE_UPDATE, ClusterEvent.TARGET_POD_UPDATE_TOLERATION);
  }

  /**
   * For node events upstream's {@code isSchedulableAfterNodeChange}: yes for a node added schedulable or updated from
   * unschedulable to schedulable; no for a node added cordoned or an update that leaves {@code spec.unschedulable} as
   * it was (a heartbeat, a label, a taint). For {@link ClusterEvent#TARGET_POD_UPDATE_TOLERATION} upstream's
   * {@code isSchedulableAfterPodTolerationChange}: yes only when the updated pod is {@code pod} (by namespace and
   * name) and it tolerates {@value #TAINT_NODE_UNSCHEDULABLE}{@code :NoSchedule} now but did not before. Objects of
   * another type re-queue.
   */
  @Override
  public boolean isSchedulableAfter(Pod pod, ClusterEvent event, @Nullable Object oldObject,
      @Nullable Object newObject) {
    if (event == ClusterEvent.TARGET_POD_UPDATE_TOLERATION) {
      if (!(newObject instanceof Pod after) || (oldObject != null && !(oldObject instanceof Pod))) {
        return true;
      }
      Pod before = (Pod) oldObject;
      return after.metadata().key().equals(pod.metadata().key())
          && (before == null || !tolerates(before))
          && tolerates(after);
    }
    return ObjectChange.startsToPass(Node.class, oldObject, newObject, n -> !n.spec().unschedulable());
  }

  private static boolean tolerates(Pod pod) {
    return Taints.tolerationsTolerateTaint(pod.spec().tolerations(), UNSCHEDULABLE_TAINT);
  }

  @Override
  public String toString() {
    return NAME;
  }
}
