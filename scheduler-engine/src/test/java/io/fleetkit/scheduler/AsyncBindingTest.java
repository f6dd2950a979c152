package io.fleetkit.scheduler;

import static io.fleetkit.scheduler.testing.Fixtures.node;
import static io.fleetkit.scheduler.testing.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.Binder;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.ReservePlugin;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The asynchronous binding cycle ({@link SchedulerBuilder#bindParallelism}), as kube-scheduler's
 * {@code schedule_one.go}: the pod is assumed after Reserve and Permit, PreBind and Bind run on a binding thread while
 * the next pod is scheduled, and a failed binding unreserves, forgets the assumed pod and re-queues it.
 */
final class AsyncBindingTest {
  private static final String RESERVE = "CountingReserve";

  /** Counts Reserve and Unreserve calls per pod. */
  static final class CountingReserve implements ReservePlugin {
    final Map<String, AtomicInteger> reserved = new ConcurrentHashMap<>();
    final Map<String, AtomicInteger> unreserved = new ConcurrentHashMap<>();

    @Override
    public String name() {
      return RESERVE;
    }

    @Override
    public Status reserve(CycleState state, PodInfo pod, String nodeName) {
      reserved.computeIfAbsent(pod.key(), k -> new AtomicInteger()).incrementAndGet();
      return Status.success();
    }

    @Override
    public void unreserve(CycleState state, PodInfo pod, String nodeName) {
      unreserved.computeIfAbsent(pod.key(), k -> new AtomicInteger()).incrementAndGet();
    }
  }

  /** A binder that blocks every binding until {@link #release} and records the threads it was called on. */
  static final class GateBinder implements Binder {
    final CountDownLatch gate = new CountDownLatch(1);
    final List<String> threads = new CopyOnWriteArrayList<>();
    final Map<String, String> bound = new ConcurrentHashMap<>();
    final AtomicInteger entered = new AtomicInteger();

    @Override
    public Status bind(Pod pod, String nodeName) {
      threads.add(Thread.currentThread().getName());
      entered.incrementAndGet();
      try {
        if (!gate.await(10, TimeUnit.SECONDS)) {
          return Status.error("gate never opened");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return Status.error("interrupted");
      }
      bound.put(pod.metadata().key(), nodeName);
      return Status.success();
    }

    void release() {
      gate.countDown();
    }
  }

  @Test
  void scheduleOne_bindingBlocked_nextPodScheduledWhileFirstBinds() {
    GateBinder binder = new GateBinder();
    List<ScheduleResult> heard = new CopyOnWriteArrayList<>();
    try (Scheduler s = Scheduler.builder().binder(binder).bindParallelism(2).parallelism(1).onResult(heard::add)
        .build()) {
      s.addNode(node("n1", 4000, 8192, 110));
      s.addPod(pod("a", 1000, 100));
      s.addPod(pod("b", 1000, 100));

      ScheduleResult first = s.scheduleOne();
      ScheduleResult second = s.scheduleOne();

      // Both cycles returned while the binder still holds the first binding: scheduling did not wait for it.
      assertThat(first.code()).isEqualTo(Status.Code.WAIT);
      assertThat(first.nodeName()).isEqualTo("n1");
      assertThat(second.code()).isEqualTo(Status.Code.WAIT);
      assertThat(binder.bound).isEmpty();
      // Both are assumed: their requests count on the node for the next cycles.
      assertThat(s.nodeOf("default/a")).contains("n1");
      assertThat(s.nodeInfo("n1").orElseThrow().requested().milliCpu()).isEqualTo(2000);

      assertThat(heard).isEmpty(); // a cycle's interim WAIT is returned, not reported

      binder.release();
      s.runUntilIdle(); // waits for the bindings under way
      // Their results went to the listener (from whichever thread applied them: a binding thread, if it found the
      // scheduler idle, or this one).
      List<ScheduleResult> rest = heard;
      assertThat(rest).extracting(ScheduleResult::podKey).containsExactlyInAnyOrder("default/a", "default/b");
      assertThat(rest).allMatch(ScheduleResult::isBound);
      assertThat(binder.threads).allMatch(t -> t.startsWith("fleetkit-binder-"));
      assertThat(binder.bound).containsOnlyKeys("default/a", "default/b");
    }
  }

  @Test
  void runUntilIdle_podArrivesWhileABindingIsInFlight_isBoundBeforeThatBindingEnds() throws Exception {
    CountDownLatch gate = new CountDownLatch(1);
    CountDownLatch aEntered = new CountDownLatch(1);
    CountDownLatch bBound = new CountDownLatch(1);
    Binder binder = (pod, nodeName) -> {
      if (pod.metadata().name().equals("a")) {
        aEntered.countDown();
        try {
          return gate.await(10, TimeUnit.SECONDS) ? Status.success() : Status.error("gate never opened");
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return Status.error("interrupted");
        }
      }
      bBound.countDown();
      return Status.success();
    };
    try (Scheduler s = Scheduler.builder().binder(binder).bindParallelism(2).build()) {
      s.addNode(node("n1", 4000, 8192, 110));
      s.addPod(pod("a", 1000, 100));
      List<ScheduleResult> results = new CopyOnWriteArrayList<>();
      Thread loop = new Thread(() -> results.addAll(s.runUntilIdle()), "test-scheduling-loop");
      loop.start();
      assertThat(aEntered.await(10, TimeUnit.SECONDS)).isTrue();

      s.addPod(pod("b", 1000, 100)); // while runUntilIdle waits for a's binding

      // b is scheduled and bound while a's binding still blocks: the loop went back to scheduling instead of
      // draining the bindings in flight first.
      boolean bWhileABlocked = bBound.await(10, TimeUnit.SECONDS);
      gate.countDown();
      loop.join(10_000);
      assertThat(bWhileABlocked).as("b bound while a's binding was in flight").isTrue();
      assertThat(loop.isAlive()).isFalse();
      assertThat(results).extracting(ScheduleResult::podKey).containsExactlyInAnyOrder("default/a", "default/b");
      assertThat(results).allMatch(ScheduleResult::isBound);
    }
  }

  @Test
  void runUntilIdle_async_returnsEveryFinalResultAndListenerSeesThem() {
    List<ScheduleResult> heard = Collections.synchronizedList(new ArrayList<>());
    InMemoryBinder binder = new InMemoryBinder();
    try (Scheduler s = Scheduler.builder().binder(binder).bindParallelism(4).onResult(heard::add).build()) {
      for (int i = 0; i < 5; i++) {
        s.addNode(node("n" + i, 4000, 8192, 110));
      }
      for (int i = 0; i < 200; i++) {
        s.addPod(pod("p" + i, 100, 100));
      }

      List<ScheduleResult> results = s.runUntilIdle();

      assertThat(results).hasSize(200).allMatch(ScheduleResult::isBound);
      assertThat(heard).hasSize(200);
      assertThat(results).extracting(ScheduleResult::podKey).doesNotHaveDuplicates();
      assertThat(s.pending()).isEmpty();
    }
  }

  @Test
  void bindFails_async_unreservesForgetsAssumptionAndRequeues() {
    ManualClock clock = ManualClock.atEpoch2026();
    CountingReserve counting = new CountingReserve();
    AtomicInteger calls = new AtomicInteger();
    Binder failOnce = (pod, nodeName) -> calls.incrementAndGet() == 1
        ? Status.error("api server said 500") : Status.success();
    PluginRegistry reg = PluginRegistry.defaults().with(RESERVE, h -> counting);
    try (Scheduler s = Scheduler.builder().registry(reg).clock(clock).binder(failOnce).bindParallelism(1)
        .profile(DefaultPlugins.profile().toBuilder().plugin(RESERVE).build()).build()) {
      s.addNode(node("n1", 4000, 8192, 110));
      s.addPod(pod("a", 3000, 100));

      List<ScheduleResult> first = s.runUntilIdle();

      assertThat(first).singleElement().satisfies(r -> {
        assertThat(r.code()).isEqualTo(Status.Code.ERROR);
        assertThat(r.message()).contains("api server said 500");
      });
      assertThat(counting.unreserved.get("default/a")).hasValue(1);
      assertThat(s.nodeOf("default/a")).isEmpty(); // the assumption is forgotten
      assertThat(s.nodeInfo("n1").orElseThrow().requested().milliCpu()).isZero();
      assertThat(s.pending()).singleElement().satisfies(p -> {
        assertThat(p.queue()).isEqualTo(PendingPod.Queue.BACKOFF);
        assertThat(p.message()).contains("api server said 500");
      });

      clock.advance(Duration.ofSeconds(2));
      List<ScheduleResult> second = s.runUntilIdle();

      assertThat(second).singleElement().satisfies(r -> assertThat(r.isBound()).isTrue());
      assertThat(counting.reserved.get("default/a")).hasValue(2);
      assertThat(counting.unreserved.get("default/a")).hasValue(1);
      assertThat(s.nodeOf("default/a")).contains("n1");
      assertThat(s.pending()).isEmpty();
    }
  }

  @Test
  void binderThrows_async_becomesErrorAndPodRequeued() {
    Binder throwing = (pod, nodeName) -> {
      throw new IllegalStateException("boom");
    };
    try (Scheduler s = Scheduler.builder().binder(throwing).bindParallelism(1).build()) {
      s.addNode(node("n1", 4000, 8192, 110));
      s.addPod(pod("a", 100, 100));

      List<ScheduleResult> results = s.runUntilIdle();

      assertThat(results).singleElement().satisfies(r -> {
        assertThat(r.code()).isEqualTo(Status.Code.ERROR);
        assertThat(r.message()).contains("boom");
      });
      assertThat(s.pending()).hasSize(1);
      assertThat(s.nodeOf("default/a")).isEmpty();
    }
  }

  @Test
  void podDeletedWhileBinding_async_notRequeuedAndNotLeftAssumed() {
    GateBinder binder = new GateBinder();
    try (Scheduler s = Scheduler.builder().binder(binder).bindParallelism(1).build()) {
      s.addNode(node("n1", 4000, 8192, 110));
      s.addPod(pod("a", 100, 100));
      assertThat(s.scheduleOne().code()).isEqualTo(Status.Code.WAIT);

      s.removePod("default/a");
      binder.release();
      s.runUntilIdle();

      assertThat(s.pending()).isEmpty();
      assertThat(s.nodeOf("default/a")).isEmpty();
    }
  }

  @Test
  void close_withBindingsInFlight_waitsForThemAndAppliesOutcomes() throws Exception {
    GateBinder binder = new GateBinder();
    List<ScheduleResult> heard = new CopyOnWriteArrayList<>();
    Scheduler s = Scheduler.builder().binder(binder).bindParallelism(1).onResult(heard::add).build();
    s.addNode(node("n1", 4000, 8192, 110));
    s.addPod(pod("a", 100, 100));
    assertThat(s.scheduleOne().code()).isEqualTo(Status.Code.WAIT);
    Thread opener = new Thread(() -> {
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      binder.release();
    });
    opener.start();

    s.close();
    opener.join();

    assertThat(heard).singleElement().satisfies(r -> assertThat(r.isBound()).isTrue());
  }

  @Test
  void bindParallelism_negative_rejectedWithTheValue() {
    assertThatThrownBy(() -> Scheduler.builder().bindParallelism(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("scheduler builder: bindParallelism -1 must not be negative");
    assertThatThrownBy(() -> Scheduler.builder().bindParallelism(2).bindParallelism(3))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("bindParallelism was already set to 2");
  }

  @Test
  void bindParallelismZero_default_bindsWithinTheCycle() {
    try (Scheduler s = Scheduler.builder().build()) {
      s.addNode(node("n1", 4000, 8192, 110));
      s.addPod(pod("a", 100, 100));

      ScheduleResult r = s.scheduleOne();

      assertThat(r.isBound()).isTrue();
      assertThat(r.nodeName()).isEqualTo("n1");
    }
  }
}
