package io.fleetkit.scheduler.plugins.coscheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.scheduling.PodGroup;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.scheduler.PendingPod;
import io.fleetkit.scheduler.Scheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
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
 * Invariants of gang scheduling over random clusters, gangs and single pods, with the real engine: no gang is ever
 * partly bound (checked after every {@code runUntilIdle}, including the ones that expire Permit waits), and no pod
 * is lost (each is bound exactly once, or pending).
 */
final class CoschedulingPropertiesTest {

  /** Nodes as GPU counts; gangs as {size, minMember, gpus per pod, timeout s}; singles as GPU requests. */
  record Workload(List<Integer> nodes, List<int[]> gangs, List<Integer> singles, List<Integer> steps) {
    @Override
    public String toString() {
      StringBuilder sb = new StringBuilder("nodes=" + nodes + " gangs=[");
      for (int[] g : gangs) {
        sb.append(java.util.Arrays.toString(g));
      }
      return sb.append("] singles=").append(singles).append(" steps=").append(steps).toString();
    }
  }

  @Provide
  Arbitrary<Workload> workloads() {
    Arbitrary<int[]> gang = Combinators.combine(Arbitraries.integers().between(1, 8),
        Arbitraries.integers().between(1, 8), Arbitraries.integers().between(0, 3),
        Arbitraries.integers().between(5, 90))
        .as((size, min, gpus, t) -> new int[] {size, Math.min(size, min), gpus, t});
    return Combinators.combine(Arbitraries.integers().between(0, 8).list().ofMinSize(1).ofMaxSize(6),
        gang.list().ofMinSize(1).ofMaxSize(5), Arbitraries.integers().between(0, 4).list().ofMaxSize(8),
        Arbitraries.integers().between(0, 40).list().ofMinSize(1).ofMaxSize(6)).as(Workload::new);
  }

  @Property(tries = 150)
  void schedule_randomWorkloads_noGangPartlyBoundAndNoPodLost(@ForAll("workloads") Workload w) {
    ManualClock clock = ManualClock.atEpoch2026();
    Gangs.RecordingBinder binder = new Gangs.RecordingBinder();
    Map<String, Integer> minMember = new HashMap<>();
    List<Pod> pods = new ArrayList<>();
    try (Scheduler s = Gangs.scheduler(clock, binder)) {
      for (int i = 0; i < w.nodes().size(); i++) {
        s.addNode(Gangs.gpuNode("n" + i, w.nodes().get(i)));
      }
      for (int g = 0; g < w.gangs().size(); g++) {
        int[] spec = w.gangs().get(g);
        String name = "g" + g;
        minMember.put(name, spec[1]);
        s.addObject(PodGroup.builder().name(name).minMember(spec[1]).scheduleTimeoutSeconds(spec[3]).build());
        for (int i = 0; i < spec[0]; i++) {
          pods.add(Gangs.member(name, i, spec[2]));
        }
      }
      for (int i = 0; i < w.singles().size(); i++) {
        pods.add(Gangs.pod("single-" + i, w.singles().get(i)));
      }
      // Interleave the gangs' and the singles' arrival.
      java.util.Collections.shuffle(pods, new java.util.Random(w.toString().hashCode()));
      pods.forEach(s::addPod);

      check(s, binder, minMember, pods);
      int added = 0;
      for (int step : w.steps()) {
        s.runUntilIdle();
        check(s, binder, minMember, pods);
        clock.advance(Duration.ofSeconds(step));
        if (step % 7 == 0) {
          s.addNode(Gangs.gpuNode("extra" + added++, 4)); // a cluster event that re-queues parked gangs
        }
      }
      clock.advance(Duration.ofMinutes(2)); // every Permit wait expires
      s.runUntilIdle();
      check(s, binder, minMember, pods);
    }
    check(null, binder, minMember, pods);
  }

  private static void check(Scheduler s, Gangs.RecordingBinder binder, Map<String, Integer> minMember,
      List<Pod> pods) {
    Map<String, Integer> boundPerGroup = new HashMap<>();
    Map<String, String> bound;
    synchronized (binder.bound) {
      bound = new HashMap<>(binder.bound);
    }
    for (Pod p : pods) {
      String g = p.podGroupName();
      if (g != null && bound.containsKey(p.metadata().key())) {
        boundPerGroup.merge(g, 1, Integer::sum);
      }
    }
    boundPerGroup.forEach((g, n) -> assertThat(n)
        .as("gang %s has %s bound pods, minMember %s", g, n, minMember.get(g))
        .isGreaterThanOrEqualTo(minMember.get(g)));
    if (s == null) {
      return;
    }
    Set<String> pending = new HashSet<>();
    for (PendingPod pp : s.pending()) {
      pending.add(pp.podKey());
    }
    for (Pod p : pods) {
      String k = p.metadata().key();
      assertThat(bound.containsKey(k) ^ pending.contains(k)).as("pod %s is bound xor pending", k).isTrue();
    }
  }
}
