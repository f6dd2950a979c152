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

  /**
   * How many increments each thread makes: 1,500 on the in-memory store; a store whose every write is a network
   * round trip (etcd) may choose fewer to keep the build short. The assertions are the same.
   */
  protected int incrementsPerThread() {
    return 1_500;
  }

  @Test
  void readModifyWrite_8threadsWithRetry_noLostUpdate_asyncWatchersSeeEveryVersionInOrder() throws Exception {
    hammer(builder().historyLimit(100).build());
  }

  @Test
  void readModifyWrite_8threadsWithRetry_noLostUpdate_directWatchersSeeEveryVersionInOrder() throws Exception {
    hammer(builder().directDelivery().build());
  }

  private void hammer(ObjectStore store) throws Exception {
    final int perThread = incrementsPerThread();
    final int total = THREADS * perThread;
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
          for (int i = 0; i < perThread; i++) {
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
    assertThat(last.size()).isEqualTo(total);
    assertThat(last.metadata().generation()).isEqualTo(1 + total);
    assertThat(last.metadata().resourceVersion()).isEqualTo(Long.toString(2 + total));
    for (Checker c : watchers) {
      Recorder.await(() -> c.count() == total + 1, "watcher to see " + (total + 1) + " events");
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
