package io.fleetkit.networking.endpointslice;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeCondition;
import io.fleetkit.api.core.NodeSpec;
import io.fleetkit.api.core.NodeStatus;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.discovery.AddressType;
import io.fleetkit.api.discovery.Endpoint;
import io.fleetkit.api.discovery.EndpointSlice;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.reconcile.ObjectKey;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The topology check of the EndpointSlice controller: after node changes (and periodically when configured) the
 * Services whose hints the zones' new CPU shares overload are synced again, which redistributes their hints or
 * removes them. Upstream cases: {@code pkg/controller/endpointslice/endpointslice_controller_test.go}
 * {@code Test_checkNodeTopologyDistribution} (8 of 8).
 */
final class TopologyCheckTest {
  private static final String ZONE_A = "zone-a";
  private static final String ZONE_B = "zone-b";
  private static final String ZONE_C = "zone-c";

  /** {@code nodeInfo}: a null zone for no zone label, a null cpu for no allocatable CPU. */
  private record NodeInfo(@Nullable String zone, boolean ready, @Nullable Long milliCpu) {}

  private static Node node(String name, @Nullable String zone, boolean ready, @Nullable Long milliCpu) {
    ObjectMeta.Builder m = ObjectMeta.builder().name(name);
    if (zone != null) {
      m.label(SliceRules.LABEL_ZONE, zone);
    }
    NodeStatus st = NodeStatus.EMPTY.withConditions(List.of(NodeCondition.of(NodeCondition.READY,
        ready ? ConditionStatus.True : ConditionStatus.False)));
    if (milliCpu != null) {
      st = st.withAllocatable(ResourceList.ofCpuMemory(milliCpu, 0));
    }
    return new Node(m.build(), NodeSpec.EMPTY, st);
  }

  /** Runs one {@code Test_checkNodeTopologyDistribution} case: how many Services the check queues. */
  private static int queued(List<NodeInfo> nodes, Map<String, Map<String, Integer>> hints) {
    try (ObjectStore store = ObjectStore.builder().directDelivery().build();
         EndpointSliceController c = EndpointSliceController.builder(store).stepping().build()) {
      int i = 0;
      for (NodeInfo n : nodes) {
        store.create(node("node-" + i++, n.zone(), n.ready(), n.milliCpu()));
      }
      c.start().join();
      c.runUntilIdle();
      hints.forEach((svc, byZone) -> c.topologyCache().setHints(svc, AddressType.IPv4, byZone));
      List<ObjectKey> keys = c.checkNodeTopologyDistribution();
      assertThat(keys).allSatisfy(k -> assertThat(hints).containsKey(k.toString()));
      return keys.size();
    }
  }

