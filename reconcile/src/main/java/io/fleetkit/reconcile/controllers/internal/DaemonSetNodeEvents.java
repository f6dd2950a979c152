package io.fleetkit.reconcile.controllers.internal;

import io.fleetkit.reconcile.controllers.DaemonSetPlacement;
import io.fleetkit.api.apps.DaemonSet;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeCondition;
import io.fleetkit.api.core.NodeStatus;
import io.fleetkit.reconcile.Controller;
import io.fleetkit.reconcile.ObjectKey;
import io.fleetkit.reconcile.ResourceEventHandler;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Wakes DaemonSets on node events, as upstream's {@code addNode} and {@code updateNode}: a new node wakes the sets
 * that should run a pod on it; a changed node (unless {@link #shouldIgnoreNodeUpdate}) wakes the sets for which
 * {@link DaemonSetPods#nodeShouldRunDaemonPod} answers differently for the old and the new node. Upstream has no
 * handler for a deleted node (the pod garbage collector's deletions wake the sets); FleetKit wakes the sets that
 * should have run on it, so that {@code desiredNumberScheduled} follows at once.
 *
 * <p>Thread-safe: called on the node informer's thread, it reads the controller's DaemonSet cache and adds keys to
 * its queue.
 */
public final class DaemonSetNodeEvents implements ResourceEventHandler<Node> {
  private volatile @Nullable Controller<DaemonSet> controller;

  /** The controller whose queue and cache the handler uses: set once built, before it starts. */
  public void bind(Controller<DaemonSet> c) {
    controller = Objects.requireNonNull(c, "controller");
  }

  private Controller<DaemonSet> controller() {
    return Objects.requireNonNull(controller, "DaemonSetNodeEvents: bind the controller before it starts");
  }

  @Override
  public void onAdd(Node node) {
    Controller<DaemonSet> c = controller();
    for (DaemonSet ds : c.lister().list()) {
      if (DaemonSetPlacement.nodeShouldRunDaemonPod(node, ds).shouldRun()) {
        c.enqueue(ObjectKey.of(ds));
      }
    }
  }

  @Override
  public void onUpdate(Node oldNode, Node newNode) {
    if (shouldIgnoreNodeUpdate(oldNode, newNode)) {
      return;
    }
    Controller<DaemonSet> c = controller();
    for (DaemonSet ds : c.lister().list()) {
      if (!DaemonSetPlacement.nodeShouldRunDaemonPod(oldNode, ds).equals(DaemonSetPlacement.nodeShouldRunDaemonPod(newNode,
          ds))) {
        c.enqueue(ObjectKey.of(ds));
      }
    }
  }

  @Override
  public void onDelete(Node node, boolean finalStateUnknown) {
    onAdd(node);
  }

  /**
   * Upstream's {@code shouldIgnoreNodeUpdate}: the conditions hold the same statuses (heartbeats and reasons aside)
   * and nothing else changed but the resourceVersion.
   */
  public static boolean shouldIgnoreNodeUpdate(Node oldNode, Node newNode) {
    if (!sameConditions(oldNode.status().conditions(), newNode.status().conditions())) {
      return false;
    }
    NodeStatus os = oldNode.status();
    NodeStatus ns = newNode.status();
    Node normalized = oldNode
        .withMetadata(oldNode.metadata().toBuilder().resourceVersion(newNode.metadata().resourceVersion()).build())
        .withStatus(os.withConditions(ns.conditions()));
    return normalized.equals(newNode);
  }

  /** Upstream's {@code nodeInSameCondition}: the same condition types with the same statuses. */
  static boolean sameConditions(List<NodeCondition> old, List<NodeCondition> cur) {
    if (old.size() != cur.size()) {
      return false;
    }
    Map<String, Object> byType = new HashMap<>();
    for (NodeCondition c : old) {
      byType.put(c.type(), c.status());
    }
    for (NodeCondition c : cur) {
      if (!Objects.equals(byType.get(c.type()), c.status())) {
        return false;
      }
    }
    return true;
  }
}
