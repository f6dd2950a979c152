package io.fleetkit.scheduler.plugins.coscheduling;

import static io.fleetkit.scheduler.plugins.coscheduling.Gangs.gpuNode;
import static io.fleetkit.scheduler.plugins.coscheduling.Gangs.group;
import static io.fleetkit.scheduler.plugins.coscheduling.Gangs.member;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.time.ManualClock;
import io.fleetkit.scheduler.DefaultPlugins;
import io.fleetkit.scheduler.PendingPod;
import io.fleetkit.scheduler.PluginRegistry;
import io.fleetkit.scheduler.Scheduler;
import io.fleetkit.scheduler.plugins.prioritysort.PrioritySortPlugin;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Gang scheduling end to end with the real engine (default plugins + Coscheduling). Scenarios of our own
 * and the behaviour of kubernetes-sigs/scheduler-plugins {@code pkg/coscheduling} (its unit tests drive a fake
 * framework, so these are our own cases, not ports).
 */
final class CoschedulingPluginTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final Gangs.RecordingBinder binder = new Gangs.RecordingBinder();

  private static void twelveGpus(Scheduler s) {
    for (int i = 1; i <= 3; i++) {
      s.addNode(gpuNode("gpu-" + i, 4));
    }
  }

  private static void addGang(Scheduler s, String name, int size, int min, int gpus) {
    s.addObject(group(name, min, null));
    for (int i = 0; i < size; i++) {
      s.addPod(member(name, i, gpus));
    }
  }

  private static Map<String, PendingPod> pendingByKey(Scheduler s) {
    return s.pending().stream().collect(Collectors.toMap(PendingPod::podKey, p -> p));
  }

  private static long held(Scheduler s, String group) {
    long n = 0;
    for (int i = 1; i <= 3; i++) {
      n += s.nodeInfo("gpu-" + i).orElseThrow().pods().stream()
          .filter(p -> group.equals(p.pod().podGroupName())).count();
    }
    return n;
  }

  @Test
  void schedule_sixteenAndFourPodGangsOnTwelveGpus_smallGangRunsBigGangHoldsNothing() {
    try (Scheduler s = Gangs.scheduler(clock, binder)) {
      twelveGpus(s);
      addGang(s, "train", 16, 16, 1);
      addGang(s, "small", 4, 4, 1);

      s.runUntilIdle();

      assertThat(binder.boundOf("small")).hasSize(4);
      assertThat(binder.boundOf("train")).isEmpty();
      assertThat(held(s, "train")).isZero();
      assertThat(s.waitingPods().keys()).isEmpty();
      Map<String, PendingPod> pending = pendingByKey(s);
      assertThat(pending).hasSize(16);
      // Both groups were first seen at the same instant, so "small" sorts first by name and runs; train's last
      // attempt then saw 8 free GPUs.
      assertThat(pending.get("default/train-0").message())
          .contains("pod group default/train: 16 pods need 16 nvidia.com/gpu, at most 8 can be reserved");
    }
  }

  @Test
  void schedule_twoEightPodGangsOnTwelveGpus_exactlyOneRunsThenTheOtherAfterItLeaves() {
    try (Scheduler s = Gangs.scheduler(clock, binder)) {
      twelveGpus(s);
      addGang(s, "a", 8, 8, 1);
      addGang(s, "b", 8, 8, 1);

      s.runUntilIdle();

      List<String> a = binder.boundOf("a");
      List<String> b = binder.boundOf("b");
      assertThat(a.size() + b.size()).isEqualTo(8);
      assertThat(a.isEmpty() || b.isEmpty()).isTrue();
      String loser = a.isEmpty() ? "a" : "b";
      List<String> winner = a.isEmpty() ? b : a;
      assertThat(held(s, loser)).isZero();
      assertThat(s.waitingPods().keys()).isEmpty();
      assertThat(pendingByKey(s).get("default/" + loser + "-3").message())
          .contains("pod group default/" + loser + ": 8 pods need 8 nvidia.com/gpu, at most 4 can be reserved");

      // No deadlock: once the winner's pods leave, the loser runs whole.
      winner.forEach(s::removePod);
      clock.advance(Duration.ofSeconds(11));
      s.runUntilIdle();
      assertThat(binder.boundOf(loser)).hasSize(8);
      assertThat(s.pending()).isEmpty();
    }
  }

  @Test
  void schedule_gangThatFragmentsAcrossNodes_postFilterReleasesEveryReservation() {
    try (Scheduler s = Gangs.scheduler(clock, binder)) {
      twelveGpus(s);
      addGang(s, "frag", 4, 4, 3); // 12 GPUs in total fit the cluster, but only one 3-GPU pod fits a 4-GPU node

      s.runUntilIdle();

      assertThat(binder.bound).isEmpty();
      assertThat(held(s, "frag")).isZero();
      assertThat(s.waitingPods().keys()).isEmpty();
      Map<String, PendingPod> pending = pendingByKey(s);
      assertThat(pending).hasSize(4);
      assertThat(pending.values()).allSatisfy(p -> assertThat(p.message()).contains("pod group default/frag"));
      assertThat(pending.get("default/frag-3").message()).contains("Insufficient nvidia.com/gpu");
    }
  }

  @Test
  void schedule_gangBackingOffAfterFailure_isRejectedQuicklyUntilTheBackoffEnds() {
    try (Scheduler s = Gangs.scheduler(clock, binder)) {
      twelveGpus(s);
      addGang(s, "frag", 4, 4, 3);
      s.runUntilIdle();
      clock.advance(Duration.ofSeconds(2)); // pod backoff over, group backoff (10 s) not
      s.addNode(gpuNode("gpu-4", 4)); // now it would fit, but the group backs off

      var results = s.runUntilIdle();

      assertThat(results).isNotEmpty().allSatisfy(r -> assertThat(r.message()).contains("pod group default/frag"));
      assertThat(binder.bound).isEmpty();
      assertThat(held(s, "frag")).isZero();

      clock.advance(Duration.ofSeconds(11));
      // a cluster event after the backoff (a node update that changes nothing a plugin reads moves no pod)
      s.addNode(gpuNode("gpu-5", 4));
      s.runUntilIdle();
      assertThat(binder.boundOf("frag")).hasSize(4);
    }
  }

  @Test
  void permit_membersTimeOut_everyReservationIsReleasedAtOnce() {
    PluginRegistry reg = PluginRegistry.defaults().with(Gangs.HOLD, h -> Gangs.HOLD_PLUGIN);
    try (Scheduler s = Gangs.scheduler(clock, binder, reg, Gangs.HOLD)) {
      twelveGpus(s);
      s.addObject(group("slow", 4, 30));
      for (int i = 0; i < 3; i++) {
        s.addPod(member("slow", i, 1));
      }
      s.addPod(member("slow", 3, 1).toBuilder().label(Gangs.HOLD, "yes").build()); // exists, but never reaches Permit

      s.runUntilIdle();
      assertThat(s.waitingPods().keys()).hasSize(3);
      assertThat(held(s, "slow")).isEqualTo(3);
      assertThat(binder.bound).isEmpty();

      clock.advance(Duration.ofSeconds(29));
      s.runUntilIdle();
      assertThat(s.waitingPods().keys()).hasSize(3);

      clock.advance(Duration.ofSeconds(1));
      s.runUntilIdle();
      assertThat(s.waitingPods().keys()).isEmpty();
      assertThat(held(s, "slow")).isZero();
      assertThat(binder.bound).isEmpty();
      Map<String, PendingPod> pending = pendingByKey(s);
      assertThat(pending).hasSize(4);
      // All three waited equally long, so all three time out in the same pass.
      for (int i = 0; i < 3; i++) {
        assertThat(pending.get("default/slow-" + i).message())
            .containsAnyOf("rejected due to timeout after waiting 30s at plugin Coscheduling", "pod group default/slow");
      }
    }
  }

  @Test
  void postFilter_memberUnlikeItsSiblingsFitsNowhere_releasesTheWaitingSiblings() {
    try (Scheduler s = Gangs.scheduler(clock, binder)) {
      twelveGpus(s);
      s.addObject(group("g", 3, null));
      s.addPod(member("g", 0, 1));
      s.addPod(member("g", 1, 1));
      s.addPod(member("g", 2, 1).toBuilder().nodeSelector(Map.of("absent", "label")).build());

      s.runUntilIdle();

      assertThat(binder.bound).isEmpty();
      assertThat(s.waitingPods().keys()).isEmpty();
      assertThat(held(s, "g")).isZero();
      assertThat(pendingByKey(s).get("default/g-0").message())
          .contains("pod group default/g: member default/g-2 does not fit");
    }
  }

  @Test
  void close_whileMembersWait_releasesThemWithoutBinding() {
    PluginRegistry reg = PluginRegistry.defaults().with(Gangs.HOLD, h -> Gangs.HOLD_PLUGIN);
    Scheduler s = Gangs.scheduler(clock, binder, reg, Gangs.HOLD);
    twelveGpus(s);
    s.addObject(group("g", 3, null));
    s.addPod(member("g", 0, 1));
    s.addPod(member("g", 1, 1));
    s.addPod(member("g", 2, 1).toBuilder().label(Gangs.HOLD, "yes").build());
    s.runUntilIdle();
    assertThat(s.waitingPods().keys()).hasSize(2);

    s.close();

    assertThat(binder.bound).isEmpty();
    assertThat(held(s, "g")).isZero();
  }

  @Test
  void preFilter_fewerPodsThanMinMember_rejectsNamingTheGroup() {
    try (Scheduler s = Gangs.scheduler(clock, binder)) {
      twelveGpus(s);
      addGang(s, "short", 2, 3, 1);

      s.runUntilIdle();

      assertThat(binder.bound).isEmpty();
      assertThat(pendingByKey(s).get("default/short-0").message())
          .contains("pod group default/short: 2 of minMember 3 pods exist");
    }
  }

  @Test
  void schedule_lastMemberArrivesAfterTheOthersWereRejected_wholeGangBindsAtOnce() {
    try (Scheduler s = Gangs.scheduler(clock, binder)) {
      twelveGpus(s);
      s.addObject(group("late", 3, null));
      s.addPod(member("late", 0, 1));
      s.addPod(member("late", 1, 1));
      s.runUntilIdle();
      assertThat(binder.bound).isEmpty();

      // the new sibling wakes the parked two: they only wait out their pod backoff, not the 5-minute flush
      s.addPod(member("late", 2, 1));
      clock.advance(Duration.ofSeconds(11));

      s.runUntilIdle();
      assertThat(binder.boundOf("late")).hasSize(3);
      assertThat(s.pending()).isEmpty();
    }
  }

  /** Upstream's ActivateSiblings: a member that starts waiting on Permit activates its siblings. */
  @Test
  void permit_memberStartsWaiting_siblingsBackingOffAreTriedAtOnce() {
    try (Scheduler s = Gangs.scheduler(clock, binder)) {
      twelveGpus(s);
      s.addObject(group("late", 3, null));
      s.addPod(member("late", 0, 1));
      s.addPod(member("late", 1, 1));
      s.runUntilIdle();
      s.addPod(member("late", 2, 1)); // wakes the parked two, into their pod backoff
      assertThat(pendingByKey(s).get("default/late-0").queue()).isEqualTo(PendingPod.Queue.BACKOFF);
      assertThat(pendingByKey(s).get("default/late-1").queue()).isEqualTo(PendingPod.Queue.BACKOFF);

      s.runUntilIdle(); // late-2 waits on Permit and activates them: no backoff to wait out

      assertThat(binder.boundOf("late")).hasSize(3);
      assertThat(s.pending()).isEmpty();
    }
  }

  @Test
  void schedule_gangLargerThanMinMember_bindsAllThatFit() {
    try (Scheduler s = Gangs.scheduler(clock, binder)) {
      twelveGpus(s);
      addGang(s, "elastic", 14, 10, 1);

      s.runUntilIdle();

      assertThat(binder.boundOf("elastic")).hasSize(12);
      assertThat(s.waitingPods().keys()).isEmpty();
      assertThat(s.pending()).hasSize(2);
    }
  }

  @Test
  void schedule_podOfUnknownGroupAndUngroupedPods_scheduleAsOrdinaryPods() {
    try (Scheduler s = Gangs.scheduler(clock, binder)) {
      twelveGpus(s);
      s.addPod(member("nogroup", 0, 1));
      s.addPod(Gangs.pod("plain", 2));

      s.runUntilIdle();

      assertThat(binder.bound).containsOnlyKeys("default/nogroup-0", "default/plain");
    }
  }

  @Test
  void queueSort_higherPriorityGangFirst_thenGroupsStayAdjacent() {
    try (Scheduler s = Gangs.scheduler(clock, binder)) {
      twelveGpus(s);
      s.addObject(group("low", 8, null));
      s.addObject(group("high", 8, null));
      for (int i = 0; i < 8; i++) {
        s.addPod(member("low", i, 1));
        s.addPod(member("high", i, 1).toBuilder().priority(100).build());
      }
      var order = s.runUntilIdle().stream().map(r -> r.podKey()).distinct().toList();

      assertThat(binder.boundOf("high")).hasSize(8);
      assertThat(binder.boundOf("low")).isEmpty();
      assertThat(order.subList(0, 8)).allSatisfy(k -> assertThat(k).startsWith("default/high-"));
    }
  }

  @Test
  void enableIn_defaultProfile_replacesPrioritySortInPlace() {
    var p = CoschedulingPlugin.enableIn(DefaultPlugins.profile());
    var names = p.plugins().stream().map(r -> r.name()).toList();
    assertThat(names).doesNotContain(PrioritySortPlugin.NAME).contains(CoschedulingPlugin.NAME);
    assertThat(names.indexOf(CoschedulingPlugin.NAME))
        .isEqualTo(DefaultPlugins.profile().plugins().stream().map(r -> r.name()).toList()
            .indexOf(PrioritySortPlugin.NAME));
    assertThat(CoschedulingPlugin.enableIn(p)).isEqualTo(p);
    assertThat(PluginRegistry.defaults().contains(CoschedulingPlugin.NAME)).isTrue();
    assertThat(DefaultPlugins.profile().plugins()).noneMatch(r -> r.name().equals(CoschedulingPlugin.NAME));
  }

  @Test
  void args_negativeBackoff_isRejectedNamingTheField() {
    var profile = CoschedulingPlugin.enableIn(DefaultPlugins.profile()).toBuilder()
        .pluginArgs(CoschedulingPlugin.NAME, Map.of("podGroupBackoffSeconds", -1)).build();
    assertThatThrownBy(() -> Scheduler.builder().profile(profile).build())
        .hasMessageContaining("args.podGroupBackoffSeconds \"-1\" must be a non-negative whole number of seconds");
  }
}
