package io.fleetkit.api.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ExpiredException;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

public abstract class ObjectStoreWatchContract extends StoreContract {
  private final ObjectStore direct = builder().directDelivery().build();

  @Test
  void watch_fromNow_receivesEachChangeTypeInOrder() {
    Widget pre = direct.create(Widget.of("ns", "old", 1));
    Recorder<Widget> rec = new Recorder<>();
    direct.watch(Widget.class, "", rec);

    Widget a = direct.create(Widget.of("ns", "a", 1));
    direct.update(a.withSize(2));
    direct.delete(Widget.class, "ns", "a");
    direct.update(pre.withSize(9));

    assertThat(rec.summary()).containsExactly("ADDED a@3", "MODIFIED a@4", "DELETED a@5", "MODIFIED old@6");
    assertThat(rec.events().get(1).object().size()).isEqualTo(2);
  }

  @Test
  void watch_directMode_listenerRanBeforeWriteReturns() {
    List<String> seen = new ArrayList<>();
    direct.watch(Widget.class, "0", e -> seen.add(e.object().metadata().name()));

    direct.create(Widget.of("ns", "a", 1));

    assertThat(seen).containsExactly("a");
  }

  @Test
  void watch_otherKind_notDeliveredLiveOrOnReplay() {
    Recorder<Rack> racks = new Recorder<>();
    direct.watch(Rack.class, "0", racks);
    direct.create(Widget.of("ns", "a", 1));
    direct.create(Rack.of("r", "z"));
    Recorder<Rack> replay = new Recorder<>();
    direct.watch(Rack.class, "1", replay);

    assertThat(racks.summary()).containsExactly("ADDED r@3");
    assertThat(replay.summary()).containsExactly("ADDED r@3");
  }

  @Test
  void watch_fromOlderVersion_replaysHistoryThenLive() {
    Widget a = direct.create(Widget.of("ns", "a", 1));
    String after = direct.update(a.withSize(2)).metadata().resourceVersion();
    direct.create(Widget.of("ns", "b", 1));
    direct.delete(Widget.class, "ns", "a");
    Recorder<Widget> rec = new Recorder<>();

    direct.watch(Widget.class, after, rec);
    direct.create(Widget.of("ns", "c", 1));

    assertThat(rec.summary()).containsExactly("ADDED b@4", "DELETED a@5", "ADDED c@6");
  }

  @Test
  void watch_fromListVersion_everyLaterChangeExactlyOnce() {
    direct.create(Widget.of("ns", "a", 1));
    direct.create(Widget.of("ns", "b", 1));
    ListResult<Widget> list = direct.list(Widget.class);
    direct.create(Widget.of("ns", "c", 1));
    Recorder<Widget> rec = new Recorder<>();

    direct.watch(Widget.class, list.resourceVersion(), rec);
    direct.create(Widget.of("ns", "d", 1));

    assertThat(list.items()).hasSize(2);
    assertThat(rec.summary()).containsExactly("ADDED c@4", "ADDED d@5");
  }

  @Test
  void watch_compactedVersion_expiredWithKubernetesMessage() {
    ObjectStore small = builder().historyLimit(3).directDelivery().build();
    Widget w = small.create(Widget.of("ns", "a", 0)); // rv 2
    for (int i = 1; i <= 4; i++) {
      w = small.update(w.withSize(i)); // rv 3..6
    }
    Recorder<Widget> rec = new Recorder<>();

    assertThatThrownBy(() -> small.watch(Widget.class, "2", e -> { }))
        .isInstanceOf(ExpiredException.class)
        .hasMessage("too old resource version: 2 (3)");
    small.watch(Widget.class, "3", rec);
    assertThat(rec.summary()).containsExactly("MODIFIED a@4", "MODIFIED a@5", "MODIFIED a@6");
  }

