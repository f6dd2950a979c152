package io.fleetkit.networking.endpointslice;

import static io.fleetkit.networking.endpointslice.SliceFixtures.NS;
import static io.fleetkit.networking.endpointslice.SliceFixtures.node;
import static io.fleetkit.networking.endpointslice.SliceFixtures.pod;
import static io.fleetkit.networking.endpointslice.SliceFixtures.service;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.ContainerPort;
import io.fleetkit.api.core.ContainerRestartPolicy;
import io.fleetkit.api.core.IPFamily;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.ResourceRequirements;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.core.ServiceProtocol;
import io.fleetkit.api.core.ServiceSpec;
import io.fleetkit.api.core.ServiceTargetPort;
import io.fleetkit.api.discovery.AddressType;
import io.fleetkit.api.discovery.Endpoint;
import io.fleetkit.api.discovery.EndpointConditions;
import io.fleetkit.api.discovery.EndpointPort;
import io.fleetkit.api.discovery.EndpointTargetRef;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Cases ported from {@code kubernetes/endpointslice} {@code utils_test.go} (TestGetEndpointPorts from its current
 * version).
 */
final class SliceRulesTest {
  private static final Node NODE1 = node("node-1", Map.of("topology.kubernetes.io/zone", "us-central1-a",
      "topology.kubernetes.io/region", "us-central1"));

  // TestPodToEndpoint
  @ParameterizedTest(name = "{0}")
  @CsvSource({
      // name, ready, terminating, publishNotReady, hostname, withNode, multiIp, wantReady, wantServing, wantTerm
      "Ready pod, true, false, false, false, false, false, true, true, false",
      "Ready pod + publishNotReadyAddresses, true, false, true, false, false, false, true, true, false",
      "Unready pod, false, false, false, false, false, false, false, false, false",
      "Unready pod + publishNotReadyAddresses, false, false, true, false, false, false, true, false, false",
      "Ready pod + node labels, true, false, false, false, true, false, true, true, false",
      "Multi IP Ready pod + node labels, true, false, false, false, true, true, true, true, false",
      "Ready pod + hostname, true, false, false, true, true, false, true, true, false",
      "Ready terminating pod, true, true, false, false, false, false, false, true, true",
      "Not ready terminating pod, false, true, false, false, false, false, false, false, true",
  })
  void podToEndpoint_conditionsZoneHostname(String name, boolean ready, boolean terminating, boolean publishNotReady,
      boolean hostname, boolean withNode, boolean multiIp, boolean wantReady, boolean wantServing,
      boolean wantTerminating) {
    Service svc = service(publishNotReady ? "publishnotready" : "foo");
    if (publishNotReady) {
      svc = svc.withSpec(svc.spec().toBuilder().publishNotReadyAddresses(true).build());
    }
    Pod p = pod(1, ready, terminating);
    if (hostname) {
      p = new Pod(p.metadata(), p.spec().toBuilder().subdomain("foo").hostname("example-hostname").build(), p.status());
    }
    if (multiIp) {
      p = new Pod(p.metadata(), p.spec(), p.status().withPodIPs(List.of("1.2.3.4", "1234::5678:0000:0000:9abc:def0")));
    }
    Endpoint e = SliceRules.podToEndpoint(p, withNode ? NODE1 : null, svc, AddressType.IPv4);
    assertThat(e).isEqualTo(new Endpoint(List.of(multiIp ? "1.2.3.4" : "1.2.3.5"),
        EndpointConditions.of(wantReady, wantServing, wantTerminating), hostname ? "example-hostname" : "",
        new EndpointTargetRef("Pod", NS, "pod1", "uid-pod1"), "node-1", withNode ? "us-central1-a" : "", null));
  }

