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
import io.fleetkit.scheduler.Scheduler;
import io.fleetkit.scheduler.StoreScheduler;
import java.time.Duration;
import java.util.List;
import java.util.Map;
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
        ClusterEvent.NODE_UPDATE, ClusterEvent.NAMESPACE_UPDATE);
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
}
