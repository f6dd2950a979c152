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
 * planner_test.go}, the version with {@code sizedNodeGroup} and atomic groups): which unneeded nodes a loop deletes,
 * empty or with drain, by pool. Upstream sets the planner's unneeded nodes directly (unneeded for an hour) and calls
 * {@code NodesToDelete}; here every listed node is made unneeded by the planner itself (eligible by the case, as
 * upstream's {@code fakeEligibilityChecker}; a node outside the pools takes the pods), is found unneeded in a first loop
 * and removed in a loop the unneeded time later, with budgets (maxEmptyBulkDelete, maxDrainParallelism) that do not
 * bind, as upstream's call reads none. A pool's size is its node count in FleetKit, so each pool has 3 nodes
 * (upstream's {@code sizedNodeGroup(id, 3, ..)}): the case's nodes plus ineligible ones. A node is deleted empty
 * exactly when it has no pod to move (its pods are the case's {@code buildRemovableNode} count), so the split between
 * upstream's {@code wantEmpty} and {@code wantDrain} is checked as the deleted nodes with and without pods.
 */
final class NodesToDeleteTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build();

  @AfterEach
  void close() {
    store.close();
  }

  /** A pool: name, atomic, and its listed nodes as name → pod count. */
  private record Group(String name, boolean atomic, Map<String, Integer> nodes) {}

  private static Group group(String name, boolean atomic, Object... nodeAndPods) {
    Map<String, Integer> m = new LinkedHashMap<>();
    for (int i = 0; i < nodeAndPods.length; i += 2) {
      m.put((String) nodeAndPods[i], (Integer) nodeAndPods[i + 1]);
    }
    return new Group(name, atomic, m);
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("empty", List.of(), List.of(), List.of()),
        Arguments.of("single empty", List.of(group("test-ng", false, "test-node", 0)), List.of("test-node"),
            List.of()),
        Arguments.of("single drain", List.of(group("test-ng", false, "test-node", 1)), List.of(),
            List.of("test-node")),
        Arguments.of("single empty atomic", List.of(group("atomic-ng", true, "node-1", 0)), List.of(), List.of()),
        Arguments.of("all empty atomic", List.of(group("atomic-ng", true, "node-1", 0, "node-2", 0, "node-3", 0)),
            List.of("node-1", "node-2", "node-3"), List.of()),
        Arguments.of("some drain atomic", List.of(group("atomic-ng", true, "node-1", 0, "node-2", 0, "node-3", 1)),
            List.of("node-1", "node-2"), List.of("node-3")),
        Arguments.of("different groups", List.of(
                group("standard-empty-ng", false, "node-1", 0, "node-2", 0, "node-3", 0),
                group("standard-drain-ng", false, "node-4", 1, "node-5", 2, "node-6", 3),
                group("standard-mixed-ng", false, "node-7", 0, "node-8", 1, "node-9", 2),
                group("atomic-empty-ng", true, "node-10", 0, "node-11", 0, "node-12", 0),
                group("atomic-mixed-ng", true, "node-13", 0, "node-14", 1, "node-15", 2),
                group("atomic-partial-ng", true, "node-16", 0, "node-17", 1)),
            List.of("node-1", "node-2", "node-3", "node-7", "node-10", "node-11", "node-12", "node-13"),
            List.of("node-4", "node-5", "node-6", "node-8", "node-9", "node-14", "node-15")));
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
      for (int i = g.nodes().size(); i < 3; i++) { // the rest of the group's size 3, never unneeded
        store.create(ClusterAutoscaler.templateNode(pool, g.name() + "-other-" + i));
      }
    }
    // the node outside every pool that takes the moved pods
    store.create(Node.builder().name("sink").capacity(CaFixtures.resources(64000, 65536 * CaFixtures.MI, 110))
        .ready().build());
    AutoscalerOptions o = AutoscalerOptions.defaults().withMaxEmptyBulkDelete(100).withMaxDrainParallelism(100);
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
