package io.fleetkit.reconcile.controllers.internal;

import io.fleetkit.reconcile.controllers.DaemonSetPlacement;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.DaemonSet;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.reconcile.controllers.DaemonSetController;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Invariants of a DaemonSet after its controller settles, over random clusters (node labels, NoSchedule and NoExecute
 * taints, unschedulable nodes), random pre-existing pods (several per node, failed ones, pods on ineligible nodes) and
 * both update strategies: every node that should run the pod has exactly one live daemon pod, pinned to it; no node
 * that must not keep one has any; the status counts agree with the pods.
 */
final class DaemonSetPlacementPropertyTest {

  record NodeShape(boolean labelled, int taint, boolean unschedulable, int pods, boolean failed) {}

  @Provide
  Arbitrary<List<NodeShape>> clusters() {
    Arbitrary<NodeShape> node = Combinators.combine(Arbitraries.of(true, false), Arbitraries.integers().between(0, 3),
        Arbitraries.of(true, false), Arbitraries.integers().between(0, 3), Arbitraries.of(true, false))
        .as(NodeShape::new);
    return node.list().ofMinSize(0).ofMaxSize(8);
  }

  @Property(tries = 60)
  void settledDaemonSet_exactlyOnePodPerEligibleNode_noneElsewhere(@ForAll("clusters") List<NodeShape> shapes,
      @ForAll boolean onDelete, @ForAll boolean selectLabelled) {
    ManualClock clock = ManualClock.atEpoch2026();
    AtomicLong uids = new AtomicLong();
    try (ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock())
        .uidGenerator(() -> "uid-" + uids.incrementAndGet()).build()) {
      PodSpec.Builder spec = PodSpec.builder().container("c", "img", ResourceList.EMPTY);
      if (selectLabelled) {
        spec.nodeSelector("role", "agent");
      }
      DaemonSet.Builder b = DaemonSet.builder().name("agent").namespace("ns").matchLabels(Map.of("app", "agent"))
          .podSpec(spec.build());
      if (onDelete) {
        b.onDelete();
      } else {
        b.maxUnavailable(IntOrPercent.ofPercent(50));
      }
      DaemonSet ds = store.create(b.build());
      for (int i = 0; i < shapes.size(); i++) {
        NodeShape s = shapes.get(i);
        Node.Builder nb = Node.builder().name("n" + i).ready().unschedulable(s.unschedulable());
        if (s.labelled()) {
          nb.label("role", "agent");
        }
        if (s.taint() == 1) {
          nb.taint(Taint.of("dedicated", "x", TaintEffect.NoSchedule));
        } else if (s.taint() == 2) {
          nb.taint(Taint.of("dedicated", "x", TaintEffect.NoExecute));
        }
        if (s.unschedulable()) {
          nb.taint(Taint.of(DaemonSetPods.TAINT_UNSCHEDULABLE, "", TaintEffect.NoSchedule));
        }
        store.create(nb.build());
        for (int k = 0; k < s.pods(); k++) {
          Pod p = store.create(Pod.of(io.fleetkit.api.meta.ObjectMeta.builder().namespace("ns")
              .name("pre-" + i + "-" + k).label("app", "agent").build(), spec.build().withNodeName("n" + i)));
          if (s.failed() && k == 0) {
            store.updateStatus(p.withStatus(p.status().withPhase(PodPhase.Failed)));
          }
        }
      }
      try (DaemonSetController c = DaemonSetController.builder(store).clock(clock).stepping().build()) {
        c.start().join();
        for (int round = 0; round < 6; round++) {
          c.runUntilIdle();
          // the kubelets end the pods the set deleted
          for (Pod p : store.list(Pod.class, "ns").items()) {
            if (p.metadata().deletionTimestamp() != null) {
              store.delete(Pod.class, "ns", p.metadata().name(), io.fleetkit.api.store.DeleteOptions.gracePeriod(0));
            }
          }
          clock.advance(java.time.Duration.ofMinutes(1)); // past any failed-pod backoff
        }
        c.runUntilIdle();
      }
      DaemonSet settled = store.require(DaemonSet.class, "ns", "agent");
      Map<String, Integer> live = new HashMap<>();
      for (Pod p : store.list(Pod.class, "ns").items()) {
        assertThat(p.metadata().controllerRef()).as("adopted or created by the set").isNotNull();
        assertThat(p.status().phase()).isNotEqualTo(PodPhase.Failed);
        String node = DaemonSetPlacement.targetNodeName(p);
        live.merge(node, 1, Integer::sum);
      }
      int desired = 0;
      for (Node n : store.list(Node.class, "").items()) {
        DaemonSetPlacement.ShouldRun sr = DaemonSetPlacement.nodeShouldRunDaemonPod(n, settled);
        int count = live.getOrDefault(n.metadata().name(), 0);
        if (sr.shouldRun()) {
          desired++;
          assertThat(count).as("pods on eligible node %s", n.metadata().name()).isEqualTo(1);
        } else if (!sr.shouldContinueRunning()) {
          assertThat(count).as("pods on ineligible node %s", n.metadata().name()).isZero();
        } else {
          assertThat(count).as("pods on node %s that keeps but gets none", n.metadata().name()).isLessThanOrEqualTo(1);
        }
      }
      assertThat(settled.status().desiredNumberScheduled()).isEqualTo(desired);
      assertThat(settled.status().currentNumberScheduled()).isEqualTo(desired);
      assertThat(settled.status().numberMisscheduled())
          .isEqualTo((int) live.entrySet().stream().filter(e -> store.list(Node.class, "").items().stream()
              .anyMatch(n -> n.metadata().name().equals(e.getKey())
                  && !DaemonSetPlacement.nodeShouldRunDaemonPod(n, settled).shouldRun())).count());
    }
  }
}
