package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.DaemonSet;
import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.ContainerPort;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeAddress;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.core.ServiceSpec;
import io.fleetkit.api.core.ServiceStatus;
import io.fleetkit.api.discovery.Endpoint;
import io.fleetkit.api.discovery.EndpointSlice;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.simulation.Scenario;
import io.fleetkit.api.simulation.ScenarioFeatures;
import io.fleetkit.api.simulation.ScenarioSpec;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.WatchEventType;
import io.fleetkit.networking.ClusterNetworking;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Simulated nodes get addresses as they register ({@link NodeAddresses}), the simulated kubelet writes them into its
 * pods' {@code status.hostIP} and {@code status.hostIPs}, and host-network pods take their node's IP as pod IP.
 */
final class NodeAddressesInSimulationTest {
  private static final long GI = 1024L * 1024 * 1024;

  private static String internalIp(Node n) {
    return n.status().addresses().stream().filter(a -> a.type().equals(NodeAddress.INTERNAL_IP)).findFirst()
        .orElseThrow().address();
  }

  private static Map<String, String> nodeIps(Simulation sim) {
    Map<String, String> out = new TreeMap<>();
    sim.store().list(Node.class).items().forEach(n -> out.put(n.name(), internalIp(n)));
    return out;
  }

  @Test
  void manifestNodes_getInternalIpAndHostname_andTheirPodsTheHostIp() {
    try (Simulation sim = Simulation.builder().objects(SimFixtures.nodes(3))
        .object(SimFixtures.deployment("web", 6)).seed(1).build()) {
      sim.runFor(Duration.ofSeconds(30));
      assertThat(nodeIps(sim)).containsExactly(Map.entry("node-1", "10.0.0.1"), Map.entry("node-2", "10.0.0.2"),
          Map.entry("node-3", "10.0.0.3"));
      assertThat(sim.store().require(Node.class, "", "node-2").status().addresses()).containsExactly(
          new NodeAddress(NodeAddress.INTERNAL_IP, "10.0.0.2"), new NodeAddress(NodeAddress.HOSTNAME, "node-2"));
      List<Pod> pods = SimFixtures.readyPods(sim, "web");
      assertThat(pods).hasSize(6);
      Map<String, String> ips = nodeIps(sim);
      for (Pod p : pods) {
        String ip = ips.get(p.spec().nodeName());
        assertThat(p.status().hostIP()).as(p.metadata().name()).isEqualTo(ip);
        assertThat(p.status().hostIPs()).as(p.metadata().name()).containsExactly(ip);
        assertThat(p.status().podIPs()).as("no pod IP without the networking controllers").isEmpty();
      }
    }
  }

  @Test
  void manifestAddresses_areKept_andNeverGivenToAnotherNode() {
    List<Node> nodes = new ArrayList<>(SimFixtures.nodes(3));
    nodes.set(1, nodes.get(1).toBuilder().address(new NodeAddress(NodeAddress.INTERNAL_IP, "10.0.0.1"))
        .address(new NodeAddress(NodeAddress.HOSTNAME, "machine-2.example.com")).build());
    try (Simulation sim = Simulation.builder().objects(nodes).seed(1).build()) {
      sim.runFor(Duration.ofSeconds(1));
      assertThat(nodeIps(sim)).containsExactly(Map.entry("node-1", "10.0.0.2"), Map.entry("node-2", "10.0.0.1"),
          Map.entry("node-3", "10.0.0.3"));
      assertThat(sim.store().require(Node.class, "", "node-2").status().addresses())
          .as("a node with its addresses keeps them as they are")
          .containsExactly(new NodeAddress(NodeAddress.INTERNAL_IP, "10.0.0.1"),
              new NodeAddress(NodeAddress.HOSTNAME, "machine-2.example.com"));
    }
  }

