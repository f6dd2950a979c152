package io.fleetkit.store.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.reconcile.LeaderCallbacks;
import io.fleetkit.reconcile.LeaderElectionConfig;
import io.fleetkit.reconcile.LeaderElector;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Leader election between two FleetKit processes (two stores, two connections) sharing one etcd: one leads, the
 * other follows; when the leader's process dies without releasing, the follower takes over once the lease has not
 * been renewed for the lease duration, not before. Driven step by step on a shared manual clock.
 */
@ExtendWith(LiveEtcd.class)
final class EtcdLeaderElectionTest {

  @Test
  void leaderProcessDies_followerTakesOverAfterTheLeaseDuration() {
    String prefix = "/fleetkit-test/" + UUID.randomUUID();
    ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    List<String> events = new CopyOnWriteArrayList<>();
    ObjectStore storeA = EtcdStore.builder(LiveEtcd.endpoint()).prefix(prefix).clock(clock).build();
    try (ObjectStore storeB = EtcdStore.builder(LiveEtcd.endpoint()).prefix(prefix).clock(clock).build()) {
      LeaderElector a = LeaderElector.inStore(storeA, LeaderElectionConfig.of("kube-system", "fleetkit", "a"),
          callbacks("a", events), clock);
      LeaderElector b = LeaderElector.inStore(storeB, LeaderElectionConfig.of("kube-system", "fleetkit", "b"),
          callbacks("b", events), clock);

      assertThat(a.tryAcquireOrRenew()).isTrue();
      assertThat(b.tryAcquireOrRenew()).isFalse();
      assertThat(b.observedLeader()).contains("a");
      clock.advance(Duration.ofSeconds(5));
      assertThat(a.tryAcquireOrRenew()).as("the leader renews").isTrue();
      assertThat(b.tryAcquireOrRenew()).as("the follower observes the renewal").isFalse();

      storeA.close(); // the leader's process dies: no release, its lease just stops being renewed
      clock.advance(Duration.ofSeconds(14));
      assertThat(b.tryAcquireOrRenew()).as("14 s after the last renewal the lease (15 s) still holds").isFalse();
      clock.advance(Duration.ofSeconds(2));
      assertThat(b.tryAcquireOrRenew()).as("after the lease duration the follower takes over").isTrue();
      assertThat(b.isLeader()).isTrue();
      assertThat(events).containsSubsequence("a started leading", "b sees a", "b started leading");
      b.close();
    }
  }

  private static LeaderCallbacks callbacks(String who, List<String> events) {
    return new LeaderCallbacks() {
      @Override
      public void onStartedLeading() {
        events.add(who + " started leading");
      }

      @Override
      public void onNewLeader(String identity) {
        if (!identity.equals(who)) {
          events.add(who + " sees " + identity);
        }
      }
    };
  }
}
