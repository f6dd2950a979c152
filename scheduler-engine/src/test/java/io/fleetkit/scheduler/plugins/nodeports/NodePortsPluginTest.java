package io.fleetkit.scheduler.plugins.nodeports;

import static io.fleetkit.scheduler.plugins.helper.PluginFixtures.node;
import static io.fleetkit.scheduler.plugins.helper.PluginFixtures.podInfo;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.ContainerPort;
import io.fleetkit.api.core.ContainerRestartPolicy;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.ResourceRequirements;
import io.fleetkit.api.framework.ClusterEvent;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.NodeInfos;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PreFilterResult;
import io.fleetkit.api.framework.Status;
import io.fleetkit.scheduler.plugins.helper.ArgsOnlyHandle;
import io.fleetkit.scheduler.plugins.helper.SimpleCycleState;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Cases ported from kubernetes {@code pkg/scheduler/framework/plugins/nodeports/node_ports_test.go} (stored version
 * 27214b84): TestNodePorts 13/13, TestPreFilterDisabled 1/1, TestGetContainerPorts 1/1 (upstream's
 * {@code getContainerPorts(pod1, pod2)} became {@code GetHostPorts(pod)}: the two pods' host ports in order),
 * Test_isSchedulableAfterPodDeleted 5/5 ("backoff-wrong-old-object" keeps its Queue answer; FleetKit's hints return
 * no error), plus the sidecar rule of upstream's {@code GetHostPorts} and the registered events.
 */
final class NodePortsPluginTest {
  private final NodePortsPlugin plugin = NodePortsPlugin.INSTANCE;

  /** Upstream's {@code newPod(host, "PROTOCOL/IP/PORT"...)}: one container binding those host ports. */
  private static Pod pod(String host, String... hostPorts) {
    List<ContainerPort> ports = new ArrayList<>();
    for (String info : hostPorts) {
      String[] p = info.split("/");
      ports.add(new ContainerPort("", Integer.parseInt(p[2]), p[0], Integer.parseInt(p[2]), p[1]));
    }
    return Pod.builder().name("p").nodeName(host)
        .container(new Container("c", "pause", ResourceRequirements.NONE, ports, List.of(), null)).build();
  }

  private static NodeInfo nodeWith(Pod... pods) {
    List<PodInfo> infos = Arrays.stream(pods).map(p -> podInfo(p)).toList();
    return NodeInfos.of(node("m1").build(), infos);
  }

  static Stream<Arguments> nodePorts() {
    return Stream.of(
        Arguments.of("other port", pod("m1", "UDP/127.0.0.1/8080"), nodeWith(pod("m1", "UDP/127.0.0.1/9090")), true),
        Arguments.of("same udp port", pod("m1", "UDP/127.0.0.1/8080"), nodeWith(pod("m1", "UDP/127.0.0.1/8080")),
            false),
        Arguments.of("same tcp port", pod("m1", "TCP/127.0.0.1/8080"), nodeWith(pod("m1", "TCP/127.0.0.1/8080")),
            false),
        Arguments.of("different host ip", pod("m1", "TCP/127.0.0.1/8080"),
            nodeWith(pod("m1", "TCP/127.0.0.2/8080")), true),
        Arguments.of("different protocol", pod("m1", "UDP/127.0.0.1/8080"),
            nodeWith(pod("m1", "TCP/127.0.0.1/8080")), true),
        Arguments.of("second udp port conflict", pod("m1", "UDP/127.0.0.1/8000", "UDP/127.0.0.1/8080"),
            nodeWith(pod("m1", "UDP/127.0.0.1/8080")), false),
        Arguments.of("first tcp port conflict", pod("m1", "TCP/127.0.0.1/8001", "UDP/127.0.0.1/8080"),
            nodeWith(pod("m1", "TCP/127.0.0.1/8001", "UDP/127.0.0.1/8081")), false),
        Arguments.of("first tcp port conflict due to 0.0.0.0 hostIP", pod("m1", "TCP/0.0.0.0/8001"),
            nodeWith(pod("m1", "TCP/127.0.0.1/8001")), false),
        Arguments.of("TCP hostPort conflict due to 0.0.0.0 hostIP", pod("m1", "TCP/10.0.10.10/8001", "TCP/0.0.0.0/8001"),
            nodeWith(pod("m1", "TCP/127.0.0.1/8001")), false),
        Arguments.of("second tcp port conflict to 0.0.0.0 hostIP", pod("m1", "TCP/127.0.0.1/8001"),
            nodeWith(pod("m1", "TCP/0.0.0.0/8001")), false),
        Arguments.of("second different protocol", pod("m1", "UDP/127.0.0.1/8001"),
            nodeWith(pod("m1", "TCP/0.0.0.0/8001")), true),
        Arguments.of("UDP hostPort conflict due to 0.0.0.0 hostIP", pod("m1", "UDP/127.0.0.1/8001"),
            nodeWith(pod("m1", "TCP/0.0.0.0/8001", "UDP/0.0.0.0/8001")), false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("nodePorts")
  void testNodePorts(String name, Pod pod, NodeInfo node, boolean fits) {
    SimpleCycleState state = new SimpleCycleState();
    PreFilterResult pre = plugin.preFilter(state, podInfo(pod), null);
    assertThat(pre.status().isSuccess()).isTrue();
    Status s = plugin.filter(state, podInfo(pod), node);
    if (fits) {
      assertThat(s.isSuccess()).isTrue();
    } else {
      assertThat(s.code()).isEqualTo(Status.Code.UNSCHEDULABLE);
      assertThat(s.reasons()).containsExactly("node(s) didn't have free ports for the requested pod ports");
      assertThat(s.plugin()).isEqualTo("NodePorts");
    }
    assertThat(NodePortsPlugin.fits(pod, node)).isEqualTo(fits);
  }

  @Test
  void testNodePorts_skipFilter_aPodWithoutHostPorts() {
    // upstream "skip filter": an empty pod; here a container port without a host port binds nothing either
    Pod p = Pod.builder().name("p").container(new Container("c", "pause", ResourceRequirements.NONE,
        List.of(ContainerPort.of(8080)), List.of(), null)).build();
    assertThat(plugin.preFilter(new SimpleCycleState(), podInfo(p), null).status().code())
        .isEqualTo(Status.Code.SKIP);
  }

  @Test
  void hostNetworkPods_bindTheirContainerPortsOnTheNode() {
    // a host-network pod's ports are the node's: SetDefaults_Pod gives each the containerPort as hostPort, so two
    // such pods with the same port do not fit on one node, while the same port without hostNetwork binds nothing
    Pod dns = Pod.builder().name("dns").nodeName("m1").hostNetwork(true).container(new Container("c", "coredns",
        ResourceRequirements.NONE, List.of(new ContainerPort("dns", 53, "UDP", 0)), List.of(), null)).build();
    Pod another = Pod.builder().name("dns2").hostNetwork(true).container(new Container("c", "coredns",
        ResourceRequirements.NONE, List.of(new ContainerPort("dns", 53, "UDP", 0)), List.of(), null)).build();
    SimpleCycleState state = new SimpleCycleState();
    assertThat(plugin.preFilter(state, podInfo(another), null).status().isSuccess()).isTrue();
    assertThat(plugin.filter(state, podInfo(another), nodeWith(dns)).code())
        .isEqualTo(Status.Code.UNSCHEDULABLE);
    Pod podNetwork = Pod.builder().name("dns3").container(new Container("c", "coredns", ResourceRequirements.NONE,
        List.of(new ContainerPort("dns", 53, "UDP", 0)), List.of(), null)).build();
    assertThat(plugin.preFilter(new SimpleCycleState(), podInfo(podNetwork), null).status().code())
        .isEqualTo(Status.Code.SKIP);
  }

  @Test
  void testPreFilterDisabled_filterIsAnError() {
    Status s = plugin.filter(new SimpleCycleState(), podInfo(pod("", "TCP/127.0.0.1/80")), nodeWith());
    assertThat(s.code()).isEqualTo(Status.Code.ERROR);
    assertThat(s.message()).contains("PreFilterNodePorts");
  }

  private static ContainerPort tcp(int port, int hostPort) {
    return new ContainerPort("", port, "TCP", hostPort);
  }

  private static Pod withContainers(List<List<ContainerPort>> containers) {
    Pod.Builder b = Pod.builder().name("p");
    int i = 0;
    for (List<ContainerPort> ports : containers) {
      b.container(new Container("c" + i++, "pause", ResourceRequirements.NONE, ports, List.of(), null));
    }
    return b.build();
  }

  @Test
  void testGetContainerPorts_hostPortsOfEveryContainerInOrder() {
    Pod pod1 = withContainers(List.of(List.of(tcp(8001, 8001), tcp(8002, 8002)),
        List.of(tcp(8003, 8003), tcp(8004, 8004)), List.of(tcp(8005, 0))));
    Pod pod2 = withContainers(List.of(List.of(tcp(8011, 8011), tcp(8012, 8012)),
        List.of(tcp(8013, 8013), tcp(8014, 8014)), List.of(tcp(8015, 0))));
    List<ContainerPort> got = new ArrayList<>(HostPortInfo.hostPorts(pod1.spec()));
    got.addAll(HostPortInfo.hostPorts(pod2.spec()));
    assertThat(got).extracting(ContainerPort::hostPort)
        .containsExactly(8001, 8002, 8003, 8004, 8011, 8012, 8013, 8014);
  }

  @Test
  void getHostPorts_sidecarsFirst_otherInitContainersLeftOut() {
    Pod p = Pod.builder().name("p")
        .initContainer(new Container("init", "i", ResourceRequirements.NONE, List.of(tcp(70, 70)), List.of(), null))
        .initContainer(new Container("sidecar", "s", ResourceRequirements.NONE, List.of(tcp(71, 71)), List.of(),
            ContainerRestartPolicy.Always))
        .container(new Container("c", "pause", ResourceRequirements.NONE, List.of(tcp(72, 72)), List.of(), null))
        .build();
    assertThat(HostPortInfo.hostPorts(p.spec())).extracting(ContainerPort::hostPort).containsExactly(71, 72);
  }

  private static Pod hostPort8080(@Nullable String node, int port) {
    Pod.Builder b = Pod.builder().name("d").container(new Container("c", "pause", ResourceRequirements.NONE,
        port == 0 ? List.of() : List.of(tcp(port, port)), List.of(), null));
    if (node != null) {
      b.nodeName(node);
    }
    return b.build();
  }

  @Test
  void isSchedulableAfterPodDeleted_upstreamCases() {
    Pod pending = hostPort8080(null, 8080);
    // "backoff-wrong-old-object": Queue
    assertThat(plugin.isSchedulableAfter(pending, ClusterEvent.ASSIGNED_POD_DELETE, "not-a-pod", null)).isTrue();
    // "skip-queue-on-unscheduled"
    assertThat(plugin.isSchedulableAfter(pending, ClusterEvent.ASSIGNED_POD_DELETE, hostPort8080(null, 0), null))
        .isFalse();
    // "skip-queue-on-non-hostport"
    assertThat(plugin.isSchedulableAfter(pending, ClusterEvent.ASSIGNED_POD_DELETE,
        hostPort8080("fake-node", 0), null)).isFalse();
    // "skip-queue-on-unrelated-hostport"
    assertThat(plugin.isSchedulableAfter(pending, ClusterEvent.ASSIGNED_POD_DELETE,
        hostPort8080("fake-node", 8081), null)).isFalse();
    // "queue-on-released-hostport"
    assertThat(plugin.isSchedulableAfter(pending, ClusterEvent.ASSIGNED_POD_DELETE,
        hostPort8080("fake-node", 8080), null)).isTrue();
  }

  @Test
  void isSchedulableAfterPodDeleted_aNominatedPodFreesItsPortsToo() {
    Pod nominated = hostPort8080(null, 8080);
    nominated = nominated.withStatus(nominated.status().withNominatedNodeName("node-a"));
    assertThat(plugin.isSchedulableAfter(hostPort8080(null, 8080), ClusterEvent.ASSIGNED_POD_DELETE, nominated,
        null)).isTrue();
  }

  @Test
  void eventsToRegister_nodeAddAndPodDelete_nodeAddAlwaysRequeues() {
    assertThat(plugin.eventsToRegister()).containsExactlyInAnyOrder(ClusterEvent.NODE_ADD,
        ClusterEvent.ASSIGNED_POD_DELETE);
    assertThat(plugin.isSchedulableAfter(hostPort8080(null, 8080), ClusterEvent.NODE_ADD, null,
        node("n").build())).isTrue();
  }

  @Test
  void factory_createsTheNamedPlugin() {
    assertThat(NodePortsPlugin.FACTORY.create(ArgsOnlyHandle.none()).name()).isEqualTo("NodePorts");
  }
}
