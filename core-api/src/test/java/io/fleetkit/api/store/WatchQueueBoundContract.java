package io.fleetkit.api.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.ExpiredException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A listener that falls behind cannot pin unbounded memory: its watch ends with "too old resource version". */
public abstract class WatchQueueBoundContract extends StoreContract {
  private final ExecutorService pool = Executors.newCachedThreadPool();

  @AfterEach
  void stop() {
    pool.shutdownNow();
  }

  /** A listener stuck in its first call until released, recording names and the end. */
  private static final class Stuck implements WatchListener<Widget> {
    final CountDownLatch entered = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    final CountDownLatch ended = new CountDownLatch(1);
    final List<String> seen = new CopyOnWriteArrayList<>();
    final AtomicReference<ExpiredException> cause = new AtomicReference<>();

    @Override
    public void onEvent(WatchEvent<Widget> e) {
      seen.add(e.object().metadata().name());
      entered.countDown();
      try {
        release.await();
      } catch (InterruptedException ex) {
        Thread.currentThread().interrupt();
      }
    }

    @Override
    public void onExpired(ExpiredException e) {
      cause.set(e);
      ended.countDown();
    }
  }

  /**
   * How many objects the slow-listener test creates behind the stuck listener: 10,000 on the in-memory store; a
   * store whose every write is a round trip may choose fewer (at least 10, the test needs more than the limit of 3).
   */
  protected int writesBehindStuckListener() {
    return 10_000;
  }

  @Test
  void slowListener_beyondTheLimit_getsQueuedEventsThenExpired() throws Exception {
    ObjectStore store = builder().deliveryExecutor(pool).watchQueueLimit(3).build();
    Stuck stuck = new Stuck();
    Watch w = store.watch(Widget.class, "0", stuck);
    store.create(Widget.of("ns", "w0", 1));
    assertThat(stuck.entered.await(5, TimeUnit.SECONDS)).isTrue();
    for (int i = 1; i <= writesBehindStuckListener(); i++) {
      store.create(Widget.of("ns", "w" + i, 1));
    }
    assertThat(w.toString()).contains("queued=3");
    stuck.release.countDown();

    assertThat(stuck.ended.await(5, TimeUnit.SECONDS)).isTrue();
    assertThat(stuck.seen).containsExactly("w0", "w1", "w2", "w3");
    assertThat(stuck.cause.get()).hasMessageStartingWith("too old resource version: 6 ")
        .hasMessageContaining("fell more than 3 events behind");
    assertThat(w.isClosed()).isTrue();
    // The listener can resume from the last version it saw if the history still holds it.
    List<String> resumed = new CopyOnWriteArrayList<>();
    store.watch(Widget.class, "5", e -> resumed.add(e.object().metadata().name())).close();
    store.close();
  }

  @Test
  void fastListener_underTheLimit_neverExpires() {
    ObjectStore store = builder().directDelivery().watchQueueLimit(1).build();
    List<String> seen = new CopyOnWriteArrayList<>();
    AtomicReference<ExpiredException> cause = new AtomicReference<>();
    Watch w = store.watch(Widget.class, "0", new WatchListener<>() {
      @Override
      public void onEvent(WatchEvent<Widget> e) {
        seen.add(e.object().metadata().name());
      }

      @Override
      public void onExpired(ExpiredException e) {
        cause.set(e);
      }
    });
    for (int i = 0; i < 100; i++) {
      store.create(Widget.of("ns", "w" + i, 1));
    }
    assertThat(seen).hasSize(100);
    assertThat(cause.get()).isNull();
    assertThat(w.isClosed()).isFalse();
  }

  @Test
  void replayLongerThanTheLimit_deliversTheLimitThenExpires() {
    ObjectStore store = builder().directDelivery().watchQueueLimit(2).build();
    for (int i = 0; i < 5; i++) {
      store.create(Widget.of("ns", "w" + i, 1));
    }
    List<String> seen = new CopyOnWriteArrayList<>();
    AtomicReference<ExpiredException> cause = new AtomicReference<>();
    Watch w = store.watch(Widget.class, "1", new WatchListener<>() {
      @Override
      public void onEvent(WatchEvent<Widget> e) {
        seen.add(e.object().metadata().name());
      }

      @Override
      public void onExpired(ExpiredException e) {
        cause.set(e);
      }
    });
    // a store may replay on its own thread (etcd's watch stream does): wait for the end of the replay
    Recorder.await(() -> cause.get() != null, "the replay to end with expiry");
    assertThat(seen).containsExactly("w0", "w1");
    assertThat(cause.get()).isNotNull();
    assertThat(w.isClosed()).isTrue();
  }

  @Test
  void builder_watchQueueLimitBelowOne_refused() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> builder().watchQueueLimit(0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("watchQueueLimit must be at least 1");
  }
}
