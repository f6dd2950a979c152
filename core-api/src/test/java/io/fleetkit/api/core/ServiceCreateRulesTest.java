package io.fleetkit.api.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ported from kubernetes {@code pkg/apis/core/validation/validation_test.go} at commit
 * 000f26050b9be6fb3d79fae95e06b47fc96128cd, {@code TestValidateServiceCreate}: the cases on {@code ipFamilyPolicy},
 * {@code ipFamilies} and {@code clusterIPs}, {@code loadBalancerSourceRanges} (field and annotation),
 * {@code allocateLoadBalancerNodePorts}, {@code loadBalancerClass}, {@code appProtocol}, the topology annotations,
 * {@code externalIPs} and {@code healthCheckNodePort}: 72 of those 75; and {@code TestValidateServiceExternalTrafficPolicy}:
 * 7 of its 10. Each starts from upstream's {@code makeValidService} (ClusterIP, selector {@code key=val}, TCP
 * port {@code p} 8675, no policy) changed as upstream's {@code tweakSvc} does; upstream counts the errors of
 * {@code ValidateServiceCreate}, this test the violations FleetKit lists when the Service is built.
 *
 * <p>Left out: "invalid, service with invalid ipFamilies" and "... (2nd)" (FleetKit's {@link IPFamily} has no other
 * value); "invalid type - missing AllocateLoadBalancerNodePorts for loadbalancer type" (FleetKit reads an unset value
 * on a LoadBalancer Service as Kubernetes' default {@code true}, which the API server writes before validating);
 * "externalTrafficPolicy is required on NodePort service", "... on LoadBalancer service", "... on ClusterIP service
 * with externalIPs" ({@code Cluster} is FleetKit's unset value, which the API server writes before validating).
 */
final class ServiceCreateRulesTest {
  private static final IPFamilyPolicy SINGLE = IPFamilyPolicy.SingleStack;
  private static final IPFamilyPolicy PREFER = IPFamilyPolicy.PreferDualStack;
  private static final IPFamilyPolicy REQUIRE = IPFamilyPolicy.RequireDualStack;
  private static final IPFamily V4 = IPFamily.IPv4;
  private static final IPFamily V6 = IPFamily.IPv6;
  private static final String RANGES = Service.LOAD_BALANCER_SOURCE_RANGES_ANNOTATION;
  private static final ServiceTrafficPolicy LOCAL = ServiceTrafficPolicy.Local;

  /** One row: upstream's name, the change to the valid Service, upstream's error count and FleetKit's first field. */
  record Case(String name, BiConsumer<ObjectMeta.Builder, ServiceSpec.Builder> tweak, int numErrs,
      @Nullable String field) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Arguments> cases() {
    List<Case> c = new ArrayList<>();
    // ip families
    c.add(ok("IPFamilyPolicy(singleStack) is set for two families", (m, s) -> s.ipFamilyPolicy(SINGLE)
        .ipFamilies(List.of(V4, V6)))); // upstream: checked when addresses are allocated
    c.add(ok("valid, IPFamilyPolicy(preferDualStack) is set for two families (note: alloc sets families)",
        (m, s) -> s.ipFamilyPolicy(PREFER).ipFamilies(List.of(V4, V6))));
    c.add(bad("invalid, service with 2+ ipFamilies", (m, s) -> s.ipFamilyPolicy(REQUIRE)
        .ipFamilies(List.of(V4, V6, V4)), 1, "spec.ipFamilies"));
    c.add(bad("invalid, service with same ip families", (m, s) -> s.ipFamilyPolicy(REQUIRE)
        .ipFamilies(List.of(V6, V6)), 1, "spec.ipFamilies"));
    c.add(ok("valid, nil service ipFamilies", (m, s) -> s.ipFamilies(List.of())));
    c.add(ok("valid, service with valid ipFamilies (v4)", (m, s) -> s.ipFamilies(List.of(V4))));
    c.add(ok("valid, service with valid ipFamilies (v6)", (m, s) -> s.ipFamilies(List.of(V6))));
    c.add(ok("valid, service with valid ipFamilies(v4,v6)", (m, s) -> s.ipFamilyPolicy(REQUIRE)
        .ipFamilies(List.of(V4, V6))));
    c.add(ok("valid, service with valid ipFamilies(v6,v4)", (m, s) -> s.ipFamilyPolicy(REQUIRE)
        .ipFamilies(List.of(V6, V4))));
    c.add(ok("valid, service preferred dual stack with single family", (m, s) -> s.ipFamilyPolicy(PREFER)
        .ipFamilies(List.of(V6))));
    // cluster IPs
    c.add(bad("invalid, garbage single ip", (m, s) -> ips(s, null, "garbage-ip", "garbage-ip"), 1,
        "spec.clusterIPs[0]"));
    c.add(bad("invalid, garbage ips", (m, s) -> ips(s, REQUIRE, "garbage-ip", "garbage-ip", "garbage-second-ip"), 2,
        "spec.clusterIPs[0]"));
    c.add(bad("invalid, garbage first ip", (m, s) -> ips(s, REQUIRE, "garbage-ip", "garbage-ip", "2001::1"), 1,
        "spec.clusterIPs[0]"));
    c.add(bad("invalid, garbage second ip", (m, s) -> ips(s, REQUIRE, "2001::1", "2001::1", "garbage-ip"), 1,
        "spec.clusterIPs[1]"));
    c.add(bad("invalid, NONE + IP", (m, s) -> ips(s, REQUIRE, "None", "None", "2001::1"), 1, "spec.clusterIPs"));
    c.add(bad("invalid, IP + NONE", (m, s) -> ips(s, REQUIRE, "2001::1", "2001::1", "None"), 1,
        "spec.clusterIPs[1]"));
    c.add(bad("invalid, EMPTY STRING + IP", (m, s) -> ips(s, REQUIRE, "", "", "2001::1"), 2, "spec.clusterIPs"));
    c.add(bad("invalid, IP + EMPTY STRING", (m, s) -> ips(s, REQUIRE, "2001::1", "2001::1", ""), 1,
        "spec.clusterIPs[1]"));
    c.add(bad("invalid, same ip family (v6)", (m, s) -> ips(s, REQUIRE, "2001::1", "2001::1", "2001::4")
        .ipFamilies(List.of(V4, V6)), 2, "spec.clusterIPs"));
    c.add(bad("invalid, same ip family (v4)", (m, s) -> ips(s, REQUIRE, "10.0.0.1", "10.0.0.1", "10.0.0.10")
        .ipFamilies(List.of(V4, V6)), 2, "spec.clusterIPs"));
    c.add(bad("invalid, more than two ips", (m, s) -> ips(s, REQUIRE, "10.0.0.1", "10.0.0.1", "2001::1",
        "10.0.0.10").ipFamilies(List.of(V4, V6)), 1, "spec.clusterIPs"));
    c.add(ok(" multi ip, dualstack not set (request for downgrade)", (m, s) -> ips(s, SINGLE, "10.0.0.1", "10.0.0.1",
        "2001::1").ipFamilies(List.of(V4, V6))));
    c.add(ok("valid, headless-no-selector + multi family + gate off", (m, s) -> ips(s, REQUIRE, "None", "None")
        .ipFamilies(List.of(V4, V6)).selector(java.util.Map.of())));
    c.add(ok("valid, multi ip, single ipfamilies preferDualStack", (m, s) -> ips(s, PREFER, "10.0.0.1", "10.0.0.1",
        "2001::1").ipFamilies(List.of(V4))));
    c.add(ok("valid, multi ip, single ipfamilies (must match when provided) + requireDualStack",
        (m, s) -> ips(s, REQUIRE, "10.0.0.1", "10.0.0.1", "2001::1").ipFamilies(List.of(V4))));
    c.add(bad("invalid, families don't match (v4=>v6)", (m, s) -> ips(s, null, "10.0.0.1", "10.0.0.1")
        .ipFamilies(List.of(V6)), 1, "spec.clusterIPs[0]"));
    c.add(bad("invalid, families don't match (v6=>v4)", (m, s) -> ips(s, null, "2001::1", "2001::1")
        .ipFamilies(List.of(V4)), 1, "spec.clusterIPs[0]"));
    c.add(ok("valid. no field set", (m, s) -> {}));
    c.add(ok("valid, single ip", (m, s) -> ips(s, SINGLE, "10.0.0.1", "10.0.0.1")));
    c.add(ok("valid, single family", (m, s) -> s.ipFamilyPolicy(SINGLE).ipFamilies(List.of(V6))));
    c.add(ok("valid, single ip + single family", (m, s) -> ips(s, SINGLE, "2001::1", "2001::1")
        .ipFamilies(List.of(V6))));
    c.add(ok("valid, single ip + single family (dual stack requested)", (m, s) -> ips(s, PREFER, "2001::1",
        "2001::1").ipFamilies(List.of(V6))));
    c.add(ok("valid, single ip, multi ipfamilies", (m, s) -> ips(s, REQUIRE, "10.0.0.1", "10.0.0.1")
        .ipFamilies(List.of(V4, V6))));
    c.add(ok("valid, multi ips, multi ipfamilies (4,6)", (m, s) -> ips(s, REQUIRE, "10.0.0.1", "10.0.0.1",
        "2001::1").ipFamilies(List.of(V4, V6))));
    c.add(ok("valid, ips, multi ipfamilies (6,4)", (m, s) -> ips(s, REQUIRE, "2001::1", "2001::1", "10.0.0.1")
        .ipFamilies(List.of(V6, V4))));
    c.add(ok("valid, multi ips (6,4)", (m, s) -> ips(s, REQUIRE, "2001::1", "2001::1", "10.0.0.1")));
    c.add(ok("valid, multi ipfamilies (6,4)", (m, s) -> s.ipFamilyPolicy(REQUIRE).ipFamilies(List.of(V6, V4))));
    c.add(ok("valid, multi ips (4,6)", (m, s) -> ips(s, REQUIRE, "10.0.0.1", "10.0.0.1", "2001::1")));
    c.add(ok("valid,  multi ipfamilies (4,6)", (m, s) -> s.ipFamilyPolicy(REQUIRE).ipFamilies(List.of(V4, V6))));
    c.add(ok("valid, dual stack", (m, s) -> s.ipFamilyPolicy(REQUIRE)));
    // appProtocol
    c.add(ok("valid appProtocol", (m, s) -> s.ports(List.of(appPort("HTTP")))));
    c.add(ok("valid custom appProtocol", (m, s) -> s.ports(List.of(appPort("example.com/protocol")))));
    c.add(bad("invalid appProtocol", (m, s) -> s.ports(List.of(appPort(
        "example.com/protocol_with{invalid}[characters]"))), 1, "spec.ports[0].appProtocol"));
    c.add(bad("invalid cluster ip != clusterIP in multi ip service", (m, s) -> ips(s, REQUIRE, "10.0.0.10",
        "10.0.0.1", "2001::1"), 1, "spec.clusterIPs"));
    c.add(bad("invalid cluster ip != clusterIP in single ip service", (m, s) -> ips(s, null, "10.0.0.10",
        "10.0.0.1"), 1, "spec.clusterIPs"));
    // allocateLoadBalancerNodePorts, loadBalancerClass, topology annotations
    c.add(bad("Use AllocateLoadBalancerNodePorts when type is not LoadBalancer",
        (m, s) -> s.allocateLoadBalancerNodePorts(true), 1, "spec.allocateLoadBalancerNodePorts"));
    c.add(ok("valid type - loadbalancer with allocateLoadBalancerNodePorts=false",
        (m, s) -> s.type(ServiceType.LoadBalancer).allocateLoadBalancerNodePorts(false)));
    c.add(ok("valid LoadBalancerClass when type is LoadBalancer", (m, s) -> lb(s)
        .loadBalancerClass("test.com/test-load-balancer-class")));
    c.add(bad("invalid LoadBalancerClass", (m, s) -> lb(s).loadBalancerClass("Bad/LoadBalancerClass"), 1,
        "spec.loadBalancerClass"));
    c.add(bad("invalid: set LoadBalancerClass when type is not LoadBalancer", (m, s) -> s.type(ServiceType.ClusterIP)
        .loadBalancerClass("test.com/test-load-balancer-class"), 1, "spec.loadBalancerClass"));
    c.add(bad("topology annotations are mismatched", (m, s) -> m
        .annotation(Service.DEPRECATED_TOPOLOGY_HINTS_ANNOTATION, "original")
        .annotation(Service.TOPOLOGY_MODE_ANNOTATION, "different"), 1,
        "metadata.annotations[service.kubernetes.io/topology-mode]"));
    // loadBalancerSourceRanges and its annotation
    String annotationField = "metadata.annotations[" + RANGES + "]";
    c.add(ok("valid LoadBalancer source range annotation", (m, s) -> {
      lb(s);
      m.annotation(RANGES, "1.2.3.0/24,  5.6.0.0/16");
    }));
    c.add(ok("valid empty LoadBalancer source range annotation", (m, s) -> {
      lb(s);
      m.annotation(RANGES, "");
    }));
    c.add(ok("valid whitespace-only LoadBalancer source range annotation", (m, s) -> {
      lb(s);
      m.annotation(RANGES, "  ");
    }));
    c.add(bad("invalid LoadBalancer source range annotation (hostname)", (m, s) -> {
      lb(s);
      m.annotation(RANGES, "foo.bar");
    }, 1, annotationField));
    c.add(bad("invalid LoadBalancer source range annotation (invalid CIDR)", (m, s) -> {
      lb(s);
      m.annotation(RANGES, "1.2.3.4/33");
    }, 1, annotationField));
    c.add(bad("invalid LoadBalancer source range annotation for non LoadBalancer type service",
        (m, s) -> m.annotation(RANGES, "1.2.3.0/24"), 1, annotationField));
    c.add(bad("invalid empty-but-set LoadBalancer source range annotation for non LoadBalancer type service",
        (m, s) -> m.annotation(RANGES, ""), 1, annotationField));
    c.add(ok("valid LoadBalancer source range", (m, s) -> lb(s)
        .loadBalancerSourceRanges(List.of("1.2.3.0/24", "5.6.0.0/16"))));
    c.add(ok("valid LoadBalancer source range with whitespace", (m, s) -> lb(s)
        .loadBalancerSourceRanges(List.of("1.2.3.0/24  ", " 5.6.0.0/16"))));
    c.add(bad("invalid empty LoadBalancer source range", (m, s) -> lb(s).loadBalancerSourceRanges(List.of("   ")), 1,
        "spec.loadBalancerSourceRanges[0]"));
    c.add(bad("invalid LoadBalancer source range (hostname)", (m, s) -> lb(s)
        .loadBalancerSourceRanges(List.of("foo.bar")), 1, "spec.loadBalancerSourceRanges[0]"));
    c.add(bad("invalid LoadBalancer source range (invalid CIDR)", (m, s) -> lb(s)
        .loadBalancerSourceRanges(List.of("1.2.3.4/33")), 1, "spec.loadBalancerSourceRanges[0]"));
    c.add(bad("invalid source range for non LoadBalancer type service", (m, s) -> s
        .loadBalancerSourceRanges(List.of("1.2.3.0/24", "5.6.0.0/16")), 1, "spec.loadBalancerSourceRanges"));
    c.add(ok("invalid source range annotation ignored with valid source range field", (m, s) -> {
      lb(s).loadBalancerSourceRanges(List.of("1.2.3.0/24", "5.6.0.0/16"));
      m.annotation(RANGES, "foo.bar");
    }));
    // external IPs
    c.add(bad("invalid publicIPs localhost", (m, s) -> s.externalIPs(List.of("127.0.0.1")), 1,
        "spec.externalIPs[0]"));
    c.add(bad("invalid publicIPs unspecified", (m, s) -> s.externalIPs(List.of("0.0.0.0")), 1,
        "spec.externalIPs[0]"));
    c.add(bad("invalid publicIPs loopback", (m, s) -> s.externalIPs(List.of("127.0.0.1")), 1, "spec.externalIPs[0]"));
    c.add(bad("invalid publicIPs host", (m, s) -> s.externalIPs(List.of("myhost.mydomain")), 1,
        "spec.externalIPs[0]"));
    c.add(ok("valid publicIPs", (m, s) -> s.externalIPs(List.of("1.2.3.4"))));
    // ESIPP: healthCheckNodePort (upstream names both cases "negative healthCheckNodePort field")
    c.add(bad("negative healthCheckNodePort field", (m, s) -> lb(s).externalTrafficPolicy(LOCAL)
        .healthCheckNodePort(-1), 1, "spec.healthCheckNodePort"));
    c.add(ok("negative healthCheckNodePort field (31100)", (m, s) -> lb(s).externalTrafficPolicy(LOCAL)
        .healthCheckNodePort(31100)));
    // TestValidateServiceExternalTrafficPolicy (upstream counts validateServiceExternalTrafficPolicy's errors; the
    // rest of each Service is valid, so the counts are the Service's)
    c.add(ok("valid loadBalancer service with externalTrafficPolicy and healthCheckNodePort set", (m, s) -> lb(s)
        .externalTrafficPolicy(LOCAL).healthCheckNodePort(34567)));
    c.add(ok("valid nodePort service with externalTrafficPolicy set", (m, s) -> s.type(ServiceType.NodePort)
        .externalTrafficPolicy(LOCAL)));
    c.add(ok("valid clusterIP service with none of externalTrafficPolicy and healthCheckNodePort set",
        (m, s) -> s.type(ServiceType.ClusterIP)));
    c.add(bad("cannot set healthCheckNodePort field on loadBalancer service with externalTrafficPolicy!=Local",
        (m, s) -> lb(s).externalTrafficPolicy(ServiceTrafficPolicy.Cluster).healthCheckNodePort(34567), 1,
        "spec.healthCheckNodePort"));
    c.add(bad("cannot set healthCheckNodePort field on nodePort service", (m, s) -> s.type(ServiceType.NodePort)
        .externalTrafficPolicy(LOCAL).healthCheckNodePort(34567), 1, "spec.healthCheckNodePort"));
    c.add(bad("cannot set externalTrafficPolicy or healthCheckNodePort fields on clusterIP service",
        (m, s) -> s.type(ServiceType.ClusterIP).externalTrafficPolicy(LOCAL).healthCheckNodePort(34567), 2,
        "spec.externalTrafficPolicy"));
    c.add(bad("cannot set externalTrafficPolicy field on ExternalName service", (m, s) -> s
        .type(ServiceType.ExternalName).externalName("foo.bar.example.com").externalTrafficPolicy(LOCAL), 1,
        "spec.externalTrafficPolicy"));
    return c.stream().map(Arguments::of);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void create_upstreamCase(Case tc) {
    ObjectMeta.Builder meta = ObjectMeta.builder().namespace("valid").name("valid");
    ServiceSpec.Builder spec = ServiceSpec.builder().selector("key", "val")
        .port(new ServicePort("p", ServiceProtocol.TCP, 8675, ServiceTargetPort.of(8675), null));
    tc.tweak().accept(meta, spec);
    if (tc.numErrs() == 0) {
      assertThatCode(() -> Service.of(meta.build(), spec.build())).doesNotThrowAnyException();
      return;
    }
    assertThatThrownBy(() -> Service.of(meta.build(), spec.build()))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("Service valid/valid: ")
        .satisfies(e -> assertThat(((ValidationException) e).violations()).hasSize(tc.numErrs())
            .extracting(Violation::field).first().isEqualTo(tc.field()));
  }

  @Test
  void cases_are79OfUpstreams85OnTheseFields() {
    assertThat(cases()).hasSize(79); // TestValidateServiceCreate 72 of 75, TestValidateServiceExternalTrafficPolicy 7/10
  }

  @Test
  void messages_nameTheFieldTheRuleAndTheValue() {
    ServiceSpec spec = ServiceSpec.builder().selector("key", "val").port(ServicePort.of(80))
        .loadBalancerSourceRanges(List.of("10.0.0.0/8")).loadBalancerClass("example.com/lb")
        .clusterIP("10.0.0.1").ipFamilies(List.of(V6)).build();
    assertThatThrownBy(() -> Service.of(ObjectMeta.of("default", "web"), spec))
        .hasMessageContaining("Service default/web: spec.clusterIPs[0] \"10.0.0.1\" expected an IPv6 value as "
            + "indicated by `ipFamilies[0]`")
        .hasMessageContaining("spec.loadBalancerSourceRanges \"[10.0.0.0/8]\" may only be used when `type` is "
            + "'LoadBalancer'")
        .hasMessageContaining("spec.loadBalancerClass \"example.com/lb\" may only be used when `type` is "
            + "'LoadBalancer'");
  }

  // ----------------------------------------------------------------------------------------------- builders

  private static Case ok(String name, BiConsumer<ObjectMeta.Builder, ServiceSpec.Builder> tweak) {
    return new Case(name, tweak, 0, null);
  }

  private static Case bad(String name, BiConsumer<ObjectMeta.Builder, ServiceSpec.Builder> tweak, int numErrs,
      String field) {
    return new Case(name, tweak, numErrs, field);
  }

  /** {@code clusterIP} and {@code clusterIPs} as upstream's case sets them, and the policy ({@code null}: unset). */
  private static ServiceSpec.Builder ips(ServiceSpec.Builder s, @Nullable IPFamilyPolicy policy, String clusterIP,
      String... clusterIPs) {
    return s.ipFamilyPolicy(policy).clusterIP(clusterIP).clusterIPs(List.of(clusterIPs));
  }

  /** Type LoadBalancer with {@code allocateLoadBalancerNodePorts: true}, as upstream's cases set it. */
  private static ServiceSpec.Builder lb(ServiceSpec.Builder s) {
    return s.type(ServiceType.LoadBalancer).allocateLoadBalancerNodePorts(true);
  }

  /** Upstream's unnamed TCP port 12345 with an {@code appProtocol}. */
  private static ServicePort appPort(String appProtocol) {
    return new ServicePort("", ServiceProtocol.TCP, 12345, ServiceTargetPort.of(12345), null, appProtocol);
  }
}
