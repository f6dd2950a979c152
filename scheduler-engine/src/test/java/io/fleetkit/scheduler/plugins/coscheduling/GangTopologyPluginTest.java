package io.fleetkit.scheduler.plugins.coscheduling;

import static io.fleetkit.scheduler.plugins.coscheduling.Gangs.member;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.scheduling.PodGroup;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.scheduler.PendingPod;
import io.fleetkit.scheduler.Scheduler;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Topology-aware gangs: a whole gang in one rack, required or preferred, as Slurm's topology/tree
 * and Kueue's topology-aware scheduling place them. Our own scenarios.
 */
final class GangTopologyPluginTest {
  private static final String RACK = "topology.fleetkit.io/rack";

  private final ManualClock clock = ManualClock.atEpoch2026();
  private final Gangs.RecordingBinder binder = new Gangs.RecordingBinder();

  private static Node rackNode(String name, String rack, int gpus) {
    Node n = Gangs.gpuNode(name, gpus);
    return n.toBuilder().label(RACK, rack).build();
  }

  /** rack-a: 2 nodes x 4 GPUs (8); rack-b: 2 nodes x 2 GPUs (4). */
  private static void racks(Scheduler s) {
    s.addNode(rackNode("a1", "rack-a", 4));
    s.addNode(rackNode("a2", "rack-a", 4));
    s.addNode(rackNode("b1", "rack-b", 2));
    s.addNode(rackNode("b2", "rack-b", 2));
  }

  private static void addGang(Scheduler s, String name, int size, String annotation) {
    s.addObject(PodGroup.builder().name(name).minMember(size).annotation(annotation, RACK).build());
    for (int i = 0; i < size; i++) {
      s.addPod(member(name, i, 1));
    }
  }

  private Set<String> racksOf(String gang) {
    return binder.boundOf(gang).stream().map(k -> binder.bound.get(k).substring(0, 1)).collect(Collectors.toSet());
  }

  @Test
  void requiredRack_smallGang_takesTheTightestRackThatHoldsIt() {
    try (Scheduler s = Gangs.scheduler(clock, binder)) {
      racks(s);
      addGang(s, "small", 4, GangTopologyPlugin.REQUIRED);
      s.runUntilIdle();
      assertThat(binder.boundOf("small")).hasSize(4);
      assertThat(racksOf("small")).containsExactly("b");
    }
  }

  @Test
  void requiredRack_sixPods_allInTheBigRack() {
    try (Scheduler s = Gangs.scheduler(clock, binder)) {
      racks(s);
      addGang(s, "six", 6, GangTopologyPlugin.REQUIRED);
      s.runUntilIdle();
      assertThat(binder.boundOf("six")).hasSize(6);
      assertThat(racksOf("six")).containsExactly("a");
    }
  }

  @Test
  void requiredRack_gangLargerThanAnyRack_unschedulableNamingTheLabel() {
    try (Scheduler s = Gangs.scheduler(clock, binder)) {
      racks(s);
      addGang(s, "ten", 10, GangTopologyPlugin.REQUIRED);
      s.runUntilIdle();
      assertThat(binder.boundOf("ten")).isEmpty();
      Map<String, PendingPod> pending = s.pending().stream()
          .collect(Collectors.toMap(PendingPod::podKey, p -> p));
      assertThat(pending.get("default/ten-0").message()).contains(
          "pod group default/ten: no " + RACK + " domain can hold its 10 pods (the largest, rack-a, has room for 8)");
    }
  }

  @Test
  void preferredRack_gangLargerThanAnyRack_spreadsAndRuns() {
    try (Scheduler s = Gangs.scheduler(clock, binder)) {
      racks(s);
      addGang(s, "ten", 10, GangTopologyPlugin.PREFERRED);
      s.runUntilIdle();
      assertThat(binder.boundOf("ten")).hasSize(10);
      assertThat(racksOf("ten")).containsExactlyInAnyOrder("a", "b");
    }
  }

  @Test
  void preferredRack_gangThatFits_staysInOneRack() {
    try (Scheduler s = Gangs.scheduler(clock, binder)) {
      racks(s);
      addGang(s, "six", 6, GangTopologyPlugin.KUEUE_PREFERRED);
      s.runUntilIdle();
      assertThat(binder.boundOf("six")).hasSize(6);
      assertThat(racksOf("six")).containsExactly("a");
    }
  }

  @Test
  void requiredRack_twoGangs_eachWholeInADifferentRack() {
    try (Scheduler s = Gangs.scheduler(clock, binder)) {
      racks(s);
      addGang(s, "x", 4, GangTopologyPlugin.REQUIRED);
      addGang(s, "y", 8, GangTopologyPlugin.KUEUE_REQUIRED);
      s.runUntilIdle();
      assertThat(binder.boundOf("x")).hasSize(4);
      assertThat(binder.boundOf("y")).hasSize(8);
      assertThat(racksOf("x")).containsExactly("b");
      assertThat(racksOf("y")).containsExactly("a");
    }
  }
}
