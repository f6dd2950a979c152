package io.fleetkit.scheduler.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

final class EngineLockTest {
  private final EngineLock lock = new EngineLock();
  private final List<String> applied = Collections.synchronizedList(new ArrayList<>());

  @Test
  void submit_lockFree_appliesBeforeReturning() {
    lock.submit("add", "a", () -> applied.add("a"));
    assertThat(applied).containsExactly("a");
  }

  @Test
  void submit_whileAnotherThreadHoldsTheLock_returnsAtOnce_andTheHolderAppliesItBeforeReleasing() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicReference<String> appliedBy = new AtomicReference<>();
    Thread holder = new Thread(() -> lock.run(() -> {
      entered.countDown();
      await(release);
    }), "holder");
    holder.start();
    assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();

    CompletableFuture.runAsync(() -> lock.submit("add", "a", () -> {
      applied.add("a");
      appliedBy.set(Thread.currentThread().getName());
    })).get(10, TimeUnit.SECONDS); // would time out if submit waited for the holder
    assertThat(applied).as("not applied while the holder is inside").isEmpty();

    release.countDown();
    holder.join(10_000);
    assertThat(applied).containsExactly("a");
    assertThat(appliedBy).hasValue("holder");
  }

  @Test
  void submit_fromTheLockHolder_appliesAtOnce() {
    lock.run(() -> {
      lock.submit("add", "a", () -> applied.add("a"));
      assertThat(applied).containsExactly("a");
    });
  }

  @Test
  void call_reentrant_doesNotApplyOtherThreadsTasksMidway() throws Exception {
    CountDownLatch submitted = new CountDownLatch(1);
    List<String> seenInside = new ArrayList<>();
    lock.run(() -> {
      CompletableFuture.runAsync(() -> {
        lock.submit("add", "a", () -> applied.add("a"));
        submitted.countDown();
      });
      await(submitted);
      lock.call(() -> seenInside.addAll(applied)); // a plugin asking for waiting pods inside a cycle
      seenInside.add("inner call returned");
    });
    assertThat(seenInside).containsExactly("inner call returned");
    assertThat(applied).containsExactly("a");
  }

  @Test
  void submit_ownTaskThrows_rethrownToTheSubmitter_andLaterTasksStillApplied() {
    assertThatThrownBy(() -> lock.submit("add", "bad", () -> {
      throw new IllegalArgumentException("bad input");
    })).isInstanceOf(IllegalArgumentException.class).hasMessage("bad input");
    lock.submit("add", "b", () -> applied.add("b"));
    assertThat(applied).containsExactly("b");
  }

  @Test
  void submit_otherThreadsTaskThrows_loggedAndSkipped_theRestApplied() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Thread holder = new Thread(() -> lock.run(() -> {
      entered.countDown();
      await(release);
    }));
    holder.start();
    assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
    CompletableFuture.runAsync(() -> {
      lock.submit("add", "bad", () -> {
        throw new IllegalStateException("boom");
      });
      lock.submit("add", "c", () -> applied.add("c"));
    }).get(10, TimeUnit.SECONDS);
    release.countDown();
    holder.join(10_000);
    assertThat(applied).containsExactly("c");
  }

  @Test
  void submit_fromManyThreads_eachThreadsTasksAppliedOnceInItsOrder() throws Exception {
    int threads = 4;
    int perThread = 500;
    List<Thread> feeders = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int id = t;
      feeders.add(new Thread(() -> {
        for (int i = 0; i < perThread; i++) {
          String item = id + ":" + i;
          lock.submit("add", item, () -> applied.add(item));
        }
      }));
    }
    Thread cycles = new Thread(() -> {
      for (int i = 0; i < 200; i++) {
        lock.run(Thread::yield);
      }
    });
    cycles.start();
    feeders.forEach(Thread::start);
    for (Thread f : feeders) {
      f.join(30_000);
    }
    cycles.join(30_000);
    // no task is left behind: whoever fails to take the lock leaves its task to a holder that checks after releasing
    assertThat(applied).hasSize(threads * perThread).doesNotHaveDuplicates();
    for (int t = 0; t < threads; t++) {
      String prefix = t + ":";
      List<String> mine = applied.stream().filter(s -> s.startsWith(prefix)).toList();
      for (int i = 0; i < perThread; i++) {
        assertThat(mine.get(i)).isEqualTo(prefix + i);
      }
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      if (!latch.await(10, TimeUnit.SECONDS)) {
        throw new AssertionError("latch not released in 10 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
