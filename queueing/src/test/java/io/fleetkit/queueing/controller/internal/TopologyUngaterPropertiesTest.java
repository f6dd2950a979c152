package io.fleetkit.queueing.controller.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.queueing.PodSetAssignment;
import io.fleetkit.queueing.PodSetTopologyRequest;
import io.fleetkit.queueing.QuotaReservation;
import io.fleetkit.queueing.TopologyAssignment;
import io.fleetkit.queueing.controller.QueueLabels;
import java.time.Instant;
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
 * Invariants of the topology ungater on random assignments and pods (some already ungated, some finished, indexes
 * missing, repeated or out of range): it ungates only live gated pods, each once; it never puts more pods into a
 * domain than the assignment leaves free there after the pods already ungated; and it ungates as many pods as it can,
 * {@code min(gated, free slots)}, whether it goes by ranks or greedily.
 */
final class TopologyUngaterPropertiesTest {
  private static final String BLOCK = "example.com/block";
  private static final String RACK = "example.com/rack";
  private static final String INDEX = "example.com/index";

  /** A pod: gated or ungated onto domain {@code domain} (an index into the domains, or one outside), index, phase. */
  record P(boolean gated, int domain, int index, boolean hasIndex, boolean finished) {}

  @Provide
  Arbitrary<List<Integer>> domainCounts() {
    return Arbitraries.integers().between(1, 3).list().ofMinSize(1).ofMaxSize(5);
  }

  @Provide
  Arbitrary<List<P>> pods() {
    Arbitrary<P> pod = Combinators.combine(Arbitraries.integers().between(0, 2).map(i -> i > 0),
        Arbitraries.integers().between(0, 5), Arbitraries.integers().between(0, 16),
        Arbitraries.integers().between(0, 9).map(i -> i > 0), Arbitraries.integers().between(0, 7).map(i -> i == 0))
        .as(P::new);
    return pod.list().ofMaxSize(16);
  }

  @Property(tries = 1000)
  void ungatesOnlyLiveGatedPodsOnce_neverOverfillsADomain_andFillsAllItCan(
      @ForAll("domainCounts") List<Integer> counts, @ForAll("pods") List<P> spec, @ForAll boolean ranked) {
    List<TopologyAssignment.Domain> domains = new ArrayList<>();
    int total = 0;
    for (int i = 0; i < counts.size(); i++) {
      domains.add(TopologyAssignment.Domain.of(counts.get(i), "b" + (i % 2), "r" + i));
      total += counts.get(i);
    }
    TopologyAssignment ta = new TopologyAssignment(List.of(BLOCK, RACK), domains);
    QuotaReservation admission = new QuotaReservation("ns/wl", "cq", List.of(new PodSetAssignment("main", total,
        Map.of("cpu", "f"), ResourceList.builder().put("cpu", Integer.toString(total)).build(), ta)),
        Instant.EPOCH, false);
    Map<String, PodSetTopologyRequest> requests = ranked
        ? Map.of("main", PodSetTopologyRequest.ofPodIndexLabel(INDEX)) : Map.of();
    TopologyUngater.WorkloadView view = new TopologyUngater.WorkloadView("ns", "wl", admission, true, requests,
        Set.of());
    List<Pod> pods = new ArrayList<>();
    Map<List<String>, Integer> ungatedBefore = new HashMap<>();
    int gatedLive = 0;
    for (int i = 0; i < spec.size(); i++) {
      P p = spec.get(i);
      Pod.Builder b = Pod.builder().namespace("ns").name("p-" + i).annotation(QueueLabels.WORKLOAD, "wl")
          .label(QueueLabels.POD_SET, "main").container("c", "busybox:1", ResourceList.EMPTY);
      if (p.hasIndex()) {
        b.label(INDEX, Integer.toString(p.index()));
      }
      if (p.gated()) {
        b.schedulingGate(QueueLabels.TOPOLOGY_SCHEDULING_GATE);
      } else {
        List<String> values = p.domain() < domains.size() ? domains.get(p.domain()).values() : List.of("bx", "rx");
        b.nodeSelector(Map.of(BLOCK, values.get(0), RACK, values.get(1)));
      }
      if (p.finished()) {
        b.phase(PodPhase.Succeeded);
      } else if (p.gated()) {
        gatedLive++;
      } else {
        ungatedBefore.merge(nodeDomain(b.build()), 1, Integer::sum);
      }
      pods.add(b.build());
    }

    TopologyUngater.Plan plan = TopologyUngater.plan(view, pods);

    assertThat(plan.error()).isNull();
    Set<String> seen = new HashSet<>();
    Map<List<String>, Integer> added = new HashMap<>();
    for (TopologyUngater.Ungate u : plan.ungates()) {
      assertThat(seen.add(u.pod().metadata().name())).as("ungated twice: %s", u.pod().metadata().name()).isTrue();
      assertThat(TopologyUngater.gated(u.pod())).isTrue();
      assertThat(u.pod().isTerminal()).isFalse();
      added.merge(List.of(u.nodeLabels().get(BLOCK), u.nodeLabels().get(RACK)), 1, Integer::sum);
    }
    int free = 0;
    for (TopologyAssignment.Domain d : domains) {
      int left = Math.max(0, d.count() - ungatedBefore.getOrDefault(d.values(), 0));
      assertThat(added.getOrDefault(d.values(), 0)).as("domain %s", d.values()).isLessThanOrEqualTo(left);
      free += left;
    }
    assertThat(added.keySet()).allMatch(k -> domains.stream().anyMatch(d -> d.values().equals(k)));
    assertThat(plan.ungates()).hasSize(Math.min(gatedLive, free));
  }

  private static List<String> nodeDomain(Pod p) {
    return List.of(p.spec().nodeSelector().get(BLOCK), p.spec().nodeSelector().get(RACK));
  }
}
