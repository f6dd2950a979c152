package io.fleetkit.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import org.junit.jupiter.api.Test;

/**
 * The recipe "add a controller" of docs/architecture.md, step by step: an idempotent {@link Reconciler} that reads
 * the object, computes what its status should be and writes only a difference; a {@link Controller} built on the
 * store for the kind; run stepping on a manual clock (a simulation) until idle. {@link Gadget} stands for the kind
 * the controller owns.
 */
final class ControllerRecipeTest {
  /** Step 1: the reconciler. Called with a key, never with an event: it reads the current object itself. */
  static final Reconciler<Gadget> PHASE_FROM_SIZE = ctx -> {
    ctx.object().ifPresent(g -> {
      String want = g.size() > 0 ? "Ready" : "Empty";
      if (!want.equals(g.phase())) {
        ctx.store().updateStatus(g.withPhase(want));
      }
    });
    return Result.done();
  };

  @Test
  void recipe_controller_reconcilesEveryObjectAndFollowsChanges() {
    try (ObjectStore store = ObjectStore.builder().directDelivery().build();
        // Step 2: a controller for the kind, stepping on a manual clock (drop stepping() to run on worker threads).
        Controller<Gadget> c = Controller.builder(store, Gadget.class).name("gadget-phase").stepping()
            .clock(ManualClock.atEpoch2026()).reconciler(PHASE_FROM_SIZE).build()) {
      store.create(Gadget.of("ns", "a", 3));
      store.create(Gadget.of("ns", "b", 0));
      // Step 3: start (lists and watches), then drive it.
      c.start().join();
      c.runUntilIdle();
      assertThat(store.require(Gadget.class, "ns", "a").phase()).isEqualTo("Ready");
      assertThat(store.require(Gadget.class, "ns", "b").phase()).isEqualTo("Empty");
      store.update(store.require(Gadget.class, "ns", "b").withSize(2));
      c.runUntilIdle();
      assertThat(store.require(Gadget.class, "ns", "b").phase()).isEqualTo("Ready");
      assertThat(c.runUntilIdle()).as("stable: nothing left to reconcile").isZero();
    }
  }
}
