package io.fleetkit.networking.endpointslice;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeCondition;
import io.fleetkit.api.core.NodeSpec;
import io.fleetkit.api.core.NodeStatus;
import io.fleetkit.api.discovery.AddressType;
import io.fleetkit.api.discovery.Endpoint;
import io.fleetkit.api.discovery.EndpointConditions;
import io.fleetkit.api.discovery.EndpointHints;
import io.fleetkit.api.discovery.EndpointSlice;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Cases ported from {@code kubernetes/kubernetes} {@code staging/src/k8s.io/endpointslice/topologycache/
 * topologycache_test.go}: TestAddHints (6 of 6: slices to create and update with their expected hints, the events'
 * reasons and message prefixes, the per-zone hint counts kept in the cache) and TestSetNodes (9 of 9: sufficient node
 * information, CPU and ratios per zone).
 */
final class TopologyCacheTest {
  private static final String SVC = "ns/svc";

  /** An endpoint: {@code ready} null for an unknown condition; {@code hint} null for no hints. */
  private static Endpoint ep(String address, String zone, @Nullable Boolean ready, @Nullable String hint) {
    return new Endpoint(List.of(address), new EndpointConditions(ready, null, null), "", null, "", zone,
        hint == null ? null : EndpointHints.forZone(hint));
  }

  private static EndpointSlice slice(Endpoint... eps) {
    return new EndpointSlice(ObjectMeta.builder().namespace("ns").name("s" + eps.length + eps[0].addresses().get(0))
        .build(), AddressType.IPv4, List.of(eps), List.of());
  }

  private static TopologyCache cache(@Nullable Map<String, Double> ratios) {
    TopologyCache c = new TopologyCache();
    c.setCpuRatios(ratios);
    return c;
  }

  private static void assertEndpoints(List<EndpointSlice> got, List<EndpointSlice> want) {
    assertThat(got).hasSameSizeAs(want);
    for (int i = 0; i < want.size(); i++) {
      assertThat(got.get(i).endpoints()).as("slice %d", i).containsExactlyElementsOf(want.get(i).endpoints());
    }
  }

  private static void assertEvent(TopologyCache.Hinted h, String type, String reason, String messagePrefix) {
    assertThat(h.events()).hasSize(1);
    assertThat(h.events().get(0).type()).isEqualTo(type);
    assertThat(h.events().get(0).reason()).isEqualTo(reason);
    assertThat(h.events().get(0).message()).startsWith(messagePrefix).endsWith(", addressType: IPv4");
  }

  // TestAddHints "empty"
  @Test
  void addHints_empty_insufficientNodeInfo() {
    TopologyCache c = cache(null);
    TopologyCache.Hinted h = c.addHints(SVC, AddressType.IPv4, List.of(), List.of(), List.of());
    assertThat(h.toCreate()).isEmpty();
    assertThat(h.toUpdate()).isEmpty();
    assertEvent(h, "Warning", TopologyCache.REASON_DISABLED, TopologyCache.INSUFFICIENT_NODE_INFO);
    assertThat(c.endpointsByZone(SVC, AddressType.IPv4)).isNull();
  }

  // TestAddHints "slice to create, no zone ratios"
  @Test
  void addHints_noZoneRatios_noHints() {
    TopologyCache c = cache(null);
    EndpointSlice s = slice(ep("10.1.2.3", "zone-a", true, null));
    TopologyCache.Hinted h = c.addHints(SVC, AddressType.IPv4, List.of(s), List.of(), List.of());
    assertEndpoints(h.toCreate(), List.of(slice(ep("10.1.2.3", "zone-a", true, null))));
    assertThat(h.toUpdate()).isEmpty();
    assertEvent(h, "Warning", TopologyCache.REASON_DISABLED, TopologyCache.INSUFFICIENT_NODE_INFO);
    assertThat(c.endpointsByZone(SVC, AddressType.IPv4)).isNull();
  }

  // TestAddHints "slice to create with 2 endpoints, zone ratios require 3"
  @Test
  void addHints_twoEndpointsThreeZones_insufficientEndpoints() {
    TopologyCache c = cache(Map.of("zone-a", 0.3, "zone-b", 0.4, "zone-c", 0.3));
    EndpointSlice s = slice(ep("10.1.2.3", "zone-a", true, null), ep("10.1.2.4", "zone-b", true, null));
    TopologyCache.Hinted h = c.addHints(SVC, AddressType.IPv4, List.of(s), List.of(), List.of());
    assertEndpoints(h.toCreate(), List.of(s));
    assertThat(h.toUpdate()).isEmpty();
    assertEvent(h, "Warning", TopologyCache.REASON_DISABLED, TopologyCache.INSUFFICIENT_NUMBER_OF_ENDPOINTS);
    assertThat(c.endpointsByZone(SVC, AddressType.IPv4)).isNull();
  }

