package io.fleetkit.networking.dns;

import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.core.ServiceProtocol;
import io.fleetkit.api.core.ServiceSpec;
import io.fleetkit.api.core.ServiceTargetPort;
import io.fleetkit.api.core.ServiceType;
import io.fleetkit.api.discovery.AddressType;
import io.fleetkit.api.discovery.Endpoint;
import io.fleetkit.api.discovery.EndpointPort;
import io.fleetkit.api.discovery.EndpointSlice;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The Services and endpoints of coredns/coredns {@code plugin/kubernetes/handler_test.go} ({@code svcIndex},
 * {@code epsIndex}), as FleetKit objects. The test's SOA serial is 1499347823.
 */
final class CoreDnsFixtures {
  static final long SERIAL = 1499347823L;

  private CoreDnsFixtures() {}

  static ServicePort port(String name, ServiceProtocol protocol, int port) {
    return new ServicePort(name, protocol, port, ServiceTargetPort.of(port), null);
  }

  static Service clusterIp(String ns, String name, List<String> ips, ServicePort port) {
    return Service.of(ObjectMeta.of(ns, name), ServiceSpec.builder().port(port).clusterIP(ips.get(0)).clusterIPs(ips)
        .build());
  }

  static Service headless(String ns, String name, boolean ports) {
    ServiceSpec.Builder b = ServiceSpec.builder().headless();
    if (ports) {
      b.port(port("http", ServiceProtocol.TCP, 80));
    }
    return Service.of(ObjectMeta.of(ns, name), b.build());
  }

  static Service external(String name, String target) {
    return Service.of(ObjectMeta.of("testns", name), ServiceSpec.builder().type(ServiceType.ExternalName)
        .externalName(target).port(port("http", ServiceProtocol.TCP, 80)).build());
  }

  static List<Service> services() {
    return List.of(
        clusterIp("kube-system", "kubedns", List.of("10.0.0.10"), port("dns", ServiceProtocol.UDP, 53)),
        clusterIp("testns", "svc1", List.of("10.0.0.1"), port("http", ServiceProtocol.TCP, 80)),
        clusterIp("testns", "svcempty", List.of("10.0.0.1"), port("http", ServiceProtocol.TCP, 80)),
        clusterIp("testns", "svc6", List.of("1234:abcd::1"), port("http", ServiceProtocol.TCP, 80)),
        headless("testns", "hdls1", true),
        external("external", "ext.interwebs.test"),
        external("external-to-service", "svc1.testns.svc.cluster.local."),
        headless("testns", "hdlsprtls", false),
        clusterIp("unexposedns", "svc1", List.of("10.0.0.2"), port("http", ServiceProtocol.TCP, 80)),
        clusterIp("testns", "svc-dual-stack", List.of("10.0.0.3", "10::3"), port("http", ServiceProtocol.TCP, 80)));
  }

  static EndpointSlice slice(String ns, String svc, String name, AddressType type, List<Endpoint> eps,
      List<EndpointPort> ports) {
    return new EndpointSlice(ObjectMeta.builder().namespace(ns).name(name)
        .labels(Map.of(EndpointSlice.LABEL_SERVICE_NAME, svc)).build(), type, eps, ports);
  }

  static Endpoint ep(String ip, String hostname) {
    return Endpoint.of(ip).withHostname(hostname);
  }

  static List<EndpointSlice> slices() {
    List<EndpointPort> http = List.of(new EndpointPort("http", 80, ServiceProtocol.TCP, ""));
    List<EndpointSlice> out = new ArrayList<>();
    out.add(slice("kube-system", "kubedns", "kubedns-1", AddressType.IPv4, List.of(ep("172.0.0.100", "")),
        List.of(new EndpointPort("dns", 53, ServiceProtocol.UDP, ""))));
    out.add(slice("testns", "svc1", "svc1-slice1", AddressType.IPv4, List.of(ep("172.0.0.1", "ep1a")), http));
    out.add(slice("testns", "svcempty", "svcempty-slice1", AddressType.IPv4, List.of(), http));
    out.add(slice("testns", "hdls1", "hdls1-slice1", AddressType.IPv4, List.of(ep("172.0.0.2", ""),
        ep("172.0.0.3", ""), ep("172.0.0.4", "dup-name"), ep("172.0.0.5", "dup-name")), http));
    out.add(slice("testns", "hdls1", "hdls1-slice2", AddressType.IPv6, List.of(ep("5678:abcd::1", ""),
        ep("5678:abcd::2", "")), http));
    out.add(slice("testns", "hdlsprtls", "hdlsprtls-slice1", AddressType.IPv4, List.of(ep("172.0.0.20", "")),
        List.of()));
    return out;
  }

  static DnsSnapshot snapshot() {
    return DnsSnapshot.of(services(), slices(), Set.of(), SERIAL);
  }
}
