package io.fleetkit.reconcile.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeCondition;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/**
 * Kubelets renewing node Leases (computed when read) instead of posting node status every 10 s: the node lifecycle
 * controller must see the same heartbeats, at the same monitor passes, as with status posts.
 */
final class NodeLeasesTest {

  /** Three nodes with agents and a lifecycle controller, stepped event by event as a simulation does. */
  private static final class Cluster implements AutoCloseable {
    final ManualClock clock = ManualClock.atEpoch2026();
    final Instant t0 = clock.now();
    final ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build();
    final List<NodeAgent> agents = new ArrayList<>();
    final NodeLeases leases = new NodeLeases();
    final NodeLifecycleController nlc;
    /** Every change of n1 as seen after each step: time, Ready status, taints. */
    final List<String> history = new ArrayList<>();
    int steps;
    /** Agents (by index) not synced for now: alive, but their kubelets do not run (nor renew). */
    final java.util.Set<Integer> paused = new java.util.HashSet<>();
    /** Every node's Lease renew time after each step. */
    final List<String> renewals = new ArrayList<>();
    final boolean onlyWithWork;
    /** The agents that reported work since their last sync. */
    final java.util.BitSet withWork = new java.util.BitSet();

    /** Every node's Ready status and taints, and the zone states, after each step where one changed. */
    final List<String> all = new ArrayList<>();

    Cluster(boolean withLeases) {
      this(withLeases, 3, 1);
    }

    /** {@code nodes} nodes spread over {@code zones} zones. */
    Cluster(boolean withLeases, int nodes, int zones) {
      this(withLeases, nodes, zones, false);
    }

    Cluster(boolean withLeases, int nodes, int zones, boolean reference) {
      this(withLeases, nodes, zones, reference, Duration.ofSeconds(50));
    }

    /** With {@code reference}, the controller visits every node with a running Lease at every pass. */
    Cluster(boolean withLeases, int nodes, int zones, boolean reference, Duration grace) {
      this(withLeases, nodes, zones, reference, grace, false);
    }

    /**
     * With {@code onlyWithWork}, each step tells the Leases that every kubelet ran ({@link NodeLeases#ranAll}) and
     * syncs only the agents that reported work, as a simulation with thousands of nodes does.
     */
    Cluster(boolean withLeases, int nodes, int zones, boolean reference, Duration grace, boolean onlyWithWork) {
      this.onlyWithWork = onlyWithWork;
      NodeLifecycleController.Builder b = NodeLifecycleController.builder(store, clock).gracePeriod(grace);
      if (withLeases) {
        b.leases(leases);
      }
      if (reference) {
        b.visitEveryLeasedNode();
      }
      nlc = b.build();
      for (int i = 1; i <= nodes; i++) {
        store.create(Node.builder().name("n" + i).label(NodeLifecycleController.ZONE_LABEL, "z" + (i % zones))
            .build());
        NodeAgent.Builder ab = NodeAgent.builder(store, clock, "n" + i).healthSource(HealthSource.healthy());
        int index = i - 1;
        ab.onWork(() -> withWork.set(index));
        if (withLeases) {
          ab.leases(leases);
        }
        NodeAgent a = ab.build();
        a.start();
        agents.add(a);
      }
      nlc.start();
    }

    void runTo(long seconds) {
      Instant target = t0.plusSeconds(seconds);
      sync();
      while (clock.now().isBefore(target)) {
        clock.advanceTo(clock.nextDeadline().filter(d -> d.isBefore(target)).orElse(target));
        steps++;
        sync();
      }
    }

    /** The agents first, then the controller, until quiet: the order of a simulation's settle step. */
    void sync() {
      int n;
      do {
        n = 0;
        if (onlyWithWork) {
          leases.ranAll(clock.now());
        }
        for (int i = 0; i < agents.size(); i++) {
          if (!paused.contains(i) && (!onlyWithWork || withWork.get(i))) {
            n += agents.get(i).sync();
            withWork.clear(i);
          }
        }
        n += nlc.sync();
      } while (n > 0);
      Node n1 = store.require(Node.class, "", "n1");
      String state = n1.status().condition(NodeCondition.READY).status() + " "
          + n1.spec().taints().stream().map(Taint::toString).toList();
      if (history.isEmpty() || !history.get(history.size() - 1).endsWith(state)) {
        history.add(Duration.between(t0, clock.now()).toSeconds() + "s " + state);
      }
      StringBuilder everything = new StringBuilder();
      for (Node node : store.list(Node.class).items()) {
        NodeCondition ready = node.status().condition(NodeCondition.READY);
        everything.append(node.name()).append('=').append(ready == null ? "-" : ready.status()).append(' ')
            .append(node.spec().taints().stream().map(Taint::toString).toList()).append("; ");
      }
      everything.append(new java.util.TreeMap<>(nlc.zoneStates()));
      StringBuilder renewed = new StringBuilder(Duration.between(t0, clock.now()).toSeconds() + "s");
      for (int i = 1; i <= agents.size(); i++) {
        renewed.append(' ').append(leases.renewTime("n" + i));
      }
      renewals.add(renewed.toString());
      if (all.isEmpty() || !all.get(all.size() - 1).endsWith(everything.toString())) {
        all.add(Duration.between(t0, clock.now()).toSeconds() + "s " + everything);
      }
    }

