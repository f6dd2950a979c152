package io.fleetkit.store.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.ExpiredException;
import io.fleetkit.api.StoreUnavailableException;
import io.fleetkit.api.core.ConfigMap;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.WatchEvent;
import io.fleetkit.api.store.WatchListener;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The etcd store on a 3-member etcd cluster while members fail: the leader killed during an 8-thread
 * compare-and-swap load and restarted, a member stopped while the others go on (its watch resumes or reports "too
 * old" and a relist finds everything), the whole cluster down and back. No update is lost or applied twice, every
 * watch either continues exactly or ends with "too old resource version", errors name etcd and the operation.
 */
@ExtendWith(EtcdCluster.Available.class)
final class EtcdFaultTest {
  private static final int THREADS = 8;
  private static final int PER_THREAD = 40;
  private static EtcdCluster cluster;

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = new EtcdCluster(3, 24190, 24290).startAll();
  }

  @AfterAll
  static void stopCluster() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static EtcdStoreBuilder store(String prefix, String... endpoints) {
    return EtcdStore.builder(endpoints).prefix(prefix).requestTimeout(Duration.ofSeconds(3));
  }

  private static ConfigMap counter(ObjectMeta meta, long count, String writer) {
    return new ConfigMap(meta, Map.of("count", Long.toString(count), "writer", writer), Map.of(), false);
  }

  private static long count(ConfigMap c) {
    return Long.parseLong(c.data().get("count"));
  }

  /** Checks each event: versions strictly increasing, count +1 each time. */
  private static final class Checker implements WatchListener<ConfigMap> {
    private final List<String> problems = new ArrayList<>();
    private long lastVersion;
    private long lastCount = -1;
    private int events;
    private volatile ExpiredException expired;

    @Override
    public synchronized void onEvent(WatchEvent<ConfigMap> e) {
      long v = Long.parseLong(e.resourceVersion());
      long c = count(e.object());
      if (v <= lastVersion) {
        problems.add("version " + v + " after " + lastVersion);
      }
      if (c != lastCount + 1) {
        problems.add("count " + c + " after " + lastCount);
      }
      lastVersion = v;
      lastCount = c;
      events++;
    }

    @Override
    public void onExpired(ExpiredException cause) {
      expired = cause;
    }

    synchronized int events() {
      return events;
    }

    synchronized List<String> problems() {
      return List.copyOf(problems);
    }
  }

  @Test
  void casLoad_8threads_leaderKilledAndRestarted_everyUpdateExactlyOnceAndWatchesExact() throws Exception {
    String prefix = "/fault/" + UUID.randomUUID();
    int total = THREADS * PER_THREAD;
    try (ObjectStore s = store(prefix, cluster.endpoints()).build()) {
      List<Checker> checkers = List.of(new Checker(), new Checker());
      for (Checker c : checkers) {
        s.watch(ConfigMap.class, "0", c);
      }
      s.create(counter(ObjectMeta.of("ns", "counter"), 0, "init"));
      AtomicInteger done = new AtomicInteger();
      AtomicLong lastSuccess = new AtomicLong(System.nanoTime());
      AtomicLong longestStall = new AtomicLong();
      AtomicInteger unavailable = new AtomicInteger();
      AtomicInteger unknownButApplied = new AtomicInteger();
      ExecutorService pool = Executors.newFixedThreadPool(THREADS + 1);
      CountDownLatch go = new CountDownLatch(1);
      long started = System.nanoTime();
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        futures.add(pool.submit(() -> {
          go.await();
          for (int i = 0; i < PER_THREAD; i++) {
            String token = thread + ":" + i;
            while (!incrementOnce(s, token, unavailable, unknownButApplied)) {
              // conflict or etcd away: read again and retry
            }
            long now = System.nanoTime();
            long gap = now - lastSuccess.getAndSet(now);
            longestStall.accumulateAndGet(gap, Math::max);
            done.incrementAndGet();
          }
          return null;
        }));
      }
      AtomicReference<String> chaos = new AtomicReference<>("");
      Future<?> killer = pool.submit(() -> {
        while (done.get() < total / 3) {
          Thread.sleep(5);
        }
        int leader = cluster.leader();
        cluster.kill(leader);
        chaos.set("killed leader m" + leader + " after " + done.get() + " updates");
        Thread.sleep(1500);
        cluster.start(leader);
        cluster.awaitServing(leader);
        return null;
      });
      go.countDown();
      for (Future<?> f : futures) {
        f.get(180, TimeUnit.SECONDS);
      }
      killer.get(60, TimeUnit.SECONDS);
      double seconds = (System.nanoTime() - started) / 1e9;
      pool.shutdownNow();

      ConfigMap last = s.require(ConfigMap.class, "ns", "counter");
      assertThat(count(last)).as("no lost and no duplicated update").isEqualTo(total);
      assertThat(last.metadata().generation()).isEqualTo(1 + total);
      assertThat(last.data().keySet().stream().filter(k -> k.startsWith("w-")).count())
          .as("every writer's mark, each increment once").isEqualTo(total);
      for (Checker c : checkers) {
        awaitTrue(() -> c.events() == total + 1 || c.expired != null, "watcher to see " + (total + 1) + " events");
        assertThat(c.expired).as("a watch resumed across the leader change needs no relist").isNull();
        assertThat(c.problems()).isEmpty();
        assertThat(c.events()).isEqualTo(total + 1);
      }
      String figures = String.format("etcd 3-member cluster, %d threads x %d CAS increments with the leader killed"
          + " (SIGKILL) and restarted 1.5 s later (%s): %.0f updates/s, longest stall %d ms, %d calls failed with"
          + " StoreUnavailableException (%d of them had been applied and were not repeated)%n", THREADS, PER_THREAD,
          chaos.get(), total / seconds, TimeUnit.NANOSECONDS.toMillis(longestStall.get()), unavailable.get(),
          unknownButApplied.get());
      Files.writeString(Path.of("target", "etcd-fault-figures.txt"), figures);
      System.out.print(figures);
    }
  }

  /**
   * One attempt at an increment. A write whose answer was lost (etcd away) may or may not have been applied: every
   * increment leaves its writer's mark in the object (marks accumulate, so later writes by others keep it), and a
   * retry looks for its mark first, so it never applies an increment twice.
   */
  private static boolean incrementOnce(ObjectStore s, String token, AtomicInteger unavailable,
      AtomicInteger appliedAnyway) throws InterruptedException {
    ConfigMap cur;
    try {
      cur = s.require(ConfigMap.class, "ns", "counter");
    } catch (StoreUnavailableException e) {
      unavailable.incrementAndGet();
      Thread.sleep(20);
      return false;
    }
    String mark = "w-" + token.replace(':', '-');
    if (cur.data().containsKey(mark)) {
      appliedAnyway.incrementAndGet(); // our earlier attempt did land (and others may have written since)
      return true;
    }
    Map<String, String> data = new java.util.HashMap<>(cur.data());
    data.put("count", Long.toString(count(cur) + 1));
    data.put("writer", token);
    data.put(mark, "1");
    try {
      s.update(new ConfigMap(cur.metadata(), data, Map.of(), false));
      return true;
    } catch (ConflictException e) {
      return false;
    } catch (StoreUnavailableException e) {
      unavailable.incrementAndGet();
      Thread.sleep(20);
      return false; // the next read tells whether it was applied
    }
  }

  @Test
  void memberStopped_othersGoOn_itsWatchResumesOrReportsTooOld_andARelistFindsEverything() throws Exception {
    String prefix = "/fault/" + UUID.randomUUID();
    try (ObjectStore onM2 = store(prefix, cluster.endpoint(2)).build();
        ObjectStore onOthers = store(prefix, cluster.endpoint(0), cluster.endpoint(1)).historyLimit(1).build()) {
      createEventually(onOthers, counter(ObjectMeta.of("ns", "c0"), 0, "w"));
      Checker watch = new Checker();
      List<String> names = new ArrayList<>();
      onM2.watch(ConfigMap.class, "0", new WatchListener<>() {
        @Override
        public void onEvent(WatchEvent<ConfigMap> e) {
          synchronized (names) {
            names.add(e.object().metadata().name());
          }
        }

        @Override
        public void onExpired(ExpiredException cause) {
          watch.onExpired(cause);
        }
      });
      cluster.kill(2);
      for (int i = 1; i <= 20; i++) {
        // (and compacts behind itself); if m2 was the leader, the first writes wait for the election
        createEventually(onOthers, counter(ObjectMeta.of("ns", "c" + i), i, "w"));
      }
      assertThatThrownBy(() -> onM2.list(ConfigMap.class))
          .isInstanceOf(StoreUnavailableException.class)
          .hasMessageContaining("etcd at " + cluster.endpoint(2))
          .hasMessageContaining("list ConfigMap");
      cluster.start(2);
      cluster.awaitServing(2);

      // The stopped member's watch cannot continue past the compaction: it ends with "too old", and the relist
      // (what an informer does then) holds every object.
      awaitTrue(() -> watch.expired != null, "the watch on the restarted member to report too old");
      assertThat(watch.expired).hasMessageStartingWith("too old resource version:");
      List<String> relisted = onM2.list(ConfigMap.class).items().stream().map(c -> c.metadata().name()).toList();
      assertThat(relisted).hasSize(21).contains("c0", "c20");
      synchronized (names) {
        assertThat(names).doesNotHaveDuplicates();
      }
    }
  }

  @Test
  void wholeClusterDown_callsFailNamingEtcdAndOperation_thenStateIsBack() throws Exception {
    String prefix = "/fault/" + UUID.randomUUID();
    try (ObjectStore s = store(prefix, cluster.endpoints()).build()) {
      ConfigMap a = s.create(counter(ObjectMeta.of("ns", "a"), 7, "w"));
      for (int i = 0; i < 3; i++) {
        cluster.kill(i);
      }
      long t0 = System.nanoTime();
      assertThatThrownBy(() -> s.update(counter(a.metadata(), 8, "w")))
          .isInstanceOf(StoreUnavailableException.class)
          .hasMessageStartingWith("etcd at [http://127.0.0.1:24190")
          .hasMessageContaining("ConfigMap ns/a");
      assertThat(Duration.ofNanos(System.nanoTime() - t0)).as("fails within the request timeout, no hang")
          .isLessThan(Duration.ofSeconds(10));
      for (int i = 0; i < 3; i++) {
        cluster.start(i);
      }
      for (int i = 0; i < 3; i++) {
        cluster.awaitServing(i);
      }
      ConfigMap back = awaitValue(() -> s.require(ConfigMap.class, "ns", "a"));
      assertThat(count(back)).isEqualTo(7);
      assertThat(back.metadata().resourceVersion()).isEqualTo(a.metadata().resourceVersion());
      assertThat(count(s.update(counter(back.metadata(), 8, "w")))).isEqualTo(8);
    }
  }

  /**
   * Creates, retrying while etcd is unavailable (an election under way); a create whose earlier attempt did land
   * meets "already exists", which is then its success.
   */
  private static void createEventually(ObjectStore s, ConfigMap c) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    boolean tried = false;
    while (true) {
      try {
        s.create(c);
        return;
      } catch (ConflictException e) {
        if (tried) {
          return;
        }
        throw e;
      } catch (StoreUnavailableException e) {
        tried = true;
        if (System.nanoTime() > deadline) {
          throw e;
        }
        Thread.sleep(100);
      }
    }
  }

  private static <T> T awaitValue(java.util.concurrent.Callable<T> call) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (true) {
      try {
        return call.call();
      } catch (StoreUnavailableException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
        Thread.sleep(100);
      }
    }
  }

  private static void awaitTrue(java.util.function.BooleanSupplier condition, String what)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting for " + what);
      }
      Thread.sleep(10);
    }
  }
}
