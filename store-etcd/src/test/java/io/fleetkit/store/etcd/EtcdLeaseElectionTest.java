package io.fleetkit.store.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.options.LeaseOption;
import io.fleetkit.api.ConflictException;
import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.TimerClock;
import io.fleetkit.reconcile.LeaderCallbacks;
import io.fleetkit.reconcile.LeaderElectionConfig;
import io.fleetkit.reconcile.LeaderElector;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link EtcdLeaderElector} against a real etcd: one leader among candidates on separate connections; a leader
 * whose etcd lease is revoked, or whose process stops renewing it, is replaced within the lease duration; a deposed
 * leader's fenced writes fail in etcd even before it notices. Short timings (lease 3 s, renew deadline 2 s, retry
 * 0.5 s) keep the waits brief; one test checks the default 15 s TTL reaches etcd.
 */
@ExtendWith(LiveEtcd.class)
final class EtcdLeaseElectionTest {
  private static final TimerClock CLOCK = TimerClock.system();
  private final String prefix = "/fleetkit-test/" + UUID.randomUUID();
  private final List<AutoCloseable> open = new ArrayList<>();

  @AfterEach
  void closeAll() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
  }

  private ObjectStore store() {
    ObjectStore s = EtcdStore.builder(LiveEtcd.endpoint()).prefix(prefix).build();
    open.add(s);
    return s;
  }

  private static LeaderElectionConfig fast(String id, boolean releaseOnClose) {
    return new LeaderElectionConfig("kube-system", "fleetkit", id, Duration.ofSeconds(3), Duration.ofSeconds(2),
        Duration.ofMillis(500), releaseOnClose);
  }

  private EtcdLeaderElector elector(ObjectStore store, String id, LeaderCallbacks callbacks) {
    EtcdLeaderElector e = EtcdLeaderElector.onLease(store, fast(id, true), callbacks, CLOCK);
    open.add(e);
    return e;
  }

  private Client rawClient() {
    Client c = Client.builder().endpoints(LiveEtcd.endpoint()).build();
    open.add(c);
    return c;
  }

  private static void await(String what, Duration within, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + within.toNanos();
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("waiting for: %s", what).isLessThan(deadline);
      Thread.sleep(20);
    }
  }

  @Test
  void threeCandidates_exactlyOneLeads_othersObserveIt() throws Exception {
    List<EtcdLeaderElector> electors = new ArrayList<>();
    for (String id : List.of("a", "b", "c")) {
      electors.add(elector(store(), id, new LeaderCallbacks() {}));
    }
    electors.forEach(EtcdLeaderElector::start);
    await("a leader", Duration.ofSeconds(5), () -> electors.stream().anyMatch(EtcdLeaderElector::isLeader));
    // Sample for 2 s (four retry periods): never two leaders, and the followers name the leader.
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
    while (System.nanoTime() < until) {
      assertThat(electors.stream().filter(EtcdLeaderElector::isLeader).count()).isLessThanOrEqualTo(1);
      Thread.sleep(50);
    }
    EtcdLeaderElector leader = electors.stream().filter(EtcdLeaderElector::isLeader).findFirst().orElseThrow();
    for (EtcdLeaderElector e : electors) {
      if (e != leader) {
        assertThat(e.isLeader()).isFalse();
        assertThat(e.term()).isEmpty();
        assertThat(e.observedLeader()).contains(leader.identity());
      }
    }
    assertThat(leader.term()).isPresent();
  }

  @Test
  void leaderLeaseRevoked_anotherTakesOver_andTheOldLeaderStepsDown() throws Exception {
    List<String> events = new CopyOnWriteArrayList<>();
    EtcdLeaderElector a = elector(store(), "a", log("a", events));
    a.start().get(5, TimeUnit.SECONDS);
    EtcdLeaderElector b = elector(store(), "b", log("b", events));
    b.start();
    await("b observes a", Duration.ofSeconds(5), () -> b.observedLeader().equals(java.util.Optional.of("a")));
    long termA = a.term().orElseThrow();

    // Revoke a's lease behind its back (as an operator or a lease expiry would): etcd deletes the lock key.
    Client raw = rawClient();
    KeyValue lock = raw.getKVClient().get(bytes(a.lockKey())).get(5, TimeUnit.SECONDS).getKvs().get(0);
    assertThat(lock.getValue().toString(StandardCharsets.UTF_8)).isEqualTo("a");
    raw.getLeaseClient().revoke(lock.getLease()).get(5, TimeUnit.SECONDS);
    long revoked = System.nanoTime();

    await("b leads", Duration.ofSeconds(3), b::isLeader);
    assertThat(Duration.ofNanos(System.nanoTime() - revoked)).as("b reacts to the key's deletion at once")
        .isLessThan(Duration.ofSeconds(2));
    await("a steps down", Duration.ofSeconds(3), () -> !a.isLeader());
    assertThat(b.term().orElseThrow()).as("terms grow").isGreaterThan(termA);
    assertThat(events).containsSubsequence("a started", "a stopped").contains("b started");
    assertThat(events.indexOf("b started")).isGreaterThan(events.indexOf("a started"));
  }

  @Test
  void leaderStopsRenewing_followerTakesOverAfterTheTtl_notBefore() throws Exception {
    ObjectStore storeA = store();
    EtcdLeaderElector a = EtcdLeaderElector.onLease(storeA, fast("a", false), new LeaderCallbacks() {}, CLOCK);
    a.start().get(5, TimeUnit.SECONDS);
    EtcdLeaderElector b = elector(store(), "b", new LeaderCallbacks() {});
    b.start();
    await("b observes a", Duration.ofSeconds(5), () -> b.observedLeader().isPresent());
    a.close(); // no release: like a killed process, the lease just stops being renewed
    storeA.close();
    long stopped = System.nanoTime();
    await("b leads", Duration.ofSeconds(6), b::isLeader);
    Duration took = Duration.ofNanos(System.nanoTime() - stopped);
    // etcd expires a lease its TTL (3 s) after the last keep-alive, which came at most one retry period (0.5 s)
    // before the stop; b then acquires on the key's deletion.
    assertThat(took).isGreaterThan(Duration.ofMillis(2000)).isLessThan(Duration.ofMillis(4500));
  }

  @Test
  void deposedLeader_fencedWritesFail_evenBeforeItNotices() throws Exception {
    // kube's timings (renew deadline 10 s): a keeps believing it leads throughout, so only etcd's check can stop it
    EtcdLeaderElector a = EtcdLeaderElector.onLease(store(), LeaderElectionConfig.of("kube-system", "fleetkit", "a"),
        new LeaderCallbacks() {}, CLOCK);
    EtcdLeaderElector b = EtcdLeaderElector.onLease(store(), LeaderElectionConfig.of("kube-system", "fleetkit", "b"),
        new LeaderCallbacks() {}, CLOCK);
    open.add(a);
    open.add(b);
    assertThatThrownBy(() -> a.fencedStore().create(Namespace.of("before")))
        .isInstanceOf(ConflictException.class).hasMessageContaining("leader a does not hold " + a.lockKey());
    assertThat(a.tryAcquireOrRenew()).isTrue();
    assertThat(b.tryAcquireOrRenew()).isFalse();
    a.fencedStore().create(Namespace.of("by-a"));
    assertThatThrownBy(() -> b.fencedStore().create(Namespace.of("by-b")))
        .as("a follower's fenced writes fail").isInstanceOf(ConflictException.class);

    // a's lease is revoked (a long GC pause, a partition); b takes over; a has not run its loop since.
    Client raw = rawClient();
    long leaseA = raw.getKVClient().get(bytes(a.lockKey())).get(5, TimeUnit.SECONDS).getKvs().get(0).getLease();
    raw.getLeaseClient().revoke(leaseA).get(5, TimeUnit.SECONDS);
    assertThat(b.tryAcquireOrRenew()).isTrue();
    assertThat(a.isLeader()).as("a does not know yet").isTrue();

    Namespace stale = a.fencedStore().require(Namespace.class, "", "by-a");
    assertThatThrownBy(() -> a.fencedStore().update(stale.withMetadata(stale.metadata().withLabels(
        java.util.Map.of("writer", "a"))))).isInstanceOf(ConflictException.class)
        .hasMessageContaining("leader a no longer holds " + a.lockKey());
    assertThatThrownBy(() -> a.fencedStore().delete(Namespace.class, "", "by-a"))
        .isInstanceOf(ConflictException.class);
    assertThatThrownBy(() -> a.fencedStore().create(Namespace.of("late-by-a"))).isInstanceOf(ConflictException.class);
    ObjectStore plain = store();
    assertThat(plain.get(Namespace.class, "", "late-by-a")).as("nothing of a's was written").isEmpty();
    assertThat(plain.require(Namespace.class, "", "by-a").metadata().labels()).isEmpty();

    b.fencedStore().update(stale.withMetadata(stale.metadata().withLabels(java.util.Map.of("writer", "b"))));
    assertThat(plain.require(Namespace.class, "", "by-a").metadata().labels()).containsEntry("writer", "b");
    assertThat(a.tryAcquireOrRenew()).as("a's next attempt finds b leading").isFalse();
    assertThat(a.isLeader()).isFalse();
    assertThat(a.observedLeader()).contains("b");
  }

  @Test
  void defaultTimings_grantKubesFifteenSecondLease() throws Exception {
    EtcdLeaderElector a = EtcdLeaderElector.onLease(store(), LeaderElectionConfig.of("kube-system", "fleetkit", "a"),
        new LeaderCallbacks() {}, CLOCK);
    open.add(a);
    assertThat(a.tryAcquireOrRenew()).isTrue();
    Client raw = rawClient();
    long lease = raw.getKVClient().get(bytes(a.lockKey())).get(5, TimeUnit.SECONDS).getKvs().get(0).getLease();
    assertThat(raw.getLeaseClient().timeToLive(lease, LeaseOption.DEFAULT).get(5, TimeUnit.SECONDS).getGrantedTTL())
        .isEqualTo(15);
    a.close();
    assertThat(raw.getKVClient().get(bytes(a.lockKey())).get(5, TimeUnit.SECONDS).getKvs())
        .as("closing releases: the lease is revoked and the key with it").isEmpty();
  }

  @Test
  void forStore_choosesTheEtcdLeaseForAnEtcdStore_andTheInStoreLeaseOtherwise() {
    LeaderElector onEtcd = EtcdLeaderElector.forStore(store(), fast("a", true), new LeaderCallbacks() {}, CLOCK);
    open.add(onEtcd);
    assertThat(onEtcd).isInstanceOf(EtcdLeaderElector.class);
    try (ObjectStore memory = ObjectStore.inMemory()) {
      LeaderElector inMemory = EtcdLeaderElector.forStore(memory, fast("a", true), new LeaderCallbacks() {}, CLOCK);
      assertThat(inMemory).isNotInstanceOf(EtcdLeaderElector.class);
      assertThat(inMemory.tryAcquireOrRenew()).isTrue();
      inMemory.close();
      assertThatThrownBy(() -> EtcdLeaderElector.onLease(memory, fast("a", true), new LeaderCallbacks() {}, CLOCK))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("leader election kube-system/fleetkit: an etcd lease needs a store built by");
    }
  }

  private static LeaderCallbacks log(String who, List<String> events) {
    return new LeaderCallbacks() {
      @Override
      public void onStartedLeading() {
        events.add(who + " started");
      }

      @Override
      public void onStoppedLeading() {
        events.add(who + " stopped");
      }
    };
  }

  private static ByteSequence bytes(String s) {
    return ByteSequence.from(s, StandardCharsets.UTF_8);
  }
}