    @Override
    public void close() {
      agents.forEach(NodeAgent::close);
      nlc.close();
      store.close();
    }
  }

  @Test
  void renewTime_lastTickAtOrBeforeLastRun_frozenWhenKilled() {
    try (Cluster c = new Cluster(true)) {
      c.runTo(0);
      assertThat(c.leases.renewTime("n1")).isEqualTo(c.t0);
      c.runTo(37);
      assertThat(c.leases.renewTime("n1")).isEqualTo(c.t0.plusSeconds(30));
      c.runTo(40); // the agents ran at 40 s: renewed at 40 s, then killed in the same instant
      c.agents.get(0).kill();
      c.runTo(120);
      assertThat(c.leases.renewTime("n1")).isEqualTo(c.t0.plusSeconds(40));
      assertThat(c.leases.renewTime("n2")).isEqualTo(c.t0.plusSeconds(120));
      c.agents.get(0).revive();
      c.runTo(133); // a new grid from the revival: 120, 130
      assertThat(c.leases.renewTime("n1")).isEqualTo(c.t0.plusSeconds(130));
      c.agents.get(0).close();
      assertThat(c.leases.renewTime("n1")).isNull();
    }
  }

  @Test
  void kill_atTickBeforeTheAgentRan_keepsThePreviousTick() {
    try (Cluster c = new Cluster(true)) {
      c.runTo(35);
      c.clock.schedule(Duration.ofSeconds(5), () -> c.agents.get(0).kill()); // at 40 s, before the agents run
      c.runTo(45);
      assertThat(c.leases.renewTime("n1")).isEqualTo(c.t0.plusSeconds(30));
    }
  }

  @Test
  void statusReport_everyFiveMinutesWithLeases_notEveryHeartbeat() {
    try (Cluster c = new Cluster(true)) {
      c.runTo(290);
      assertThat(heartbeat(c)).isEqualTo(c.t0);
      c.runTo(300);
      assertThat(heartbeat(c)).isEqualTo(c.t0.plusSeconds(300));
      assertThat(c.store.require(Node.class, "", "n1").status().condition(NodeCondition.READY).status())
          .isEqualTo(ConditionStatus.True);
    }
  }

  @Test
  void quietCluster_leasesSaveTheStatusWrites_clockWakesForMonitorPassesOnly() {
    try (Cluster leased = new Cluster(true); Cluster posting = new Cluster(false)) {
      int[] writes = new int[2];
      leased.store.watch(Node.class, leased.store.list(Node.class).resourceVersion(), e -> writes[0]++);
      posting.store.watch(Node.class, posting.store.list(Node.class).resourceVersion(), e -> writes[1]++);
      leased.runTo(600);
      posting.runTo(600);
      // 3 nodes: the first status post and one report every 5 minutes, against a post every 10 s
      assertThat(writes[0]).isEqualTo(3 * 3);
      assertThat(writes[1]).isEqualTo(3 * 61);
      // a monitor pass every 5 s and nothing else (no tainting pass with nothing queued)
      assertThat(leased.steps).isEqualTo(120);
      assertThat(posting.steps).isEqualTo(120);
    }
  }

  /**
   * A node killed at any time and revived later goes Unknown, gets its taints and recovers at the same instants
   * whether its kubelet posts status every 10 s or renews a Lease.
   */
  @Property(tries = 40)
  void killAndRevive_sameTransitionsWithAndWithoutLeases(@ForAll @IntRange(min = 0, max = 120) int killAt,
      @ForAll @IntRange(min = 1, max = 200) int downFor, @ForAll @IntRange(min = 0, max = 1) int killInTask) {
    List<String> expected = run(false, killAt, downFor, killInTask == 1);
    List<String> actual = run(true, killAt, downFor, killInTask == 1);
    assertThat(actual).isEqualTo(expected);
    assertThat(expected).anyMatch(s -> s.contains("Unknown") || downFor <= 65);
  }

