package io.fleetkit.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.store.ForwardingObjectStore;
import io.fleetkit.api.store.ListResult;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

final class InformerTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().directDelivery().build();

  @AfterEach
  void closeStore() {
    store.close();
  }

  private Informer<Gadget> informer() {
    return Informer.builder(store, Gadget.class).clock(clock).build();
  }

  @Test
  void start_existingObjects_cacheSyncedAndHandlersToldBeforeFutureCompletes() {
    store.create(Gadget.of("ns", "b", 1));
    store.create(Gadget.of("ns", "a", 2));
    try (Informer<Gadget> inf = informer()) {
      Recording<Gadget> rec = new Recording<>();
      inf.addEventHandler(rec);
      assertThat(inf.hasSynced()).isFalse();
      assertThat(inf.start()).isCompleted();
      assertThat(inf.hasSynced()).isTrue();
      assertThat(rec.events).containsExactlyInAnyOrder("add ns/a", "add ns/b");
      assertThat(inf.lister().list()).extracting(g -> g.metadata().name()).containsExactly("a", "b");
      assertThat(inf.lastSyncResourceVersion()).isEqualTo(store.resourceVersion());
      assertThat(inf.listCount()).isEqualTo(1);
    }
  }

  @Test
  void watch_createUpdateDelete_cacheFollowsAndHandlersSeeEachChangeInOrder() {
    try (Informer<Gadget> inf = informer()) {
      Recording<Gadget> rec = new Recording<>();
      inf.addEventHandler(rec);
      inf.start().join();
      Gadget a = store.create(Gadget.of("ns", "a", 1));
      Gadget a2 = store.update(a.withSize(5));
      store.delete(Gadget.class, "ns", "a");
      String v1 = a.metadata().resourceVersion();
      String v2 = a2.metadata().resourceVersion();
      assertThat(rec.events).containsExactly("add ns/a", "update ns/a " + v1 + "->" + v2, "delete ns/a");
      assertThat(inf.lister().get("ns", "a")).isEmpty();
      assertThat(inf.lastSyncResourceVersion()).isEqualTo(store.resourceVersion());
    }
  }

  @Test
  void start_watchVersionExpiredBetweenListAndWatch_relistsAndSeesEveryObject() {
    ObjectStore small = ObjectStore.builder().directDelivery().historyLimit(2).build();
    small.create(Gadget.of("ns", "old", 1));
    AtomicBoolean once = new AtomicBoolean();
    // The first list is followed by more writes than the history keeps, so watching from it is "too old".
    ObjectStore racing = new ForwardingObjectStore(small) {
      @Override
      public <T extends ApiObject<T>> ListResult<T> list(Class<T> kind, String namespace) {
        ListResult<T> r = super.list(kind, namespace);
        if (once.compareAndSet(false, true)) {
          small.delete(Gadget.class, "ns", "old");
          for (int i = 0; i < 5; i++) {
            small.create(Gadget.of("ns", "new-" + i, i));
          }
        }
        return r;
      }
    };
    try (Informer<Gadget> inf = Informer.builder(racing, Gadget.class).clock(clock).build()) {
      Recording<Gadget> rec = new Recording<>();
      inf.addEventHandler(rec);
      inf.start().join();
      assertThat(inf.listCount()).isEqualTo(2);
      assertThat(inf.lister().list()).extracting(g -> g.metadata().name())
          .containsExactly("new-0", "new-1", "new-2", "new-3", "new-4");
      assertThat(rec.events).contains("add ns/old", "delete ns/old (unknown)", "add ns/new-4");
      small.create(Gadget.of("ns", "after", 1));
      assertThat(inf.lister().get("ns", "after")).as("watching after the relist").isPresent();
    } finally {
      small.close();
    }
  }

  @Test
  void resync_periodElapses_replaysEveryCachedObjectAsUpdate() {
    Gadget a = store.create(Gadget.of("ns", "a", 1));
    try (Informer<Gadget> inf = Informer.builder(store, Gadget.class).clock(clock)
        .resyncPeriod(Duration.ofSeconds(30)).build()) {
      Recording<Gadget> rec = new Recording<>();
      inf.addEventHandler(rec);
      inf.start().join();
      rec.events.clear();
      clock.advance(Duration.ofSeconds(29));
      assertThat(rec.events).isEmpty();
      clock.advance(Duration.ofSeconds(1));
      String v = a.metadata().resourceVersion();
      assertThat(rec.events).containsExactly("update ns/a " + v + "->" + v);
      clock.advance(Duration.ofSeconds(30));
      assertThat(rec.events).hasSize(2);
    }
    clock.advance(Duration.ofMinutes(5));
    assertThat(clock.pendingTasks()).as("close cancels the resync").isZero();
  }

  @Test
  void lister_labelAndCustomIndexes_findObjects() {
    store.create(Gadget.of("ns", "a", 1).withLabel("app", "web"));
    store.create(Gadget.of("ns", "b", 2).withLabel("app", "db"));
    store.create(Gadget.of("other", "c", 2).withLabel("app", "web"));
    try (Informer<Gadget> inf = Informer.builder(store, Gadget.class).clock(clock)
        .indexer("size", g -> List.of(Long.toString(g.size()))).build()) {
      inf.start().join();
      Lister<Gadget> l = inf.lister();
      assertThat(l.list("ns")).extracting(g -> g.metadata().name()).containsExactly("a", "b");
      assertThat(l.list("", LabelSelector.of(Map.of("app", "web")))).extracting(g -> g.metadata().key())
          .containsExactly("ns/a", "other/c");
      assertThat(l.list("ns", LabelSelector.of(Map.of("app", "web")))).extracting(g -> g.metadata().key())
          .containsExactly("ns/a");
      assertThat(l.byIndex(Lister.LABEL_INDEX, "app=db")).extracting(g -> g.metadata().key())
          .containsExactly("ns/b");
      assertThat(l.byIndex("size", "2")).extracting(g -> g.metadata().key()).containsExactly("ns/b", "other/c");
      store.update(l.get("ns", "b").orElseThrow().withSize(7));
      assertThat(l.byIndex("size", "2")).extracting(g -> g.metadata().key()).containsExactly("other/c");
      assertThat(l.byIndex("size", "7")).extracting(g -> g.metadata().key()).containsExactly("ns/b");
      assertThat(l.indexNames()).contains(Lister.NAMESPACE_INDEX, Lister.LABEL_INDEX, "size");
      assertThatThrownBy(() -> l.byIndex("nope", "x")).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("nope");
    }
  }

  @Test
  void addEventHandler_afterStart_replaysCacheAsAdds() {
    store.create(Gadget.of("ns", "a", 1));
    try (Informer<Gadget> inf = informer()) {
      inf.start().join();
      Recording<Gadget> late = new Recording<>();
      inf.addEventHandler(late);
      assertThat(late.events).containsExactly("add ns/a");
    }
  }

  @Test
  void namespace_otherNamespaces_areIgnored() {
    try (Informer<Gadget> inf = Informer.builder(store, Gadget.class).namespace("mine").clock(clock).build()) {
      inf.start().join();
      store.create(Gadget.of("mine", "a", 1));
      store.create(Gadget.of("theirs", "b", 1));
      assertThat(inf.lister().list()).extracting(g -> g.metadata().key()).containsExactly("mine/a");
    }
  }

  @Test
  void close_thenWrites_handlersHearNothing() {
    Informer<Gadget> inf = informer();
    Recording<Gadget> rec = new Recording<>();
    inf.addEventHandler(rec);
    inf.start().join();
    inf.close();
    store.create(Gadget.of("ns", "a", 1));
    assertThat(rec.events).isEmpty();
    assertThatThrownBy(inf::start).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
  }

  @Test
  void handler_throws_informerContinues() {
    try (Informer<Gadget> inf = informer()) {
      inf.addEventHandler(new ResourceEventHandler<>() {
        @Override
        public void onAdd(Gadget object) {
          throw new IllegalStateException("boom");
        }
      });
      Recording<Gadget> rec = new Recording<>();
      inf.addEventHandler(rec);
      inf.start().join();
      store.create(Gadget.of("ns", "a", 1));
      assertThat(rec.events).containsExactly("add ns/a");
    }
  }

  @Test
  void start_asyncStore_eventsArriveOnDeliveryThread() throws Exception {
    try (ObjectStore async = ObjectStore.inMemory();
         Informer<Gadget> inf = Informer.builder(async, Gadget.class).build()) {
      inf.start().get(5, TimeUnit.SECONDS);
      async.create(Gadget.of("ns", "a", 1));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      while (inf.lister().get("ns", "a").isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(1);
      }
      assertThat(inf.lister().get("ns", "a")).isPresent();
    }
  }

  @Test
  void watchEndedForFallingBehind_informerRelistsAndLosesNothing() throws Exception {
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newCachedThreadPool();
    ObjectStore slow = ObjectStore.builder().deliveryExecutor(pool).watchQueueLimit(2).build();
    java.util.concurrent.CountDownLatch entered = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    try (Informer<Gadget> inf = Informer.builder(slow, Gadget.class).clock(clock).build()) {
      inf.addEventHandler(new ResourceEventHandler<>() {
        @Override
        public void onAdd(Gadget g) {
          if (g.metadata().name().equals("g0")) {
            entered.countDown();
            try {
              release.await();
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
        }
      });
      inf.start().join();
      slow.create(Gadget.of("ns", "g0", 1));
      assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();
      for (int i = 1; i <= 10; i++) {
        slow.create(Gadget.of("ns", "g" + i, 1));
      }
      release.countDown();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (inf.lister().list().size() < 11 && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertThat(inf.lister().list()).hasSize(11);
      assertThat(inf.listCount()).as("relisted after the watch ended").isEqualTo(2);
      slow.create(Gadget.of("ns", "after", 1));
      deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (inf.lister().list().size() < 12 && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertThat(inf.lister().list()).as("the new watch delivers").hasSize(12);
    } finally {
      slow.close();
      pool.shutdownNow();
    }
  }
}
