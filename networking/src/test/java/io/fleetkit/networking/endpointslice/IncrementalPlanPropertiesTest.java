package io.fleetkit.networking.endpointslice;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.IPFamily;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.core.ServiceSpec;
import io.fleetkit.api.discovery.EndpointSlice;
import io.fleetkit.api.meta.ObjectMeta;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The incremental plan (a memo of the previous plan, only changed pods examined) writes exactly what the full plan
 * writes, over random sequences of pod and node changes, each plan applied before the next.
 */
final class IncrementalPlanPropertiesTest {
  private static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");

  @Property(tries = 150)
  void incrementalPlan_anyChangeSequence_sameWritesAsFullPlan(@ForAll long seed,
      @ForAll @IntRange(min = 1, max = 8) int maxPerSlice, @ForAll boolean preferClose, @ForAll boolean namedPort,
      @ForAll boolean publishNotReady) {
    Random rnd = new Random(seed);
    ServiceSpec.Builder spec = ServiceSpec.builder().selector("foo", "bar").ipFamilies(List.of(IPFamily.IPv4))
        .publishNotReadyAddresses(publishNotReady)
        .port(namedPort ? ServicePort.of("http", 80, "web") : ServicePort.of("http", 80, 8080));
    if (preferClose) {
      spec.trafficDistribution(TrafficDistributionHints.PREFER_CLOSE);
    }
    Service svc = Service.of(ObjectMeta.builder().namespace(SliceFixtures.NS).name("svc").uid("svc-uid").build(),
        spec.build());
    Map<String, Node> nodes = new HashMap<>();
    nodes.put("node-1", SliceFixtures.node("node-1", Map.of(SliceRules.LABEL_ZONE, "a")));
    nodes.put("node-2", SliceFixtures.node("node-2", Map.of(SliceRules.LABEL_ZONE, "b")));
    TreeMap<String, Pod> pods = new TreeMap<>();
    int nextPod = 0;
    for (int i = rnd.nextInt(30); i > 0; i--) {
      Pod p = newPod(nextPod++, rnd, namedPort);
      pods.put(p.metadata().name(), p);
    }
    AtomicInteger incNames = new AtomicInteger();
    EndpointSliceReconciler incremental = new EndpointSliceReconciler(maxPerSlice, SliceRules.CONTROLLER_NAME, true,
        () -> "i" + incNames.incrementAndGet());
    SliceFixtures.FakeSlices slices = new SliceFixtures.FakeSlices(List.of());
    // the same, told which pods changed (as the controller does from pod events)
    AtomicInteger deltaNames = new AtomicInteger();
    EndpointSliceReconciler delta = new EndpointSliceReconciler(maxPerSlice, SliceRules.CONTROLLER_NAME, true,
        () -> "i" + deltaNames.incrementAndGet());
    SliceFixtures.FakeSlices deltaSlices = new SliceFixtures.FakeSlices(List.of());
    for (int step = 0; step < 25; step++) {
      Set<String> changed = null;
      if (step > 0) {
        Map<String, Pod> previous = new HashMap<>(pods);
        for (int m = 1 + rnd.nextInt(3); m > 0; m--) {
          nextPod = mutate(rnd, pods, nodes, nextPod, namedPort);
        }
        changed = new HashSet<>();
        for (String name : previous.keySet()) {
          if (previous.get(name) != pods.get(name)) {
            changed.add(name);
          }
        }
        for (String name : pods.keySet()) {
          if (!previous.containsKey(name)) {
            changed.add(name);
          }
        }
      }
      List<Pod> podList = List.copyOf(pods.values());
      List<EndpointSlice> before = slices.list();
      AtomicInteger fullNames = new AtomicInteger(incNames.get());
      deltaNames.set(incNames.get());
      EndpointSliceReconciler full = new EndpointSliceReconciler(maxPerSlice, SliceRules.CONTROLLER_NAME, true,
          () -> "i" + fullNames.incrementAndGet());
      SlicePlan want = full.plan(svc, podList, nodes::get, before, NOW);
      SlicePlan got = incremental.plan(svc, podList, nodes::get, before, NOW);
      assertThat(got).as("step %d", step).isEqualTo(want);
      slices.apply(got);
      SlicePlan gotDelta = delta.plan(svc, new TreeMap<>(pods), changed, nodes::get, deltaSlices.list(), NOW);
      assertThat(gotDelta).as("step %d, told %s changed", step, changed).isEqualTo(want);
      deltaSlices.apply(gotDelta);
    }
    assertThat(delta.plan(svc, new TreeMap<>(pods), Set.of(), nodes::get, deltaSlices.list(), NOW).writes())
        .isZero();
    // a second plan over an unchanged input writes nothing, by either path
    List<Pod> podList = List.copyOf(pods.values());
    assertThat(incremental.plan(svc, podList, nodes::get, slices.list(), NOW).writes()).isZero();
  }