  @Test
  void nodesAddedLater_getDistinctAddresses_aDeletedOnesAddressNotAtOnceReused() {
    try (Simulation sim = Simulation.builder().objects(SimFixtures.nodes(2)).seed(1).build()) {
      sim.runFor(Duration.ofSeconds(1));
      sim.store().create(SimFixtures.nodes(3).get(2));
      sim.settle();
      sim.store().delete(Node.class, "", "node-1");
      sim.settle();
      sim.store().create(Node.builder().name("node-4").capacity(ResourceList.ofCpuMemory(4000, 8 * GI)).build());
      sim.runFor(Duration.ofSeconds(1));
      assertThat(nodeIps(sim)).containsExactly(Map.entry("node-2", "10.0.0.2"), Map.entry("node-3", "10.0.0.3"),
          Map.entry("node-4", "10.0.0.4"));
    }
  }

  @Test
  void fullNodeCidr_nodeRunsWithoutAddresses_failureRecordedOnce() {
    try (Simulation sim = Simulation.builder().nodeCidrs("10.0.0.0/30").objects(SimFixtures.nodes(3)).seed(1)
        .build()) {
      sim.runFor(Duration.ofMinutes(20)); // the kubelets post their nodes' status every 5 minutes
      assertThat(sim.store().require(Node.class, "", "node-3").status().addresses()).isEmpty();
      assertThat(sim.timeline()).filteredOn(e -> e.kind().equals("NodeAddressFailed")).singleElement()
          .satisfies(e -> {
            assertThat(e.object()).isEqualTo("Node/node-3");
            assertThat(e.message()).contains("10.0.0.0/30 has no address left");
          });
    }
  }

  @Test
  void dualStackNodeCidrs_podsGetBothHostIps_primaryFamilyFirst() {
    try (Simulation sim = Simulation.builder().nodeCidrs("10.0.0.0/16", "fd00:10::/112")
        .objects(SimFixtures.nodes(1)).object(SimFixtures.deployment("web", 1)).seed(1).build()) {
      sim.runFor(Duration.ofSeconds(30));
      Pod pod = SimFixtures.readyPods(sim, "web").get(0);
      assertThat(pod.status().hostIP()).isEqualTo("10.0.0.1");
      assertThat(pod.status().hostIPs()).containsExactly("10.0.0.1", "fd00:10::1");
    }
  }

  /**
   * A host-network DaemonSet behind a Service, with the networking controllers: each daemon pod's IP is its node's
   * (the node having got one as it registered), and so is its endpoint's address.
   */
  @Test
  void hostNetworkDaemonSet_podIpAndEndpointAreTheNodeIp() {
    Container exporter = Container.of("exporter", "node-exporter:1", ResourceList.ofCpuMemory(100, 0))
        .withPorts(List.of(new ContainerPort("metrics", 9100, "TCP", 9100)));
    DaemonSet ds = DaemonSet.builder().namespace("default").name("node-exporter")
        .matchLabels(Map.of("app", "node-exporter"))
        .podSpec(PodSpec.builder().container(exporter).hostNetwork(true).build()).build();
    Service svc = new Service(ObjectMeta.of("default", "node-exporter"), ServiceSpec.builder()
        .selector(Map.of("app", "node-exporter")).ports(List.of(ServicePort.of(9100))).build(), ServiceStatus.EMPTY);
    Simulation.Builder b = Simulation.builder().objects(SimFixtures.nodes(3)).object(ds).object(svc).seed(1);
    ClusterNetworking.defaults().simulatedControllers().forEach(b::controller);
    try (Simulation sim = b.build()) {
      sim.runFor(Duration.ofSeconds(30));
      Map<String, String> ips = nodeIps(sim);
      List<Pod> pods = sim.store().list(Pod.class, "default").items();
      assertThat(pods).hasSize(3).allSatisfy(p -> {
        assertThat(p.status().phase()).isEqualTo(PodPhase.Running);
        String ip = ips.get(p.spec().nodeName());
        assertThat(p.status().podIPs()).as(p.metadata().name()).containsExactly(ip);
        assertThat(p.status().hostIPs()).as(p.metadata().name()).containsExactly(ip);
      });
      List<String> endpoints = new ArrayList<>();
      for (EndpointSlice s : sim.store().list(EndpointSlice.class, "default").items()) {
        for (Endpoint e : s.endpoints()) {
          endpoints.addAll(e.addresses());
        }
      }
      assertThat(endpoints).containsExactlyInAnyOrder("10.0.0.1", "10.0.0.2", "10.0.0.3");
    }
  }

