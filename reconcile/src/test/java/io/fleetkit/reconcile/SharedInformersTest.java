package io.fleetkit.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

final class SharedInformersTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().directDelivery().build();
  private final SharedInformers shared = SharedInformers.of(store, clock);

  @AfterEach
  void close() {
    shared.close();
    store.close();
  }

  @Test
  void twoControllers_oneCache_eachReconcilesItsOwnKeys() {
    List<String> first = new ArrayList<>();
    List<String> second = new ArrayList<>();
    Controller<Gadget> a = Controller.builder(store, Gadget.class).name("a").stepping().clock(clock)
        .informers(shared).reconciler(ctx -> {
          first.add(ctx.key().name());
          return Result.done();
        }).build();
    Controller<Gadget> b = Controller.builder(store, Gadget.class).name("b").stepping().clock(clock)
        .informers(shared).reconciler(ctx -> {
          second.add(ctx.key().name());
          return Result.done();
        }).build();
    store.create(Gadget.of("ns", "before", 1));
    a.start().join();
    b.start().join();
    store.create(Gadget.of("ns", "after", 1));
    a.runUntilIdle();
    b.runUntilIdle();
    assertThat(first).containsExactly("before", "after");
    assertThat(second).containsExactly("before", "after");
    a.close(); // b's handlers stay registered
    store.create(Gadget.of("ns", "later", 1));
    assertThat(b.runUntilIdle()).isEqualTo(1);
    assertThat(second).endsWith("later");
    b.close();
  }

  @Test
  void garbageCollector_onSharedInformers_cascades() {
    Gadget owner = store.create(Gadget.of("ns", "owner", 1));
    store.create(Part.ownedBy("ns", "part", owner));
    try (GarbageCollector gc = GarbageCollector.builder(store).watch(Gadget.class).watch(Part.class)
        .informers(shared).stepping().clock(clock).build()) {
      gc.start().join();
      gc.runUntilIdle();
      store.delete(Gadget.class, "ns", "owner");
      gc.runUntilIdle();
      assertThat(store.get(Part.class, "ns", "part")).isEmpty();
    }
  }

  @Test
  void misuse_failsWithMessages() {
    ObjectStore other = ObjectStore.builder().directDelivery().build();
    assertThatThrownBy(() -> Controller.builder(other, Gadget.class).informers(shared))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("another store");
    assertThatThrownBy(() -> Controller.builder(store, Gadget.class).stepping().informers(shared).namespace("ns")
        .reconciler(ctx -> Result.done()).build())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("namespace \"ns\"");
    assertThatThrownBy(() -> Controller.builder(store, Gadget.class).stepping().informers(shared)
        .resyncPeriod(Duration.ofMinutes(1)).reconciler(ctx -> Result.done()).build())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("resyncPeriod PT1M");
    assertThatThrownBy(() -> Controller.builder(store, Gadget.class).informers(shared).informers(shared))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("informers was already set");
    assertThatThrownBy(() -> GarbageCollector.builder(other).watch(Gadget.class).informers(shared))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("another store");
    shared.informer(Gadget.class, java.util.Map.of("size", g -> List.of(String.valueOf(g.size()))));
    assertThatThrownBy(() -> shared.informer(Gadget.class,
        java.util.Map.of("size", g -> List.of(String.valueOf(g.size())))))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("index \"size\" already exists");
    shared.close();
    assertThatThrownBy(() -> shared.informer(Part.class)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("closed");
    other.close();
  }
}
