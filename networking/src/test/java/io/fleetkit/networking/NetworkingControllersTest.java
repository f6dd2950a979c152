package io.fleetkit.networking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.ContainerPort;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeSpec;
import io.fleetkit.api.core.NodeStatus;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.core.ServiceSpec;
import io.fleetkit.api.core.ServiceType;
import io.fleetkit.api.discovery.EndpointSlice;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.networking.dns.ClusterDns;
import io.fleetkit.networking.dns.DnsResponse;
import io.fleetkit.networking.dns.PodsMode;
import io.fleetkit.networking.dns.Rcode;
import io.fleetkit.networking.dns.RecordType;
import io.fleetkit.networking.dns.StoreDnsSource;
import io.fleetkit.networking.endpointslice.EndpointSliceController;
import io.fleetkit.networking.ipam.CidrSet;
import io.fleetkit.networking.ipam.IpPrefix;
import io.fleetkit.networking.ipam.NodeIpamController;
import io.fleetkit.networking.ipam.PodAddressController;
import io.fleetkit.networking.ipam.PortRange;
import io.fleetkit.networking.ipam.ServiceAddressAllocator;
import io.fleetkit.networking.ipam.ServiceAddressController;
import io.fleetkit.networking.ipam.ServiceIpRange;
import io.fleetkit.api.time.ManualClock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The networking controllers together on one store, in stepping mode: node CIDRs, pod IPs, service addresses,
 * EndpointSlices, and the DNS answers they lead to.
 */
final class NetworkingControllersTest {
  private final ManualClock clock = new ManualClock(Instant.parse("2026-12-01T00:00:00Z"));

  private ObjectStore store() {
    AtomicLong uids = new AtomicLong();
    return ObjectStore.builder().directDelivery().clock(clock.asClock())
        .uidGenerator(() -> String.format("uid-%06d", uids.incrementAndGet())).build();
  }

  private static Node node(String name, String zone) {
    return new Node(ObjectMeta.builder().name(name).label("topology.kubernetes.io/zone", zone).build(),
        NodeSpec.EMPTY, NodeStatus.EMPTY);
  }

  private static Pod pod(String name, String node, boolean ready, String hostname, String subdomain) {
    PodSpec spec = PodSpec.builder().container(new Container("web", "nginx", io.fleetkit.api.core.ResourceRequirements
        .ofRequests(ResourceList.EMPTY), List.of(new ContainerPort("http", 8080, "TCP", 0)), List.of(), null))
        .nodeName(node).hostname(hostname).subdomain(subdomain).build();
    PodStatus st = PodStatus.of(PodPhase.Running).withCondition(PodCondition.of(PodCondition.READY,
        ready ? ConditionStatus.True : ConditionStatus.False, "", "", null));
    return new Pod(ObjectMeta.builder().namespace("shop").name(name).label("app", "web").build(), spec, st);
  }

