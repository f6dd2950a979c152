package io.fleetkit.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

final class ControllerTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().directDelivery().build();
  private final List<String> calls = new CopyOnWriteArrayList<>();

  @AfterEach
  void closeStore() {
    store.close();
  }

  private ControllerBuilder<Gadget> stepping(Reconciler<Gadget> r) {
    return Controller.builder(store, Gadget.class).stepping().clock(clock).reconciler(r);
  }

  @Test
  void runUntilIdle_statusWriter_reconcilesEachKeyUntilStable() {
    store.create(Gadget.of("ns", "a", 1));
    store.create(Gadget.of("ns", "b", 2));
    Reconciler<Gadget> r = ctx -> {
      calls.add(ctx.key().toString());
      ctx.object().ifPresent(g -> {
        String want = "size-" + g.size();
        if (!want.equals(g.phase())) {
          ctx.store().updateStatus(g.withPhase(want)); // idempotent: writes only when different
        }
      });
      return Result.done();
    };
    try (Controller<Gadget> c = stepping(r).build()) {
      assertThat(c.start()).isCompleted();
      c.runUntilIdle();
      // each key once, then once more for the status write's own event, then stable
      assertThat(calls).containsExactly("ns/a", "ns/b", "ns/a", "ns/b");
      assertThat(store.require(Gadget.class, "ns", "a").phase()).isEqualTo("size-1");
      calls.clear();
      assertThat(c.runUntilIdle()).isZero();
      Gadget a = store.require(Gadget.class, "ns", "a");
      store.update(a.withSize(9));
      c.runUntilIdle();
      assertThat(calls).containsExactly("ns/a", "ns/a");
      assertThat(store.require(Gadget.class, "ns", "a").phase()).isEqualTo("size-9");
    }
  }

  @Test
  void result_requeueAfter_reconcilesAgainOnlyWhenDue() {
    store.create(Gadget.of("ns", "a", 1));
    try (Controller<Gadget> c = stepping(ctx -> {
      calls.add(ctx.now().toString());
      return Result.requeueAfter(Duration.ofSeconds(30));
    }).build()) {
      c.start().join();
      assertThat(c.runUntilIdle()).isEqualTo(1);
      clock.advance(Duration.ofSeconds(29));
      assertThat(c.runUntilIdle()).isZero();
      clock.advance(Duration.ofSeconds(1));
      assertThat(c.runUntilIdle()).isEqualTo(1);
      assertThat(calls).hasSize(2);
      assertThat(c.queue().numRequeues(ObjectKey.of("ns", "a"))).isZero();
    }
  }

  @Test
  void reconcile_throws_requeuedWithExponentialBackoffAndRetryCount() {
    store.create(Gadget.of("ns", "a", 1));
    List<Integer> retries = new ArrayList<>();
    AtomicInteger failuresLeft = new AtomicInteger(3);
    try (Controller<Gadget> c = stepping(ctx -> {
      retries.add(ctx.retries());
      if (failuresLeft.getAndDecrement() > 0) {
        throw new IllegalStateException("transient");
      }
      return Result.done();
    }).build()) {
      c.start().join();
      c.runUntilIdle();
      assertThat(retries).containsExactly(0);
      clock.advance(Duration.ofMillis(4));
      assertThat(c.runUntilIdle()).as("5 ms backoff not over").isZero();
      clock.advance(Duration.ofMillis(1));
      assertThat(c.runUntilIdle()).isEqualTo(1);
      clock.advance(Duration.ofMillis(9));
      assertThat(c.runUntilIdle()).as("10 ms backoff not over").isZero();
      clock.advance(Duration.ofMillis(1));
      assertThat(c.runUntilIdle()).isEqualTo(1);
      clock.advance(Duration.ofMillis(20));
      assertThat(c.runUntilIdle()).isEqualTo(1);
      assertThat(retries).containsExactly(0, 1, 2, 3);
      assertThat(c.queue().numRequeues(ObjectKey.of("ns", "a"))).as("success forgets").isZero();
    }
  }

  @Test
  void result_requeue_usesRateLimiter() {
    store.create(Gadget.of("ns", "a", 1));
    AtomicInteger n = new AtomicInteger();
    try (Controller<Gadget> c = stepping(ctx -> n.incrementAndGet() < 3 ? Result.requeue() : Result.done())
        .rateLimiter(RateLimiters.itemExponential(Duration.ofSeconds(1), Duration.ofSeconds(60))).build()) {
      c.start().join();
      c.runUntilIdle();
      clock.advance(Duration.ofMillis(999));
      assertThat(c.runUntilIdle()).isZero();
      clock.advance(Duration.ofMillis(1));
      assertThat(c.runUntilIdle()).isEqualTo(1);
      clock.advance(Duration.ofSeconds(2));
      assertThat(c.runUntilIdle()).isEqualTo(1);
      assertThat(n.get()).isEqualTo(3);
    }
  }

  @Test
  void owns_ownedObjectChanges_enqueueTheControllerOwner() {
    Gadget owner = store.create(Gadget.of("ns", "owner", 1));
    Gadget other = store.create(Gadget.of("ns", "other", 1));
    try (Controller<Gadget> c = stepping(ctx -> {
      calls.add(ctx.key() + " parts=" + ctx.lister(Part.class).list("ns").size());
      return Result.done();
    }).owns(Part.class).build()) {
      c.start().join();
      c.runUntilIdle();
      calls.clear();
      Part p = store.create(Part.ownedBy("ns", "p1", owner));
      c.runUntilIdle();
      assertThat(calls).containsExactly("ns/owner parts=1");
      calls.clear();
      // a non-controller reference does not enqueue
      store.create(new Part(ObjectMeta.of("ns", "p2").toBuilder().ownerReference(new OwnerReference(
          other.apiVersion(), other.kind(), "other", other.metadata().uid(), false, false)).build(), 0, ""));
      // a stale uid (an older object of the same name) does not enqueue
      store.create(new Part(ObjectMeta.of("ns", "p3").toBuilder().ownerReference(new OwnerReference(
          other.apiVersion(), other.kind(), "other", "stale-uid", true, true)).build(), 0, ""));
      assertThat(c.runUntilIdle()).isZero();
      // owner gone: its dependents' events still reach its key (by kind name) so it can clean up
      store.delete(Gadget.class, "ns", "owner");
      c.runUntilIdle();
      calls.clear();
      store.delete(Part.class, "ns", p.metadata().name());
      c.runUntilIdle();
      assertThat(calls).containsExactly("ns/owner parts=2");
    }
  }

  @Test
  void watches_customMapper_enqueuesMappedKeys() {
    store.create(Gadget.of("ns", "target", 1));
    try (Controller<Gadget> c = stepping(ctx -> {
      calls.add(ctx.key().toString());
      return Result.done();
    }).watches(Part.class, p -> List.of(ObjectKey.of("ns", "target"))).build()) {
      c.start().join();
      c.runUntilIdle();
      calls.clear();
      store.create(Part.of("ns", "x", 0));
      c.runUntilIdle();
      assertThat(calls).containsExactly("ns/target");
    }
  }

  @Test
  void context_unknownKind_failsNamingWatchedKinds() {
    store.create(Gadget.of("ns", "a", 1));
    AtomicBoolean checked = new AtomicBoolean();
    try (Controller<Gadget> c = stepping(ctx -> {
      assertThatThrownBy(() -> ctx.lister(Part.class)).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("Gadget");
      checked.set(true);
      return Result.done();
    }).build()) {
      c.start().join();
      c.runUntilIdle();
      assertThat(checked).isTrue();
    }
  }

  @Test
  void builder_misuse_failsWithMessages() {
    assertThatThrownBy(() -> Controller.builder(store, Gadget.class).build())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("reconciler is required");
    assertThatThrownBy(() -> Controller.builder(store, Gadget.class).workers(2).stepping())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("workers(2)");
    assertThatThrownBy(() -> Controller.builder(store, Gadget.class).workers(0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 1");
    assertThatThrownBy(() -> Controller.builder(store, Gadget.class).owns(Gadget.class))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("already watched");
    try (Controller<Gadget> threaded = Controller.builder(store, Gadget.class).reconciler(ctx -> Result.done())
        .build()) {
      threaded.start().join();
      assertThatThrownBy(threaded::runOnce).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("stepping");
    }
    try (Controller<Gadget> notStarted = stepping(ctx -> Result.done()).build()) {
      assertThatThrownBy(notStarted::runOnce).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("before start()");
    }
  }

  @Test
  void result_factories_areImmutableValues() {
    assertThat(Result.done()).isEqualTo(Result.done());
    assertThat(Result.requeue().action()).isEqualTo(Result.Action.REQUEUE);
    assertThat(Result.requeueAfter(Duration.ofSeconds(3)).requeueDelay()).contains(Duration.ofSeconds(3));
    assertThat(Result.done().requeueDelay()).isEmpty();
    assertThat(Result.requeueAfter(Duration.ofSeconds(3))).isEqualTo(Result.requeueAfter(Duration.ofSeconds(3)));
    assertThatThrownBy(() -> Result.requeueAfter(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("negative");
  }

  @Test
  @Timeout(60)
  void workers_eightThreadsUnderChurn_neverReconcileOneKeyConcurrentlyAndConverge() throws Exception {
    try (ObjectStore async = ObjectStore.inMemory()) {
      int keys = 16;
      for (int i = 0; i < keys; i++) {
        async.create(Gadget.of("ns", "g" + i, 0));
      }
      Map<ObjectKey, AtomicInteger> inFlight = new ConcurrentHashMap<>();
      AtomicBoolean overlap = new AtomicBoolean();
      AtomicInteger reconciles = new AtomicInteger();
      Reconciler<Gadget> r = ctx -> {
        AtomicInteger c = inFlight.computeIfAbsent(ctx.key(), k -> new AtomicInteger());
        if (c.incrementAndGet() > 1) {
          overlap.set(true);
        }
        try {
          reconciles.incrementAndGet();
          Thread.sleep(0, 200_000);
          // level-triggered: copy spec into status from the store's current state; retry on conflict via error
          Gadget g = ctx.store().get(Gadget.class, ctx.key().namespace(), ctx.key().name()).orElse(null);
          if (g != null && !g.phase().equals("size-" + g.size())) {
            ctx.store().updateStatus(g.withPhase("size-" + g.size()));
          }
          return Result.done();
        } finally {
          c.decrementAndGet();
        }
      };
      try (Controller<Gadget> c = Controller.builder(async, Gadget.class).workers(8).reconciler(r).build()) {
        c.start().get(5, TimeUnit.SECONDS);
        List<Thread> writers = new ArrayList<>();
        for (int w = 0; w < 4; w++) {
          int seed = w;
          Thread t = new Thread(() -> {
            for (int i = 0; i < 300; i++) {
              String name = "g" + ((i * 7 + seed) % keys);
              for (int attempt = 0; attempt < 20; attempt++) {
                Gadget g = async.require(Gadget.class, "ns", name);
                try {
                  async.update(g.withSize(g.size() + 1));
                  break;
                } catch (io.fleetkit.api.ConflictException e) {
                  // retry
                }
              }
            }
          });
          writers.add(t);
          t.start();
        }
        for (Thread t : writers) {
          t.join();
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline && !converged(async, keys)) {
          Thread.sleep(5);
        }
        assertThat(converged(async, keys)).as("every status caught up with its spec").isTrue();
      }
      assertThat(overlap).as("one key on two workers at once").isFalse();
      assertThat(reconciles.get()).isGreaterThan(keys);
    }
  }

  private static boolean converged(ObjectStore s, int keys) {
    for (int i = 0; i < keys; i++) {
      Gadget g = s.require(Gadget.class, "ns", "g" + i);
      if (!g.phase().equals("size-" + g.size())) {
        return false;
      }
    }
    return true;
  }
}
