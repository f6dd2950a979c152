package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeAddress;
import io.fleetkit.api.core.NodeStatus;
import io.fleetkit.networking.ipam.AllocationException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** {@link NodeAddresses}: the simulated machines' addresses from the node CIDRs. */
final class NodeAddressesTest {

  private static Node node(String name, NodeAddress... addresses) {
    Node.Builder b = Node.builder().name(name);
    for (NodeAddress a : addresses) {
      b.address(a);
    }
    return b.build();
  }

  private static NodeAddress internal(String ip) {
    return new NodeAddress(NodeAddress.INTERNAL_IP, ip);
  }

  @Test
  void assign_nodesWithoutAddresses_getSequentialInternalIps_andTheirNameAsHostname() {
    NodeAddresses a = new NodeAddresses(List.of(NodeAddresses.DEFAULT_CIDR));
    assertThat(a.assign(node("n1")).addresses()).containsExactly(internal("10.0.0.1"),
        new NodeAddress(NodeAddress.HOSTNAME, "n1"));
    assertThat(a.assign(node("n2")).addresses()).containsExactly(internal("10.0.0.2"),
        new NodeAddress(NodeAddress.HOSTNAME, "n2"));
  }

  @Test
  void assign_nodeWithAnInternalIp_isLeftAlone_andItsAddressReserved() {
    NodeAddresses a = new NodeAddresses(List.of(NodeAddresses.DEFAULT_CIDR));
    assertThat(a.assign(node("given", internal("10.0.0.1")))).isNull();
    assertThat(a.assign(node("n1")).addresses()).first().isEqualTo(internal("10.0.0.2"));
  }

  @Test
  void reserve_manifestAddresses_areNeverHandedOut() {
    NodeAddresses a = new NodeAddresses(List.of("10.0.0.0/29"));
    a.reserve("later", List.of(internal("10.0.0.1"), new NodeAddress(NodeAddress.EXTERNAL_IP, "10.0.0.2"),
        internal("192.168.1.1")));
    assertThat(a.assign(node("n1")).addresses()).first().isEqualTo(internal("10.0.0.3"));
  }

  @Test
  void assign_nodeWithOnlyAnExternalIp_getsAnInternalIpFirst_andKeepsItsAddresses() {
    NodeAddresses a = new NodeAddresses(List.of(NodeAddresses.DEFAULT_CIDR));
    NodeAddress external = new NodeAddress(NodeAddress.EXTERNAL_IP, "10.0.0.1");
    NodeAddress host = new NodeAddress(NodeAddress.HOSTNAME, "machine-7.example.com");
    assertThat(a.assign(node("n1", external, host)).addresses()).containsExactly(internal("10.0.0.2"), external,
        host);
  }

  @Test
  void assign_statusRewrittenWithoutAddresses_getsTheSameAddressBack() {
    NodeAddresses a = new NodeAddresses(List.of(NodeAddresses.DEFAULT_CIDR));
    NodeStatus first = a.assign(node("n1"));
    a.assign(node("n2"));
    assertThat(a.assign(node("n1")).addresses()).isEqualTo(first.addresses());
  }

  @Test
  void release_deletedNodesAddress_isReusedOnceTheRangeWraps_andAFullRangeFails() {
    NodeAddresses a = new NodeAddresses(List.of("10.0.0.0/30")); // .1 and .2: .0 is the network, .3 broadcast
    assertThat(a.assign(node("n1")).addresses()).first().isEqualTo(internal("10.0.0.1"));
    assertThat(a.assign(node("n2")).addresses()).first().isEqualTo(internal("10.0.0.2"));
    assertThatThrownBy(() -> a.assign(node("n3"))).isInstanceOf(AllocationException.class)
        .hasMessageContaining("node n3").hasMessageContaining("10.0.0.0/30 has no address left");
    a.release("n1");
    assertThat(a.assign(node("n3")).addresses()).first().isEqualTo(internal("10.0.0.1"));
  }

  @Test
  void assign_dualStack_oneAddressPerFamily_inTheCidrsOrder() {
    NodeAddresses a = new NodeAddresses(List.of("fd00:10::/112", "10.0.0.0/16"));
    assertThat(a.assign(node("n1")).addresses()).containsExactly(internal("fd00:10::1"), internal("10.0.0.1"),
        new NodeAddress(NodeAddress.HOSTNAME, "n1"));
  }

  @Test
  void constructor_badCidrs_areRefusedNamingTheCidr() {
    assertThatThrownBy(() -> new NodeAddresses(List.of("10.0.0.0/8"))).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"10.0.0.0/8\" must hold 4 to 65536 addresses");
    assertThatThrownBy(() -> new NodeAddresses(List.of("10.0.0.0/31"))).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("10.0.0.0/31");
    assertThatThrownBy(() -> new NodeAddresses(List.of("nodes"))).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("node CIDR").hasMessageContaining("\"nodes\"");
    assertThatThrownBy(() -> new NodeAddresses(List.of("10.0.0.0/16", "10.1.0.0/16")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("different IP families");
    assertThatThrownBy(() -> new NodeAddresses(List.of())).isInstanceOf(IllegalArgumentException.class);
  }

  /** However nodes come and go, no two living nodes share an address and every address is in the CIDR. */
  @Property(tries = 200)
  void assign_andRelease_neverGiveOneAddressToTwoLivingNodes(@ForAll @IntRange(min = 0, max = 1_000_000) int seed) {
    java.util.Random random = new java.util.Random(seed);
    NodeAddresses a = new NodeAddresses(List.of("10.0.0.0/28")); // 14 usable addresses
    List<String> living = new ArrayList<>();
    java.util.Map<String, String> ipOf = new java.util.HashMap<>();
    for (int step = 0; step < 60; step++) {
      if (!living.isEmpty() && (living.size() == 14 || random.nextBoolean())) {
        String gone = living.remove(random.nextInt(living.size()));
        a.release(gone);
        ipOf.remove(gone);
      } else {
        String name = "n" + step;
        String ip = a.assign(node(name)).addresses().get(0).address();
        living.add(name);
        ipOf.put(name, ip);
      }
      Set<String> distinct = new TreeSet<>(ipOf.values());
      assertThat(distinct).hasSize(living.size());
      assertThat(distinct).allMatch(ip -> ip.startsWith("10.0.0.") && !ip.equals("10.0.0.0")
          && !ip.equals("10.0.0.15"));
    }
  }
}
