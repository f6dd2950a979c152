package com.example.fleetkit;

import io.fleetkit.api.core.Node;
import io.fleetkit.reconcile.ReconcileContext;
import io.fleetkit.reconcile.Reconciler;
import io.fleetkit.reconcile.Result;
import java.util.Optional;

/**
 * A custom reconciler: a Node labelled {@code example.com/maintenance=true} is cordoned (spec.unschedulable), and
 * uncordoned when the label goes. Level-triggered and idempotent: it compares and writes only a difference.
 */
public final class MaintenanceCordonReconciler implements Reconciler<Node> {
  public static final String LABEL = "example.com/maintenance";

  @Override
  public Result reconcile(ReconcileContext<Node> context) {
    Optional<Node> found = context.object();
    if (found.isEmpty()) {
      return Result.done(); // deleted: nothing to undo
    }
    Node node = found.get();
    boolean want = "true".equals(node.metadata().labels().get(LABEL));
    if (node.spec().unschedulable() != want) {
      context.store().update(node.toBuilder().unschedulable(want).build());
    }
    return Result.done();
  }
}
