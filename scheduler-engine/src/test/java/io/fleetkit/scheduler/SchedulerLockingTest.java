package io.fleetkit.scheduler;

import static io.fleetkit.scheduler.testing.Fixtures.node;
import static io.fleetkit.scheduler.testing.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.framework.PermitResult;
import io.fleetkit.api.framework.SchedulerProfile;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.scheduler.plugins.prioritysort.PrioritySortPlugin;
import io.fleetkit.scheduler.testing.LambdaPlugins;
import io.fleetkit.scheduler.testing.TestFitPlugin;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The scheduler's locking: cluster events and Permit decisions fed from other threads while a cycle runs return
 * without waiting for the cycle, and take effect when it ends; none is lost.
 */
final class SchedulerLockingTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final InMemoryBinder binder = new InMemoryBinder();
  /** Counted down by the Block filter when it holds a cycle of pod "slow". */
  private final CountDownLatch entered = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);

  private Scheduler scheduler(String... extraPlugins) {
    PluginRegistry reg = PluginRegistry.defaults().with(TestFitPlugin.NAME, h -> new TestFitPlugin())
        .with("Block", h -> LambdaPlugins.filter("Block", (p, n) -> {
          if (p.pod().metadata().name().equals("slow")) {
            entered.countDown();
            await(release);
          }
          return Status.success();
        }))
        .with("Gate", h -> LambdaPlugins.permit("Gate", (p, n) -> p.pod().metadata().name().equals("gated")
            ? PermitResult.waitFor(Duration.ofSeconds(30)) : PermitResult.allow()));
    SchedulerProfile.Builder profile = SchedulerProfile.builder("default-scheduler").plugin(PrioritySortPlugin.NAME)
        .plugin(TestFitPlugin.NAME, 1).plugin("Block");
    for (String p : extraPlugins) {
      profile.plugin(p);
    }
    return Scheduler.builder().registry(reg).profile(profile.build()).clock(clock).binder(binder).parallelism(1)
        .seed(1).build();
  }

  /** Starts a thread that schedules pod "slow", and returns once its Filter holds the cycle. */
  private Thread holdACycle(Scheduler s, AtomicReference<ScheduleResult> result) throws InterruptedException {
    s.addPod(pod("slow", 100, 10, 100));
    Thread t = new Thread(() -> result.set(s.scheduleOne()), "scheduling-thread");
    t.start();
    assertThat(entered.await(10, TimeUnit.SECONDS)).as("the cycle reached Filter").isTrue();
    return t;
  }

  @Test
  void clusterEvents_fromAnotherThreadDuringACycle_returnAtOnce_andApplyWhenItEnds() throws Exception {
    try (Scheduler s = scheduler()) {
      s.addNode(node("n1", 4000, 8192, 110));
      AtomicReference<ScheduleResult> slow = new AtomicReference<>();
      Thread cycle = holdACycle(s, slow);

      // a watch thread: each call would time out if it waited for the blocked cycle
      CompletableFuture.runAsync(() -> {
        s.addNode(node("n2", 4000, 8192, 110));
        s.updateNode(node("n1", 8000, 8192, 110));
        s.addPod(pod("p", 500, 10));
        s.addPod(pod("gone", 500, 10));
        s.removePod("default/gone");
      }).get(10, TimeUnit.SECONDS);
      assertThatThrownBy(() -> CompletableFuture.runAsync(() -> s.addNode(node("n2", 1, 1, 1)))
          .get(10, TimeUnit.SECONDS))
          .as("a duplicate node is rejected at once, in submission order")
          .hasCauseInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("node n2 already exists");
      assertThat(cycle.isAlive()).as("the cycle is still held").isTrue();

      release.countDown();
      cycle.join(10_000);
      assertThat(slow.get().isBound()).isTrue();
      assertThat(s.nodeInfo("n2")).isPresent();
      assertThat(s.nodeInfo("n1").orElseThrow().allocatable().milliCpu()).isEqualTo(8000);
      assertThat(s.pending()).extracting(PendingPod::podKey).containsExactly("default/p");
      assertThat(s.runUntilIdle()).singleElement().satisfies(r -> assertThat(r.isBound()).isTrue());
    }
  }

  @Test
  void permitAllow_fromAnotherThreadDuringACycle_returnsAtOnce_andBindsWhenTheCycleEnds() throws Exception {
    try (Scheduler s = scheduler("Gate")) {
      s.addNode(node("n1", 4000, 8192, 110));
      s.addPod(pod("gated", 100, 10));
      assertThat(s.scheduleOne().code()).isEqualTo(Status.Code.WAIT);
      AtomicReference<ScheduleResult> slow = new AtomicReference<>();
      Thread cycle = holdACycle(s, slow);

      CompletableFuture.runAsync(() -> s.waitingPods().allow("default/gated", "Gate")).get(10, TimeUnit.SECONDS);
      assertThat(binder.bindings()).as("not bound while the cycle runs").doesNotContainKey("default/gated");

      release.countDown();
      cycle.join(10_000);
      assertThat(binder.bindings()).containsEntry("default/gated", "n1").containsEntry("default/slow", "n1");
      assertThat(s.waitingPods().keys()).isEmpty();
    }
  }

  @Test
  void feeders_onSeveralThreads_whileCyclesRun_loseNoPod() throws Exception {
    int feeders = 4;
    int podsEach = 100;
    try (Scheduler s = Scheduler.builder().clock(clock).binder(binder).registry(
        PluginRegistry.defaults().with(TestFitPlugin.NAME, h -> new TestFitPlugin()))
        .profile(SchedulerProfile.builder("default-scheduler").plugin(PrioritySortPlugin.NAME)
            .plugin(TestFitPlugin.NAME, 1).build()).seed(3).build()) {
      for (int i = 0; i < 8; i++) {
        s.addNode(node("n" + i, 64_000, 1 << 20, 500));
      }
      List<Thread> threads = new ArrayList<>();
      for (int f = 0; f < feeders; f++) {
        int id = f;
        threads.add(new Thread(() -> {
          for (int i = 0; i < podsEach; i++) {
            s.addPod(pod("f" + id + "-" + i, 100, 10));
          }
        }));
      }
      List<ScheduleResult> results = new ArrayList<>();
      Thread scheduling = new Thread(() -> {
        while (threads.stream().anyMatch(Thread::isAlive)) {
          results.addAll(s.runUntilIdle());
        }
      });
      threads.forEach(Thread::start);
      scheduling.start();
      for (Thread t : threads) {
        t.join(30_000);
      }
      scheduling.join(30_000);
      results.addAll(s.runUntilIdle());

      assertThat(results).hasSize(feeders * podsEach).allSatisfy(r -> assertThat(r.isBound()).isTrue());
      assertThat(binder.bindings()).hasSize(feeders * podsEach);
      assertThat(s.pending()).isEmpty();
      int placed = 0;
      for (int i = 0; i < 8; i++) {
        placed += s.nodeInfo("n" + i).orElseThrow().pods().size();
      }
      assertThat(placed).isEqualTo(feeders * podsEach);
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
