package io.fleetkit.reconcile.controllers;

import static io.fleetkit.reconcile.controllers.DaemonSetHarness.SIMPLE_DAEMON_SET_LABEL;
import static io.fleetkit.reconcile.controllers.DaemonSetHarness.newDaemonSet;
import static io.fleetkit.reconcile.controllers.DaemonSetHarness.newNode;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.ControllerRevision;
import io.fleetkit.api.apps.DaemonSet;
import io.fleetkit.api.apps.DaemonSetSpec;
import io.fleetkit.api.apps.DaemonSetUpdateStrategy;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.reconcile.controllers.internal.ControllerHistory;
import io.fleetkit.reconcile.controllers.internal.DaemonSetPods;
import io.fleetkit.reconcile.controllers.internal.DaemonSetReconciler;
import io.fleetkit.reconcile.controllers.internal.DaemonSetRevisions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ported from upstream {@code pkg/controller/daemon/update_test.go} at commit
 * 04791b4906602ffda5ccf9bc4c84d3329f1d7080: the rolling-update sequences ({@code TestDaemonSetUpdatesPods},
 * {@code ...WithMaxSurge}, {@code ...WhenNewPosIsNotReady}, {@code ...AllOldPodsNotReady},
 * {@code ...AllOldPodsNotReadyMaxSurge}, {@code ...NoTemplateChanged}), each sync compared as upstream's
 * {@code expectSyncDaemonSets}; {@code TestGetUnavailableNumbers} (5 of its 8 cases) on
 * {@code updatedDesiredNodeCounts}; {@code TestControlledHistories} (2 cases). The surge feature gate is always on in
 * FleetKit. Left out: the three {@code TestGetUnavailableNumbers} cases whose set has both maxUnavailable and
 * maxSurge 0 ("No nodes", "Two nodes, one node without pods", "Two nodes, one node without pods, surge"): FleetKit's
 * DaemonSet validation refuses that strategy, as the API server's does, so the set cannot be built.
 */
final class DaemonSetUpdateCasesTest {

  private static DaemonSet update(DaemonSetHarness h, UnaryOperator<DaemonSetSpec> change) {
    DaemonSet d = h.ds("foo");
    return h.store.update(d.withSpec(change.apply(d.spec())));
  }

  private static DaemonSetSpec image(DaemonSetSpec s, String image) {
    PodSpec spec = s.template().spec().toBuilder().containers(List.of(
        io.fleetkit.api.core.Container.of("foo", image, ResourceList.EMPTY))).build();
    return s.withTemplate(new PodTemplateSpec(s.template().metadata(), spec));
  }

  private static DaemonSetSpec minReady(DaemonSetSpec s, int seconds) {
    return new DaemonSetSpec(s.selector(), s.template(), s.updateStrategy(), seconds, s.revisionHistoryLimit());
  }

  /** A set on 5 nodes whose 5 pods were created by one sync. */
  private static DaemonSetHarness fiveNodes() {
    DaemonSetHarness h = new DaemonSetHarness();
    h.addNodes(0, 5, null);
    h.create(newDaemonSet("foo").build());
    h.expectSync("foo", 5, 0, 0);
    return h;
  }

  @Test
  void updatesPods_maxUnavailable2() {
    try (DaemonSetHarness h = fiveNodes()) {
      h.markPodsReady();
      update(h, s -> image(s, "foo2/bar2").withUpdateStrategy(DaemonSetHarness.unavailable(IntOrPercent.of(2))));
      h.expectSync("foo", 0, 2, 0);
      h.expectSync("foo", 2, 0, 0);
      h.markPodsReady();
      h.expectSync("foo", 0, 2, 0);
      h.expectSync("foo", 2, 0, 0);
      h.markPodsReady();
      h.expectSync("foo", 0, 1, 0);
      h.expectSync("foo", 1, 0, 0);
      h.markPodsReady();
      h.expectSync("foo", 0, 0, 0);
      assertThat(h.pods()).hasSize(5).allSatisfy(p -> assertThat(p.spec().containers().get(0).image())
          .isEqualTo("foo2/bar2"));
    }
  }

