package io.fleetkit.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

final class LeaderElectorTest {
  private static final LeaderElectionConfig BASE = LeaderElectionConfig.of("kube-system", "lock", "x");

  private static LeaderElectionConfig config(String identity) {
    return new LeaderElectionConfig("kube-system", "lock", identity, BASE.leaseDuration(), BASE.renewDeadline(),
        BASE.retryPeriod(), true);
  }

  /** Records callbacks as strings. */
  private static final class Log implements LeaderCallbacks {
    final List<String> events = new CopyOnWriteArrayList<>();

    @Override
    public void onStartedLeading() {
      events.add("started");
    }

    @Override
    public void onStoppedLeading() {
      events.add("stopped");
    }

    @Override
    public void onNewLeader(String identity) {
      events.add("leader=" + identity);
    }
  }

  @Test
  void tryAcquireOrRenew_secondCandidate_waitsOutTheLeaseAfterLeaderStopsRenewing() {
    ManualClock clock = ManualClock.atEpoch2026();
    try (ObjectStore store = ObjectStore.builder().directDelivery().build()) {
      Log logA = new Log();
      Log logB = new Log();
      LeaderElector a = LeaderElector.inStore(store, config("a"), logA, clock);
      LeaderElector b = LeaderElector.inStore(store, config("b"), logB, clock);
      assertThat(a.tryAcquireOrRenew()).isTrue();
      assertThat(b.tryAcquireOrRenew()).isFalse();
      assertThat(b.observedLeader()).contains("a");
      assertThat(logA.events).containsExactly("leader=a", "started");
      assertThat(logB.events).containsExactly("leader=a");

      // a renews for a while; b keeps failing
      for (int i = 0; i < 5; i++) {
        clock.advance(Duration.ofSeconds(2));
        assertThat(a.tryAcquireOrRenew()).isTrue();
        assertThat(b.tryAcquireOrRenew()).isFalse();
      }
      // a goes silent (partitioned) at t0; b observed a's last renewal at t0
      clock.advance(Duration.ofSeconds(10));
      assertThat(a.isLeader()).as("renewDeadline (10 s) passed without a renewal").isFalse();
      assertThat(b.tryAcquireOrRenew()).as("only 10 s of the 15 s lease").isFalse();
      clock.advance(Duration.ofSeconds(4));
      assertThat(b.tryAcquireOrRenew()).isFalse();
      clock.advance(Duration.ofSeconds(1));
      assertThat(b.tryAcquireOrRenew()).as("15 s since b saw the lease change").isTrue();
      assertThat(b.isLeader()).isTrue();
      assertThat(a.isLeader()).isFalse();
      assertThat(logB.events).containsExactly("leader=a", "leader=b", "started");

      // a comes back: sees b, stops leading, and does not take over
      assertThat(a.tryAcquireOrRenew()).isFalse();
      assertThat(logA.events).containsExactly("leader=a", "started", "leader=b", "stopped");
      assertThat(store.require(LeaderLease.class, "kube-system", "lock").spec().leaseTransitions()).isEqualTo(1);
    }
  }

  @Test
  void release_leader_otherCandidateTakesOverAtOnce() {
    ManualClock clock = ManualClock.atEpoch2026();
    try (ObjectStore store = ObjectStore.builder().directDelivery().build()) {
      Log logA = new Log();
      LeaderElector a = LeaderElector.inStore(store, config("a"), logA, clock);
      LeaderElector b = LeaderElector.inStore(store, config("b"), new Log(), clock);
      a.tryAcquireOrRenew();
      b.tryAcquireOrRenew();
      a.release();
      assertThat(a.isLeader()).isFalse();
      assertThat(logA.events).endsWith("leader=", "stopped");
      assertThat(b.tryAcquireOrRenew()).isTrue();
      assertThat(b.observedLeader()).contains("b");
    }
  }

  @Test
  void start_onManualClock_acquiresAndRenewsEveryRetryPeriod() {
    ManualClock clock = ManualClock.atEpoch2026();
    try (ObjectStore store = ObjectStore.builder().directDelivery().build()) {
      LeaderElector a = LeaderElector.inStore(store, config("a"), new Log(), clock);
      LeaderElector b = LeaderElector.inStore(store, config("b"), new Log(), clock);
      var aLeads = a.start();
      var bLeads = b.start();
      clock.runDueTasks();
      assertThat(aLeads).isCompleted();
      assertThat(bLeads).isNotDone();
      for (int i = 0; i < 60; i++) {
        clock.advance(Duration.ofSeconds(1));
        assertThat(a.isLeader() && b.isLeader()).isFalse();
      }
      assertThat(a.isLeader()).as("kept renewing").isTrue();
      a.close(); // releases
      clock.advance(Duration.ofSeconds(2));
      assertThat(bLeads).isCompleted();
      assertThat(b.isLeader()).isTrue();
      b.close();
      assertThat(b.isLeader()).isFalse();
    }
  }

  @Test
  void config_invalidTimings_failWithMessages() {
    assertThatThrownBy(() -> new LeaderElectionConfig("ns", "l", "a", Duration.ofSeconds(10),
        Duration.ofSeconds(10), Duration.ofSeconds(2), true)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("greater than renewDeadline");
    assertThatThrownBy(() -> new LeaderElectionConfig("ns", "l", "a", Duration.ofSeconds(15),
        Duration.ofSeconds(2), Duration.ofSeconds(2), true)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("1.2 * retryPeriod");
    assertThatThrownBy(() -> new LeaderElectionConfig("ns", "l", "", Duration.ofSeconds(15),
        Duration.ofSeconds(10), Duration.ofSeconds(2), true)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("identity");
  }

  /**
   * Three candidates on one lock, a manual clock and random interleavings of steps, silences (a candidate simply
   * not stepping) and time advances: at no instant do two of them lead, and whenever someone steps regularly a
   * leader exists again within a lease duration plus a retry.
   */
  @Property(tries = 200)
  void exclusivity_randomInterleavings_neverTwoLeaders(
      @ForAll @Size(min = 20, max = 300) List<@IntRange(min = 0, max = 9) Integer> actions) {
    ManualClock clock = ManualClock.atEpoch2026();
    try (ObjectStore store = ObjectStore.builder().directDelivery().build()) {
      List<LeaderElector> electors = new ArrayList<>();
      for (String id : List.of("a", "b", "c")) {
        electors.add(LeaderElector.inStore(store, config(id), new Log(), clock));
      }
      for (int action : actions) {
        if (action < 3) {
          electors.get(action).tryAcquireOrRenew();
        } else if (action < 6) {
          clock.advance(Duration.ofMillis(700L * (action - 2)));
        } else if (action == 6) {
          electors.get(0).release();
        } else {
          clock.advance(Duration.ofSeconds(action));
        }
        assertThat(electors.stream().filter(LeaderElector::isLeader).count()).isLessThanOrEqualTo(1);
      }
      // liveness: if b steps every retry period, someone leads within leaseDuration + retryPeriod
      for (int i = 0; i < 10; i++) {
        electors.get(1).tryAcquireOrRenew();
        clock.advance(BASE.retryPeriod());
        assertThat(electors.stream().filter(LeaderElector::isLeader).count()).isLessThanOrEqualTo(1);
      }
      electors.get(1).tryAcquireOrRenew();
      assertThat(electors.stream().filter(LeaderElector::isLeader).count()).isEqualTo(1);
    }
  }
}
