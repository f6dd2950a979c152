package io.fleetkit.networking.ipam;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.core.IPFamily;
import io.fleetkit.api.core.IPFamilyPolicy;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.core.ServiceProtocol;
import io.fleetkit.api.core.ServiceSpec;
import io.fleetkit.api.core.ServiceTargetPort;
import io.fleetkit.api.core.ServiceTrafficPolicy;
import io.fleetkit.api.core.ServiceType;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * How {@link ServiceAddressAllocator} applies {@code ipFamilyPolicy} (upstream's {@code initIPFamilyFields} on
 * create, {@code pkg/registry/core/service/storage/alloc.go}) and {@code allocateLoadBalancerNodePorts}
 * ({@code shouldAllocateNodePorts}).
 */
final class ServiceAddressAllocatorTest {
  private final PortRange ports = PortRange.defaultRange(new Random(3));
  private final ServiceIpRange v4 = ServiceIpRange.of("10.96.0.0/16", new Random(1));
  private final ServiceIpRange v6 = ServiceIpRange.of("fd00::/108", new Random(2));

  private ServiceAddressAllocator singleStack() {
    return new ServiceAddressAllocator(v4, null, ports);
  }

  private ServiceAddressAllocator dualStack() {
    return new ServiceAddressAllocator(v4, v6, ports);
  }

  private static Service svc(Consumer<ServiceSpec.Builder> tweak) {
    ServiceSpec.Builder b = ServiceSpec.builder().selector("app", "web").port(ServicePort.of("http", 80, 8080));
    tweak.accept(b);
    return Service.of(ObjectMeta.of("shop", "web"), b.build());
  }

  private static List<Violation> refusal(Runnable r) {
    try {
      r.run();
    } catch (ValidationException e) {
      return e.violations();
    }
    throw new AssertionError("expected a refusal");
  }

  @Test
  void allocate_noPolicy_singleStackOfThePrimaryFamily() {
    Service s = dualStack().allocate(svc(b -> {}));
    assertThat(s.spec().ipFamilyPolicy()).isEqualTo(IPFamilyPolicy.SingleStack);
    assertThat(s.spec().ipFamilies()).containsExactly(IPFamily.IPv4);
    assertThat(s.spec().clusterIPs()).hasSize(1).first().isEqualTo(s.spec().clusterIP());
    assertThat(v6.used()).isZero();
  }

  @Test
  void allocate_preferDualStack_bothFamiliesOnADualStackCluster_oneOnASingleStackOne() {
    Service dual = dualStack().allocate(svc(b -> b.ipFamilyPolicy(IPFamilyPolicy.PreferDualStack)));
    assertThat(dual.spec().ipFamilies()).containsExactly(IPFamily.IPv4, IPFamily.IPv6);
    assertThat(dual.spec().clusterIPs()).hasSize(2);
    assertThat(IPFamily.of(dual.spec().clusterIPs().get(1))).isEqualTo(IPFamily.IPv6);
    assertThat(dual.spec().clusterIP()).isEqualTo(dual.spec().clusterIPs().get(0));

    ServiceSpec.Builder other = ServiceSpec.builder().selector("app", "db").port(ServicePort.of(5432))
        .ipFamilyPolicy(IPFamilyPolicy.PreferDualStack);
    Service single = singleStack().allocate(Service.of(ObjectMeta.of("shop", "db"), other.build()));
    assertThat(single.spec().ipFamilies()).containsExactly(IPFamily.IPv4);
    assertThat(single.spec().clusterIPs()).hasSize(1);
  }

  @Test
  void allocate_requireDualStackAskingIpv6First_ipv6PrimaryThenIpv4() {
    Service s = dualStack().allocate(svc(b -> b.ipFamilyPolicy(IPFamilyPolicy.RequireDualStack)
        .ipFamilies(List.of(IPFamily.IPv6))));
    assertThat(s.spec().ipFamilies()).containsExactly(IPFamily.IPv6, IPFamily.IPv4);
    assertThat(IPFamily.of(s.spec().clusterIP())).isEqualTo(IPFamily.IPv6);
    assertThat(v4.used()).isEqualTo(1);
    assertThat(v6.used()).isEqualTo(1);
  }

  @Test
  void allocate_requireDualStackOnASingleStackCluster_refusedAndNothingTaken() {
    List<Violation> v = refusal(() -> singleStack().allocate(svc(b -> b.ipFamilyPolicy(
        IPFamilyPolicy.RequireDualStack).type(ServiceType.NodePort))));
    assertThat(v).extracting(Violation::field, Violation::rule).containsExactly(tuple("spec.ipFamilyPolicy",
        "Invalid value: this cluster is not configured for dual-stack services"));
    assertThat(v.get(0).object()).isEqualTo("Service shop/web");
    assertThat(v4.used()).isZero();
    assertThat(ports.used()).isZero();
  }

  @Test
  void allocate_singleStackWithTwoFamiliesAndTwoAddresses_bothRefused() {
    List<Violation> v = refusal(() -> dualStack().allocate(svc(b -> b.ipFamilyPolicy(IPFamilyPolicy.SingleStack)
        .clusterIP("10.96.0.9").clusterIPs(List.of("10.96.0.9", "fd00::9"))
        .ipFamilies(List.of(IPFamily.IPv4, IPFamily.IPv6)))));
    assertThat(v).extracting(Violation::rule).containsExactly(
        "Invalid value: must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified",
        "Invalid value: must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified");
    assertThat(v4.used()).isZero();
  }