  /**
   * Several kubelets of two zones killed at any times and revived after long enough to go Unknown, some together (a zone's partial or full
   * disruption): every node's readiness and taints and every zone's state change at the same instants with Leases
   * (where the controller visits only changed nodes and nodes whose grace may have run out) as with status posts
   * (where it visits every node at every pass).
   */
  @Property(tries = 25)
  void manyNodes_killsAndRevives_sameNodeAndZoneHistoryWithAndWithoutLeases(
      @ForAll @Size(min = 1, max = 5) List<@IntRange(min = 0, max = 400) Integer> killAt,
      @ForAll @Size(min = 5, max = 5) List<@IntRange(min = 70, max = 300) Integer> downFor,
      @ForAll @IntRange(min = 0, max = 1) int killInTask) {
    List<String> expected = runMany(false, killAt, downFor, killInTask == 1);
    List<String> actual = runMany(true, killAt, downFor, killInTask == 1);
    assertThat(actual).isEqualTo(expected);
    assertThat(expected).anyMatch(s -> s.contains("Unknown"));
  }

  /**
   * The pass that skips ready, untainted nodes whose kubelet renews (and ran at the pass) writes what a pass visiting
   * every node with a running Lease writes: kubelets killed and revived, and kubelets that stop running for a while
   * without being killed (their renewals stop; the pass then visits every renewing node), at any times, with grace
   * periods shorter and longer than the renew interval.
   */
  @Property(tries = 12)
  void skippedNodes_sameNodeAndZoneHistoryAsVisitingEveryLeasedNode(
      @ForAll @Size(min = 1, max = 5) List<@IntRange(min = 0, max = 400) Integer> eventAt,
      @ForAll @Size(min = 5, max = 5) List<@IntRange(min = 1, max = 300) Integer> lasting,
      @ForAll @Size(min = 5, max = 5) List<@IntRange(min = 0, max = 2) Integer> what,
      @ForAll @IntRange(min = 0, max = 2) int graceChoice) {
    Duration grace = Duration.ofSeconds(new int[] {50, 12, 7}[graceChoice]);
    List<String> expected = runPaused(true, eventAt, lasting, what, grace);
    List<String> actual = runPaused(false, eventAt, lasting, what, grace);
    assertThat(actual).isEqualTo(expected);
  }

  /**
   * Syncing only the agents that reported work, and telling the Leases that all kubelets ran, gives the same node
   * and zone history (and the same Lease renewals) as syncing every agent at every step, through kills and revivals
   * between steps and from clock tasks.
   */
  @Property(tries = 8)
  void ranAll_syncingOnlyAgentsWithWork_sameHistoryAsSyncingEveryAgent(
      @ForAll @Size(min = 1, max = 5) List<@IntRange(min = 0, max = 400) Integer> eventAt,
      @ForAll @Size(min = 5, max = 5) List<@IntRange(min = 1, max = 300) Integer> lasting,
      @ForAll @Size(min = 5, max = 5) List<@IntRange(min = 0, max = 1) Integer> what) {
    List<String> expected = runPaused(false, eventAt, lasting, what, Duration.ofSeconds(50), false);
    List<String> actual = runPaused(false, eventAt, lasting, what, Duration.ofSeconds(50), true);
    assertThat(actual).isEqualTo(expected);
  }

  private static List<String> runPaused(boolean reference, List<Integer> eventAt, List<Integer> lasting,
      List<Integer> what, Duration grace) {
    return runPaused(reference, eventAt, lasting, what, grace, false);
  }

