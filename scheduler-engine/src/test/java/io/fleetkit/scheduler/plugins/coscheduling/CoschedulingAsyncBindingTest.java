package io.fleetkit.scheduler.plugins.coscheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.Binder;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.scheduler.DefaultPlugins;
import io.fleetkit.scheduler.ScheduleResult;
import io.fleetkit.scheduler.Scheduler;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * Gang members bind together once Permit lets the gang go: with asynchronous binding, the members' bindings run at the
 * same time on the binding threads (kube's binding goroutines each leave {@code WaitOnPermit} when the last member
 * arrives).
 */
final class CoschedulingAsyncBindingTest {

  /** Binds only when {@code parties} bindings are in the binder at the same time. */
  static final class TogetherBinder implements Binder {
    final CyclicBarrier barrier;
    final Map<String, String> bound = new ConcurrentHashMap<>();

    TogetherBinder(int parties) {
      this.barrier = new CyclicBarrier(parties);
    }

    @Override
    public Status bind(Pod pod, String nodeName) {
      try {
        barrier.await(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return Status.error("interrupted");
      } catch (BrokenBarrierException | TimeoutException e) {
        return Status.error("pod " + pod.metadata().key() + " was not bound together with its gang: " + e);
      }
      bound.put(pod.metadata().key(), nodeName);
      return Status.success();
    }
  }

  @Test
  void gangAllowed_asyncBinding_membersBindConcurrently() {
    ManualClock clock = ManualClock.atEpoch2026();
    TogetherBinder binder = new TogetherBinder(4);
    try (Scheduler s = Scheduler.builder().clock(clock).binder(binder).parallelism(1).bindParallelism(4)
        .profile(CoschedulingPlugin.enableIn(DefaultPlugins.profile())).build()) {
      for (int i = 0; i < 4; i++) {
        s.addNode(Gangs.gpuNode("n" + i, 1));
      }
      s.addObject(Gangs.group("g", 4, 60));
      for (int i = 0; i < 4; i++) {
        s.addPod(Gangs.member("g", i, 1));
      }

      List<ScheduleResult> results = s.runUntilIdle();

      assertThat(results.stream().filter(ScheduleResult::isBound).map(ScheduleResult::podKey))
          .containsExactlyInAnyOrder("default/g-0", "default/g-1", "default/g-2", "default/g-3");
      assertThat(binder.bound).hasSize(4);
      assertThat(binder.bound.values()).doesNotHaveDuplicates();
    }
  }
}
