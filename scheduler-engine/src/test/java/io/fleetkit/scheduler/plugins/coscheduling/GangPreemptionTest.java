package io.fleetkit.scheduler.plugins.coscheduling;

import static io.fleetkit.scheduler.plugins.coscheduling.Gangs.gpuNode;
import static io.fleetkit.scheduler.plugins.coscheduling.Gangs.group;
import static io.fleetkit.scheduler.plugins.coscheduling.Gangs.member;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.scheduler.DefaultPlugins;
import io.fleetkit.scheduler.PluginRegistry;
import io.fleetkit.scheduler.Scheduler;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Gang preemption: a high-priority gang preempts lower-priority pods only if the whole gang then
 * fits, and a victim that belongs to a gang is evicted with its whole gang. Our own scenarios: upstream's
 * coscheduling plugin has no gang preemption to port from.
 */
final class GangPreemptionTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final Gangs.RecordingBinder binder = new Gangs.RecordingBinder();
  private final List<String> evicted = Collections.synchronizedList(new ArrayList<>());

  private Scheduler scheduler() {
    return Scheduler.builder().clock(clock).binder(binder).parallelism(1).seed(7).registry(PluginRegistry.defaults())
        .profile(CoschedulingPlugin.enableIn(DefaultPlugins.profile()))
        .evictor(p -> evicted.add(p.metadata().key())).build();
  }

  /** Runs until idle, then lets pod backoff (1 s after a preemption) pass, a few times. */
  private void settle(Scheduler s) {
    s.runUntilIdle();
    for (int i = 0; i < 3; i++) {
      clock.advance(java.time.Duration.ofSeconds(2));
      s.runUntilIdle();
    }
  }

  private static void twelveGpus(Scheduler s) {
    for (int i = 1; i <= 3; i++) {
      s.addNode(gpuNode("gpu-" + i, 4));
    }
  }

  private static Pod prio(Pod p, int priority) {
    return p.toBuilder().priority(priority).build();
  }

  /** Fills the cluster with {@code n} one-GPU pods named {@code prefix-i} of {@code priority}, bound first. */
  private void fill(Scheduler s, String prefix, int n, int priority) {
    for (int i = 0; i < n; i++) {
      s.addPod(prio(Gangs.pod(prefix + "-" + i, 1), priority));
    }
    s.runUntilIdle();
    assertThat(binder.boundOf(prefix)).hasSize(n);
  }

  private void addGang(Scheduler s, String name, int size, int gpus, int priority) {
    s.addObject(group(name, size, null));
    for (int i = 0; i < size; i++) {
      s.addPod(prio(member(name, i, gpus), priority));
    }
  }

  @Test
  void highPriorityGang_fullCluster_evictsJustEnoughLowPodsThenRunsWhole() {
    try (Scheduler s = scheduler()) {
      twelveGpus(s);
      fill(s, "low", 12, 0);

      addGang(s, "hi", 8, 1, 100);
      settle(s);

      assertThat(evicted).hasSize(8).allMatch(k -> k.startsWith("default/low-"));
      assertThat(binder.boundOf("hi")).hasSize(8);
    }
  }

  @Test
  void highPriorityGang_thatCannotFitEvenAfterEvictions_evictsNothing() {
    try (Scheduler s = scheduler()) {
      twelveGpus(s);
      fill(s, "low", 12, 0);

      addGang(s, "huge", 16, 1, 100);
      settle(s);

      assertThat(evicted).isEmpty();
      assertThat(binder.boundOf("huge")).isEmpty();
      assertThat(s.nodeInfo("gpu-1").orElseThrow().pods()).hasSize(4);
    }
  }

  @Test
  void victimInAGang_isEvictedWithItsWholeGang() {
    try (Scheduler s = scheduler()) {
      twelveGpus(s);
      addGang(s, "lo", 6, 1, 0);
      s.runUntilIdle();
      assertThat(binder.boundOf("lo")).hasSize(6);
      fill(s, "mid", 6, 50);

      // 4 GPUs needed: the cheapest unit is the priority-0 gang, and it goes whole (6 pods), the priority-50 pods stay
      addGang(s, "hi", 4, 1, 100);
      settle(s);

      assertThat(evicted).containsExactlyInAnyOrder("default/lo-0", "default/lo-1", "default/lo-2", "default/lo-3",
          "default/lo-4", "default/lo-5");
      assertThat(binder.boundOf("hi")).hasSize(4);
    }
  }

  @Test
  void singleHighPriorityPod_preemptingAGangMember_evictsTheWholeGang() {
    try (Scheduler s = scheduler()) {
      twelveGpus(s);
      addGang(s, "lo", 12, 1, 0);
      s.runUntilIdle();
      assertThat(binder.boundOf("lo")).hasSize(12);

      s.addPod(prio(Gangs.pod("urgent", 1), 100));
      settle(s);

      assertThat(evicted).hasSize(12).allMatch(k -> k.startsWith("default/lo-"));
      assertThat(binder.bound).containsKey("default/urgent");
    }
  }

  @Test
  void lowPriorityGang_fullCluster_noPreemptionOfEqualOrHigherPriority() {
    try (Scheduler s = scheduler()) {
      twelveGpus(s);
      fill(s, "busy", 12, 100);

      addGang(s, "lo", 4, 1, 100);
      settle(s);

      assertThat(evicted).isEmpty();
      assertThat(binder.boundOf("lo")).isEmpty();
    }
  }
}