  @Test
  void watch_badVersions_illegalArgument() {
    assertThatThrownBy(() -> direct.watch(Widget.class, "5", e -> { }))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("watch on Widget: resourceVersion 5 is newer than the store's current version 1");
    assertThatThrownBy(() -> direct.watch(Widget.class, "abc", e -> { }))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("resourceVersion must be a decimal number but was \"abc\"");
    assertThatThrownBy(() -> direct.watch(Widget.class, "-1", e -> { }))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void watch_close_stopsDeliveryAndIsIdempotent() {
    Recorder<Widget> rec = new Recorder<>();
    Watch w = direct.watch(Widget.class, "0", rec);
    direct.create(Widget.of("ns", "a", 1));

    w.close();
    w.close();
    direct.create(Widget.of("ns", "b", 1));

    assertThat(w.isClosed()).isTrue();
    assertThat(rec.summary()).containsExactly("ADDED a@2");
  }

  @Test
  void watch_closedFromInsideListener_dropsQueuedEvents() {
    List<String> seen = new ArrayList<>();
    AtomicReference<Watch> self = new AtomicReference<>();
    self.set(direct.watch(Widget.class, "0", e -> {
      seen.add(e.object().metadata().name());
      if (e.object().metadata().name().equals("a")) {
        direct.create(Widget.of("ns", "b", 1)); // queued behind "a" for this watch
        self.get().close();
      }
    }));

    direct.create(Widget.of("ns", "a", 1));

    assertThat(seen).containsExactly("a");
    assertThat(direct.get(Widget.class, "ns", "b")).isPresent();
  }

  @Test
  void watch_listenerThrows_storeAndOtherWatchesUnaffected() {
    List<String> survivor = new ArrayList<>();
    List<String> thrower = new ArrayList<>();
    direct.watch(Widget.class, "0", e -> {
      thrower.add(e.object().metadata().name());
      throw new IllegalStateException("listener bug");
    });
    direct.watch(Widget.class, "0", e -> survivor.add(e.object().metadata().name()));

    direct.create(Widget.of("ns", "a", 1));
    direct.create(Widget.of("ns", "b", 1));

    assertThat(thrower).containsExactly("a", "b");
    assertThat(survivor).containsExactly("a", "b");
    assertThat(direct.list(Widget.class).items()).hasSize(2);
  }

  @Test
  void watch_listenerWritesBack_directMode_noNestingAndOrderKept() {
    List<String> first = new ArrayList<>();
    List<String> second = new ArrayList<>();
    direct.watch(Widget.class, "0", e -> {
      first.add("start " + e.object().metadata().name());
      if (e.type() == WatchEventType.ADDED && e.object().metadata().name().equals("a")) {
        Widget b = direct.create(Widget.of("ns", "b", 1));
        direct.update(b.withSize(2));
      }
      first.add("end " + e.object().metadata().name());
    });
    direct.watch(Widget.class, "0", e -> second.add(e.type() + " " + e.object().metadata().name() + "@"
        + e.resourceVersion()));

    direct.create(Widget.of("ns", "a", 1));

    assertThat(first).containsExactly("start a", "end a", "start b", "end b", "start b", "end b");
    assertThat(second).containsExactly("ADDED a@2", "ADDED b@3", "MODIFIED b@4");
  }

  @Test
  void watch_defaultAsyncDelivery_onStoreThreadsAndListenerMayWrite() {
    ObjectStore async = builder().build();
    List<String> threads = Collections.synchronizedList(new ArrayList<>());
    Recorder<Widget> rec = new Recorder<>();
    async.watch(Widget.class, "0", e -> {
      threads.add(Thread.currentThread().getName());
      Widget w = e.object();
      if (e.type() == WatchEventType.ADDED) {
        async.updateStatus(w.withPhase("Seen")); // writes back from the delivery thread
      }
    });
    async.watch(Widget.class, "0", rec);

    async.create(Widget.of("ns", "a", 1));
    async.create(Widget.of("ns", "b", 1));
    rec.awaitSize(4);
    async.close();

    assertThat(threads).allMatch(n -> n.startsWith("fleetkit-store-watch-"));
    assertThat(rec.events()).extracting(WatchEvent::resourceVersion).containsExactly("2", "3", "4", "5");
    assertThat(rec.events().stream().filter(e -> e.type() == WatchEventType.MODIFIED))
        .allMatch(e -> e.object().phase().equals("Seen"));
  }

  @Test
  void watch_customExecutor_usedForDelivery() throws Exception {
    ExecutorService single = Executors.newSingleThreadExecutor(r -> new Thread(r, "my-delivery"));
    try {
      ObjectStore store = builder().deliveryExecutor(single).build();
      List<String> threads = Collections.synchronizedList(new ArrayList<>());
      Recorder<Widget> rec = new Recorder<>();
      store.watch(Widget.class, "0", e -> threads.add(Thread.currentThread().getName()));
      store.watch(Widget.class, "0", rec);

      store.create(Widget.of("ns", "a", 1));
      rec.awaitSize(1);
      Recorder.await(() -> threads.size() == 1, "first listener");

      assertThat(threads).containsExactly("my-delivery");
    } finally {
      single.shutdownNow();
    }
  }

  @Test
  void close_store_closesItsWatches() {
    Watch w = direct.watch(Widget.class, "0", e -> { });

    direct.close();

    assertThat(w.isClosed()).isTrue();
  }

  @Test
  void watchEvent_deleted_carriesLastStateWithRemovalVersion() {
    Widget a = direct.create(new Widget(ObjectMeta.of("ns", "a"), 3, ""));
    Widget running = direct.updateStatus(a.withPhase("Running"));
    Recorder<Widget> rec = new Recorder<>();
    direct.watch(Widget.class, "0", rec);

    direct.delete(Widget.class, "ns", "a");

    WatchEvent<Widget> e = rec.events().get(0);
    assertThat(e.type()).isEqualTo(WatchEventType.DELETED);
    assertThat(e.object().phase()).isEqualTo("Running");
    assertThat(e.resourceVersion()).isEqualTo("4");
    assertThat(e.object().metadata().uid()).isEqualTo(running.metadata().uid());
  }
}
