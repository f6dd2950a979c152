package io.fleetkit.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.WatchEventType;
import io.fleetkit.api.time.ManualClock;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Secondary watches limited to some event types, and handlers called before a watch's mapping. */
final class ControllerWatchFilterTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().directDelivery().build();
  private final List<String> calls = new CopyOnWriteArrayList<>();

  @AfterEach
  void closeStore() {
    store.close();
  }

  private ControllerBuilder<Gadget> stepping() {
    return Controller.builder(store, Gadget.class).stepping().clock(clock).reconciler(ctx -> {
      calls.add(ctx.key().toString());
      return Result.done();
    });
  }

  @Test
  void watches_deletionsOnly_addsAndUpdatesOnlyFillTheCache() {
    store.create(Gadget.of("ns", "g", 1));
    List<String> cacheSizes = new CopyOnWriteArrayList<>();
    try (Controller<Gadget> c = stepping().watches(Part.class, Set.of(WatchEventType.DELETED), (part, parts) -> {
      cacheSizes.add(part.metadata().name() + ":" + parts.size());
      return List.of(ObjectKey.of("ns", "g"));
    }).build()) {
      c.start().join();
      c.runUntilIdle();
      calls.clear();
      store.create(Part.of("ns", "p", 1));
      store.create(Part.of("ns", "q", 1));
      store.update(store.require(Part.class, "ns", "p").withSize(2));
      assertThat(c.runUntilIdle()).isZero();
      assertThat(cacheSizes).isEmpty();
      store.delete(Part.class, "ns", "p");
      assertThat(cacheSizes).containsExactly("p:1"); // the cache no longer holds the deleted part
      assertThat(c.runUntilIdle()).isEqualTo(1);
      assertThat(calls).containsExactly("ns/g");
    }
  }

  /** controller-runtime's WithEventFilter: primary events queue only objects the filter takes (an update: either). */
  @Test
  void eventFilter_primaryEventsOfObjectsItRefuses_notQueued() {
    try (Controller<Gadget> c = stepping().eventFilter(g -> g.size() > 1).build()) {
      c.start().join();
      store.create(Gadget.of("ns", "small", 1));
      store.create(Gadget.of("ns", "big", 2));
      assertThat(c.runUntilIdle()).isEqualTo(1);
      assertThat(calls).containsExactly("ns/big");
      calls.clear();
      // growing: the new object passes; shrinking: the old one did
      store.update(store.require(Gadget.class, "ns", "small").withSize(3));
      store.update(store.require(Gadget.class, "ns", "big").withSize(1));
      assertThat(c.runUntilIdle()).isEqualTo(2);
      assertThat(calls).containsExactlyInAnyOrder("ns/small", "ns/big");
      calls.clear();
      store.delete(Gadget.class, "ns", "big"); // size 1 now: refused
      store.delete(Gadget.class, "ns", "small");
      assertThat(c.runUntilIdle()).isEqualTo(1);
      assertThat(calls).containsExactly("ns/small");
    }
  }

  @Test
  void watches_noEventType_rejected() {
    assertThatThrownBy(() -> stepping().watches(Part.class, Set.of(), (p, parts) -> List.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Part")
        .hasMessageContaining("at least one event type");
  }

  @Test
  void handler_kindNotWatched_rejectedNamingTheWatchedKinds() {
    assertThatThrownBy(() -> stepping().handler(Part.class, new ResourceEventHandler<>() {}))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("Part is not watched")
        .hasMessageContaining("[]");
  }

  @Test
  void handler_onOwnedKind_calledBeforeTheOwnerMapping() {
    Gadget g = store.create(Gadget.of("ns", "g", 1));
    List<String> order = new CopyOnWriteArrayList<>();
    ControllerBuilder<Gadget> b = stepping().owns(Part.class);
    Controller<Gadget>[] built = new Controller[1];
    b.handler(Part.class, new ResourceEventHandler<>() {
      @Override
      public void onAdd(Part part) {
        order.add("handler queue=" + built[0].queue().len());
      }
    });
    try (Controller<Gadget> c = b.build()) {
      built[0] = c;
      c.start().join();
      c.runUntilIdle();
      calls.clear();
      store.create(Part.ownedBy("ns", "p", g));
      assertThat(order).containsExactly("handler queue=0"); // the owner mapping came after
      assertThat(c.queue().len()).isEqualTo(1);
      c.runUntilIdle();
      assertThat(calls).containsExactly("ns/g");
    }
  }
}