  @Test
  void controllers_together_giveAddressesSlicesAndDnsNames() {
    try (ObjectStore store = store()) {
      store.create(node("node-a", "zone-a"));
      store.create(node("node-b", "zone-b"));
      ServiceAddressAllocator alloc = new ServiceAddressAllocator(
          ServiceIpRange.of("10.96.0.0/16", new Random(1)), null, PortRange.defaultRange(new Random(2)));
      store.create(alloc.kubernetesService(6443));
      try (NodeIpamController ipam = new NodeIpamController(store,
              List.of(new CidrSet(IpPrefix.parse("10.244.0.0/16"), 24)), null, true);
           PodAddressController pods = new PodAddressController(store, true);
           ServiceAddressController services = new ServiceAddressController(store, alloc, true);
           EndpointSliceController slices = EndpointSliceController.builder(store).stepping().build();
           StoreDnsSource dns = new StoreDnsSource(store, clock.asClock());
           StoreDnsSource withPods = new StoreDnsSource(store, clock.asClock(), true)) {
        ipam.start().join();
        pods.start().join();
        services.start().join();
        slices.start().join();
        store.create(pod("web-0", "node-a", true, "web-0", "web"));
        store.create(pod("web-1", "node-b", true, "web-1", "web"));
        store.create(pod("web-2", "node-b", false, "web-2", "web"));
        store.create(Service.of(ObjectMeta.of("shop", "web"), ServiceSpec.builder().headless().selector("app", "web")
            .port(ServicePort.of("http", 80, "http")).build()));
        store.create(Service.of(ObjectMeta.of("shop", "front"), ServiceSpec.builder().selector("app", "web")
            .type(ServiceType.NodePort).port(ServicePort.of("http", 80, "http")).build()));
        for (int i = 0; i < 5; i++) {
          ipam.runUntilIdle();
          pods.runUntilIdle();
          services.runUntilIdle();
          slices.runUntilIdle();
        }
        assertThat(store.require(Node.class, "", "node-a").spec().podCIDRs()).containsExactly("10.244.0.0/24");
        assertThat(store.require(Node.class, "", "node-b").spec().podCIDRs()).containsExactly("10.244.1.0/24");
        assertThat(store.require(Pod.class, "shop", "web-0").status().podIPs()).containsExactly("10.244.0.2");
        assertThat(store.require(Pod.class, "shop", "web-1").status().podIPs()).containsExactly("10.244.1.2");
        assertThat(store.require(Service.class, "default", "kubernetes").spec().clusterIP()).isEqualTo("10.96.0.1");
        Service front = store.require(Service.class, "shop", "front");
        assertThat(front.spec().clusterIP()).startsWith("10.96.");
        assertThat(front.spec().ports().get(0).nodePort()).isBetween(30000, 32767);
        List<EndpointSlice> webSlices = store.list(EndpointSlice.class, "shop",
            io.fleetkit.api.labels.LabelSelector.of(Map.of(EndpointSlice.LABEL_SERVICE_NAME, "web"))).items();
        assertThat(webSlices).hasSize(1);
        assertThat(webSlices.get(0).endpoints()).hasSize(3);
        assertThat(webSlices.get(0).ports().get(0).port()).isEqualTo(8080);
        ClusterDns cd = ClusterDns.standard();
        DnsResponse web = cd.resolve(dns.get(), "web.shop.svc.cluster.local", RecordType.A);
        assertThat(web.answers()).extracting(r -> r.data()).containsExactlyInAnyOrder("10.244.0.2", "10.244.1.2");
        assertThat(cd.resolve(dns.get(), "web-0.web.shop.svc.cluster.local", RecordType.A).answers())
            .extracting(r -> r.data()).containsExactly("10.244.0.2");
        assertThat(cd.resolve(dns.get(), "web-2.web.shop.svc.cluster.local", RecordType.A).rcode())
            .isEqualTo(Rcode.NXDOMAIN);
        assertThat(cd.resolve(dns.get(), "front.shop.svc.cluster.local", RecordType.A).answers())
            .extracting(r -> r.data()).containsExactly(front.spec().clusterIP());
        assertThat(cd.resolve(dns.get(), "kubernetes.default.svc.cluster.local", RecordType.A).answers())
            .extracting(r -> r.data()).containsExactly("10.96.0.1");
        // pod names, verified: only the source that watches pods knows them
        ClusterDns verified = cd.withPods(PodsMode.VERIFIED);
        assertThat(verified.resolve(withPods.get(), "10-244-1-2.shop.pod.cluster.local", RecordType.A).answers())
            .extracting(r -> r.data()).containsExactly("10.244.1.2");
        assertThat(verified.resolve(dns.get(), "10-244-1-2.shop.pod.cluster.local", RecordType.A).rcode())
            .isEqualTo(Rcode.NXDOMAIN);

        // a pod deleted: its endpoint leaves the slice and DNS; the Service deleted: its slices go
        store.delete(Pod.class, "shop", "web-1");
        slices.runUntilIdle();
        pods.runUntilIdle();
        assertThat(cd.resolve(dns.get(), "web.shop.svc.cluster.local", RecordType.A).answers())
            .extracting(r -> r.data()).containsExactly("10.244.0.2");
        assertThat(verified.resolve(withPods.get(), "10-244-1-2.shop.pod.cluster.local", RecordType.A).rcode())
            .as("the deleted pod's name").isEqualTo(Rcode.NXDOMAIN);
        assertThat(verified.resolve(withPods.get(), "10-244-0-2.shop.pod.cluster.local", RecordType.A).answers())
            .hasSize(1);
        store.delete(Service.class, "shop", "web");
        slices.runUntilIdle();
        assertThat(store.list(EndpointSlice.class, "shop", io.fleetkit.api.labels.LabelSelector.of(
            Map.of(EndpointSlice.LABEL_SERVICE_NAME, "web"))).items()).isEmpty();

        // an explicit cluster IP already taken is refused with a clear reason, and the Service keeps its spec
        store.create(Service.of(ObjectMeta.of("shop", "dup"), ServiceSpec.builder().selector("app", "web")
            .clusterIP(front.spec().clusterIP()).port(ServicePort.of(80)).build()));
        services.runUntilIdle();
        assertThat(services.problems().get("shop/dup")).isEqualTo("Service shop/dup: spec.clusterIPs \"["
            + front.spec().clusterIP() + "]\" Invalid value: failed to allocate IP " + front.spec().clusterIP()
            + ": provided IP is already allocated");
      }
    }
  }