  @Test
  void updatesPods_maxSurge2() {
    try (DaemonSetHarness h = fiveNodes()) {
      h.markPodsReady();
      int maxSurge = 2;
      update(h, s -> image(s, "foo2/bar2").withUpdateStrategy(DaemonSetHarness.surge(IntOrPercent.of(maxSurge))));
      h.expectSync("foo", maxSurge, 0, 0);
      h.expectSync("foo", 0, 0, 0);
      h.markPodsReady();
      h.expectSync("foo", maxSurge, maxSurge, 0);
      h.expectSync("foo", 0, 0, 0);
      h.markPodsReady();
      h.expectSync("foo", 5 % maxSurge, maxSurge, 0);
      h.expectSync("foo", 0, 0, 0);
      h.markPodsReady();
      h.expectSync("foo", 0, 5 % maxSurge, 0);
      h.expectSync("foo", 0, 0, 0);
    }
  }

  @Test
  void updates_whenNewPodsAreNotReady_waitAtMaxUnavailable() {
    try (DaemonSetHarness h = fiveNodes()) {
      h.markPodsReady();
      update(h, s -> image(s, "foo2/bar2").withUpdateStrategy(DaemonSetHarness.unavailable(IntOrPercent.of(3))));
      h.expectSync("foo", 0, 3, 0);
      h.expectSync("foo", 3, 0, 0);
      h.expectSync("foo", 0, 0, 0); // the new pods are not ready: unavailable == maxUnavailable
    }
  }

  @Test
  void updates_allOldPodsNotReady_allReplaced() {
    try (DaemonSetHarness h = fiveNodes()) {
      update(h, s -> image(s, "foo2/bar2").withUpdateStrategy(DaemonSetHarness.unavailable(IntOrPercent.of(3))));
      h.expectSync("foo", 0, 5, 0);
      h.expectSync("foo", 5, 0, 0);
      h.expectSync("foo", 0, 0, 0);
    }
  }

  @Test
  void updates_allOldPodsNotReady_maxSurge() {
    try (DaemonSetHarness h = fiveNodes()) {
      Instant t = h.clock.now();
      update(h, s -> image(s, "foo2/bar2").withUpdateStrategy(DaemonSetHarness.surge(IntOrPercent.of(3))));
      h.clock.advanceTo(t.plusSeconds(100));
      h.expectSync("foo", 5, 0, 0); // all old pods unavailable: surged at once
      h.clock.advanceTo(t.plusSeconds(200));
      h.expectSync("foo", 0, 5, 0); // waiting for the new pods to go ready, the old ones are deleted

      assertThat(h.setReadiness(true, 5, p -> true)).isEqualTo(5);
      update(h, s -> minReady(image(s, "foo3/bar3"), 15));

      h.clock.advanceTo(t.plusSeconds(300));
      h.expectSync("foo", 3, 0, 0);
      String hash = currentHash(h);
      Map<String, List<String>> current = podsByNodeMatchingHash(h, hash);
      // two updated pods ready at 300; one old pod on a node without an updated pod unready
      assertThat(h.setReadiness(true, 2, p -> hash.equals(hashOf(p)))).isEqualTo(2);
      assertThat(h.setReadiness(false, 1, p -> !hash.equals(hashOf(p))
          && !current.containsKey(DaemonSetPlacement.targetNodeName(p)))).isEqualTo(1);

      // the new pods are not yet available (minReadySeconds): one pod replaces the unready old one
      h.clock.advanceTo(t.plusSeconds(310));
      h.expectSync("foo", 1, 0, 0);
      // the new pods are available now: their old pods go
      h.clock.advanceTo(t.plusSeconds(320));
      h.expectSync("foo", 1, 3, 0);

      assertThat(h.setReadiness(true, 3, p -> hash.equals(hashOf(p)))).isEqualTo(3);
      h.clock.advanceTo(t.plusSeconds(340));
      h.expectSync("foo", 0, 2, 0);
      h.clock.advanceTo(t.plusSeconds(350));
      h.expectSync("foo", 0, 0, 0); // the update is complete
      assertThat(h.pods()).hasSize(5).allSatisfy(p -> assertThat(hashOf(p)).isEqualTo(hash));
    }
  }

