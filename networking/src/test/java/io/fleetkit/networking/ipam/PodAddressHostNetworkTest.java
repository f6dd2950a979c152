package io.fleetkit.networking.ipam;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.ContainerPort;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeAddress;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.ResourceRequirements;
import io.fleetkit.api.store.ObjectStore;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Pods with {@code spec.hostNetwork} take their node's addresses (the kubelet's {@code GetNodeHostIPs}), not one from
 * the node's pod CIDR.
 */
final class PodAddressHostNetworkTest {

  private static Pod pod(String name, boolean hostNetwork) {
    return Pod.builder().namespace("ns").name(name).nodeName("node-a").hostNetwork(hostNetwork)
        .container(new Container("c", "img", ResourceRequirements.NONE, List.of(ContainerPort.of(9100)), List.of(),
            null)).build();
  }

  @Test
  void aHostNetworkPod_getsTheNodesIps_andTakesNothingFromThePool() {
    try (ObjectStore store = ObjectStore.builder().directDelivery().build();
         PodAddressController pods = new PodAddressController(store, true)) {
      store.create(Node.builder().name("node-a").podCIDRs(List.of("10.244.0.0/24"))
          .address(new NodeAddress("Hostname", "node-a")).address(new NodeAddress("InternalIP", "192.168.0.10"))
          .build());
      pods.start().join();
      store.create(pod("exporter", true));
      store.create(pod("web", false));
      pods.runUntilIdle();
      assertThat(store.require(Pod.class, "ns", "exporter").status().podIPs()).containsExactly("192.168.0.10");
      assertThat(store.require(Pod.class, "ns", "web").status().podIPs()).as("the pool's first address")
          .containsExactly("10.244.0.2");
    }
  }

  @Test
  void aHostNetworkPod_waitsForItsNodesAddresses() {
    try (ObjectStore store = ObjectStore.builder().directDelivery().build();
         PodAddressController pods = new PodAddressController(store, true)) {
      store.create(Node.builder().name("node-a").podCIDRs(List.of("10.244.0.0/24")).build());
      pods.start().join();
      store.create(pod("exporter", true));
      pods.runUntilIdle();
      assertThat(store.require(Pod.class, "ns", "exporter").status().podIPs()).isEmpty();
      Node n = store.require(Node.class, "", "node-a");
      store.updateStatus(n.toBuilder().address(new NodeAddress("InternalIP", "192.168.0.10")).build());
      pods.runUntilIdle();
      assertThat(store.require(Pod.class, "ns", "exporter").status().podIPs()).containsExactly("192.168.0.10");
    }
  }

  @Test
  void hostIps_internalFirst_thenTheOtherFamily_asGetNodeHostIPs() {
    Node dual = Node.builder().name("n").address(new NodeAddress("ExternalIP", "203.0.113.5"))
        .address(new NodeAddress("InternalIP", "10.0.0.5")).address(new NodeAddress("InternalIP", "10.0.0.6"))
        .address(new NodeAddress("ExternalIP", "2001:db8::5")).build();
    assertThat(NodeAddress.hostIPs(dual.status().addresses())).containsExactly("10.0.0.5", "2001:db8::5");
    Node external = Node.builder().name("n").address(new NodeAddress("ExternalIP", "203.0.113.5")).build();
    assertThat(NodeAddress.hostIPs(external.status().addresses())).containsExactly("203.0.113.5");
    Node none = Node.builder().name("n").address(new NodeAddress("Hostname", "n")).build();
    assertThat(NodeAddress.hostIPs(none.status().addresses())).isEmpty();
  }
}
