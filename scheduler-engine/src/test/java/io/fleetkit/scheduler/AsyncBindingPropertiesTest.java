package io.fleetkit.scheduler;

import static io.fleetkit.scheduler.testing.Fixtures.node;
import static io.fleetkit.scheduler.testing.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.Binder;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Invariants of the asynchronous binding cycle under random binding failures: no pod is bound twice (the binder never
 * sees a second successful binding, nor two bindings of one pod at once), none is lost (every pod ends bound, and the
 * scheduler's cache puts it on the node it was bound to), and no node is overcommitted by assumed pods.
 */
final class AsyncBindingPropertiesTest {

  /** Fails a binding with a seeded probability, after a random short delay; records what it bound. */
  static final class FlakyBinder implements Binder {
    final Map<String, String> bound = new ConcurrentHashMap<>();
    final Set<String> inProgress = ConcurrentHashMap.newKeySet();
    final AtomicInteger doubleBindings = new AtomicInteger();
    final AtomicInteger concurrentBindings = new AtomicInteger();
    final Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();
    private final int failPercent;
    private final long seed;

    FlakyBinder(int failPercent, long seed) {
      this.failPercent = failPercent;
      this.seed = seed;
    }

    @Override
    public Status bind(Pod pod, String nodeName) {
      String key = pod.metadata().key();
      if (!inProgress.add(key)) {
        concurrentBindings.incrementAndGet();
      }
      try {
        // Seeded per pod and attempt, so the failure pattern does not depend on thread timing.
        int attempt = attempts.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
        SplittableRandom r = new SplittableRandom(seed ^ ((long) key.hashCode() << 16) ^ attempt);
        if (r.nextInt(4) == 0) {
          Thread.onSpinWait();
          Thread.yield();
        }
        if (r.nextInt(100) < failPercent) {
          return Status.error("injected failure for " + key);
        }
        if (bound.putIfAbsent(key, nodeName) != null) {
          doubleBindings.incrementAndGet();
          return Status.error(key + " bound twice");
        }
        return Status.success();
      } finally {
        inProgress.remove(key);
      }
    }
  }

  @Property(tries = 40)
  void asyncBinding_randomFailures_noPodBoundTwiceNoneLost(
      @ForAll @IntRange(min = 1, max = 40) int pods,
      @ForAll @IntRange(min = 1, max = 6) int nodes,
      @ForAll @IntRange(min = 0, max = 60) int failPercent,
      @ForAll @IntRange(min = 1, max = 4) int bindThreads,
      @ForAll long seed) {
    ManualClock clock = ManualClock.atEpoch2026();
    FlakyBinder binder = new FlakyBinder(failPercent, seed);
    // Room for every pod: 40 pods of 200m fit on one node of 8 CPU, so every pod must end bound.
    try (Scheduler s = Scheduler.builder().clock(clock).binder(binder).bindParallelism(bindThreads)
        .backoff(Duration.ofMillis(10), Duration.ofMillis(10)).seed(seed).build()) {
      for (int i = 0; i < nodes; i++) {
        s.addNode(node("n" + i, 8000, 16384, 110));
      }
      for (int i = 0; i < pods; i++) {
        s.addPod(pod("p" + i, 200, 100));
      }
      List<ScheduleResult> results = new ArrayList<>();
      for (int round = 0; round < 200 && binder.bound.size() < pods; round++) {
        results.addAll(s.runUntilIdle());
        clock.advance(Duration.ofMillis(20));
      }

      assertThat(binder.doubleBindings).hasValue(0);
      assertThat(binder.concurrentBindings).hasValue(0);
      assertThat(binder.bound).hasSize(pods);
      assertThat(s.pending()).isEmpty();
      for (Map.Entry<String, String> e : binder.bound.entrySet()) {
        assertThat(s.nodeOf(e.getKey())).as("cache placement of %s", e.getKey()).contains(e.getValue());
      }
      long boundResults = results.stream().filter(ScheduleResult::isBound).count();
      assertThat(boundResults).isEqualTo(pods);
      assertThat(results.stream().filter(ScheduleResult::isBound).map(ScheduleResult::podKey).distinct().count())
          .isEqualTo(pods);
      for (int i = 0; i < nodes; i++) {
        long requested = s.nodeInfo("n" + i).orElseThrow().requested().milliCpu();
        assertThat(requested).isLessThanOrEqualTo(8000);
      }
    }
  }
}