  private static String hashOf(Pod p) {
    return p.metadata().labels().getOrDefault(WorkloadLabels.CONTROLLER_REVISION_HASH, "");
  }

  /** Upstream's {@code currentDSHash}: the hash of the revision holding the set's template. */
  private static String currentHash(DaemonSetHarness h) {
    DaemonSet d = h.ds("foo");
    for (ControllerRevision r : new ControllerHistory(h.store).list(d, d.spec().selector())) {
      if (DaemonSetRevisions.match(d, r)) {
        return r.metadata().labels().get(WorkloadLabels.CONTROLLER_REVISION_HASH);
      }
    }
    throw new AssertionError("no current revision");
  }

  /** Upstream's {@code podsByNodeMatchingHash}. */
  private static Map<String, List<String>> podsByNodeMatchingHash(DaemonSetHarness h, String hash) {
    Map<String, List<String>> byNode = new HashMap<>();
    for (Pod p : h.pods()) {
      if (hash.equals(hashOf(p))) {
        byNode.computeIfAbsent(DaemonSetPlacement.targetNodeName(p), k -> new ArrayList<>()).add(p.metadata().name());
      }
    }
    return byNode;
  }

  @Test
  void updates_noTemplateChange_nothingReplaced() {
    try (DaemonSetHarness h = fiveNodes()) {
      update(h, s -> s.withUpdateStrategy(DaemonSetHarness.unavailable(IntOrPercent.of(3))));
      h.expectSync("foo", 0, 0, 0);
    }
  }

  // --- TestGetUnavailableNumbers (5 of 8 cases)