  @Test
  void allocate_addressOfAFamilyTheClusterLacks_refusedNamingTheAddress() {
    List<Violation> v = refusal(() -> singleStack().allocate(svc(b -> b.clusterIP("fd00::5"))));
    assertThat(v).extracting(Violation::field, Violation::rule).containsExactly(tuple("spec.clusterIPs[0]",
        "Invalid value: IPv6 is not configured on this cluster"));
  }

  @Test
  void allocate_requestedAddresses_familiesInferredFromThem() {
    Service s = dualStack().allocate(svc(b -> b.ipFamilyPolicy(IPFamilyPolicy.RequireDualStack)
        .clusterIP("fd00::7").clusterIPs(List.of("fd00::7", "10.96.0.7"))));
    assertThat(s.spec().ipFamilies()).containsExactly(IPFamily.IPv6, IPFamily.IPv4);
    assertThat(s.spec().clusterIPs()).containsExactly("fd00::7", "10.96.0.7");
  }

  @Test
  void allocate_headlessWithoutSelector_requireDualStackAndBothFamiliesEvenOnASingleStackCluster() {
    Service s = singleStack().allocate(Service.of(ObjectMeta.of("shop", "peers"),
        ServiceSpec.builder().headless().port(ServicePort.of(7000)).build()));
    assertThat(s.spec().ipFamilyPolicy()).isEqualTo(IPFamilyPolicy.RequireDualStack);
    assertThat(s.spec().ipFamilies()).containsExactly(IPFamily.IPv4, IPFamily.IPv6);
    assertThat(s.spec().clusterIPs()).containsExactly(ServiceSpec.CLUSTER_IP_NONE);
  }

  @Test
  void allocate_headlessWithSelector_singleStackOfThePrimaryFamily() {
    Service s = dualStack().allocate(svc(ServiceSpec.Builder::headless));
    assertThat(s.spec().ipFamilyPolicy()).isEqualTo(IPFamilyPolicy.SingleStack);
    assertThat(s.spec().ipFamilies()).containsExactly(IPFamily.IPv4);
    assertThat(v4.used()).isZero();
  }

  @Test
  void allocate_externalName_noPolicyNoFamilies() {
    Service s = dualStack().allocate(svc(b -> b.type(ServiceType.ExternalName).externalName("db.example.com")
        .selector(Map.of()).ports(List.of())));
    assertThat(s.spec().ipFamilyPolicy()).isNull();
    assertThat(s.spec().ipFamilies()).isEmpty();
  }

  @Test
  void allocate_loadBalancerWithoutNodePorts_onlyTheNodePortsAskedFor() {
    ServicePort asked = new ServicePort("admin", ServiceProtocol.TCP, 9000, ServiceTargetPort.of(9000), 30900);
    Service s = singleStack().allocate(svc(b -> b.type(ServiceType.LoadBalancer).allocateLoadBalancerNodePorts(false)
        .port(asked)));
    assertThat(s.spec().ports()).extracting(ServicePort::nodePort).containsExactly(null, 30900);
    assertThat(ports.used()).isEqualTo(1);
  }

  @Test
  void allocate_loadBalancerWithNodePortsUnset_everyPortGetsOne() {
    Service s = singleStack().allocate(svc(b -> b.type(ServiceType.LoadBalancer)));
    @Nullable Integer np = s.spec().ports().get(0).nodePort();
    assertThat(np).isNotNull();
    assertThat(ports.has(np)).isTrue();
  }

  @Test
  void allocate_loadBalancerWithLocalPolicy_getsAHealthCheckNodePortBesideItsNodePort() {
    Service s = singleStack().allocate(svc(b -> b.type(ServiceType.LoadBalancer)
        .externalTrafficPolicy(ServiceTrafficPolicy.Local)));
    @Nullable Integer hc = s.spec().healthCheckNodePort();
    assertThat(hc).isNotNull().isNotEqualTo(s.spec().ports().get(0).nodePort());
    assertThat(ports.has(hc)).isTrue();
    assertThat(ports.used()).isEqualTo(2);
    Service cluster = singleStack().allocate(Service.of(ObjectMeta.of("shop", "other"), svc(b -> b
        .type(ServiceType.LoadBalancer)).spec()));
    assertThat(cluster.spec().healthCheckNodePort()).isNull();
  }

  @Test
  void allocate_healthCheckNodePortTaken_refusedNamingItAndNothingHeld() {
    ServiceAddressAllocator allocator = singleStack();
    allocator.allocate(svc(b -> b.type(ServiceType.NodePort).ports(List.of(new ServicePort("http", ServiceProtocol.TCP,
        80, ServiceTargetPort.of(8080), 31100)))));
    int held = ports.used();
    List<Violation> v = refusal(() -> allocator.allocate(Service.of(ObjectMeta.of("shop", "lb"), svc(b -> b
        .type(ServiceType.LoadBalancer).externalTrafficPolicy(ServiceTrafficPolicy.Local).healthCheckNodePort(31100))
        .spec())));
    assertThat(v).extracting(Violation::field).containsExactly("spec.healthCheckNodePort");
    assertThat(v.get(0).rule()).contains("failed to allocate requested HealthCheck NodePort 31100");
    assertThat(ports.used()).isEqualTo(held);
  }
}
