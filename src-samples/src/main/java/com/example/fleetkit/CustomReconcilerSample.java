package com.example.fleetkit;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.reconcile.Controller;

/**
 * Runs {@link MaintenanceCordonReconciler} over an embedded store, stepping the controller by hand. The store
 * delivers watch events on the writing thread ({@code directDelivery()}), so each {@code runUntilIdle()} sees every
 * write made before it: the run is deterministic.
 */
public final class CustomReconcilerSample {
  private CustomReconcilerSample() {}

  public static void main(String[] args) {
    try (ObjectStore store = ObjectStore.builder().directDelivery().build();
        Controller<Node> controller = Controller.builder(store, Node.class).name("maintenance-cordon").stepping()
            .reconciler(new MaintenanceCordonReconciler()).build()) {
      store.create(Node.builder().name("node-a").ready().build());
      store.create(Node.builder().name("node-b").label(MaintenanceCordonReconciler.LABEL, "true").ready().build());
      controller.start().join();
      controller.runUntilIdle();
      print(store);
      Node b = store.require(Node.class, "", "node-b");
      store.update(b.toBuilder().labels(java.util.Map.of()).build()); // maintenance over
      controller.runUntilIdle();
      print(store);
    }
  }

  private static void print(ObjectStore store) {
    for (Node n : store.list(Node.class).items()) {
      System.out.println(n.name() + " unschedulable=" + n.spec().unschedulable());
    }
  }
}