  // TestAddHints "slice to create with 2 endpoints, zone ratios only require 2"
  @Test
  void addHints_twoEndpointsTwoZones_ownZoneHints() {
    TopologyCache c = cache(Map.of("zone-a", 0.45, "zone-b", 0.55));
    EndpointSlice s = slice(ep("10.1.2.3", "zone-a", true, null), ep("10.1.2.4", "zone-b", true, null));
    TopologyCache.Hinted h = c.addHints(SVC, AddressType.IPv4, List.of(s), List.of(), List.of());
    assertEndpoints(h.toCreate(), List.of(slice(ep("10.1.2.3", "zone-a", true, "zone-a"),
        ep("10.1.2.4", "zone-b", true, "zone-b"))));
    assertThat(h.toUpdate()).isEmpty();
    assertEvent(h, "Normal", TopologyCache.REASON_ENABLED, TopologyCache.TOPOLOGY_AWARE_HINTS_ENABLED);
    assertThat(c.endpointsByZone(SVC, AddressType.IPv4)).isEqualTo(Map.of("zone-a", 1, "zone-b", 1));
  }

  // TestAddHints "slice to create with 2 ready, 1 unready, 1 unknown endpoints, zone ratios only require 2"
  @Test
  void addHints_readyUnreadyUnknown_onlyReadyHinted() {
    TopologyCache c = cache(Map.of("zone-a", 0.45, "zone-b", 0.55));
    EndpointSlice s = slice(ep("10.1.2.3", "zone-a", true, null), ep("10.1.2.4", "zone-b", true, null),
        ep("10.1.2.5", "zone-b", false, null), ep("10.1.2.6", "zone-b", null, null));
    TopologyCache.Hinted h = c.addHints(SVC, AddressType.IPv4, List.of(s), List.of(), List.of());
    assertEndpoints(h.toCreate(), List.of(slice(ep("10.1.2.3", "zone-a", true, "zone-a"),
        ep("10.1.2.4", "zone-b", true, "zone-b"), ep("10.1.2.5", "zone-b", false, null),
        ep("10.1.2.6", "zone-b", null, null))));
    assertThat(h.toUpdate()).isEmpty();
    assertEvent(h, "Normal", TopologyCache.REASON_ENABLED, TopologyCache.TOPOLOGY_AWARE_HINTS_ENABLED);
    assertThat(c.endpointsByZone(SVC, AddressType.IPv4)).isEqualTo(Map.of("zone-a", 1, "zone-b", 1));
  }

  // TestAddHints "slices to create and update within 3 zone threshold"
  @Test
  void addHints_createAndUpdateThreeZones_zoneAGivesOneToZoneB() {
    TopologyCache c = cache(Map.of("zone-a", 0.35, "zone-b", 0.35, "zone-c", 0.30));
    List<EndpointSlice> create = List.of(
        slice(ep("10.1.2.3", "zone-a", true, null), ep("10.1.2.4", "zone-b", true, null)),
        slice(ep("10.1.3.3", "zone-c", true, null), ep("10.1.3.4", "zone-c", true, null),
            ep("10.1.3.4", "zone-a", true, null)));
    List<EndpointSlice> update = List.of(
        slice(ep("10.2.2.3", "zone-a", true, null), ep("10.2.2.4", "zone-a", true, null)),
        slice(ep("10.2.3.3", "zone-b", true, null), ep("10.2.3.4", "zone-c", true, null),
            ep("10.2.3.4", "zone-a", true, null)));
    TopologyCache.Hinted h = c.addHints(SVC, AddressType.IPv4, create, update, List.of());
    assertEndpoints(h.toCreate(), List.of(
        slice(ep("10.1.2.3", "zone-a", true, "zone-b"), ep("10.1.2.4", "zone-b", true, "zone-b")),
        slice(ep("10.1.3.3", "zone-c", true, "zone-c"), ep("10.1.3.4", "zone-c", true, "zone-c"),
            ep("10.1.3.4", "zone-a", true, "zone-a"))));
    assertEndpoints(h.toUpdate(), List.of(
        slice(ep("10.2.2.3", "zone-a", true, "zone-a"), ep("10.2.2.4", "zone-a", true, "zone-a")),
        slice(ep("10.2.3.3", "zone-b", true, "zone-b"), ep("10.2.3.4", "zone-c", true, "zone-c"),
            ep("10.2.3.4", "zone-a", true, "zone-a"))));
    assertEvent(h, "Normal", TopologyCache.REASON_ENABLED, TopologyCache.TOPOLOGY_AWARE_HINTS_ENABLED);
    assertThat(c.endpointsByZone(SVC, AddressType.IPv4)).isEqualTo(Map.of("zone-a", 4, "zone-b", 3, "zone-c", 3));
  }

