package io.fleetkit.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Ported from kubernetes/kubernetes staging/src/k8s.io/client-go/util/workqueue/queue_test.go (11 tests: TestBasic,
 * TestAddWhileProcessing, TestLen, TestReinsert, TestCollapse, TestCollapseWhileProcessing (both without the
 * pluggable-queue {@code Touch} tracing, which this queue does not have), TestQueueDrainageUsingShutDownWithDrain,
 * TestNoQueueDrainageUsingShutDown, TestForceQueueShutdownUsingShutDown,
 * TestQueueDrainageUsingShutDownWithDrainWithDirtyItem, TestGarbageCollection), plus own cases for the
 * never-concurrent guarantee and {@code poll}.
 */
final class WorkQueueTest {

  private static void shutDown(WorkQueue<?> q, boolean drain) throws InterruptedException {
    if (drain) {
      q.shutDownWithDrain();
    } else {
      q.shutDown();
    }
  }

  // queue_test.go TestBasic (both table rows: ShutDown and ShutDownWithDrain)
  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  @Timeout(30)
  void basic_producersAndConsumers_queueEndsEmptyAndIgnoresAddsAfterShutdown(boolean drain) throws Exception {
    WorkQueue<Object> q = WorkQueue.create();
    int producers = 50;
    List<Thread> producerThreads = new ArrayList<>();
    for (int i = 0; i < producers; i++) {
      int item = i;
      Thread t = new Thread(() -> {
        for (int j = 0; j < 50; j++) {
          q.add(item);
          sleep(1);
        }
      });
      producerThreads.add(t);
      t.start();
    }
    AtomicBoolean gotAfterShutdown = new AtomicBoolean();
    List<Thread> consumers = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      Thread t = new Thread(() -> {
        try {
          while (true) {
            Optional<Object> item = q.get();
            if (item.isEmpty()) {
              return;
            }
            if ("added after shutdown!".equals(item.get())) {
              gotAfterShutdown.set(true);
            }
            sleep(3);
            q.done(item.get());
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
      consumers.add(t);
      t.start();
    }
    for (Thread t : producerThreads) {
      t.join();
    }
    shutDown(q, drain);
    q.add("added after shutdown!");
    for (Thread t : consumers) {
      t.join();
    }
    assertThat(gotAfterShutdown).isFalse();
    assertThat(q.len()).isZero();
  }

  // queue_test.go TestAddWhileProcessing (both table rows)
  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  @Timeout(30)
  void addWhileProcessing_everyWorkerReAddsOnce_queueEndsEmpty(boolean drain) throws Exception {
    WorkQueue<Integer> q = WorkQueue.create();
    List<Thread> producers = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      int item = i;
      Thread t = new Thread(() -> q.add(item));
      producers.add(t);
      t.start();
    }
    Map<Integer, Integer> totals = new ConcurrentHashMap<>();
    List<Thread> consumers = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      Thread t = new Thread(() -> {
        Map<Integer, Integer> counters = new HashMap<>();
        try {
          while (true) {
            Optional<Integer> item = q.get();
            if (item.isEmpty()) {
              return;
            }
            totals.merge(item.get(), 1, Integer::sum);
            if (counters.merge(item.get(), 1, Integer::sum) < 2) {
              q.add(item.get());
            }
            q.done(item.get());
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
      consumers.add(t);
      t.start();
    }
    for (Thread t : producers) {
      t.join();
    }
    shutDown(q, drain);
    for (Thread t : consumers) {
      t.join();
    }
    assertThat(q.len()).isZero();
    assertThat(totals).isNotEmpty();
  }

  // queue_test.go TestLen
  @Test
  void len_duplicateAdd_doesNotGrow() {
    WorkQueue<String> q = WorkQueue.create();
    q.add("foo");
    assertThat(q.len()).isEqualTo(1);
    q.add("bar");
    assertThat(q.len()).isEqualTo(2);
    q.add("foo");
    assertThat(q.len()).isEqualTo(2);
  }

  // queue_test.go TestReinsert
  @Test
  void add_whileProcessing_isQueuedAgainAfterDone() throws Exception {
    WorkQueue<String> q = WorkQueue.create();
    q.add("foo");
    String i = q.get().orElseThrow();
    assertThat(i).isEqualTo("foo");
    q.add(i);
    assertThat(q.len()).as("not handed out again while processing").isZero();
    q.done(i);
    i = q.get().orElseThrow();
    assertThat(i).isEqualTo("foo");
    q.done(i);
    assertThat(q.len()).isZero();
  }

  // queue_test.go TestCollapse
  @Test
  void add_twiceBeforeGet_handedOutOnce() throws Exception {
    WorkQueue<String> q = WorkQueue.create();
    q.add("bar");
    q.add("bar");
    String i = q.get().orElseThrow();
    assertThat(i).isEqualTo("bar");
    q.done(i);
    assertThat(q.len()).isZero();
    assertThat(q.poll()).isEmpty();
  }

  // queue_test.go TestCollapseWhileProcessing
  @Test
  @Timeout(10)
  void add_twiceWhileProcessing_otherWorkerBlocksUntilDoneThenGetsItOnce() throws Exception {
    WorkQueue<String> q = WorkQueue.create();
    q.add("foo");
    String i = q.get().orElseThrow();
    assertThat(i).isEqualTo("foo");
    q.add("foo");
    q.add("foo");
    CountDownLatch workerDone = new CountDownLatch(1);
    List<String> got = new java.util.concurrent.CopyOnWriteArrayList<>();
    Thread worker = new Thread(() -> {
      try {
        String j = q.get().orElseThrow();
        got.add(j);
        q.done(j);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      workerDone.countDown();
    });
    worker.start();
    assertThat(workerDone.await(100, TimeUnit.MILLISECONDS)).as("worker blocked until we are done").isFalse();
    q.done("foo");
    assertThat(workerDone.await(5, TimeUnit.SECONDS)).isTrue();
    assertThat(got).containsExactly("foo");
    assertThat(q.len()).isZero();
  }

  // queue_test.go TestQueueDrainageUsingShutDownWithDrain
  @Test
  @Timeout(10)
  void shutDownWithDrain_itemsInFlight_waitsUntilDone() throws Exception {
    WorkQueue<String> q = WorkQueue.create();
    q.add("foo");
    q.add("bar");
    String first = q.get().orElseThrow();
    String second = q.get().orElseThrow();
    CountDownLatch finished = new CountDownLatch(1);
    Thread t = new Thread(() -> {
      try {
        q.shutDownWithDrain();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      finished.countDown();
    });
    t.start();
    while (q.get().isPresent()) {
      // spin until the shutdown is visible, as upstream does
    }
    assertThat(finished.await(50, TimeUnit.MILLISECONDS)).as("drain must wait for the items").isFalse();
    q.done(first);
    q.done(second);
    assertThat(finished.await(5, TimeUnit.SECONDS)).isTrue();
  }

  // queue_test.go TestNoQueueDrainageUsingShutDown
  @Test
  @Timeout(10)
  void shutDown_itemsInFlight_returnsAtOnce() throws Exception {
    WorkQueue<String> q = WorkQueue.create();
    q.add("foo");
    q.add("bar");
    q.get();
    q.get();
    Thread t = new Thread(q::shutDown);
    t.start();
    t.join(5000);
    assertThat(t.isAlive()).isFalse();
    assertThat(q.isShuttingDown()).isTrue();
  }

  // queue_test.go TestForceQueueShutdownUsingShutDown
  @Test
  @Timeout(10)
  void shutDown_duringDrain_releasesTheDrainingCaller() throws Exception {
    WorkQueue<String> q = WorkQueue.create();
    q.add("foo");
    q.add("bar");
    q.get();
    q.get();
    CountDownLatch finished = new CountDownLatch(1);
    Thread t = new Thread(() -> {
      try {
        q.shutDownWithDrain();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      finished.countDown();
    });
    t.start();
    while (q.get().isPresent()) {
      // wait for the shutdown to be visible
    }
    q.shutDown();
    assertThat(finished.await(5, TimeUnit.SECONDS)).isTrue();
  }

  // queue_test.go TestQueueDrainageUsingShutDownWithDrainWithDirtyItem
  @Test
  @Timeout(10)
  void shutDownWithDrain_dirtyItem_isHandedOutOnceMoreThenShutdown() throws Exception {
    WorkQueue<String> q = WorkQueue.create();
    q.add("foo");
    String gotten = q.get().orElseThrow();
    q.add("foo");
    CountDownLatch finished = new CountDownLatch(1);
    Thread t = new Thread(() -> {
      try {
        q.shutDownWithDrain();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      finished.countDown();
    });
    t.start();
    while (q.get().isPresent()) {
      // wait for the shutdown to be visible
    }
    q.done(gotten);
    Optional<String> again = q.get();
    assertThat(again).as("Done re-queued the dirty item").contains("foo");
    q.done(again.get());
    assertThat(q.get()).as("now really done").isEmpty();
    assertThat(finished.await(5, TimeUnit.SECONDS)).isTrue();
  }

  // queue_test.go TestGarbageCollection
  @Test
  @Timeout(30)
  void done_processedItem_isNotRetained() throws Exception {
    WorkQueue<Object> q = WorkQueue.create();
    Object big = new byte[1 << 20];
    WeakReference<Object> ref = new WeakReference<>(big);
    q.add(big);
    Object o = q.get().orElseThrow();
    q.done(o);
    big = null;
    o = null;
    for (int i = 0; i < 100 && ref.get() != null; i++) {
      System.gc();
      Thread.sleep(10);
    }
    assertThat(ref.get()).isNull();
    assertThat(q.len()).isZero();
  }

  @Test
  @Timeout(30)
  void get_manyWorkersAndReAdds_neverHandsOutAnItemTwiceAtOnce() throws Exception {
    WorkQueue<Integer> q = WorkQueue.create();
    Map<Integer, AtomicInteger> inFlight = new ConcurrentHashMap<>();
    AtomicBoolean overlap = new AtomicBoolean();
    AtomicInteger processed = new AtomicInteger();
    List<Thread> workers = new ArrayList<>();
    for (int w = 0; w < 8; w++) {
      Thread t = new Thread(() -> {
        try {
          Optional<Integer> item;
          while ((item = q.get()).isPresent()) {
            AtomicInteger c = inFlight.computeIfAbsent(item.get(), k -> new AtomicInteger());
            if (c.incrementAndGet() > 1) {
              overlap.set(true);
            }
            Thread.onSpinWait();
            c.decrementAndGet();
            processed.incrementAndGet();
            q.done(item.get());
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
      workers.add(t);
      t.start();
    }
    for (int i = 0; i < 20_000; i++) {
      q.add(i % 5);
    }
    q.shutDownWithDrain();
    for (Thread t : workers) {
      t.join();
    }
    assertThat(overlap).isFalse();
    assertThat(processed.get()).isBetween(1, 20_000);
  }

  @Test
  void poll_emptyQueue_returnsEmptyWithoutBlocking() {
    WorkQueue<String> q = WorkQueue.create();
    assertThat(q.poll()).isEmpty();
    q.add("a");
    assertThat(q.poll()).contains("a");
    assertThat(q.poll()).isEmpty();
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
