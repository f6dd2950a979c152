package io.fleetkit.scheduler.plugins.interpodaffinity;

import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.in;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.labels;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.makePod;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.selector;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.term;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.framework.ClusterEvent;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.scheduler.DefaultPlugins;
import io.fleetkit.scheduler.PendingPod;
import io.fleetkit.scheduler.Scheduler;
import io.fleetkit.scheduler.StoreScheduler;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A pod rejected because its affinity term's {@code namespaceSelector} selects no namespace with a matching pod is
 * re-queued as soon as a Namespace gains the label ({@link ClusterEvent#NAMESPACE_UPDATE}), not after the
 * five-minute flush of unschedulable pods; other events stay as upstream's {@code EventsToRegister}.
 */
final class NamespaceRequeueTest {
  private final ManualClock clock = ManualClock.atEpoch2026();

  @Test
  void eventsToRegister_upstreamsPodAndNodeEventsPlusNamespaces() {
    assertThat(new InterPodAffinityPlugin(InterPodAffinityArgs.DEFAULT, () -> {
      throw new AssertionError("no snapshot needed");
    }).eventsToRegister()).containsExactlyInAnyOrder(ClusterEvent.ASSIGNED_POD_ADD,
        ClusterEvent.ASSIGNED_POD_UPDATE, ClusterEvent.ASSIGNED_POD_DELETE, ClusterEvent.NODE_ADD,
        ClusterEvent.NODE_UPDATE, ClusterEvent.NAMESPACE_UPDATE, ClusterEvent.TARGET_POD_UPDATE_LABEL);
  }

  @Test
  void namespaceGainsTheSelectedLabel_pendingPodIsScheduledAtOnce() {
    try (ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build();
        Scheduler s = Scheduler.builder().clock(clock).store(store)
            .profile(DefaultPlugins.profile().toBuilder().pluginArgs(InterPodAffinityPlugin.NAME,
                Map.of(InterPodAffinityArgs.NAMESPACE_LABELS, NamespaceLookups.in(store))).build())
            .build()) {
      Namespace web = store.create(Namespace.of("web"));
      store.create(Namespace.of("db"));
      store.create(Node.builder().name("node1").label("region", "r1")
          .capacity(ResourceList.builder().put("cpu", "4").put("memory", "8Gi").put("pods", "110").build())
          .ready().build());
      store.create(makePod().name("scanner").namespace("web").node("node1")
          .labels(labels("service", "securityscan")).obj());
      store.create(makePod().name("app").namespace("db")
          .requiredAffinity(term(selector(in("service", "securityscan")), "region", List.of(),
              selector(in("team", "team1")))).obj());
      try (StoreScheduler feed = s.attach(store)) {
        s.runUntilIdle();
        assertThat(store.require(Pod.class, "db", "app").spec().nodeName()).isEmpty();
        clock.advance(Duration.ofMinutes(1)); // past any backoff, well before the five-minute flush
        s.runUntilIdle();
        assertThat(store.require(Pod.class, "db", "app").spec().nodeName()).isEmpty();

        store.update(web.withMetadata(web.metadata().withLabels(Map.of("team", "team1"))));
        s.runUntilIdle();

        assertThat(store.require(Pod.class, "db", "app").spec().nodeName()).isEqualTo("node1");
      }
    }
  }

  private static Optional<PendingPod> pending(Scheduler s, String key) {
    return s.pending().stream().filter(p -> p.podKey().equals(key)).findFirst();
  }

  @Test
  void namespaceLabelChange_requeuesOnlyThePodsWhoseTermsSelectionChanged() {
    try (ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build();
        Scheduler s = Scheduler.builder().clock(clock).store(store)
            .profile(DefaultPlugins.profile().toBuilder().pluginArgs(InterPodAffinityPlugin.NAME,
                Map.of(InterPodAffinityArgs.NAMESPACE_LABELS, NamespaceLookups.in(store))).build())
            .build()) {
      Namespace web = store.create(Namespace.of("web"));
      store.create(Namespace.of("db"));
      store.create(Node.builder().name("node1").label("region", "r1")
          .capacity(ResourceList.builder().put("cpu", "4").put("memory", "8Gi").put("pods", "110").build())
          .ready().build());
      store.create(makePod().name("scanner").namespace("web").node("node1")
          .labels(labels("service", "securityscan")).obj());
      // team1 wants a scanner in a team1 namespace; team2 in a team2 namespace; "named" lists web by name (its
      // selection does not depend on labels) and also selects by an unrelated label.
      store.create(makePod().name("team1").namespace("db")
          .requiredAffinity(term(selector(in("service", "securityscan")), "region", List.of(),
              selector(in("team", "team1")))).obj());
      store.create(makePod().name("team2").namespace("db")
          .requiredAffinity(term(selector(in("service", "securityscan")), "region", List.of(),
              selector(in("team", "team2")))).obj());
      try (StoreScheduler feed = s.attach(store)) {
        s.runUntilIdle();
        clock.advance(Duration.ofMinutes(1)); // past any backoff, well before the five-minute flush
        s.runUntilIdle();
        assertThat(pending(s, "db/team1").orElseThrow().queue()).isEqualTo(PendingPod.Queue.UNSCHEDULABLE);
        PendingPod team2 = pending(s, "db/team2").orElseThrow();
        assertThat(team2.queue()).isEqualTo(PendingPod.Queue.UNSCHEDULABLE);

        web = store.update(web.withMetadata(web.metadata().withLabels(Map.of("team", "team1"))));
        s.runUntilIdle();

        assertThat(store.require(Pod.class, "db", "team1").spec().nodeName()).isEqualTo("node1");
        PendingPod after = pending(s, "db/team2").orElseThrow();
        assertThat(after.queue()).isEqualTo(PendingPod.Queue.UNSCHEDULABLE);
        assertThat(after.attempts()).as("team2's selector still selects nothing: not retried")
            .isEqualTo(team2.attempts());

        // A label change that leaves team2's selection as it was (web gains another label) does not retry it either;
        // web gaining team=team2 does, and it binds.
        web = store.update(web.withMetadata(web.metadata().withLabels(Map.of("team", "team1", "tier", "x"))));
        s.runUntilIdle();
        assertThat(pending(s, "db/team2").orElseThrow().attempts()).isEqualTo(team2.attempts());
        store.update(web.withMetadata(web.metadata().withLabels(Map.of("team", "team2"))));
        s.runUntilIdle();
        assertThat(store.require(Pod.class, "db", "team2").spec().nodeName()).isEqualTo("node1");
      }
    }
  }

  @Test
  void hint_perPod_asKubesQueueingHintFunctions() {
    InterPodAffinityPlugin plugin = new InterPodAffinityPlugin(InterPodAffinityArgs.DEFAULT, () -> {
      throw new AssertionError("no snapshot needed");
    });
    Pod affinity = makePod().name("a").namespace("db")
        .requiredAffinity(term(selector(in("service", "s")), "region", List.of(), selector(in("team", "t1"))))
        .obj();
    Pod anti = makePod().name("b").namespace("db")
        .requiredAntiAffinity(term(selector(in("service", "s")), "region", List.of(), selector(in("team", "t1"))))
        .obj();
    Namespace plain = Namespace.of("web");
    Namespace t1 = Namespace.of("web").withMetadata(plain.metadata().withLabels(Map.of("team", "t1")));
    ClusterEvent ns = ClusterEvent.NAMESPACE_UPDATE;

    assertThat(plugin.isSchedulableAfter(affinity, ns, plain, t1)).isTrue(); // now selected
    assertThat(plugin.isSchedulableAfter(affinity, ns, t1, plain)).isFalse(); // no longer selected: no help
    assertThat(plugin.isSchedulableAfter(affinity, ns, null, t1)).isTrue(); // added, selected
    assertThat(plugin.isSchedulableAfter(affinity, ns, plain, null)).isFalse(); // deleted, never selected
    assertThat(plugin.isSchedulableAfter(anti, ns, t1, plain)).isTrue(); // stops excluding
    assertThat(plugin.isSchedulableAfter(anti, ns, plain, t1)).isFalse(); // starts excluding
    assertThat(plugin.isSchedulableAfter(anti, ns, t1, null)).isTrue(); // deleted: its pods stop counting
    Namespace db = Namespace.of("db");
    assertThat(plugin.isSchedulableAfter(affinity, ns, db, db.withMetadata(db.metadata().withLabels(Map.of("x",
        "y"))))).isTrue(); // its own namespace: existing pods' terms may select it by label
    assertThat(plugin.isSchedulableAfter(affinity, ClusterEvent.NODE_ADD, null, null)).isTrue();
    Pod byName = makePod().name("c").namespace("db")
        .requiredAffinity(term(selector(in("service", "s")), "region", List.of(),
            selector(in(Namespace.NAME_LABEL, "web")))).obj();
    assertThat(plugin.isSchedulableAfter(byName, ns, null, plain)).as("selected by its name label, as in Filter")
        .isTrue();
    assertThat(plugin.isSchedulableAfter(byName, ns, plain, t1)).isFalse(); // was selected already
  }
}