  @Test
  void addHints_secondTime_noEnabledEventAgain_andUnchangedValidSlicesStay() {
    TopologyCache c = cache(Map.of("zone-a", 0.5, "zone-b", 0.5));
    EndpointSlice hinted = slice(ep("10.1.2.3", "zone-a", true, "zone-a"), ep("10.1.2.4", "zone-b", true, "zone-b"));
    c.addHints(SVC, AddressType.IPv4, List.of(hinted), List.of(), List.of());
    TopologyCache.Hinted h = c.addHints(SVC, AddressType.IPv4, List.of(), List.of(), List.of(hinted));
    assertThat(h.events()).isEmpty();
    assertThat(h.toUpdate()).isEmpty();
    // an unchanged slice without hints is rewritten with them
    EndpointSlice bare = slice(ep("10.1.2.3", "zone-a", true, null), ep("10.1.2.4", "zone-b", true, null));
    TopologyCache.Hinted h2 = c.addHints(SVC, AddressType.IPv4, List.of(), List.of(), List.of(bare));
    assertEndpoints(h2.toUpdate(), List.of(hinted));
  }

  private record NodeInfo(String zone, long milliCpu, boolean ready, Map<String, String> labels) {
    NodeInfo(String zone, long milliCpu, boolean ready) {
      this(zone, milliCpu, ready, Map.of());
    }
  }

  private static TopologyCache setNodes(NodeInfo... infos) {
    List<Node> nodes = new ArrayList<>();
    int i = 0;
    for (NodeInfo n : infos) {
      Map<String, String> labels = new HashMap<>(n.labels());
      if (!n.zone().isEmpty()) {
        labels.put(SliceRules.LABEL_ZONE, n.zone());
      }
      NodeStatus st = NodeStatus.EMPTY.withAllocatable(ResourceList.ofCpuMemory(n.milliCpu(), 0))
          .withConditions(List.of(NodeCondition.of(NodeCondition.READY,
              n.ready() ? ConditionStatus.True : ConditionStatus.False)));
      nodes.add(new Node(ObjectMeta.builder().name("node-" + i++).labels(labels).build(), NodeSpec.EMPTY, st));
    }
    TopologyCache c = new TopologyCache();
    c.setNodes(nodes);
    return c;
  }

  private static void assertNodes(TopologyCache c, boolean sufficient, @Nullable Map<String, Long> cpu,
      @Nullable Map<String, Double> ratios) {
    assertThat(c.sufficientNodeInfo()).isEqualTo(sufficient);
    assertThat(c.cpuByZone()).isEqualTo(cpu);
    assertThat(c.cpuRatiosByZone()).isEqualTo(ratios);
  }

  // TestSetNodes, every case
  @Test
  void setNodes_upstreamCases() {
    assertNodes(setNodes(), false, null, null); // empty
    assertNodes(setNodes(new NodeInfo("zone-a", 1000, true)), false, null, null); // single node
    assertNodes(setNodes(new NodeInfo("zone-a", 1000, true), new NodeInfo("zone-a", 1000, true)), false, null,
        null); // single zone
    assertNodes(setNodes(new NodeInfo("zone-a", 1000, true), new NodeInfo("zone-b", 1000, true)), true,
        Map.of("zone-a", 1000L, "zone-b", 1000L), Map.of("zone-a", 0.5, "zone-b", 0.5)); // 2 zones
    assertNodes(setNodes(new NodeInfo("zone-a", 1000, false), new NodeInfo("zone-b", 1000, true)), false, null,
        null); // 2 zones, unready node in 1, ready node in 1
    assertNodes(setNodes(new NodeInfo("zone-a", 1000, true), new NodeInfo("zone-b", 1000, true,
        Map.of("node-role.kubernetes.io/control-plane", ""))), false, null, null); // control plane node in 1
    assertNodes(setNodes(new NodeInfo("zone-a", 1000, true), new NodeInfo("zone-b", 1000, true),
        new NodeInfo("zone-b", 1000, false)), true, Map.of("zone-a", 1000L, "zone-b", 1000L),
        Map.of("zone-a", 0.5, "zone-b", 0.5)); // unready node in 1, ready node in 2
    assertNodes(setNodes(new NodeInfo("zone-a", 1000, true), new NodeInfo("zone-b", 1000, true),
        new NodeInfo("zone-b", 1000, true, Map.of("node-role.kubernetes.io/control-plane", ""))), true,
        Map.of("zone-a", 1000L, "zone-b", 1000L), Map.of("zone-a", 0.5, "zone-b", 0.5)); // control plane in 2
    assertNodes(setNodes(new NodeInfo("zone-a", 1000, true), new NodeInfo("zone-a", 1000, true),
        new NodeInfo("zone-a", 1000, true), new NodeInfo("zone-a", 2000, true), new NodeInfo("zone-b", 3000, true),
        new NodeInfo("zone-b", 1500, true), new NodeInfo("zone-c", 500, true)), true,
        Map.of("zone-a", 5000L, "zone-b", 4500L, "zone-c", 500L),
        Map.of("zone-a", 0.5, "zone-b", 0.45, "zone-c", 0.05)); // 3 zones
  }

  @Test
  void setNodes_nodeWithoutZone_insufficient() {
    assertNodes(setNodes(new NodeInfo("zone-a", 1000, true), new NodeInfo("zone-b", 1000, true),
        new NodeInfo("", 1000, true)), false, null, null);
  }
}
