package io.fleetkit.scheduler.plugins.nodename;

import io.fleetkit.api.framework.ClusterEvent;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.EnqueueExtensions;
import io.fleetkit.api.framework.FilterPlugin;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PluginFactory;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PreFilterPlugin;
import io.fleetkit.api.framework.PreFilterResult;
import io.fleetkit.api.framework.Snapshot;
import io.fleetkit.api.framework.Status;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Filters out every node but the one a pod names in {@code spec.nodeName} (kube-scheduler's {@code NodeName},
 * {@code pkg/scheduler/framework/plugins/nodename/node_name.go}). A pod without a node name fits every node.
 * A pod this plugin rejected is retried when a node is added, as upstream (which gives that event no hint).
 *
 * <p>In FleetKit's scheduling engine a pod whose {@code spec.nodeName} is set counts as bound and never reaches the
 * scheduling queue, so the engine never parks a pod on this plugin's rejection.
 *
 * <p>Stateless and thread-safe; {@link #filter} allocates nothing.
 */
public final class NodeNamePlugin implements PreFilterPlugin, FilterPlugin, EnqueueExtensions {
  /** The name this plugin is registered under. */
  public static final String NAME = "NodeName";
  /** The rejection reason, verbatim from kube-scheduler ({@code ErrReason}). */
  public static final String ERR_REASON = "node(s) didn't match the requested node name";

  /** The single instance: the plugin has no state. */
  public static final NodeNamePlugin INSTANCE = new NodeNamePlugin();
  /** Creates the plugin for a profile. */
  public static final PluginFactory FACTORY = handle -> INSTANCE;

  private static final Status REJECTED =
      new Status(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE, List.of(ERR_REASON), NAME);

  private NodeNamePlugin() {}

  @Override
  public String name() {
    return NAME;
  }

  /**
   * Upstream's {@code Node/Add} ({@link ClusterEvent#NODE_ADD}): only a new node can be the named one. Node updates
   * never change this plugin's verdict, so {@link ClusterEvent#NODE_UPDATE} is not registered; the hint is the default
   * (re-queue), as upstream registers no hint function.
   */
  @Override
  public Set<ClusterEvent> eventsToRegister() {
    return EnumSet.of(ClusterEvent.NODE_ADD);
  }

  /**
   * Skip when the pod names no node: Filter would pass every node, so the framework need not call it (kube's Filter
   * gives the same answer; this only saves a call per node).
   */
  @Override
  public PreFilterResult preFilter(CycleState state, PodInfo pod, Snapshot snapshot) {
    return pod.pod().spec().nodeName().isEmpty() ? PreFilterResult.skip() : PreFilterResult.success();
  }

  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    return fits(pod, node) ? Status.success() : REJECTED;
  }

  /** Whether the pod names no node, or names this one (upstream {@code Fits}). */
  public static boolean fits(PodInfo pod, NodeInfo node) {
    String wanted = pod.pod().spec().nodeName();
    return wanted.isEmpty() || wanted.equals(node.name());
  }

  @Override
  public String toString() {
    return NAME;
  }
}