  @Property(tries = 20)
  void incrementalPlan_onePodFlipsInLargeService_usedAndWritesOneSlice(@ForAll long seed) {
    Random rnd = new Random(seed);
    Service svc = SliceFixtures.service("svc");
    Map<String, Node> nodes = Map.of("node-1", SliceFixtures.node("node-1", Map.of()));
    TreeMap<String, Pod> pods = new TreeMap<>();
    for (int i = 0; i < 500; i++) {
      Pod p = SliceFixtures.pod(i, true, false);
      pods.put(p.metadata().name(), p);
    }
    EndpointSliceReconciler r = SliceFixtures.reconciler(100);
    SliceFixtures.FakeSlices slices = new SliceFixtures.FakeSlices(List.of());
    slices.apply(r.plan(svc, List.copyOf(pods.values()), nodes::get, slices.list(), NOW));
    for (int step = 0; step < 10; step++) {
      Pod p = pods.get("pod" + rnd.nextInt(500));
      pods.put(p.metadata().name(), SliceFixtures.withReady(p, !p.isReady()));
      int before = r.incrementalPlans();
      SlicePlan plan = r.plan(svc, List.copyOf(pods.values()), nodes::get, slices.list(), NOW);
      assertThat(r.incrementalPlans()).isEqualTo(before + 1);
      assertThat(plan.updates()).hasSize(1);
      assertThat(plan.creates()).isEmpty();
      assertThat(plan.deletes()).isEmpty();
      slices.apply(plan);
    }
  }

  @Property(tries = 20)
  void changedPodsPlan_onePodFlipsInLargeService_incrementalAndOneSliceWritten(@ForAll long seed) {
    Random rnd = new Random(seed);
    Service svc = SliceFixtures.service("svc");
    Map<String, Node> nodes = Map.of("node-1", SliceFixtures.node("node-1", Map.of()));
    TreeMap<String, Pod> pods = new TreeMap<>();
    for (int i = 0; i < 500; i++) {
      Pod p = SliceFixtures.pod(i, true, false);
      pods.put(p.metadata().name(), p);
    }
    EndpointSliceReconciler r = SliceFixtures.reconciler(100);
    SliceFixtures.FakeSlices slices = new SliceFixtures.FakeSlices(List.of());
    slices.apply(r.plan(svc, pods, null, nodes::get, slices.list(), NOW));
    for (int step = 0; step < 10; step++) {
      Pod p = pods.get("pod" + rnd.nextInt(500));
      pods.put(p.metadata().name(), SliceFixtures.withReady(p, !p.isReady()));
      int before = r.incrementalPlans();
      SlicePlan plan = r.plan(svc, pods, Set.of(p.metadata().name()), nodes::get, slices.list(), NOW);
      assertThat(r.incrementalPlans()).isEqualTo(before + 1);
      assertThat(plan.updates()).hasSize(1);
      assertThat(plan.creates()).isEmpty();
      assertThat(plan.deletes()).isEmpty();
      slices.apply(plan);
    }
  }

  private static Pod newPod(int n, Random rnd, boolean namedPort) {
    Pod p = SliceFixtures.pod(n, rnd.nextBoolean(), false);
    return namedPort ? SliceFixtures.withNamedPort(p, "web", 8080) : p;
  }

  private static int mutate(Random rnd, TreeMap<String, Pod> pods, Map<String, Node> nodes, int nextPod,
      boolean namedPort) {
    List<String> names = new ArrayList<>(pods.keySet());
    int op = rnd.nextInt(names.isEmpty() ? 1 : 11);
    if (op == 0) {
      Pod p = newPod(nextPod, rnd, namedPort);
      pods.put(p.metadata().name(), p);
      return nextPod + 1;
    }
    String name = names.get(rnd.nextInt(names.size()));
    Pod p = pods.get(name);
    Pod q = switch (op) {
      case 1, 2 -> SliceFixtures.withReady(p, !p.isReady());
      case 3 -> new Pod(p.metadata(), p.spec(), p.status().withPodIPs(List.of("10.9." + rnd.nextInt(4) + "."
          + (1 + rnd.nextInt(250)))));
      case 4 -> null;
      case 5 -> new Pod(p.metadata().toBuilder().deletionTimestamp(p.metadata().deletionTimestamp() == null
          ? NOW : null).build(), p.spec(), p.status());
      case 6 -> new Pod(p.metadata(), p.spec().toBuilder().nodeName(switch (rnd.nextInt(5)) {
        case 0 -> "node-missing";
        case 1, 2 -> "node-2";
        default -> "node-1";
      }).build(), p.status());
      case 7 -> new Pod(p.metadata(), p.spec(), p.status().withPhase(p.status().phase() == PodPhase.Running
          ? PodPhase.Succeeded : PodPhase.Running));
      case 8 -> namedPort && rnd.nextInt(3) == 0 ? SliceFixtures.withNamedPort(p, "web", 9090)
          : new Pod(p.metadata().toBuilder().resourceVersion(Integer.toString(rnd.nextInt(1000))).build(),
              p.spec(), p.status());
      case 9 -> {
        String zone = rnd.nextBoolean() ? "a" : "c";
        nodes.put("node-1", SliceFixtures.node("node-1", Map.of(SliceRules.LABEL_ZONE, zone)));
        yield p;
      }
      default -> new Pod(p.metadata(), p.spec(), p.status().withPodIPs(List.of()));
    };
    if (q == null) {
      pods.remove(name);
    } else {
      pods.put(name, q);
    }
    return nextPod;
  }
}
