package io.fleetkit.reconcile.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeCondition;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.ResourceRequirements;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.reconcile.node.MemoryPressureEviction.PodMemory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Invariants of the simulated eviction manager: {@code rankMemoryPressure} is a total order that is exactly the
 * lexicographic order of its three keys; and a kubelet never evicts while {@code memory.available} is at or above the
 * threshold, and below it evicts exactly one pod, the first non-critical one in that order.
 */
final class MemoryEvictionPropertyTest {
  private static final long MI = 1L << 20;

  /** A generated pod: memory request and working set in MiB (null: no stats), priority, critical or not. */
  record Spec(int requestMi, @org.jspecify.annotations.Nullable Integer usageMi, int priority, boolean critical) {}

  @Provide
  Arbitrary<Spec> specs() {
    return Combinators.combine(Arbitraries.integers().between(0, 512),
        Arbitraries.integers().between(0, 600).injectNull(0.1), Arbitraries.integers().between(-2, 2),
        Arbitraries.of(false, false, false, true)).as(Spec::new);
  }

  private static Pod pod(int i, Spec s) {
    ResourceList requests = s.requestMi() == 0 ? ResourceList.EMPTY
        : ResourceList.builder().put("memory", s.requestMi() + "Mi").build();
    Container c = Container.of("c" + i, "img", new ResourceRequirements(requests, ResourceList.EMPTY, List.of()));
    return Pod.builder().namespace("default").name("p" + i).container(c).restartPolicy(RestartPolicy.Always)
        .priority(s.critical() ? MemoryPressureEviction.SYSTEM_CRITICAL_PRIORITY : s.priority()).nodeName("n1")
        .build();
  }

  private static PodMemory memory(int i, Spec s) {
    Pod p = pod(i, s);
    return s.usageMi() == null ? PodMemory.of(p, null) : PodMemory.of(p, s.usageMi() * MI);
  }

  /** The three keys: missing stats or exceeding the request first; priority; usage above the request, larger first. */
  private static int compareKeys(PodMemory a, PodMemory b) {
    int c = Integer.compare(first(a), first(b));
    if (c != 0) {
      return c;
    }
    c = Integer.compare(MemoryPressureEviction.priority(a.pod()), MemoryPressureEviction.priority(b.pod()));
    if (c != 0) {
      return c;
    }
    return Long.compare(third(a), third(b));
  }

  private static int first(PodMemory m) {
    return m.workingSet() == null ? 0 : m.workingSet() > MemoryPressureEviction.request(m.pod()) ? 1 : 2;
  }

  private static long third(PodMemory m) {
    return m.workingSet() == null ? Long.MIN_VALUE : -(m.workingSet() - MemoryPressureEviction.request(m.pod()));
  }

  @Property
  void rank_isTheLexicographicOrderOfTheThreeKeys(@ForAll("specs") Spec a, @ForAll("specs") Spec b,
      @ForAll("specs") Spec c) {
    List<PodMemory> all = List.of(memory(0, a), memory(1, b), memory(2, c));
    for (PodMemory x : all) {
      for (PodMemory y : all) {
        assertThat(Integer.signum(MemoryPressureEviction.RANK.compare(x, y)))
            .as("%s vs %s", x, y).isEqualTo(Integer.signum(compareKeys(x, y)));
      }
    }
    List<PodMemory> ranked = MemoryPressureEviction.rank(all);
    for (int i = 1; i < ranked.size(); i++) {
      assertThat(compareKeys(ranked.get(i - 1), ranked.get(i))).isLessThanOrEqualTo(0);
    }
  }

  @Property(tries = 60)
  void housekeeping_evictsOnlyBelowTheThreshold_theFirstNonCriticalRankedPod(
      @ForAll @Size(min = 1, max = 6) List<@From("specs") Spec> specs,
      @ForAll @IntRange(min = 256, max = 3072) int capacityMi) {
    ManualClock clock = ManualClock.atEpoch2026();
    ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build();
    Map<String, Long> usage = new HashMap<>();
    ResourceList capacity = ResourceList.builder().put("memory", capacityMi + "Mi").build();
    store.create(Node.builder().name("n1").capacity(capacity).allocatable(capacity).build());
    NodeAgent agent = NodeAgent.builder(store, clock, "n1").healthSource(HealthSource.healthy())
        .memoryUsage((p, container) -> usage.getOrDefault(p.metadata().name(), 0L)).build();
    try {
      agent.start();
      List<PodMemory> expected = new ArrayList<>();
      long used = 0;
      for (int i = 0; i < specs.size(); i++) {
        Spec s = specs.get(i);
        Pod p = store.create(pod(i, s));
        long bytes = s.usageMi() == null ? 0 : s.usageMi() * MI;
        usage.put(p.metadata().name(), bytes);
        used += bytes;
        // a container using nothing reports no stats entry; the pod's working set is still known (0)
        expected.add(PodMemory.of(p, bytes));
      }
      agent.sync();
      clock.advance(NodeAgent.HOUSEKEEPING_PERIOD);
      agent.sync();

      long available = Math.max(0, capacityMi * MI - used);
      List<String> evicted = store.list(Pod.class).items().stream()
          .filter(p -> MemoryPressureEviction.REASON_EVICTED.equals(p.status().reason()))
          .map(p -> p.metadata().name()).toList();
      NodeCondition pressure = store.require(Node.class, "", "n1").status().condition(NodeCondition.MEMORY_PRESSURE);
      if (available >= MemoryPressureEviction.DEFAULT_HARD_THRESHOLD_BYTES) {
        assertThat(evicted).as("%d MiB available", available / MI).isEmpty();
        assertThat(pressure.status()).isEqualTo(ConditionStatus.False);
      } else {
        assertThat(pressure.status()).isEqualTo(ConditionStatus.True);
        PodMemory first = new MemoryPressureEviction(MemoryPressureEviction.DEFAULT_HARD_THRESHOLD_BYTES,
            MemoryPressureEviction.DEFAULT_PRESSURE_TRANSITION_PERIOD).choose(expected);
        assertThat(evicted).containsExactlyElementsOf(
            first == null ? List.of() : List.of(first.pod().metadata().name()));
      }
    } finally {
      agent.close();
      store.close();
    }
  }
}
