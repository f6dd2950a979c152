package io.fleetkit.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The stepping mode end to end: a toy "replica set" controller (a Gadget's size is how many Parts it should own)
 * plus the garbage collector, on a direct-delivery store and a manual clock, driven by one thread. The same
 * scenario run twice yields the same timeline, event for event.
 */
final class SimulationTest {

  /** Creates or deletes owned Parts until there are exactly {@code size}; idempotent. */
  static final class PartSetReconciler implements Reconciler<Gadget> {
    @Override
    public Result reconcile(ReconcileContext<Gadget> ctx) {
      Gadget g = ctx.object().orElse(null);
      if (g == null || g.metadata().deletionTimestamp() != null) {
        return Result.done(); // the garbage collector removes the parts
      }
      List<Part> owned = new ArrayList<>();
      for (Part p : ctx.lister(Part.class).list(g.metadata().namespace())) {
        OwnerReference ref = p.metadata().controllerRef();
        if (ref != null && ref.uid().equals(g.metadata().uid())) {
          owned.add(p);
        }
      }
      for (int i = owned.size(); i < g.size(); i++) {
        String name = g.metadata().name() + "-" + i;
        if (ctx.store().get(Part.class, g.metadata().namespace(), name).isEmpty()) {
          ctx.store().create(Part.ownedBy(g.metadata().namespace(), name, g));
        }
      }
      for (int i = owned.size() - 1; i >= g.size(); i--) {
        ctx.store().delete(Part.class, owned.get(i).metadata().namespace(), owned.get(i).metadata().name());
      }
      String phase = "parts=" + Math.min(owned.size(), g.size());
      if (!phase.equals(g.phase())) {
        ctx.store().updateStatus(g.withPhase(phase));
      }
      return owned.size() == g.size() ? Result.done() : Result.requeueAfter(Duration.ofSeconds(1));
    }
  }

  private static List<String> runScenario() {
    ManualClock clock = ManualClock.atEpoch2026();
    AtomicLong uids = new AtomicLong();
    List<String> timeline = new ArrayList<>();
    try (ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock())
        .uidGenerator(() -> "uid-" + uids.incrementAndGet()).build();
         Controller<Gadget> controller = Controller.builder(store, Gadget.class).name("partset").stepping()
             .clock(clock).reconciler(new PartSetReconciler()).owns(Part.class).build();
         GarbageCollector gc = GarbageCollector.builder(store).watch(Gadget.class).watch(Part.class).stepping()
             .clock(clock).build();
         Informer<Part> watcher = Informer.builder(store, Part.class).clock(clock).build()) {
      watcher.addEventHandler(new ResourceEventHandler<>() {
        @Override
        public void onAdd(Part p) {
          timeline.add(clock.now() + " +" + p.metadata().key());
        }

        @Override
        public void onDelete(Part p, boolean unknown) {
          timeline.add(clock.now() + " -" + p.metadata().key());
        }
      });
      watcher.start().join();
      controller.start().join();
      gc.start().join();
      Runnable settle = () -> {
        for (int round = 0; round < 100; round++) {
          int n = controller.runUntilIdle() + gc.runUntilIdle();
          if (n == 0) {
            clock.advance(Duration.ofSeconds(1)); // let delayed requeues come due
            if (controller.runUntilIdle() + gc.runUntilIdle() == 0) {
              return;
            }
          }
        }
      };
      store.create(Gadget.of("ns", "web", 3));
      settle.run();
      assertThat(watcher.lister().list()).hasSize(3);
      assertThat(store.require(Gadget.class, "ns", "web").phase()).isEqualTo("parts=3");

      Gadget web = store.require(Gadget.class, "ns", "web");
      store.update(web.withSize(1));
      settle.run();
      assertThat(watcher.lister().list()).extracting(p -> p.metadata().name()).containsExactly("web-0");

      store.create(Gadget.of("ns", "db", 2));
      settle.run();
      store.delete(Gadget.class, "ns", "web");
      settle.run();
      assertThat(watcher.lister().list()).extracting(p -> p.metadata().name()).containsExactly("db-0", "db-1");
      assertThat(gc.deletedCount()).isEqualTo(1);
    }
    return timeline;
  }

  @Test
  void stepping_sameScenarioTwice_identicalTimelines() {
    List<String> first = runScenario();
    List<String> second = runScenario();
    assertThat(first).isNotEmpty().isEqualTo(second);
    assertThat(first).filteredOn(e -> e.contains("+ns/web-")).hasSize(3);
    assertThat(first).filteredOn(e -> e.contains("-ns/web-")).hasSize(3);
  }
}
