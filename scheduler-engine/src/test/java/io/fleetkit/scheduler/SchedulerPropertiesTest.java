package io.fleetkit.scheduler;

import static io.fleetkit.scheduler.testing.Fixtures.node;
import static io.fleetkit.scheduler.testing.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.SchedulerProfile;
import io.fleetkit.scheduler.internal.SchedulerConfig;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.scheduler.testing.TestFitPlugin;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Invariants over random clusters and pod streams: no node's requests exceed its allocatable, no pod is lost (each
 * ends bound or queued with a reason), and a fixed seed gives identical results whatever the parallelism. Uses the
 * registry's default plugins plus a test-only resource filter standing in for NodeResourcesFit.
 */
final class SchedulerPropertiesTest {

  /** A random scenario: nodes (cpu m, memory Mi, pods), pods (cpu m, memory Mi, priority), later deletions. */
  record Scenario(List<int[]> nodes, List<int[]> pods, List<Integer> deletions, int percentage) {
    @Override
    public String toString() {
      return nodes.size() + " nodes, " + pods.size() + " pods, " + deletions.size() + " deletions, pct "
          + percentage;
    }
  }

  record Outcome(List<ScheduleResult> results, Map<String, String> placement, Set<String> pendingKeys) {}

  @Provide
  Arbitrary<Scenario> scenarios() {
    Arbitrary<int[]> node = Combinators.combine(Arbitraries.integers().between(500, 8000),
        Arbitraries.integers().between(512, 16384), Arbitraries.integers().between(1, 8))
        .as((c, m, p) -> new int[] {c, m, p});
    Arbitrary<int[]> pod = Combinators.combine(Arbitraries.integers().between(0, 3000),
        Arbitraries.integers().between(0, 4096), Arbitraries.integers().between(0, 3))
        .as((c, m, p) -> new int[] {c, m, p});
    Arbitrary<List<int[]>> nodes = Arbitraries.oneOf(node.list().ofMinSize(1).ofMaxSize(20),
        node.list().ofMinSize(100).ofMaxSize(160));
    return Combinators.combine(nodes, pod.list().ofMinSize(1).ofMaxSize(120),
        Arbitraries.integers().between(0, 119).list().ofMaxSize(20),
        Arbitraries.of(0, 0, 30, 100)).as(Scenario::new);
  }

  private static Outcome run(Scenario sc, int parallelism, long seed, int inlineWork) {
    ManualClock clock = ManualClock.atEpoch2026();
    PluginRegistry reg = PluginRegistry.defaults().with(TestFitPlugin.NAME, h -> new TestFitPlugin());
    SchedulerProfile.Builder pb = SchedulerProfile.builder("default-scheduler");
    for (SchedulerProfile.PluginRef ref : DefaultPlugins.profile().plugins()) {
      pb.plugin(ref.name(), ref.weight());
    }
    SchedulerProfile profile = pb.plugin(TestFitPlugin.NAME, 1).percentageOfNodesToScore(sc.percentage()).build();
    List<ScheduleResult> results = new ArrayList<>();
    try (Scheduler s = Scheduler.builder().registry(reg).profile(profile).clock(clock).parallelism(parallelism)
        .seed(seed).inlineWork(inlineWork).build()) {
      for (int i = 0; i < sc.nodes().size(); i++) {
        int[] n = sc.nodes().get(i);
        s.addNode(node("n" + i, n[0], n[1], n[2]));
      }
      Set<String> live = new LinkedHashSet<>();
      for (int i = 0; i < sc.pods().size(); i++) {
        int[] p = sc.pods().get(i);
        s.addPod(pod("p" + i, p[0], p[1], p[2]));
        live.add("default/p" + i);
        if (i % 7 == 6) {
          clock.advance(Duration.ofMillis(300));
          results.addAll(s.runUntilIdle());
          checkCapacity(s, sc);
        }
      }
      results.addAll(s.runUntilIdle());
      checkCapacity(s, sc);
      for (int d : sc.deletions()) {
        String key = "default/p" + d;
        if (live.remove(key)) {
          s.removePod(key);
        }
      }
      for (int round = 0; round < 3; round++) {
        clock.advance(Duration.ofSeconds(11));
        results.addAll(s.runUntilIdle());
        checkCapacity(s, sc);
      }
      // preemption (DefaultPreemption, when in the default profile) deletes its victims: they are gone for good
      Set<String> victims = new LinkedHashSet<>();
      for (ScheduleResult r : results) {
        victims.addAll(r.victims());
      }
      live.removeAll(victims);
      for (String v : victims) {
        assertThat(s.nodeOf(v)).as("victim %s", v).isEmpty();
      }
      Map<String, String> placement = new HashMap<>();
      Set<String> pending = new LinkedHashSet<>();
      for (PendingPod p : s.pending()) {
        pending.add(p.podKey());
      }
      for (String key : live) {
        var node = s.nodeOf(key);
        node.ifPresent(n -> placement.put(key, n));
      }
      // never lost: each live pod is bound, or pending with a reason; deleted pods are gone
      for (String key : live) {
        boolean bound = placement.containsKey(key);
        assertThat(bound ^ pending.contains(key)).as("%s bound xor pending", key).isTrue();
      }
      for (PendingPod p : s.pending()) {
        assertThat(live).contains(p.podKey());
        assertThat(p.message()).as("reason of %s", p.podKey()).isNotEmpty();
      }
      assertThat(s.pending().size() + placement.size()).isEqualTo(live.size());
      return new Outcome(results, placement, pending);
    }
  }

  private static void checkCapacity(Scheduler s, Scenario sc) {
    for (int i = 0; i < sc.nodes().size(); i++) {
      NodeInfo ni = s.nodeInfo("n" + i).orElseThrow();
      long cpu = 0;
      long mem = 0;
      for (PodInfo p : ni.pods()) {
        cpu += p.requests().milliCpu();
        mem += p.requests().memoryBytes();
      }
      assertThat(cpu).isLessThanOrEqualTo(ni.allocatable().milliCpu());
      assertThat(mem).isLessThanOrEqualTo(ni.allocatable().memoryBytes());
      assertThat((long) ni.pods().size()).isLessThanOrEqualTo(ni.allocatable().pods());
      assertThat(ni.requested().milliCpu()).isEqualTo(cpu);
      assertThat(ni.requested().memoryBytes()).isEqualTo(mem);
    }
  }

  @Property(tries = 60)
  void capacityRespectedAndNoPodLost(@ForAll("scenarios") Scenario sc) {
    Outcome o = run(sc, 2, 42, SchedulerConfig.DEFAULT_INLINE_WORK);
    assertThat(o.results()).isNotEmpty();
  }

  @Property(tries = 30)
  void fixedSeed_sameResults_whateverTheParallelism(@ForAll("scenarios") Scenario sc) {
    Outcome a = run(sc, 1, 7, SchedulerConfig.DEFAULT_INLINE_WORK);
    Outcome b = run(sc, 3, 7, 0); // fan out even on small clusters
    assertThat(b.results()).isEqualTo(a.results());
    assertThat(b.placement()).isEqualTo(a.placement());
    assertThat(b.pendingKeys()).isEqualTo(a.pendingKeys());
  }
}