  private static List<String> runPaused(boolean reference, List<Integer> eventAt, List<Integer> lasting,
      List<Integer> what, Duration grace, boolean onlyWithWork) {
    try (Cluster c = new Cluster(true, 7, 2, reference, grace, onlyWithWork)) {
      for (int i = 0; i < eventAt.size(); i++) {
        if (what.get(i) == 1) { // killed from a clock task, before the agents run at that instant; revived so too
          NodeAgent a = c.agents.get(i);
          c.clock.schedule(Duration.ofSeconds(eventAt.get(i)), a::kill);
          c.clock.schedule(Duration.ofSeconds(eventAt.get(i) + lasting.get(i)), a::revive);
        }
      }
      for (long t = 0; t <= 600; t++) {
        c.runTo(t);
        for (int i = 0; i < eventAt.size(); i++) {
          long from = eventAt.get(i);
          long to = from + lasting.get(i);
          if (what.get(i) == 0) { // killed between steps, after the agents ran; revived later
            if (t == from) {
              c.agents.get(i).kill();
            } else if (t == to) {
              c.agents.get(i).revive();
            }
          } else if (what.get(i) == 2) { // alive, but not run
            if (t == from) {
              c.paused.add(i);
            } else if (t == to) {
              c.paused.remove(i);
            }
          }
        }
      }
      List<String> out = new ArrayList<>(c.all);
      out.addAll(c.renewals);
      return out;
    }
  }

  private static List<String> runMany(boolean withLeases, List<Integer> killAt, List<Integer> downFor,
      boolean inTasks) {
    try (Cluster c = new Cluster(withLeases, 7, 2)) {
      for (int i = 0; i < killAt.size(); i++) {
        NodeAgent a = c.agents.get(i);
        long kill = killAt.get(i);
        long revive = kill + downFor.get(i);
        if (inTasks) {
          c.clock.schedule(Duration.ofSeconds(kill), a::kill);
          c.clock.schedule(Duration.ofSeconds(revive), a::revive);
        } else {
          c.clock.schedule(Duration.ofSeconds(kill), () -> { }); // a step at that instant, then the kill
          c.clock.schedule(Duration.ofSeconds(revive), () -> { });
        }
      }
      if (inTasks) {
        c.runTo(1000);
      } else {
        for (long t = 0; t <= 1000; t++) {
          c.runTo(t);
          for (int i = 0; i < killAt.size(); i++) {
            if (t == killAt.get(i)) {
              c.agents.get(i).kill();
            } else if (t == (long) killAt.get(i) + downFor.get(i)) {
              c.agents.get(i).revive();
            }
          }
        }
      }
      return c.all;
    }
  }

  /**
   * A registered kubelet (a starting node's, before an agent runs the node) renews on its grid whenever the kubelets
   * run; an agent's Lease replaces it; {@code forget} drops whichever is there.
   */
  @Test
  void register_renewsWithTheOtherKubelets_untilAnAgentReplacesItOrItIsForgotten() {
    NodeLeases leases = new NodeLeases();
    Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
    leases.register("starting", t0.plusSeconds(5));
    assertThat(leases.renewTime("starting")).isNull(); // registered, not run yet
    leases.ranAll(t0.plusSeconds(37));
    assertThat(leases.renewTime("starting")).isEqualTo(t0.plusSeconds(35));
    assertThat(leases.runningNodes()).containsExactly("starting");
    // an agent's kubelet takes over on its own grid
    leases.start("starting", t0.plusSeconds(40), Duration.ofSeconds(10));
    leases.ranAll(t0.plusSeconds(52));
    assertThat(leases.renewTime("starting")).isEqualTo(t0.plusSeconds(50));
    assertThat(leases.runningNodes()).containsExactly("starting");
    leases.forget("starting");
    assertThat(leases.renewTime("starting")).isNull();
    assertThat(leases.runningNodes()).isEmpty();
    assertThat(leases.allRanAt(t0.plusSeconds(60))).isTrue(); // no running Lease left to wait for
    leases.forget("starting"); // nothing left: no-op
    leases.forget("never-registered");
  }

  private static List<String> run(boolean withLeases, int killAt, int downFor, boolean killInTask) {
    try (Cluster c = new Cluster(withLeases)) {
      if (killInTask) { // from a clock task, before the agents run at that instant (a scenario's fault)
        c.clock.schedule(Duration.ofSeconds(killAt), () -> c.agents.get(0).kill());
        c.clock.schedule(Duration.ofSeconds(killAt + downFor), () -> c.agents.get(0).revive());
        c.runTo(killAt + downFor + 120L);
      } else { // between steps, after the agents ran at that instant
        c.runTo(killAt);
        c.agents.get(0).kill();
        c.runTo((long) killAt + downFor);
        c.agents.get(0).revive();
        c.runTo(killAt + downFor + 120L);
      }
      return c.history;
    }
  }

  private static Instant heartbeat(Cluster c) {
    return c.store.require(Node.class, "", "n1").status().condition(NodeCondition.READY).lastHeartbeatTime();
  }
}
