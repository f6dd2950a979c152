package io.fleetkit.reconcile.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeAddress;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code status.hostIP} and {@code status.hostIPs} as the kubelet's {@code generateAPIPodStatus} writes them: its
 * node's IPs ({@link NodeAddress#hostIPs}) in the pod's status writes, nothing while the node has none.
 */
final class NodeAgentHostIpsTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build();
  private NodeAgent agent;

  @AfterEach
  void close() {
    if (agent != null) {
      agent.close();
    }
    store.close();
  }

  private Pod pod(String name) {
    store.create(Pod.builder().namespace("default").name(name).nodeName("n1")
        .container("web", "shop:1", ResourceList.EMPTY).build());
    agent.sync();
    return store.require(Pod.class, "default", name);
  }

  private void start(Node node) {
    store.create(node);
    agent = NodeAgent.builder(store, clock, "n1").healthSource(HealthSource.fromAnnotations())
        .leases(new NodeLeases()).build();
    agent.start();
    agent.sync();
  }

  @Test
  void runningPod_getsItsNodesInternalIp_andTheOtherFamilyAfterIt() {
    start(Node.builder().name("n1").address(new NodeAddress(NodeAddress.HOSTNAME, "n1"))
        .address(new NodeAddress(NodeAddress.EXTERNAL_IP, "2001:db8::7"))
        .address(new NodeAddress(NodeAddress.INTERNAL_IP, "10.0.0.7")).build());
    Pod p = pod("p");
    assertThat(p.status().phase()).isEqualTo(PodPhase.Running);
    assertThat(p.status().hostIP()).isEqualTo("10.0.0.7");
    assertThat(p.status().hostIPs()).containsExactly("10.0.0.7", "2001:db8::7");
  }

  @Test
  void nodeWithoutAddresses_noHostIp_untilTheKubeletPostsTheNodeStatusAgain() {
    start(Node.builder().name("n1").build());
    Pod before = pod("before");
    assertThat(before.status().phase()).isEqualTo(PodPhase.Running);
    assertThat(before.status().hostIP()).isEmpty();
    assertThat(before.status().hostIPs()).isEmpty();

    Node n = store.require(Node.class, "", "n1");
    store.updateStatus(n.withStatus(new io.fleetkit.api.core.NodeStatus(n.status().capacity(),
        n.status().allocatable(), n.status().conditions(), n.status().gpus(),
        List.of(new NodeAddress(NodeAddress.INTERNAL_IP, "10.0.0.9")), n.status().images())));
    clock.advance(Duration.ofMinutes(5)); // the next node status post reads the node's addresses
    agent.sync();
    assertThat(pod("after").status().hostIPs()).containsExactly("10.0.0.9");
  }
}