  @Test
  void checkNodeTopologyDistribution_upstreamCases() {
    // "empty"
    assertThat(queued(List.of(), Map.of())).isZero();
    // "lopsided, queue required"
    assertThat(queued(List.of(new NodeInfo(ZONE_A, true, 100L), new NodeInfo(ZONE_B, true, 1000L),
        new NodeInfo(ZONE_C, true, 2000L)), Map.of("ns/svc1", Map.of(ZONE_A, 1, ZONE_B, 2, ZONE_C, 3)))).isEqualTo(1);
    // "lopsided but 1 unready, queue required because unready node means 0 CPU in one zone"
    assertThat(queued(List.of(new NodeInfo(ZONE_A, false, 100L), new NodeInfo(ZONE_B, true, 1000L),
        new NodeInfo(ZONE_C, true, 2000L)), Map.of("ns/svc1", Map.of(ZONE_A, 1, ZONE_B, 2, ZONE_C, 3)))).isEqualTo(1);
    // "even zones, uneven endpoint distribution but within threshold, no sync required"
    List<NodeInfo> even = List.of(new NodeInfo(ZONE_B, true, 2000L), new NodeInfo(ZONE_B, true, 2000L),
        new NodeInfo(ZONE_C, true, 2000L), new NodeInfo(ZONE_C, true, 2000L));
    assertThat(queued(even, Map.of("ns/svc1", Map.of(ZONE_B, 5, ZONE_C, 4)))).isZero();
    // "even zones but node missing zone, sync required"
    assertThat(queued(List.of(new NodeInfo(ZONE_B, true, 2000L), new NodeInfo(null, true, 2000L),
        new NodeInfo(ZONE_C, true, 2000L), new NodeInfo(ZONE_C, true, 2000L)),
        Map.of("ns/svc1", Map.of(ZONE_B, 5, ZONE_C, 4)))).isEqualTo(1);
    // "even zones but node missing cpu, sync required"
    assertThat(queued(List.of(new NodeInfo(ZONE_B, true, 2000L), new NodeInfo(ZONE_B, true, null),
        new NodeInfo(ZONE_C, true, 2000L), new NodeInfo(ZONE_C, true, 2000L)),
        Map.of("ns/svc1", Map.of(ZONE_B, 5, ZONE_C, 4)))).isEqualTo(1);
    // "even zones, uneven endpoint distribution beyond threshold, no sync required" (upstream's name; it expects
    // the Service queued: 4 < ceil(10 × 0.5 / 1.2) = 5)
    assertThat(queued(even, Map.of("ns/svc1", Map.of(ZONE_B, 6, ZONE_C, 4)))).isEqualTo(1);
    // "3 uneven zones, matching endpoint distribution, no sync required"
    List<NodeInfo> uneven = List.of(new NodeInfo(ZONE_A, true, 2000L), new NodeInfo(ZONE_B, true, 1000L),
        new NodeInfo(ZONE_C, true, 100L));
    assertThat(queued(uneven, Map.of("ns/svc1", Map.of(ZONE_A, 20, ZONE_B, 10, ZONE_C, 1)))).isZero();
    // "3 uneven zones, endpoint distribution within threshold but below 1, sync required"
    assertThat(queued(uneven, Map.of("ns/svc1", Map.of(ZONE_A, 20, ZONE_B, 10, ZONE_C, 0)))).isEqualTo(1);
  }

  private static Service autoService() {
    Service s = SliceFixtures.service("svc");
    return Service.of(s.metadata().toBuilder().annotation(EndpointSliceReconciler.TOPOLOGY_MODE_ANNOTATION, "Auto")
        .build(), s.spec());
  }

  private static Pod podOn(int n, String node) {
    Pod p = SliceFixtures.pod(n, true, false);
    return new Pod(p.metadata().toBuilder().resourceVersion("").build(), p.spec().toBuilder().nodeName(node).build(),
        p.status());
  }

  /** Hinted endpoints per zone over the Service's slices. */
  private static Map<String, Integer> hintsByZone(ObjectStore store) {
    Map<String, Integer> out = new TreeMap<>();
    for (EndpointSlice s : store.list(EndpointSlice.class, SliceFixtures.NS, LabelSelector.of(Map.of(
        EndpointSlice.LABEL_SERVICE_NAME, "svc"))).items()) {
      for (Endpoint e : s.endpoints()) {
        if (e.hints() != null) {
          e.hints().forZones().forEach(z -> out.merge(z, 1, Integer::sum));
        }
      }
    }
    return out;
  }

  private static void setReady(ObjectStore store, String node, boolean ready) {
    Node n = store.require(Node.class, "", node);
    store.updateStatus(new Node(n.metadata(), n.spec(), n.status().withConditions(List.of(NodeCondition.of(
        NodeCondition.READY, ready ? ConditionStatus.True : ConditionStatus.False)))));
  }

