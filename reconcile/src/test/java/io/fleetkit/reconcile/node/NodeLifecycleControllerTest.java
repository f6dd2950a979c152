package io.fleetkit.reconcile.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeCondition;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.reconcile.node.NodeLifecycleController.ZoneState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

final class NodeLifecycleControllerTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final Instant t0 = clock.now();
  private final ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build();
  private final List<NodeAgent> agents = new ArrayList<>();
  private final NodeLifecycleController nlc = NodeLifecycleController.builder(store, clock).build();

  @AfterEach
  void close() {
    agents.forEach(NodeAgent::close);
    nlc.close();
    store.close();
  }

  private void nodes(int n) {
    for (int i = 1; i <= n; i++) {
      store.create(Node.builder().name("n" + i).build());
      NodeAgent a = NodeAgent.builder(store, clock, "n" + i).healthSource(HealthSource.healthy()).build();
      a.start();
      agents.add(a);
    }
    nlc.start();
  }

  private void runTo(long seconds) {
    Instant target = t0.plusSeconds(seconds);
    sync();
    while (clock.now().isBefore(target)) {
      clock.advanceTo(clock.nextDeadline().filter(d -> d.isBefore(target)).orElse(target));
      sync();
    }
  }

  private void sync() {
    int n;
    do {
      n = nlc.sync();
      for (NodeAgent a : agents) {
        n += a.sync();
      }
    } while (n > 0);
  }

  private Node node(String name) {
    return store.require(Node.class, "", name);
  }

  private static ConditionStatus ready(Node n) {
    return n.status().condition(NodeCondition.READY).status();
  }

  private static List<String> taints(Node n) {
    return n.spec().taints().stream().map(Taint::toString).toList();
  }

  @Test
  void monitor_heartbeatsFlowing_nodeStaysReadyUntainted() {
    nodes(2);
    runTo(300);
    assertThat(ready(node("n1"))).isEqualTo(ConditionStatus.True);
    assertThat(node("n1").spec().taints()).isEmpty();
  }

  @Test
  void monitor_killedNode_unknownAfterGraceThenUnreachableTaints() {
    nodes(3);
    store.create(Pod.builder().namespace("default").name("p").container("c", "img", ResourceList.EMPTY)
        .nodeName("n1").build());
    runTo(10);
    assertThat(store.require(Pod.class, "default", "p").status().condition(PodCondition.READY).status())
        .isEqualTo(ConditionStatus.True);
    agents.get(0).kill(); // last heartbeat at 10 s
    runTo(60);
    assertThat(ready(node("n1"))).isEqualTo(ConditionStatus.True);
    runTo(65);
    assertThat(ready(node("n1"))).isEqualTo(ConditionStatus.True);
    runTo(70); // the controller saw the 10 s heartbeat at its 15 s pass; 15 s + 50 s grace is passed at 70 s
    assertThat(ready(node("n1"))).isEqualTo(ConditionStatus.Unknown);
    assertThat(node("n1").status().condition(NodeCondition.READY).reason())
        .isEqualTo(NodeLifecycleController.REASON_UNKNOWN);
    assertThat(taints(node("n1"))).containsExactlyInAnyOrder("node.kubernetes.io/unreachable:NoSchedule",
        "node.kubernetes.io/unreachable:NoExecute");
    assertThat(store.require(Pod.class, "default", "p").status().condition(PodCondition.READY).status())
        .isEqualTo(ConditionStatus.False);
    assertThat(ready(node("n2"))).isEqualTo(ConditionStatus.True);

    agents.get(0).revive();
    runTo(75);
    assertThat(ready(node("n1"))).isEqualTo(ConditionStatus.True);
    assertThat(node("n1").spec().taints()).isEmpty();
  }

  @Test
  void taintPass_twoNodesDownInOneZone_secondTaintedTenSecondsLater() {
    nodes(5);
    runTo(1);
    agents.get(0).kill();
    agents.get(1).kill();
    runTo(60);
    boolean both = false;
    Instant first = null;
    for (long s = 60; s <= 90 && !both; s++) {
      runTo(s);
      boolean t1 = hasNoExecute(node("n1"));
      boolean t2 = hasNoExecute(node("n2"));
      if ((t1 || t2) && first == null) {
        first = clock.now();
      }
      both = t1 && t2;
    }
    assertThat(both).isTrue();
    assertThat(clock.now()).isEqualTo(first.plusSeconds(10));
  }

  @Test
  void monitor_allNodesDown_fullDisruptionNoNoExecuteTaints() {
    nodes(2);
    runTo(1);
    agents.forEach(NodeAgent::kill);
    runTo(200);
    assertThat(ready(node("n1"))).isEqualTo(ConditionStatus.Unknown);
    assertThat(nlc.zoneStates()).containsEntry(":", ZoneState.FullDisruption);
    assertThat(hasNoExecute(node("n1"))).isFalse();
    assertThat(hasNoExecute(node("n2"))).isFalse();
  }

  @Test
  void monitor_leavingAllZonesDown_taintsTheNodesStillSilentAgain() {
    nodes(2);
    runTo(1);
    agents.forEach(NodeAgent::kill);
    runTo(200);
    assertThat(nlc.zoneStates()).containsEntry(":", ZoneState.FullDisruption);
    assertThat(hasNoExecute(node("n2"))).isFalse();
    agents.get(0).revive(); // n1 is heard again, n2 is still silent
    runTo(210);
    assertThat(ready(node("n1"))).isEqualTo(ConditionStatus.True);
    assertThat(nlc.zoneStates()).containsEntry(":", ZoneState.Normal);
    assertThat(ready(node("n2"))).isEqualTo(ConditionStatus.Unknown);
    assertThat(hasNoExecute(node("n2"))).isTrue(); // the zone's normal rate again
    assertThat(hasNoExecute(node("n1"))).isFalse();
  }

  @Test
  void zoneKey_fallsBackToTheDeprecatedBetaLabels() {
    Node topology = Node.builder().name("a").label(NodeLifecycleController.REGION_LABEL, "r1")
        .label(NodeLifecycleController.ZONE_LABEL, "z1").label(NodeLifecycleController.BETA_ZONE_LABEL, "old").build();
    Node beta = Node.builder().name("b").label(NodeLifecycleController.BETA_REGION_LABEL, "r2")
        .label(NodeLifecycleController.BETA_ZONE_LABEL, "z2").build();
    assertThat(NodeLifecycleController.zone(topology)).isEqualTo("r1:z1");
    assertThat(NodeLifecycleController.zone(beta)).isEqualTo("r2:z2");
    assertThat(NodeLifecycleController.zone(Node.builder().name("c").build())).isEqualTo(":");
  }

  @Test
  void monitor_podWhoseReadyIsUnknown_isMarkedNotReadyToo() {
    nodes(3);
    store.create(Pod.builder().namespace("default").name("p").container("c", "img", ResourceList.EMPTY)
        .nodeName("n1").build());
    runTo(10);
    Pod p = store.require(Pod.class, "default", "p");
    store.updateStatus(p.withStatus(p.status().withCondition(PodCondition.of(PodCondition.READY,
        ConditionStatus.Unknown, "", "", clock.now()))));
    agents.get(0).kill();
    runTo(70);
    assertThat(ready(node("n1"))).isEqualTo(ConditionStatus.Unknown);
    assertThat(store.require(Pod.class, "default", "p").status().condition(PodCondition.READY).status())
        .isEqualTo(ConditionStatus.False);
  }

  private static boolean hasNoExecute(Node n) {
    return n.spec().taints().stream().anyMatch(t -> t.effect() == TaintEffect.NoExecute);
  }

  @Test
  void computeZoneState_table() {
    ConditionStatus t = ConditionStatus.True;
    ConditionStatus f = ConditionStatus.False;
    ConditionStatus u = ConditionStatus.Unknown;
    assertThat(NodeLifecycleController.computeZoneState(List.of(t, t, f), 0.55)).isEqualTo(ZoneState.Normal);
    assertThat(NodeLifecycleController.computeZoneState(List.of(f, u), 0.55)).isEqualTo(ZoneState.FullDisruption);
    assertThat(NodeLifecycleController.computeZoneState(List.of(t, t, f, u), 0.55)).isEqualTo(ZoneState.Normal);
    assertThat(NodeLifecycleController.computeZoneState(List.of(t, t, f, u, u), 0.55)).isEqualTo(ZoneState.PartialDisruption);
    assertThat(NodeLifecycleController.computeZoneState(List.of(t, t, t, f, u, u), 0.55)).isEqualTo(ZoneState.Normal);
  }
  private Node post(String name, NodeCondition... conditions) {
    Node n = node(name);
    return store.updateStatus(n.withStatus(n.status().withConditions(List.of(conditions))));
  }

  private static NodeCondition cond(String type, ConditionStatus s, Instant heartbeat) {
    return new NodeCondition(type, s, "", "", heartbeat, heartbeat);
  }

  private Pod readyPod(String name, String nodeName) {
    Pod p = store.create(Pod.builder().namespace("default").name(name).container("c", "img", ResourceList.EMPTY)
        .nodeName(nodeName).build());
    return store.updateStatus(p.withStatus(PodStatus.PENDING.withCondition(
        PodCondition.of(PodCondition.READY, ConditionStatus.True, "", "", null))));
  }

  @Test
  void monitor_pressureNetworkAndCordon_noScheduleTaintsFollowConditionsOthersKept() {
    Taint dedicated = Taint.of("dedicated", "gpu", TaintEffect.NoSchedule);
    Taint memoryNoExecute = Taint.of(NodeLifecycleController.TAINT_MEMORY_PRESSURE, "", TaintEffect.NoExecute);
    store.create(Node.builder().name("n1").unschedulable(true).taint(dedicated).taint(memoryNoExecute)
        .condition(cond(NodeCondition.READY, ConditionStatus.True, t0))
        .condition(cond(NodeCondition.MEMORY_PRESSURE, ConditionStatus.True, t0))
        .condition(cond(NodeCondition.DISK_PRESSURE, ConditionStatus.False, t0))
        .condition(cond(NodeCondition.PID_PRESSURE, ConditionStatus.True, t0))
        .condition(cond(NodeCondition.NETWORK_UNAVAILABLE, ConditionStatus.True, t0)).build());
    nlc.monitor();
    assertThat(taints(node("n1"))).containsExactlyInAnyOrder(dedicated.toString(), memoryNoExecute.toString(),
        "node.kubernetes.io/memory-pressure:NoSchedule", "node.kubernetes.io/pid-pressure:NoSchedule",
        "node.kubernetes.io/network-unavailable:NoSchedule", "node.kubernetes.io/unschedulable:NoSchedule");
    assertThat(nlc.monitor()).as("nothing more to write").isZero();

    // memory pressure over, disk pressure starts, node uncordoned: stale taints go, the new one comes
    clock.advance(java.time.Duration.ofSeconds(5));
    post("n1", cond(NodeCondition.READY, ConditionStatus.True, clock.now()),
        cond(NodeCondition.MEMORY_PRESSURE, ConditionStatus.False, clock.now()),
        cond(NodeCondition.DISK_PRESSURE, ConditionStatus.True, clock.now()),
        cond(NodeCondition.PID_PRESSURE, ConditionStatus.True, clock.now()),
        cond(NodeCondition.NETWORK_UNAVAILABLE, ConditionStatus.False, clock.now()));
    Node n = node("n1");
    store.update(n.withSpec(new io.fleetkit.api.core.NodeSpec(false, n.spec().taints(), n.spec().providerID(),
        n.spec().podCIDRs())));
    nlc.monitor();
    assertThat(taints(node("n1"))).containsExactlyInAnyOrder(dedicated.toString(), memoryNoExecute.toString(),
        "node.kubernetes.io/pid-pressure:NoSchedule", "node.kubernetes.io/disk-pressure:NoSchedule");
  }

  @Test
  void monitor_nodeRegisteredGoesSilentAndIsDeleted_nodeAndPodEvents() {
    List<String> events = new ArrayList<>();
    try (NodeLifecycleController withEvents = NodeLifecycleController.builder(store, clock)
        .events((regarding, related, type, reason, action, note) ->
            events.add(type + " " + reason + " " + regarding + " " + action + ": " + note)).build()) {
      store.create(Node.builder().name("n1").condition(cond(NodeCondition.READY, ConditionStatus.True, t0)).build());
      readyPod("p", "n1");
      withEvents.monitor();
      clock.advance(java.time.Duration.ofSeconds(51)); // no heartbeat for longer than the 50 s grace
      withEvents.monitor();
      store.delete(Node.class, "", "n1");
      withEvents.monitor();
      assertThat(events).containsExactly(
          "Normal RegisteredNode Node n1 Register: Node n1 event: Registered Node n1 in Controller",
          "Normal NodeNotReady Node n1 StatusChange: Node n1 status is now: NodeNotReady",
          "Warning NodeNotReady Pod default/p MarkNotReady: Node is not ready",
          "Normal RemovingNode Node n1 Remove: Node n1 event: Removing Node n1 from Controller");
      assertThat(store.require(Pod.class, "default", "p").status().condition(PodCondition.READY).status())
          .isEqualTo(ConditionStatus.False);
    }
  }

  @Test
  void sync_podBoundToNodeSeenNotReady_podMarkedNotReady() {
    store.create(Node.builder().name("n1").condition(cond(NodeCondition.READY, ConditionStatus.False, t0)).build());
    store.create(Node.builder().name("n2").condition(cond(NodeCondition.READY, ConditionStatus.True, t0)).build());
    nlc.start();
    nlc.sync(); // the first pass sees n1 not ready (it never left Ready while watched: no pods marked)
    readyPod("p1", "n1");
    readyPod("p2", "n2");
    assertThat(nlc.sync()).as("one pod status write").isEqualTo(1);
    assertThat(store.require(Pod.class, "default", "p1").status().condition(PodCondition.READY).status())
        .isEqualTo(ConditionStatus.False);
    assertThat(store.require(Pod.class, "default", "p2").status().condition(PodCondition.READY).status())
        .isEqualTo(ConditionStatus.True);
    // a later status update of a pod already bound does not queue it again
    Pod p1 = store.require(Pod.class, "default", "p1");
    store.updateStatus(p1.withStatus(p1.status().withCondition(
        PodCondition.of(PodCondition.READY, ConditionStatus.True, "", "", null))));
    assertThat(nlc.sync()).isZero();
  }
}