  // TestSupportedServiceAddressType
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "v4 service with no ip families (cluster upgrade)|10.0.0.10||IPv4",
      "v6 service with no ip families (cluster upgrade)|2000::1||IPv6",
      "v4 service||IPv4|IPv4",
      "v6 services||IPv6|IPv6",
      "v4,v6 service||IPv4,IPv6|IPv4,IPv6",
      "v6,v4 service||IPv6,IPv4|IPv6,IPv4",
      "headless with no families (old api-server)|None||IPv6,IPv4",
      "headless with families|None|IPv4,IPv6|IPv4,IPv6",
  })
  void addressTypes_fromFamiliesOrClusterIp(String name, String clusterIp, String families, String want) {
    List<IPFamily> fams = new ArrayList<>();
    if (families != null) {
      for (String f : families.split(",")) {
        fams.add(IPFamily.valueOf(f));
      }
    }
    Service s = Service.of(ObjectMeta.of("ns", "s"), ServiceSpec.builder().selector("a", "b")
        .clusterIP(clusterIp == null ? "" : clusterIp).ipFamilies(fams).port(ServicePort.of(80)).build());
    Set<AddressType> got = SliceRules.addressTypes(s);
    List<AddressType> wantTypes = new ArrayList<>();
    for (String t : want.split(",")) {
      wantTypes.add(AddressType.valueOf(t));
    }
    assertThat(got).containsExactlyInAnyOrderElementsOf(wantTypes);
  }

  private static Container ctr(String name, List<ContainerPort> ports, ContainerRestartPolicy restart) {
    return new Container(name, "img", ResourceRequirements.ofRequests(ResourceList.EMPTY), ports, List.of(), restart);
  }

  private static OptionalInt find(List<Container> containers, List<Container> init, ServiceTargetPort target) {
    PodSpec spec = PodSpec.builder().containers(containers).initContainers(init).build();
    Pod p = new Pod(ObjectMeta.of("ns", "p"), spec, io.fleetkit.api.core.PodStatus.PENDING);
    return SliceRules.findPort(p, new ServicePort("", ServiceProtocol.TCP, 80, target, null));
  }

  private static List<EndpointPort> endpointPorts(List<ServicePort> ports, List<Container> containers,
      List<Container> init) {
    PodSpec spec = PodSpec.builder().containers(containers).initContainers(init).build();
    Pod p = new Pod(ObjectMeta.of("ns", "p"), spec, io.fleetkit.api.core.PodStatus.PENDING);
    Service svc = Service.of(ObjectMeta.of("ns", "s"), ServiceSpec.builder().ports(ports).build());
    return SliceRules.endpointPorts(svc, p);
  }

  // TestGetEndpointPorts (4 of 4): appProtocol is copied to the slice port; sidecar ports resolve, app ports first
  @Test
  void endpointPorts_getEndpointPortsTable() {
    ServiceTargetPort p80 = ServiceTargetPort.of(80);
    // service with AppProtocol on one port
    assertThat(endpointPorts(List.of(new ServicePort("http", ServiceProtocol.TCP, 80, p80, null,
        "example.com/custom-protocol")), List.of(ctr("c", List.of(), null)), List.of()))
        .containsExactly(new EndpointPort("http", 80, ServiceProtocol.TCP, "example.com/custom-protocol"));
    // service with named port and AppProtocol on one port
    assertThat(endpointPorts(List.of(new ServicePort("http", ServiceProtocol.TCP, 80, p80, null),
        new ServicePort("https", ServiceProtocol.TCP, 443, ServiceTargetPort.named("https"), null, "https")),
        List.of(ctr("c", List.of(new ContainerPort("https", 443, "TCP", 0)), null)), List.of()))
        .containsExactly(new EndpointPort("http", 80, ServiceProtocol.TCP, ""),
            new EndpointPort("https", 443, ServiceProtocol.TCP, "https"));
    // service with named port for restartable init container
    assertThat(endpointPorts(List.of(new ServicePort("http-sidecar", ServiceProtocol.TCP, 8080,
        ServiceTargetPort.of(8080), null), new ServicePort("http", ServiceProtocol.TCP, 8090,
        ServiceTargetPort.named("http"), null)),
        List.of(ctr("c", List.of(new ContainerPort("http", 8090, "TCP", 0)), null)),
        List.of(ctr("s", List.of(new ContainerPort("http-sidecar", 8080, "TCP", 0)), ContainerRestartPolicy.Always))))
        .containsExactly(new EndpointPort("http-sidecar", 8080, ServiceProtocol.TCP, ""),
            new EndpointPort("http", 8090, ServiceProtocol.TCP, ""));
    // service with same named port for regular and restartable init container
    assertThat(endpointPorts(List.of(new ServicePort("http", ServiceProtocol.TCP, 80, ServiceTargetPort.named("http"),
        null)), List.of(ctr("c", List.of(new ContainerPort("http", 8090, "TCP", 0)), null)),
        List.of(ctr("s", List.of(new ContainerPort("http", 8080, "TCP", 0)), ContainerRestartPolicy.Always))))
        .containsExactly(new EndpointPort("http", 8090, ServiceProtocol.TCP, ""));
  }

  // TestFindPort (12 of 14 rows; see below)
  @Test
  void findPort_upstreamRows() {
    ContainerPort p11udp = new ContainerPort("", 11, "UDP", 0);
    ContainerPort p22 = new ContainerPort("p", 22, "TCP", 0);
    ContainerPort q33 = new ContainerPort("q", 33, "TCP", 0);
    Container empty = ctr("c0", List.of(), null);
    // valid int, no ports / with ports
    assertThat(find(List.of(empty), List.of(), ServiceTargetPort.of(93))).hasValue(93);
    assertThat(find(List.of(ctr("c", List.of(new ContainerPort("", 11, "TCP", 0), new ContainerPort("p", 22, "TCP",
        0)), null)), List.of(), ServiceTargetPort.of(93))).hasValue(93);
    // valid str, no ports
    assertThat(find(List.of(empty), List.of(), ServiceTargetPort.named("p"))).isEmpty();
    // valid str, one ctr with ports / two ctr with ports / two ctr with same port
    assertThat(find(List.of(ctr("c", List.of(p11udp, p22, q33), null)), List.of(), ServiceTargetPort.named("q")))
        .hasValue(33);
    assertThat(find(List.of(empty, ctr("c1", List.of(p11udp, p22, q33), null)), List.of(),
        ServiceTargetPort.named("q"))).hasValue(33);
    assertThat(find(List.of(empty, ctr("c1", List.of(p11udp, p22, new ContainerPort("q", 22, "TCP", 0)), null)),
        List.of(), ServiceTargetPort.named("q"))).hasValue(22);
    // valid str, invalid protocol: a pod with protocol "snmp" cannot be built (FleetKit validates the protocol as
    // the API server does), so the row runs with SCTP, which is not the Service port's protocol either
    assertThat(find(List.of(empty, ctr("c1", List.of(new ContainerPort("a", 11, "SCTP", 0)), null)), List.of(),
        ServiceTargetPort.named("a"))).isEmpty();
    assertThatThrownBy(() -> find(List.of(empty, ctr("c1", List.of(new ContainerPort("a", 11, "snmp", 0)), null)),
        List.of(), ServiceTargetPort.named("a"))).hasMessageContaining("spec.containers[1].ports[0].protocol");
    // valid hostPort; HostIP address
    assertThat(find(List.of(empty, ctr("c1", List.of(new ContainerPort("a", 11, "TCP", 81)), null)), List.of(),
        ServiceTargetPort.named("a"))).hasValue(11);
    assertThat(find(List.of(empty, ctr("c1", List.of(new ContainerPort("a", 11, "TCP", 0, "10.0.0.1")), null)),
        List.of(), ServiceTargetPort.named("a"))).hasValue(11);
    // sidecar init container named port; plain init container does not count; app container wins over sidecar
    Container sidecar = ctr("s", List.of(new ContainerPort("a", 80, "TCP", 0)), ContainerRestartPolicy.Always);
    Container plainInit = ctr("i", List.of(new ContainerPort("a", 80, "TCP", 0)), null);
    assertThat(find(List.of(empty), List.of(sidecar), ServiceTargetPort.named("a"))).hasValue(80);
    assertThat(find(List.of(empty), List.of(plainInit), ServiceTargetPort.named("a"))).isEmpty();
    assertThat(find(List.of(ctr("a1", List.of(new ContainerPort("a", 81, "TCP", 0)), null),
        ctr("a2", List.of(new ContainerPort("a", 82, "TCP", 0)), null)), List.of(sidecar),
        ServiceTargetPort.named("a"))).hasValue(81);
  }

  // TestSetEndpointSliceLabels (representative rows: service labels copied, reserved keys ignored, headless label)
  @Test
  void sliceLabels_copyServiceLabelsAndReportChange() {
    Service svc = service("foo");
    Service labelled = svc.withMetadata(svc.metadata().withLabels(Map.of("foo", "bar")));
    SliceRules.LabelResult r = SliceRules.sliceLabels(Map.of(), labelled, "c");
    assertThat(r.changed()).isTrue();
    assertThat(r.labels()).isEqualTo(Map.of("foo", "bar", EndpointSlice_SERVICE, "foo", EndpointSlice_MANAGED, "c",
        EndpointSlice_HEADLESS, ""));
    assertThat(SliceRules.sliceLabels(r.labels(), labelled, "c").changed()).isFalse();
    Service withIp = labelled.withSpec(labelled.spec().toBuilder().clusterIP("10.0.0.1").build());
    assertThat(SliceRules.sliceLabels(r.labels(), withIp, "c").labels()).doesNotContainKey(EndpointSlice_HEADLESS);
  }

  // TestSetEndpointSliceLabels, all 13 rows: Service foo (cluster IP 1.1.1.1, or headless), its labels, the slice's
  // labels, then the labels wanted and whether the non-reserved labels changed. S, M and H stand for the
  // service-name (value foo; "S=bad" a forged value), managed-by (the controller; "M=actor" forged) and headless keys
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "Service without labels and empty endpoint slice|false|||S;M|false",
      "Headless service with labels and empty endpoint slice|true|foo=bar||S;M;H;foo=bar|true",
      "Headless service without labels and empty endpoint slice|true|||S;M;H|false",
      "Non Headless service with Headless label and empty endpoint slice|false|H||S;M|false",
      "Headless Service change to ClusterIP Service with headless label|false|H|S;M;H|S;M|false",
      "Headless Service change to ClusterIP Service|false||S;M;H|S;M|false",
      "Headless service and endpoint slice with same labels|true|foo=bar|S;M;foo=bar|S;M;H;foo=bar|false",
      "Service with labels and empty endpoint slice|false|foo=bar||S;M;foo=bar|true",
      "Slice with labels and service without labels|false||S;M;foo=bar|S;M|true",
      "Slice with headless label and service with ClusterIP|false||S;M;H|S;M|false",
      "Slice with reserved labels and service with labels|false|foo=bar|S;M|S;M;foo=bar|true",
      "Evil service trying to hijack slice labels only well-known slice labels|false|S=bad;M=actor;H=invalid|S;M|S;M"
          + "|false",
      "Evil service trying to hijack slice labels with updates|false|S=bad;M=actor;foo=bar|S;M|S;M;foo=bar|true",
  })
  void sliceLabels_setEndpointSliceLabelsTable(String name, boolean headless, String svcLabels, String sliceLabels,
      String want, boolean wantUpdate) {
    Service base = Service.of(ObjectMeta.builder().namespace(NS).name("foo").labels(labels(svcLabels)).build(),
        headless ? ServiceSpec.builder().port(ServicePort.of("", 80, 80)).selector("foo", "bar").headless().build()
            : ServiceSpec.builder().port(ServicePort.of("", 80, 80)).selector("foo", "bar").clusterIP("1.1.1.1")
                .build());
    SliceRules.LabelResult r = SliceRules.sliceLabels(labels(sliceLabels), base, "endpointslice-controller.k8s.io");
    assertThat(r.labels()).isEqualTo(labels(want));
    assertThat(r.changed()).isEqualTo(wantUpdate);
  }

  private static Map<String, String> labels(String spec) {
    Map<String, String> out = new java.util.LinkedHashMap<>();
    if (spec == null) {
      return out;
    }
    for (String kv : spec.split(";")) {
      String[] p = kv.split("=", 2);
      String key = switch (p[0]) {
        case "S" -> EndpointSlice_SERVICE;
        case "M" -> EndpointSlice_MANAGED;
        case "H" -> EndpointSlice_HEADLESS;
        default -> p[0];
      };
      String value = p.length == 2 ? p[1] : switch (p[0]) {
        case "S" -> "foo";
        case "M" -> "endpointslice-controller.k8s.io";
        default -> "";
      };
      out.put(key, value);
    }
    return out;
  }

  private static final String EndpointSlice_SERVICE = io.fleetkit.api.discovery.EndpointSlice.LABEL_SERVICE_NAME;
  private static final String EndpointSlice_MANAGED = io.fleetkit.api.discovery.EndpointSlice.LABEL_MANAGED_BY;
  private static final String EndpointSlice_HEADLESS = io.fleetkit.api.discovery.EndpointSlice.LABEL_HEADLESS;
}