  /** What a run's store held at its end: node addresses by node, host IPs by pod (kept through watch events). */
  private record Observed(Map<String, List<NodeAddress>> nodes, Map<String, List<String>> hostIps,
      List<TimelineEvent> timeline) {}

  private static Observed runWithPools(ScenarioFeatures features, long seed) {
    Map<String, List<NodeAddress>> nodes = new TreeMap<>();
    Map<String, List<String>> hostIps = new TreeMap<>();
    Simulation.StoreFactory store = (clock, uids, admission) -> {
      ObjectStore s = ObjectStore.builder().directDelivery().clock(clock).uidGenerator(uids).admission(admission)
          .build();
      s.watch(Node.class, "0", e -> {
        if (e.type() == WatchEventType.DELETED) {
          nodes.remove(e.object().name());
        } else {
          nodes.put(e.object().name(), e.object().status().addresses());
        }
      });
      s.watch(Pod.class, "0", e -> {
        if (e.type() != WatchEventType.DELETED) {
          hostIps.put(e.object().metadata().name(), e.object().status().hostIPs());
        }
      });
      return s;
    };
    NodePool pool = NodePool.builder().name("small").capacity(ResourceList.builder().put("cpu", "2000m")
        .put("memory", "8Gi").put("pods", "110").build()).minSize(0).maxSize(10).pricePerHour(1.0).build();
    Deployment web = Deployment.builder().namespace("default").name("web").replicas(5)
        .matchLabels(Map.of("app", "web"))
        .podSpec(PodSpec.builder().container("app", "nginx:1", ResourceList.ofCpuMemory(1500, GI)).build()).build();
    List<ApiObject<?>> objects = List.of(pool, web);
    Scenario scenario = new Scenario(ObjectMeta.builder().name("addresses").build(), new ScenarioSpec(
        Duration.ofMinutes(10), seed, Duration.ofMinutes(1), List.of(), List.of(), features));
    SimulationRun run = ClusterSimulation.builder().objects(objects).scenario(scenario).store(store).build().run();
    return new Observed(nodes, hostIps, run.timeline());
  }

  private static void assertDistinctAddressesAndHostIps(Observed o) {
    assertThat(o.nodes()).hasSize(5);
    List<String> ips = new ArrayList<>();
    o.nodes().forEach((name, addresses) -> {
      assertThat(addresses).as(name).contains(new NodeAddress(NodeAddress.HOSTNAME, name));
      addresses.stream().filter(a -> a.type().equals(NodeAddress.INTERNAL_IP)).forEach(a -> ips.add(a.address()));
    });
    assertThat(ips).hasSize(5).doesNotHaveDuplicates().allMatch(ip -> ip.startsWith("10.0."));
    assertThat(o.hostIps()).hasSize(5);
    assertThat(o.hostIps().values()).allSatisfy(h -> assertThat(h).hasSize(1).allMatch(ips::contains));
    assertThat(new TreeSet<>(o.hostIps().values().stream().map(h -> h.get(0)).toList()))
        .as("one pod per node").hasSize(5);
  }

  @Test
  void clusterAutoscalerNodes_getDistinctAddresses_andTheirPodsTheHostIp() {
    assertDistinctAddressesAndHostIps(runWithPools(new ScenarioFeatures(false, true, false), 3));
  }

  @Test
  void provisionerNodes_getDistinctAddresses_andTheirPodsTheHostIp() {
    ScenarioFeatures provisioner = ScenarioFeatures.builder().clusterAutoscaler(false).provisioner(true).build();
    assertDistinctAddressesAndHostIps(runWithPools(provisioner, 3));
  }

  @Test
  void sameSeed_sameAddresses_sameTimeline() {
    Observed a = runWithPools(new ScenarioFeatures(false, true, false), 11);
    Observed b = runWithPools(new ScenarioFeatures(false, true, false), 11);
    assertThat(b.nodes()).isEqualTo(a.nodes());
    assertThat(b.hostIps()).isEqualTo(a.hostIps());
    assertThat(b.timeline()).isEqualTo(a.timeline());
  }
}
