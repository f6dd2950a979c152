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
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * {@code topology-mode: Auto} through the reconciler: cases ported from {@code kubernetes/endpointslice}
 * {@code reconciler_test.go} TestReconcileTopology (5 of 5; writes, hints per zone and cross-zone hints; the
 * metrics assertions are not ported) and TestReconcile_TrafficDistribution's "trafficDistribution=PreferClose,
 * topologyAnnotation=Auto" (the annotation takes precedence).
 */
final class TopologyHintsReconcileTest {
  private static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");
  private static final List<String> ZONES = List.of("zone-a", "zone-b", "zone-c");

  private final Map<String, Node> nodes = new LinkedHashMap<>();
  private final List<Pod> pods = new ArrayList<>();

  TopologyHintsReconcileTest() {
    // 3 zones, 10 nodes of 100m and one pod per node in each
    for (int i = 0; i < ZONES.size(); i++) {
      for (int j = 0; j < 10; j++) {
        String name = "node-" + ZONES.get(i) + "-" + j;
        nodes.put(name, node(name, ZONES.get(i)));
        Pod p = SliceFixtures.pod(i * 100 + j, true, false);
        pods.add(new Pod(p.metadata(), p.spec().toBuilder().nodeName(name).build(), p.status()));
      }
    }
  }

  private static Node node(String name, String zone) {
    return new Node(ObjectMeta.builder().name(name).label(SliceRules.LABEL_ZONE, zone).build(), NodeSpec.EMPTY,
        NodeStatus.EMPTY.withAllocatable(ResourceList.ofCpuMemory(100, 0)).withConditions(List.of(
            NodeCondition.of(NodeCondition.READY, ConditionStatus.True))));
  }

  private List<Pod> podsAt(int... indexes) {
    List<Pod> out = new ArrayList<>();
    for (int i : indexes) {
      out.add(pods.get(i));
    }
    return out;
  }

  private static Service service(String hintsAnnotation, String trafficDistribution) {
    Service s = SliceFixtures.service("foo");
    var spec = s.spec().toBuilder().trafficDistribution(trafficDistribution).build();
    return Service.of(s.metadata().toBuilder().annotation(EndpointSliceReconciler.DEPRECATED_TOPOLOGY_HINTS_ANNOTATION,
        hintsAnnotation).build(), spec);
  }

  private EndpointSlice existing(String name, Service svc, List<Pod> slicePods) {
    List<Endpoint> eps = new ArrayList<>();
    for (Pod p : slicePods) {
      eps.add(SliceRules.podToEndpoint(p, nodes.get(p.spec().nodeName()), svc, AddressType.IPv4));
    }
    ObjectMeta m = ObjectMeta.builder().namespace(SliceFixtures.NS).name(name)
        .ownerReference(SliceRules.ownerRef(svc))
        .label(EndpointSlice.LABEL_MANAGED_BY, SliceRules.CONTROLLER_NAME)
        .label(EndpointSlice.LABEL_SERVICE_NAME, svc.metadata().name()).build();
    return new EndpointSlice(m, AddressType.IPv4, eps, SliceRules.endpointPorts(svc, slicePods.get(0)));
  }

  private record Outcome(SliceFixtures.FakeSlices client, @Nullable Map<String, Integer> hints, int crossZone) {}

  private Outcome reconcile(boolean cacheEnabled, Service svc, List<EndpointSlice> existing, List<Pod> slicePods) {
    TopologyCache cache = null;
    if (cacheEnabled) {
      cache = new TopologyCache();
      cache.setNodes(nodes.values());
    }
    AtomicInteger n = new AtomicInteger();
    EndpointSliceReconciler r = new EndpointSliceReconciler(100, SliceRules.CONTROLLER_NAME, true,
        () -> "x" + n.incrementAndGet(), cache);
    SliceFixtures.FakeSlices client = new SliceFixtures.FakeSlices(existing);
    client.apply(r.plan(svc, slicePods, nodes::get, client.list(), NOW));
    Map<String, Integer> hints = new HashMap<>();
    int cross = 0;
    boolean anyHint = false;
    for (EndpointSlice s : client.list()) {
      for (Endpoint e : s.endpoints()) {
        if (e.hints() == null || e.hints().forZones().isEmpty()) {
          continue;
        }
        anyHint = true;
        assertThat(e.hints().forZones()).hasSize(1);
        assertThat(e.zone()).isNotEmpty();
        String z = e.hints().forZones().get(0);
        hints.merge(z, 1, Integer::sum);
        cross += z.equals(e.zone()) ? 0 : 1;
      }
    }
    return new Outcome(client, anyHint ? hints : null, cross);
  }

  private static void assertEveryEndpointHinted(SliceFixtures.FakeSlices client) {
    for (EndpointSlice s : client.list()) {
      for (Endpoint e : s.endpoints()) {
        assertThat(e.hints()).as("hints of %s", e.addresses()).isNotNull();
      }
    }
  }

  // "no change, topologyCache disabled, annotation == auto"
  @Test
  void noTopologyCache_auto_noHintsNoWrites() {
    Service svc = service("auto", "");
    List<Pod> zoneC = podsAt(27, 28, 29);
    Outcome o = reconcile(false, svc, List.of(existing("zone-c", svc, zoneC)), zoneC);
    assertThat(o.client().actions).isEmpty();
    assertThat(o.client().list()).hasSize(1);
    assertThat(o.hints()).isNull();
  }

