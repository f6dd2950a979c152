package io.fleetkit.api.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.ConflictException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

public abstract class ObjectStoreConcurrencyContract extends StoreContract {
  private static final int THREADS = 8;
  private static final int INCREMENTS_PER_THREAD = 1_500;
  private static final int TOTAL = THREADS * INCREMENTS_PER_THREAD;

  @Test
  void readModifyWrite_8threadsWithRetry_noLostUpdate_asyncWatchersSeeEveryVersionInOrder() throws Exception {
    hammer(builder().historyLimit(100).build());
  }

  @Test
  void readModifyWrite_8threadsWithRetry_noLostUpdate_directWatchersSeeEveryVersionInOrder() throws Exception {
    hammer(builder().directDelivery().build());
  }

  private static void hammer(ObjectStore store) throws Exception {
    List<Checker> watchers = List.of(new Checker(), new Checker(), new Checker());
    for (Checker c : watchers) {
      store.watch(Widget.class, "0", c);
    }
    store.create(Widget.of("ns", "counter", 0));
    AtomicLong conflicts = new AtomicLong();
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    CountDownLatch start = new CountDownLatch(1);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        done.add(pool.submit(() -> {
          start.await();
          for (int i = 0; i < INCREMENTS_PER_THREAD; i++) {
            while (true) {
              Widget cur = store.require(Widget.class, "ns", "counter");
              try {
                store.update(cur.withSize(cur.size() + 1));
                break;
              } catch (ConflictException e) {
                conflicts.incrementAndGet();
              }
            }
          }
          return null;
        }));
      }
      start.countDown();
      for (Future<?> f : done) {
        f.get(120, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }

    Widget last = store.require(Widget.class, "ns", "counter");
    assertThat(last.size()).isEqualTo(TOTAL);
    assertThat(last.metadata().generation()).isEqualTo(1 + TOTAL);
    assertThat(last.metadata().resourceVersion()).isEqualTo(Long.toString(2 + TOTAL));
    for (Checker c : watchers) {
      Recorder.await(() -> c.count() == TOTAL + 1, "watcher to see " + (TOTAL + 1) + " events");
      assertThat(c.problems()).isEmpty();
    }
    store.close();
  }

  /** Checks each event as it comes: versions strictly increasing and consecutive, counter +1 each time. */
  private static final class Checker implements WatchListener<Widget> {
    private final List<String> problems = new ArrayList<>();
    private long lastVersion;
    private long lastSize = -1;
    private int count;

    @Override
    public synchronized void onEvent(WatchEvent<Widget> e) {
      long v = Long.parseLong(e.resourceVersion());
      if (v <= lastVersion || (lastVersion != 0 && v != lastVersion + 1)) {
        problems.add("version " + v + " after " + lastVersion);
      }
      if (e.object().size() != lastSize + 1) {
        problems.add("size " + e.object().size() + " after " + lastSize);
      }
      lastVersion = v;
      lastSize = e.object().size();
      count++;
    }

    synchronized int count() {
      return count;
    }

    synchronized List<String> problems() {
      return List.copyOf(problems);
    }
  }
}