  @Test
  void allocator_refusals_nameServiceFieldAndRule_andTakeNothing() {
    ServiceIpRange range = ServiceIpRange.of("10.0.0.0/28", new Random(1));
    ServiceAddressAllocator a = new ServiceAddressAllocator(range, null, PortRange.defaultRange(new Random(1)));
    Service np = Service.of(ObjectMeta.of("ns", "np"), ServiceSpec.builder().type(ServiceType.NodePort)
        .port(ServicePort.of("a", 80, 80).withNodePort(30080)).port(ServicePort.of("b", 81, 81).withNodePort(30080))
        .build());
    assertThatThrownBy(() -> a.allocate(np)).isInstanceOf(ValidationException.class)
        .hasMessage("Service ns/np: spec.ports[1].nodePort \"30080\" Invalid value: failed to allocate port 30080: "
            + "provided port is already allocated");
    assertThat(range.used()).isZero();
    Service out = Service.of(ObjectMeta.of("ns", "out"), ServiceSpec.builder().clusterIP("10.1.0.1")
        .port(ServicePort.of(80)).build());
    assertThatThrownBy(() -> a.allocate(out)).hasMessageContaining("is not in the valid range");
    Service v6 = Service.of(ObjectMeta.of("ns", "v6"), ServiceSpec.builder().ipFamilies(List.of(
        io.fleetkit.api.core.IPFamily.IPv6)).port(ServicePort.of(80)).build());
    assertThatThrownBy(() -> a.allocate(v6)).hasMessage(
        "Service ns/v6: spec.ipFamilies[0] \"IPv6\" Invalid value: not configured on this cluster");
    for (int i = 0; i < 14; i++) {
      a.allocate(Service.of(ObjectMeta.of("ns", "s" + i), ServiceSpec.builder().port(ServicePort.of(80)).build()));
    }
    assertThatThrownBy(() -> a.allocate(Service.of(ObjectMeta.of("ns", "full"), ServiceSpec.builder()
        .port(ServicePort.of(80)).build()))).hasMessageContaining("range is full");
    a.release("ns", "s3");
    assertThat(a.allocate(Service.of(ObjectMeta.of("ns", "again"), ServiceSpec.builder().port(ServicePort.of(80))
        .build())).spec().clusterIP()).startsWith("10.0.0.");
  }
}
