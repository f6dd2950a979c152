package io.fleetkit.scheduler.plugins.nodeports;

import io.fleetkit.api.core.ContainerPort;
import io.fleetkit.api.core.Pod;
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
import io.fleetkit.api.framework.StateKey;
import io.fleetkit.api.framework.Status;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A node fits only if the host ports the pod binds are free there, as kube-scheduler's {@code NodePorts}
 * ({@code pkg/scheduler/framework/plugins/nodeports/node_ports.go}).
 *
 * <ul>
 *   <li>PreFilter collects the pod's host ports ({@link HostPortInfo#hostPorts}: its containers' and sidecars' ports
 *       with a {@code hostPort}) and skips the plugin for a pod that binds none, so most pods never reach Filter.
 *   <li>Filter rejects a node where one of them clashes with a port the node's pods bind (same protocol and port, on
 *       the same address or where either side binds {@code 0.0.0.0}) as UNSCHEDULABLE with upstream's reason
 *       {@value #ERR_REASON}: preemption may free the port.
 *   <li>Queueing hints: a pod this plugin rejected is retried when a node is added (upstream's {@code Node/Add} with
 *       queueing hints on), or when a bound pod that held one of the ports it wants is deleted; the deletion of a pod
 *       that was never bound or nominated, or bound none of those ports, does not retry it.
 * </ul>
 *
 * <p>Stateless and thread-safe. Filter reads the node's pods on each call, which only pods with host ports pay for;
 * it allocates only on a node where some pod binds a host port.
 */
public final class NodePortsPlugin implements PreFilterPlugin, FilterPlugin, EnqueueExtensions {
  /** The name this plugin is registered under. */
  public static final String NAME = "NodePorts";
  /** The rejection reason, verbatim from kube-scheduler ({@code ErrReason}). */
  public static final String ERR_REASON = "node(s) didn't have free ports for the requested pod ports";

  /** The single instance: the plugin has no state. */
  public static final NodePortsPlugin INSTANCE = new NodePortsPlugin();
  /** Creates the plugin for a profile. */
  public static final PluginFactory FACTORY = handle -> INSTANCE;

  private static final StateKey<PreFilterState> PRE_FILTER_KEY =
      StateKey.of("PreFilter" + NAME, PreFilterState.class);
  private static final Status REJECTED = new Status(Status.Code.UNSCHEDULABLE, List.of(ERR_REASON), NAME);

  private NodePortsPlugin() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public PreFilterResult preFilter(CycleState state, PodInfo pod, Snapshot snapshot) {
    List<ContainerPort> ports = HostPortInfo.hostPorts(pod.pod().spec());
    if (ports.isEmpty()) {
      return PreFilterResult.skip();
    }
    state.write(PRE_FILTER_KEY, new PreFilterState(ports));
    return PreFilterResult.success();
  }

  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    PreFilterState wanted = state.read(PRE_FILTER_KEY);
    if (wanted == null) {
      return Status.error("cycle state has no " + PRE_FILTER_KEY.name() + ": PreFilter of " + NAME + " did not run");
    }
    return fits(wanted.ports(), node) ? Status.success() : REJECTED;
  }

  /** Whether {@code pod}'s host ports are all free on {@code node} (upstream's {@code Fits}). */
  public static boolean fits(Pod pod, NodeInfo node) {
    List<ContainerPort> wanted = HostPortInfo.hostPorts(pod.spec());
    return wanted.isEmpty() || fits(wanted, node);
  }

  /** Builds the node's ports only when one of its pods binds any: most nodes hold none, and cost no allocation. */
  private static boolean fits(List<ContainerPort> wanted, NodeInfo node) {
    @Nullable HostPortInfo used = null;
    List<PodInfo> pods = node.pods();
    for (int i = 0, n = pods.size(); i < n; i++) {
      List<ContainerPort> ports = HostPortInfo.hostPorts(pods.get(i).pod().spec());
      if (!ports.isEmpty()) {
        if (used == null) {
          used = new HostPortInfo();
        }
        used.addAll(ports);
      }
    }
    return used == null || used.fits(wanted);
  }

  /** The host ports the pods on {@code node} bind (upstream's {@code NodeInfo.UsedPorts}). */
  public static HostPortInfo usedPorts(NodeInfo node) {
    HostPortInfo used = new HostPortInfo();
    List<PodInfo> pods = node.pods();
    for (int i = 0, n = pods.size(); i < n; i++) {
      used.addAll(HostPortInfo.hostPorts(pods.get(i).pod().spec()));
    }
    return used;
  }

  /**
   * Upstream's {@code Pod/Delete} and {@code Node/Add} (queueing hints on: node updates never free a port). Pod
   * updates are not registered, since a pod's ports cannot change.
   */
  @Override
  public Set<ClusterEvent> eventsToRegister() {
    return EnumSet.of(ClusterEvent.NODE_ADD, ClusterEvent.ASSIGNED_POD_DELETE);
  }

  /**
   * Upstream's {@code isSchedulableAfterPodDeleted} for a deleted pod: no when it was neither bound nor nominated,
   * binds no host port, or binds none that {@code pod} wants; yes otherwise. Other events, and an object that is not
   * a pod, re-queue.
   */
  @Override
  public boolean isSchedulableAfter(Pod pod, ClusterEvent event, @Nullable Object oldObject,
      @Nullable Object newObject) {
    if (event != ClusterEvent.ASSIGNED_POD_DELETE || !(oldObject instanceof Pod deleted)) {
      return true;
    }
    if (deleted.spec().nodeName().isEmpty() && deleted.status().nominatedNodeName().isEmpty()) {
      return false;
    }
    List<ContainerPort> freed = HostPortInfo.hostPorts(deleted.spec());
    if (freed.isEmpty()) {
      return false;
    }
    HostPortInfo inUse = new HostPortInfo();
    inUse.addAll(freed);
    return !inUse.fits(HostPortInfo.hostPorts(pod.spec()));
  }

  @Override
  public String toString() {
    return NAME;
  }

  /** The pod's host ports, as PreFilter found them. */
  private record PreFilterState(List<ContainerPort> ports) {}
}