  // "enabling topologyCache, hintsAnnotation == auto"
  @Test
  void topologyCache_autoThreeEndpointsInOneZone_oneHintPerZoneTwoCrossZone() {
    Service svc = service("auto", "");
    List<Pod> zoneC = podsAt(27, 28, 29);
    Outcome o = reconcile(true, svc, List.of(existing("zone-c", svc, zoneC)), zoneC);
    assertThat(o.client().actions).containsExactly("update");
    assertThat(o.client().list()).hasSize(1);
    assertEveryEndpointHinted(o.client());
    assertThat(o.hints()).isEqualTo(Map.of("zone-a", 1, "zone-b", 1, "zone-c", 1));
    assertThat(o.crossZone()).isEqualTo(2);
  }

  // "topology enabled, hintsAnnotation==auto, ratio beyond threshold"
  @Test
  void topologyCache_autoFourEndpointsThreeZones_noHintsNoWrites() {
    Service svc = service("auto", "");
    List<Pod> ac = podsAt(5, 6, 25, 26);
    Outcome o = reconcile(true, svc, List.of(existing("zone-a-c", svc, ac)), ac);
    assertThat(o.client().actions).isEmpty();
    assertThat(o.hints()).isNull();
  }

  // "topology enabled, hintsAnnotation==Auto, more slices and endpoints"
  @Test
  void topologyCache_autoTwoSlicesNineEndpoints_threePerZoneOneCrossZoneBothUpdated() {
    Service svc = service("Auto", "");
    List<Pod> ac = podsAt(5, 6, 25, 26);
    List<Pod> ab = podsAt(7, 8, 16, 17, 18);
    List<Pod> all = new ArrayList<>(ac);
    all.addAll(ab);
    Outcome o = reconcile(true, svc, List.of(existing("zone-a-c", svc, ac), existing("zone-a-b", svc, ab)), all);
    assertThat(o.client().actions).containsExactly("update", "update");
    assertThat(o.client().list()).hasSize(2);
    assertEveryEndpointHinted(o.client());
    assertThat(o.hints()).isEqualTo(Map.of("zone-a", 3, "zone-b", 3, "zone-c", 3));
    assertThat(o.crossZone()).isEqualTo(1);
  }

  // "topology enabled, hintsAnnotation==disabled, more slices and endpoints"
  @Test
  void topologyCache_disabledAnnotation_noHintsNoWrites() {
    Service svc = service("disabled", "");
    List<Pod> ac = podsAt(5, 6, 25, 26);
    List<Pod> ab = podsAt(7, 8, 16, 17, 18);
    List<Pod> all = new ArrayList<>(ac);
    all.addAll(ab);
    Outcome o = reconcile(true, svc, List.of(existing("zone-a-c", svc, ac), existing("zone-a-b", svc, ab)), all);
    assertThat(o.client().actions).isEmpty();
    assertThat(o.hints()).isNull();
  }

  // TestReconcile_TrafficDistribution: node-0 in zone-a holds pod-0, node-1 in zone-b pods 1-3, node-2 in zone-c
  // pods 4-5; no existing slices, the topology cache on
  private Outcome trafficDistribution(String annotation, String trafficDistribution) {
    nodes.clear();
    for (int i = 0; i < 3; i++) {
      nodes.put("node-" + i, node("node-" + i, ZONES.get(i)));
    }
    String[] placement = {"node-0", "node-1", "node-1", "node-1", "node-2", "node-2"};
    List<Pod> six = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      Pod p = SliceFixtures.pod(i, true, false);
      six.add(new Pod(p.metadata(), p.spec().toBuilder().nodeName(placement[i]).build(), p.status()));
    }
    Outcome o = reconcile(true, service(annotation, trafficDistribution), List.of(), six);
    assertThat(o.client().actions).containsExactly("create");
    assertThat(o.client().list()).hasSize(1);
    return o;
  }

  // "trafficDistribution=PreferClose, topologyAnnotation=Disabled": every endpoint hinted for its own zone
  @Test
  void preferCloseAndDisabled_hintsFollowTrafficDistribution() {
    Outcome o = trafficDistribution("Disabled", TrafficDistributionHints.PREFER_CLOSE);
    assertEveryEndpointHinted(o.client());
    assertThat(o.hints()).isEqualTo(Map.of("zone-a", 1, "zone-b", 3, "zone-c", 2));
    assertThat(o.crossZone()).isZero();
  }

  // "trafficDistribution=PreferClose, topologyAnnotation=Auto": the annotation wins, two hints per zone
  @Test
  void preferCloseAndAuto_annotationWins_twoHintsPerZoneOneCrossZone() {
    Outcome o = trafficDistribution("Auto", TrafficDistributionHints.PREFER_CLOSE);
    assertEveryEndpointHinted(o.client());
    assertThat(o.hints()).isEqualTo(Map.of("zone-a", 2, "zone-b", 2, "zone-c", 2));
    assertThat(o.crossZone()).isEqualTo(1);
  }

  // "trafficDistribution=nil, topologyAnnotation=<empty>": no hints
  @Test
  void noTrafficDistributionNoAnnotation_noHints() {
    Outcome o = trafficDistribution("", "");
    assertThat(o.hints()).isNull();
    assertThat(o.client().list().get(0).endpoints()).hasSize(6);
  }
}
