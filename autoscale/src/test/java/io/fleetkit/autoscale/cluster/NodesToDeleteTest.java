package io.fleetkit.autoscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Upstream's {@code TestNodesToDelete} (kubernetes/autoscaler {@code cluster-autoscaler/core/scaledown/planner/
 * planner_test.go}, commit 01d08cb6): which unneeded nodes a loop deletes, empty or with drain, by pool. Upstream sets
 * the planner's unneeded nodes directly (unneeded for an hour) and calls {@code NodesToDelete}; here every removable
 * node of the case is made unneeded by the planner itself (eligible by the case, as upstream's
 * {@code fakeEligibilityChecker}; a node outside the pools takes the pods), is found unneeded in a first loop and
 * removed in a loop the unneeded time later, with budgets (maxEmptyBulkDelete, maxDrainParallelism) that do not bind,
 * as upstream's call reads none. The case's other registered nodes ({@code tc.nodes}) are pool nodes that are not
 * eligible. A FleetKit pool's size is its registered nodes, which is what upstream's atomic check compares with (its
 * "partially registered" group of target size 3 with 2 nodes is removed whole). A node is deleted empty exactly when
 * it has no pod to move (its pods are the case's {@code buildRemovableNode} count), so upstream's {@code wantEmpty}
 * and {@code wantDrain} are checked as the deleted nodes without and with pods.
 */
final class NodesToDeleteTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build();

  @AfterEach
  void close() {
    store.close();
  }

  /** A pool: name, atomic, its removable nodes as name → pod count, and its other registered nodes. */
  private record Group(String name, boolean atomic, Map<String, Integer> nodes, List<String> others) {
    Group registered(String... other) {
      return new Group(name, atomic, nodes, List.of(other));
    }
  }

  private static Group group(String name, boolean atomic, Object... nodeAndPods) {
    Map<String, Integer> m = new LinkedHashMap<>();
    for (int i = 0; i < nodeAndPods.length; i += 2) {
      m.put((String) nodeAndPods[i], (Integer) nodeAndPods[i + 1]);
    }
    return new Group(name, atomic, m, List.of());
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("empty", List.of(), List.of(), List.of()),
        Arguments.of("single empty", List.of(group("test-ng", false, "test-node", 0)), List.of("test-node"),
            List.of()),
        Arguments.of("single drain", List.of(group("test-ng", false, "test-node", 1)), List.of(),
            List.of("test-node")),
        Arguments.of("single empty atomic",
            List.of(group("atomic-ng", true, "node-1", 0).registered("node-0", "node-2")), List.of(), List.of()),
        Arguments.of("all empty atomic", List.of(group("atomic-ng", true, "node-1", 0, "node-2", 0, "node-3", 0)),
            List.of("node-1", "node-2", "node-3"), List.of()),
        Arguments.of("some drain atomic", List.of(group("atomic-ng", true, "node-1", 0, "node-2", 0, "node-3", 1)),
            List.of("node-1", "node-2"), List.of("node-3")),
        Arguments.of("different groups", List.of(
                group("standard-empty-ng", false, "standard-empty-ng-0", 0, "standard-empty-ng-1", 0,
                    "standard-empty-ng-2", 0),
                group("standard-drain-ng", false, "standard-drain-ng-0", 1, "standard-drain-ng-1", 2,
                    "standard-drain-ng-2", 3),
                group("standard-mixed-ng", false, "standard-mixed-ng-0", 0, "standard-mixed-ng-1", 1,
                    "standard-mixed-ng-2", 2),
                group("atomic-empty-ng", true, "atomic-empty-ng-0", 0, "atomic-empty-ng-1", 0, "atomic-empty-ng-2", 0),
                group("atomic-mixed-ng", true, "atomic-mixed-ng-0", 0, "atomic-mixed-ng-1", 1, "atomic-mixed-ng-2", 2),
                group("atomic-partial-ng-all-registered", true, "atomic-partial-ng-all-registered-1", 0,
                    "atomic-partial-ng-all-registered-2", 1).registered("atomic-partial-ng-all-registered-0"),
                group("atomic-partial-ng-partially-registered", true, "atomic-partial-ng-partially-registered-0", 0,
                    "atomic-partial-ng-partially-registered-1", 1)),
            List.of("standard-empty-ng-0", "standard-empty-ng-1", "standard-empty-ng-2", "standard-mixed-ng-0",
                "atomic-empty-ng-0", "atomic-empty-ng-1", "atomic-empty-ng-2", "atomic-mixed-ng-0",
                "atomic-partial-ng-partially-registered-0"),
            List.of("standard-drain-ng-0", "standard-drain-ng-1", "standard-drain-ng-2", "standard-mixed-ng-1",
                "standard-mixed-ng-2", "atomic-mixed-ng-1", "atomic-mixed-ng-2",
                "atomic-partial-ng-partially-registered-1")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void nodesToDelete_upstreamCase(String name, List<Group> groups, List<String> wantEmpty, List<String> wantDrain) {
    Set<String> eligible = new HashSet<>();
    Map<String, Integer> podCounts = new LinkedHashMap<>();
    for (Group g : groups) {
      NodePool pool = NodePool.builder().name(g.name()).capacity(CaFixtures.resources(4000, 8192 * CaFixtures.MI, 110))
          .minSize(0).maxSize(10000).zeroOrMaxNodeScaling(g.atomic()).build();
      store.create(pool);
      for (Map.Entry<String, Integer> e : g.nodes().entrySet()) {
        store.create(ClusterAutoscaler.templateNode(pool, e.getKey()));
        eligible.add(e.getKey());
        podCounts.put(e.getKey(), e.getValue());
        for (int i = 0; i < e.getValue(); i++) {
          store.create(CaFixtures.pod(e.getKey() + "-pod-" + i, 10, 16).toBuilder().nodeName(e.getKey()).build());
        }
      }
      for (String other : g.others()) { // registered, not eligible
        store.create(ClusterAutoscaler.templateNode(pool, other));
      }
    }
    // the node outside every pool that takes the moved pods
    store.create(Node.builder().name("sink").capacity(CaFixtures.resources(64000, 65536 * CaFixtures.MI, 110))
        .ready().build());
    // deletions in the loop that decides them (the delay after the taint is ClusterAutoscalerDeleteDelayTest's)
    AutoscalerOptions o = AutoscalerOptions.defaults().withMaxEmptyBulkDelete(100).withMaxDrainParallelism(100)
        .withNodeDeleteDelayAfterTaint(Duration.ZERO);
    ClusterAutoscaler ca = ClusterAutoscaler.builder(store).clock(clock).options(o)
        .eligibility(n -> eligible.contains(n.name())).build();
    assertThat(ca.runOnce().unneededNodes()).containsExactlyInAnyOrderElementsOf(eligible);
    clock.advance(o.scaleDownUnneededTime());
    LoopResult r = ca.runOnce();

    List<String> started = r.deletionsStarted();
    List<String> empty = new ArrayList<>();
    List<String> drain = new ArrayList<>();
    for (String n : started) {
      (podCounts.get(n) == 0 ? empty : drain).add(n);
    }
    assertThat(empty).containsExactlyInAnyOrderElementsOf(wantEmpty);
    assertThat(drain).containsExactlyInAnyOrderElementsOf(wantDrain);
    assertThat(r.deletedNodes()).containsExactlyInAnyOrderElementsOf(started);
    for (String n : drain) {
      for (int i = 0; i < podCounts.get(n); i++) {
        assertThat(store.get(Pod.class, "default", n + "-pod-" + i)).as("evicted").isEmpty();
      }
    }
  }
}
