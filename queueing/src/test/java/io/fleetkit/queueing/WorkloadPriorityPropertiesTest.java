package io.fleetkit.queueing;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * jqwik: whatever priority changes a queue's pending workloads go through ({@link AdmissionEngine#updatePriority},
 * a {@link WorkloadPriorityClass}'s value put again), the queue hands them out by priority, highest first, then
 * creation time, then submission order (Kueue's queue order): the active pending workloads always equal that sort.
 */
final class WorkloadPriorityPropertiesTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final List<String> CLASSES = List.of("a", "b", "c");

  private record Expected(String key, int submitted, Instant created) {}

  /**
   * Each step: 0 submits a workload (created at one of four times, a class or a plain priority), 1 changes a
   * workload's priority (to a plain one or a class's), 2 puts a class with a new value, 3 runs a cycle (which parks
   * the head: the queue has no quota).
   */
  @Property(tries = 300)
  void pendingOrder_isAlwaysPriorityThenCreationThenSubmission(
      @ForAll @Size(min = 1, max = 40) List<@IntRange(min = 0, max = 3) Integer> steps,
      @ForAll @Size(min = 40, max = 40) List<@IntRange(min = -3, max = 3) Integer> values) {
    AdmissionEngine.Builder b = AdmissionEngine.builder().resourceFlavors("default")
        .clusterQueue(ClusterQueue.builder("cq").resourceGroup(FlavorQuotas.of("default",
            FlavorResourceQuota.of("cpu", "0"))).build())
        .localQueue(LocalQueue.of("ns", "lq", "cq"));
    for (String c : CLASSES) {
      b.workloadPriorityClass(WorkloadPriorityClass.of(c, 0));
    }
    AdmissionEngine e = b.build();
    Map<String, Expected> submitted = new LinkedHashMap<>();
    for (int i = 0; i < steps.size(); i++) {
      int v = values.get(i);
      int pick = Math.floorMod(v * 7 + i, Math.max(1, submitted.size()));
      switch (steps.get(i)) {
        case 0 -> {
          String key = "ns/w" + i;
          WorkloadPriority p = v % 2 == 0 ? WorkloadPriority.of(v)
              : WorkloadPriority.of(e.workloadPriorityClass(CLASSES.get(Math.floorMod(v, 3))).orElseThrow());
          Instant created = T0.plusSeconds(Math.floorMod(v + i, 4));
          e.submit(Workload.builder("ns", "w" + i).queueName("lq").priority(p).creationTime(created)
              .request("cpu", "1").build());
          submitted.put(key, new Expected(key, i, created));
        }
        case 1 -> {
          if (!submitted.isEmpty()) {
            String key = new ArrayList<>(submitted.keySet()).get(pick);
            WorkloadPriority p = v >= 0 ? WorkloadPriority.of(v * 10)
                : WorkloadPriority.of(e.workloadPriorityClass(CLASSES.get(Math.floorMod(v, 3))).orElseThrow());
            e.updatePriority(key, p);
          }
        }
        case 2 -> e.putWorkloadPriorityClass(WorkloadPriorityClass.of(CLASSES.get(Math.floorMod(i, 3)), v * 5));
        default -> e.schedule();
      }
      assertOrder(e, submitted);
    }
  }

  private static void assertOrder(AdmissionEngine e, Map<String, Expected> submitted) {
    Set<String> parked = new HashSet<>(e.inadmissible("cq"));
    List<String> active = new ArrayList<>(e.pending("cq"));
    active.removeAll(parked);
    List<Expected> expected = new ArrayList<>();
    for (String k : active) {
      expected.add(submitted.get(k));
    }
    expected.sort(Comparator.<Expected>comparingInt(x -> -e.workload(x.key()).orElseThrow().priority())
        .thenComparing(Expected::created).thenComparingInt(Expected::submitted));
    assertThat(active).containsExactlyElementsOf(expected.stream().map(Expected::key).toList());
    assertThat(active.size() + parked.size()).isEqualTo(submitted.size());
    // a workload of a class has the class's value, unless it was changed to a plain priority since
    for (String k : submitted.keySet()) {
      Workload w = e.workload(k).orElseThrow();
      if (w.priorityClassSource() == PriorityClassSource.WORKLOAD_PRIORITY_CLASS) {
        assertThat(w.priority()).isEqualTo(e.workloadPriorityClass(w.priorityClassName()).orElseThrow().value());
      }
    }
  }
}