  /**
   * Node readiness changes move the zones' shares: the Services whose hints they overload are synced again, which
   * redistributes their hints, or removes them when no allocation is possible. As upstream, a Service whose hints
   * were removed is no longer tracked as hinted: its hints come back at its next sync (here: a pod change).
   */
  @Test
  void nodeReadinessChanges_overloadedServiceResynced_hintsRedistributedRemovedAndReadded() {
    try (ObjectStore store = ObjectStore.builder().directDelivery().build();
         EndpointSliceController c = EndpointSliceController.builder(store).stepping().build()) {
      store.create(node("node-a", ZONE_A, true, 1000L));
      store.create(node("node-b", ZONE_B, true, 1000L));
      store.create(node("node-c", ZONE_C, true, 1000L));
      store.create(autoService());
      // four endpoints in zone a, one in b, one in c: each zone needs 2, so a gives one to b and one to c
      List<String> placement = List.of("node-a", "node-a", "node-a", "node-a", "node-b", "node-c");
      for (int i = 0; i < placement.size(); i++) {
        store.create(podOn(i, placement.get(i)));
      }
      c.start().join();
      c.runUntilIdle();
      assertThat(hintsByZone(store)).isEqualTo(Map.of(ZONE_A, 2, ZONE_B, 2, ZONE_C, 2));

      // zone c's node goes not ready: a and b now need ceil(6 × 0.5 / 1.2) = 3 each, so the Service is overloaded;
      // no pod changed, only the topology check queues it. Zone a keeps 3, gives 1 to b (upstream only moves hints
      // between zones that have an allocation: zone c's own endpoint keeps its hint)
      setReady(store, "node-c", false);
      c.runUntilIdle();
      assertThat(hintsByZone(store)).isEqualTo(Map.of(ZONE_A, 3, ZONE_B, 2, ZONE_C, 1));

      // zone b's node too: nodes ready in one zone only, the hints are removed
      setReady(store, "node-b", false);
      c.runUntilIdle();
      assertThat(hintsByZone(store)).isEmpty();
      assertThat(c.topologyCache().endpointsByZone("test/svc", AddressType.IPv4)).isNull();

      // both back: the Service is not tracked as hinted any more, so the check does not queue it ...
      setReady(store, "node-b", true);
      setReady(store, "node-c", true);
      assertThat(c.runUntilIdle()).isEqualTo(1); // the topology check alone
      assertThat(hintsByZone(store)).isEmpty();
      // ... its next sync (any pod change) adds them again
      Pod p = store.require(Pod.class, SliceFixtures.NS, "pod0");
      store.update(new Pod(p.metadata().toBuilder().label("rev", "2").build(), p.spec(), p.status()));
      c.runUntilIdle();
      assertThat(hintsByZone(store)).isEqualTo(Map.of(ZONE_A, 2, ZONE_B, 2, ZONE_C, 2));
    }
  }

  @Test
  void cpuChangeWithoutNodeEvent_caughtByPeriodicCheck() {
    ManualClock clock = new ManualClock(Instant.parse("2026-12-01T00:00:00Z"));
    try (ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build();
         EndpointSliceController c = EndpointSliceController.builder(store).clock(clock).stepping()
             .topologyCheckPeriod(Duration.ofSeconds(30)).build()) {
      store.create(node("node-a", ZONE_A, true, 1000L));
      store.create(node("node-b", ZONE_B, true, 1000L));
      store.create(autoService());
      for (int i = 0; i < 4; i++) {
        store.create(podOn(i, i % 2 == 0 ? "node-a" : "node-b"));
      }
      c.start().join();
      c.runUntilIdle();
      assertThat(hintsByZone(store)).isEqualTo(Map.of(ZONE_A, 2, ZONE_B, 2));

      // zone-b's node triples its CPU: kube's node handlers ignore allocatable changes, so nothing is queued ...
      Node nb = store.require(Node.class, "", "node-b");
      store.updateStatus(new Node(nb.metadata(), nb.spec(), nb.status().withAllocatable(ResourceList.ofCpuMemory(3000,
          0))));
      c.runUntilIdle();
      assertThat(hintsByZone(store)).isEqualTo(Map.of(ZONE_A, 2, ZONE_B, 2));
      // ... until the periodic check: zone-b needs ceil(4 × 0.75 / 1.2) = 3, so one of zone-a's endpoints serves b
      clock.advance(Duration.ofSeconds(31));
      c.runUntilIdle();
      assertThat(hintsByZone(store)).isEqualTo(Map.of(ZONE_A, 1, ZONE_B, 3));
    }
  }

  @Test
  void topologyCheckPeriod_notPositive_refused() {
    try (ObjectStore store = ObjectStore.builder().directDelivery().build()) {
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> EndpointSliceController.builder(store)
          .topologyCheckPeriod(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("EndpointSliceController: topologyCheckPeriod must be positive but was PT0S");
    }
  }
}