  static Stream<Arguments> unavailableNumbers() {
    return Stream.of(
        Arguments.of("Two nodes with ready pods", DaemonSetHarness.unavailable(IntOrPercent.of(1)), 2,
            List.of("node-0", "node-1"), false, 0, 1, 0),
        Arguments.of("Two nodes with pods, MaxUnavailable in percents",
            DaemonSetHarness.unavailable(IntOrPercent.ofPercent(50)), 2, List.of("node-0", "node-1"), false, 0, 1, 0),
        Arguments.of("Two nodes with pods, MaxUnavailable in percents, surge",
            DaemonSetHarness.surge(IntOrPercent.ofPercent(50)), 2, List.of("node-0", "node-1"), false, 1, 0, 0),
        Arguments.of("Two nodes with pods, MaxUnavailable is 100%, surge",
            DaemonSetHarness.surge(IntOrPercent.ofPercent(100)), 2, List.of("node-0", "node-1"), false, 2, 0, 0),
        Arguments.of("Two nodes with pods, MaxUnavailable in percents, pod terminating",
            DaemonSetHarness.unavailable(IntOrPercent.ofPercent(50)), 3, List.of("node-0", "node-1"), true, 0, 2, 1));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("unavailableNumbers")
  void getUnavailableNumbers_upstreamTable(String name, DaemonSetUpdateStrategy strategy, int nodeCount,
      List<String> podNodes, boolean secondTerminating, int maxSurge, int maxUnavailable, int emptyNodes) {
    DaemonSet d = newDaemonSet("x").updateStrategy(strategy).uid("uid-x").build();
    List<Node> nodes = new ArrayList<>();
    for (int i = 0; i < nodeCount; i++) {
      nodes.add(newNode("node-" + i, null).build());
    }
    Map<String, List<Pod>> nodeToPods = new HashMap<>();
    for (int i = 0; i < podNodes.size(); i++) {
      ObjectMeta.Builder m = ObjectMeta.builder().namespace("default").name("pod-" + i)
          .labels(SIMPLE_DAEMON_SET_LABEL);
      if (secondTerminating && i == 1) {
        m.deletionTimestamp(Instant.EPOCH);
      }
      Pod p = DaemonSetHarness.ready(Pod.of(m.build(), DaemonSetHarness.podSpec().withNodeName(podNodes.get(i))),
          null);
      nodeToPods.computeIfAbsent(podNodes.get(i), k -> new ArrayList<>()).add(p);
    }
    int[] counts = DaemonSetReconciler.updatedDesiredNodeCounts(d, nodes, nodeToPods);
    assertThat(counts[0]).as("maxSurge").isEqualTo(maxSurge);
    assertThat(counts[1]).as("maxUnavailable").isEqualTo(maxUnavailable);
    assertThat(nodeToPods.values().stream().filter(List::isEmpty).count()).as("empty nodes").isEqualTo(emptyNodes);
  }

  // --- TestControlledHistories

  @Test
  void controlledHistories_sameNamespace_ownedAndAdoptedOrphan() {
    try (DaemonSetHarness h = new DaemonSetHarness()) {
      DaemonSet ds1 = h.create(newDaemonSet("ds1").build());
      PodTemplateSpec data = ds1.spec().template();
      h.store.create(new ControllerRevision(ObjectMeta.builder().namespace("default").name("ds1-x1")
          .labels(data.labels()).ownerReference(OwnerReference.controllerOf(ds1)).build(), data, 1));
      h.store.create(new ControllerRevision(ObjectMeta.builder().namespace("default").name("ds1-x2")
          .labels(data.labels()).build(), data, 2));
      List<ControllerRevision> got = DaemonSetRevisions.controlledHistories(new ControllerHistory(h.store), ds1);
      assertThat(got).extracting(r -> r.metadata().name()).containsExactlyInAnyOrder("ds1-x1", "ds1-x2");
      assertThat(got).allSatisfy(r -> assertThat(r.metadata().controllerRef().uid())
          .isEqualTo(ds1.metadata().uid()));
    }
  }

  @Test
  void controlledHistories_otherNamespace_notAdopted() {
    try (DaemonSetHarness h = new DaemonSetHarness()) {
      DaemonSet ds1 = h.create(newDaemonSet("ds1").build());
      PodTemplateSpec data = ds1.spec().template();
      h.store.create(new ControllerRevision(ObjectMeta.builder().namespace("default-other").name("ds1-x3")
          .labels(data.labels()).build(), data, 1));
      assertThat(DaemonSetRevisions.controlledHistories(new ControllerHistory(h.store), ds1)).isEmpty();
      assertThat(h.store.require(ControllerRevision.class, "default-other", "ds1-x3").metadata().controllerRef())
          .isNull();
    }
  }

  @Test
  void history_truncatedToRevisionHistoryLimit_livePodRevisionsKept() {
    try (DaemonSetHarness h = fiveNodes()) {
      for (int i = 2; i <= 6; i++) {
        String img = "foo" + i + "/bar";
        update(h, s -> image(s, img));
        h.expectSync("foo", 0, 0, 0); // OnDelete: pods stay on the first revision
      }
      DaemonSet d = h.ds("foo");
      List<ControllerRevision> revs = new ControllerHistory(h.store).list(d, d.spec().selector());
      // current + the first (its pods still run) + 2 more old ones (revisionHistoryLimit 2)
      assertThat(revs).hasSize(3);
      assertThat(revs).extracting(ControllerRevision::revision).contains(6L);
      assertThat(d.status().updatedNumberScheduled()).isZero();
      assertThat(d.status().currentNumberScheduled()).isEqualTo(5);
    }
  }
}
