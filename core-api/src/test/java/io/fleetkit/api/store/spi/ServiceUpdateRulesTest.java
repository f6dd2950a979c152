package io.fleetkit.api.store.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import io.fleetkit.api.core.SessionAffinity;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ported from kubernetes {@code pkg/apis/core/validation/validation_test.go} at commit
 * 000f26050b9be6fb3d79fae95e06b47fc96128cd, {@code TestValidateServiceUpdate}: 80 of its 86 cases. Each case starts
 * from two copies of a valid ClusterIP Service (upstream's {@code makeValidService}: {@code default/valid}, selector
 * {@code key=val}, TCP port {@code p} 8675, no {@code ipFamilyPolicy}) and changes them as upstream's
 * {@code tweakSvc} does. Upstream counts the errors of {@code ValidateServiceUpdate}, which are the update rules'
 * plus {@code ValidateService}'s of the new Service; for the update rules this test counts {@link UpdateChecks}'
 * violations, and where the new Service is invalid by itself FleetKit refuses to build it: the case asserts that
 * refusal, its field and the number of violations FleetKit reports (upstream's count where the update rules add
 * nothing; where upstream checks {@code loadBalancerClass} twice, once per function, FleetKit reports it once).
 *
 * <p>Left out (see docs/conformance.md): "change name", "change namespace" (the store key); "remove affinity",
 * "remove type" (FleetKit's enums have no unset value); "Service with ExternalName type can change its set ClusterIP
 * when changing type to ClusterIP" and "invalid flip families" (their old Service cannot be built: an ExternalName
 * Service with a cluster IP, a clusterIP that is not clusterIPs[0]).
 */
final class ServiceUpdateRulesTest {
  private static final IPFamilyPolicy SINGLE = IPFamilyPolicy.SingleStack;
  private static final IPFamilyPolicy PREFER = IPFamilyPolicy.PreferDualStack;
  private static final IPFamilyPolicy REQUIRE = IPFamilyPolicy.RequireDualStack;

  /**
   * One row: upstream's name, old and new Service (built lazily: some fail to build), the update rules' errors, or
   * the field of the new Service's refusal and how many violations it lists.
   */
  record Case(String name, Builder old, Builder updated, int numErrs, @Nullable String builtRefusedField) {
    @Override
    public String toString() {
      return name;
    }
  }

  @FunctionalInterface
  interface Builder {
    Service build();
  }

  static Stream<Arguments> cases() {
    List<Case> c = new ArrayList<>();
    c.add(errs("no change", svc(s -> {}), svc(s -> {}), 0));
    c.add(errs("change label valid", svc(s -> {}), svc(Map.of("key", "other-value"), s -> {}), 0));
    c.add(errs("add label", svc(s -> {}), svc(Map.of("key2", "value2"), s -> {}), 0));
    c.add(errs("change cluster IP", ip("1.2.3.4"), ip("8.6.7.5"), 1));
    c.add(errs("remove cluster IP", ip("1.2.3.4"), ip(""), 1));
    c.add(errs("change affinity", svc(s -> {}),
        svc(s -> s.sessionAffinity(SessionAffinity.ClientIP).sessionAffinityTimeoutSeconds(90)), 0));
    c.add(errs("change type", svc(s -> {}), svc(s -> lb(s).externalTrafficPolicy(ServiceTrafficPolicy.Cluster)), 0));
    c.add(errs("change type -> nodeport", svc(s -> {}), svc(s -> s.type(ServiceType.NodePort)
        .externalTrafficPolicy(ServiceTrafficPolicy.Cluster)), 0));
    c.add(errs("add loadBalancerSourceRanges", svc(ServiceUpdateRulesTest::lb),
        svc(s -> lb(s).loadBalancerSourceRanges(List.of("10.0.0.0/8"))), 0));
    c.add(errs("update loadBalancerSourceRanges", svc(s -> lb(s).loadBalancerSourceRanges(List.of("10.0.0.0/8"))),
        svc(s -> lb(s).loadBalancerSourceRanges(List.of("10.100.0.0/16"))), 0));
    c.add(builtRefused("LoadBalancer type cannot have None ClusterIP", svc(s -> {}),
        svc(s -> lb(s).headless().clusterIPs(List.of("None"))), "spec.clusterIP", 1));
    c.add(errs("`None` ClusterIP can NOT be changed", ip("None"), ip("1.2.3.4"), 1));
    c.add(errs("`None` ClusterIP can NOT be removed", ip("None"), ip(""), 1));
    c.add(errs("ClusterIP can NOT be changed to None", ip("1.2.3.4"), ip("None"), 1));
    List<ServiceType> types = List.of(ServiceType.ClusterIP, ServiceType.NodePort, ServiceType.LoadBalancer);
    for (ServiceType from : types) {
      List<ServiceType> tos = new ArrayList<>(List.of(from));
      types.stream().filter(t -> t != from).forEach(tos::add);
      for (ServiceType to : tos) {
        String change = to == from ? "" : " when changing type to " + to;
        String its = from == ServiceType.ClusterIP && to == ServiceType.LoadBalancer ? "its" : "its set";
        c.add(errs("Service with " + from + " type cannot change " + its + " ClusterIP" + change,
            typedIp(from, "1.2.3.4"), typedIp(to, "1.2.3.5"), 1));
        c.add(errs("Service with " + from + " type can change its empty ClusterIP" + change, typedIp(from, ""),
            typedIp(to, "1.2.3.5"), 0));
      }
    }
    c.add(errs("Service with LoadBalancer type can change its AllocateLoadBalancerNodePorts from true to false",
        svc(ServiceUpdateRulesTest::lb), svc(s -> lb(s).allocateLoadBalancerNodePorts(false)), 0));
    c.add(errs("Service with LoadBalancer type can change its AllocateLoadBalancerNodePorts from false to true",
        svc(s -> lb(s).allocateLoadBalancerNodePorts(false)), svc(ServiceUpdateRulesTest::lb), 0));
    // an ExternalName Service needs spec.externalName in FleetKit (upstream leaves it unset in these two old ones)
    c.add(errs("Service with ExternalName type can change its empty ClusterIP when changing type to ClusterIP",
        svc(s -> s.type(ServiceType.ExternalName).externalName("foo")), ip("1.2.3.5"), 0));
    c.add(builtRefused("invalid node port with clusterIP None",
        svc(s -> s.type(ServiceType.NodePort).port(nodePort())),
        svc(s -> s.type(ServiceType.NodePort).port(nodePort()).headless().clusterIPs(List.of("None"))),
        "spec.clusterIP", 1));
    c.add(errs("convert from ExternalName", svc(s -> s.type(ServiceType.ExternalName).externalName("foo")),
        svc(s -> {}), 0));
    // cluster IPs, families and policy kept on an ExternalName Service: upstream's 3 errors, all the new Service's
    c.add(builtRefused("invalid: convert to ExternalName", family("10.0.0.10", IPFamily.IPv4, SINGLE),
        svc(s -> s.type(ServiceType.ExternalName).externalName("foo").clusterIP("10.0.0.10")
            .clusterIPs(List.of("10.0.0.10")).ipFamilies(List.of(IPFamily.IPv4)).ipFamilyPolicy(SINGLE)),
        "spec.ipFamilyPolicy", 3));
    c.add(errs("valid: convert to ExternalName", family("10.0.0.10", IPFamily.IPv4, SINGLE),
        svc(s -> s.type(ServiceType.ExternalName).externalName("foo")), 0));
    c.add(errs("same ServiceIPFamily", families(List.of(), null, IPFamily.IPv4),
        families(List.of(), null, IPFamily.IPv4), 0));
    c.add(errs("same ServiceIPFamily, change IPFamilyPolicy to singleStack", families(List.of(), null, IPFamily.IPv4),
        families(List.of(), SINGLE, IPFamily.IPv4), 0));
    c.add(errs("same ServiceIPFamily, change IPFamilyPolicy singleStack => requireDualStack",
        families(List.of(), SINGLE, IPFamily.IPv4), families(List.of(), REQUIRE, IPFamily.IPv4), 0));
    c.add(errs("add a new ServiceIPFamily", families(List.of(), REQUIRE, IPFamily.IPv4),
        families(List.of(), REQUIRE, IPFamily.IPv4, IPFamily.IPv6), 0));
    c.add(errs("ExternalName while changing Service IPFamily",
        svc(s -> s.type(ServiceType.ExternalName).externalName("somename")),
        svc(s -> s.type(ServiceType.ExternalName).externalName("somename")), 0));
    // a ClusterIP Service with an externalName: accepted and kept, as upstream's ValidateService does
    c.add(errs("setting ipfamily from nil to v4", svc(s -> {}),
        svc(s -> s.externalName("somename").ipFamilies(List.of(IPFamily.IPv4))), 0));
    c.add(errs("setting ipfamily from nil to v6", svc(s -> {}),
        svc(s -> s.externalName("somename").ipFamilies(List.of(IPFamily.IPv6))), 0));
    // upstream counts 2: the update rule's "may not change once set" and ValidateService's "expected an IPv6 value";
    // FleetKit refuses to build the new Service for the second, so the first cannot be reached
    c.add(builtRefused("change primary ServiceIPFamily", family("1.2.3.4", IPFamily.IPv4, null),
        family("1.2.3.4", IPFamily.IPv6, null), "spec.clusterIPs[0]", 1));
    // upstream sets the old policy twice (SingleStack, then RequireDualStack) and leaves the new one unset
    c.add(errs("valid: upgrade to dual stack with requiredDualStack", family("1.2.3.4", IPFamily.IPv4, REQUIRE),
        family("1.2.3.4", IPFamily.IPv4, null), 0));
    c.add(errs("valid: upgrade to dual stack with preferDualStack", family("1.2.3.4", IPFamily.IPv4, SINGLE),
        family("1.2.3.4", IPFamily.IPv4, PREFER), 0));
    c.add(errs("valid: upgrade to dual stack, no specific secondary ip", family("1.2.3.4", IPFamily.IPv4, SINGLE),
        families(List.of("1.2.3.4"), REQUIRE, IPFamily.IPv4, IPFamily.IPv6), 0));
    c.add(errs("valid: upgrade to dual stack, with specific secondary ip",
        family("1.2.3.4", IPFamily.IPv4, SINGLE),
        families(List.of("1.2.3.4", "2001::1"), REQUIRE, IPFamily.IPv4, IPFamily.IPv6), 0));
    c.add(errs("valid: downgrade from dual to single", dual("1.2.3.4", "2001::1"),
        family("1.2.3.4", IPFamily.IPv4, SINGLE), 0));
    c.add(errs("valid: change families for a headless service",
        families(List.of("None"), REQUIRE, IPFamily.IPv4, IPFamily.IPv6),
        families(List.of("None"), REQUIRE, IPFamily.IPv6, IPFamily.IPv4), 0));
    c.add(errs("valid: upgrade a headless service", families(List.of("None"), SINGLE, IPFamily.IPv4),
        families(List.of("None"), REQUIRE, IPFamily.IPv6, IPFamily.IPv4), 0));
    c.add(errs("valid: downgrade a headless service",
        families(List.of("None"), REQUIRE, IPFamily.IPv4, IPFamily.IPv6),
        families(List.of("None"), SINGLE, IPFamily.IPv6), 0));
    c.add(errs("invalid change first ip, in dualstack service", dual("1.2.3.4", "2001::1"), dual("1.2.3.5", "2001::1"),
        1));
    c.add(errs("invalid, change second ip in dualstack service", dual("1.2.3.4", "2001::1"),
        dual("1.2.3.4", "2002::1"), 1));
    // families and ips are trimmed by upstream's strategy
    c.add(errs("downgrade keeping the families", dual("1.2.3.4", "2001::1"),
        families(List.of("1.2.3.4"), SINGLE, IPFamily.IPv4, IPFamily.IPv6), 0));
    c.add(errs("invalid, downgrade without changing to singleStack", dual("1.2.3.4", "2001::1"),
        family("1.2.3.4", IPFamily.IPv4, REQUIRE), 2));
    c.add(errs("invalid, downgrade and change primary ip", dual("1.2.3.4", "2001::1"),
        family("1.2.3.5", IPFamily.IPv4, SINGLE), 1));
    c.add(errs("invalid: upgrade to dual stack and change primary", family("1.2.3.4", IPFamily.IPv4, SINGLE),
        families(List.of("1.2.3.5"), REQUIRE, IPFamily.IPv4, IPFamily.IPv6), 1));
    c.add(errs("update to valid app protocol", ports(appPort("")), ports(appPort("https")), 0));
    c.add(builtRefused("update to invalid app protocol", ports(appPort("")), ports(appPort("~https")),
        "spec.ports[0].appProtocol", 1));
    c.add(builtRefused("Set AllocateLoadBalancerNodePorts when type is not LoadBalancer", svc(s -> {}),
        svc(s -> s.allocateLoadBalancerNodePorts(true)), "spec.allocateLoadBalancerNodePorts", 1));
    c.add(errs("update LoadBalancer type of service without change LoadBalancerClass", lbClass("test.com/test-old"),
        lbClass("test.com/test-old"), 0));
    c.add(errs("invalid: change LoadBalancerClass when update service", lbClass("test.com/test-old"),
        lbClass("test.com/test-new"), 1));
    c.add(errs("invalid: unset LoadBalancerClass when update service", lbClass("test.com/test-old"), lbClass(""), 1));
    c.add(errs("invalid: set LoadBalancerClass when update service", lbClass(""), lbClass("test.com/test-new"), 1));
    c.add(errs("update to LoadBalancer type of service with valid LoadBalancerClass", svc(s -> {}),
        lbClass("test.com/test-load-balancer-class"), 0));
    c.add(errs("update to LoadBalancer type of service without LoadBalancerClass", svc(s -> {}), lbClass(""), 0));
    // upstream counts 2: validateLoadBalancerClassField runs for the update and again in ValidateService
    c.add(builtRefused("invalid: set invalid LoadBalancerClass when update service to LoadBalancer", svc(s -> {}),
        lbClass("Bad/LoadBalancerclass"), "spec.loadBalancerClass", 1));
    String toNonLb = "invalid: set LoadBalancerClass when update service to non LoadBalancer type of service";
    String fromLb = "invalid: set LoadBalancerClass when update from LoadBalancer service to non LoadBalancer type of "
        + "service";
    String cls = "test.com/test-load-balancer-class";
    // upstream 2 (the same rule, twice)
    c.add(builtRefused(toNonLb + " (ClusterIP)", svc(s -> {}), svc(s -> s.loadBalancerClass(cls)),
        "spec.loadBalancerClass", 1));
    // upstream 3: the class twice and the missing externalName (left unset, as upstream)
    c.add(builtRefused(toNonLb + " (ExternalName)", svc(s -> s.type(ServiceType.ExternalName).externalName("foo")),
        svc(s -> s.type(ServiceType.ExternalName).loadBalancerClass(cls)), "spec.loadBalancerClass", 2));
    c.add(builtRefused(toNonLb + " (NodePort)", svc(s -> s.type(ServiceType.NodePort)),
        svc(s -> s.type(ServiceType.NodePort).loadBalancerClass(cls)), "spec.loadBalancerClass", 1));
    c.add(builtRefused(fromLb + " (ClusterIP)", lbClass(cls), svc(s -> s.loadBalancerClass(cls)),
        "spec.loadBalancerClass", 1));
    c.add(builtRefused(fromLb + " (ExternalName)", lbClass(cls),
        svc(s -> s.type(ServiceType.ExternalName).loadBalancerClass(cls)), "spec.loadBalancerClass", 2));
    c.add(builtRefused(fromLb + " (NodePort)", lbClass(cls),
        svc(s -> s.type(ServiceType.NodePort).loadBalancerClass(cls)), "spec.loadBalancerClass", 1));
    c.add(errs("update internalTrafficPolicy from Cluster to Local",
        svc(s -> s.internalTrafficPolicy(ServiceTrafficPolicy.Cluster)),
        svc(s -> s.internalTrafficPolicy(ServiceTrafficPolicy.Local)), 0));
    c.add(errs("update internalTrafficPolicy from Local to Cluster",
        svc(s -> s.internalTrafficPolicy(ServiceTrafficPolicy.Local)),
        svc(s -> s.internalTrafficPolicy(ServiceTrafficPolicy.Cluster)), 0));
    c.add(builtRefused("topology annotations are mismatched", svc(s -> {}),
        annotated(Map.of(Service.DEPRECATED_TOPOLOGY_HINTS_ANNOTATION, "original",
            Service.TOPOLOGY_MODE_ANNOTATION, "different")),
        "metadata.annotations[service.kubernetes.io/topology-mode]", 1));
    return c.stream().map(Arguments::of);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void update_upstreamCase(Case tc) {
    Service old = tc.old().build();
    if (tc.builtRefusedField() != null) {
      assertThatThrownBy(() -> tc.updated().build())
          .isInstanceOf(ValidationException.class)
          .hasMessageContaining("Service default/valid: ")
          .satisfies(e -> assertThat(((ValidationException) e).violations()).extracting(Violation::field)
              .contains(tc.builtRefusedField()))
          .satisfies(e -> assertThat(((ValidationException) e).violations()).hasSize(tc.numErrs()));
      return;
    }
    Service updated = tc.updated().build();
    if (tc.numErrs() == 0) {
      assertThatCode(() -> UpdateChecks.update(old, updated, false)).doesNotThrowAnyException();
      return;
    }
    assertThatThrownBy(() -> UpdateChecks.update(old, updated, false))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("Service default/valid: spec.")
        .satisfies(e -> assertThat(((ValidationException) e).violations()).hasSize(tc.numErrs()));
  }

  @Test
  void cases_are80OfUpstreams86() {
    assertThat(cases()).hasSize(80);
  }

  /** Upstream's {@code validateServiceExternalTrafficFieldsUpdate} (no case of TestValidateServiceUpdate covers it). */
  @Test
  void healthCheckNodePort_whileNeeded_isImmutable() {
    Service old = svc(s -> lb(s).externalTrafficPolicy(ServiceTrafficPolicy.Local).healthCheckNodePort(31100))
        .build();
    Service moved = svc(s -> lb(s).externalTrafficPolicy(ServiceTrafficPolicy.Local).healthCheckNodePort(31101))
        .build();
    assertThatThrownBy(() -> UpdateChecks.update(old, moved, false))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("Service default/valid: spec.healthCheckNodePort \"31101\" field is immutable");
    Service same = svc(s -> lb(s).externalTrafficPolicy(ServiceTrafficPolicy.Local).healthCheckNodePort(31100))
        .build();
    assertThatCode(() -> UpdateChecks.update(old, same, false)).doesNotThrowAnyException();
    Service cluster = svc(s -> lb(s).externalTrafficPolicy(ServiceTrafficPolicy.Cluster)).build();
    assertThatCode(() -> UpdateChecks.update(old, cluster, false)).doesNotThrowAnyException();
  }

  @Test
  void downgrade_withoutSingleStack_namesThePolicyAndBothRules() {
    Service old = dual("1.2.3.4", "2001::1").build();
    Service updated = family("1.2.3.4", IPFamily.IPv4, REQUIRE).build();
    assertThatThrownBy(() -> UpdateChecks.update(old, updated, false))
        .isInstanceOf(ValidationException.class)
        .satisfies(e -> assertThat(((ValidationException) e).violations())
            .extracting(Violation::field, Violation::rule)
            .containsExactly(
                org.assertj.core.api.Assertions.tuple("spec.ipFamilyPolicy",
                    "must be set to 'SingleStack' when releasing the secondary clusterIP"),
                org.assertj.core.api.Assertions.tuple("spec.ipFamilyPolicy",
                    "must be set to 'SingleStack' when releasing the secondary ipFamily")));
  }

  // ----------------------------------------------------------------------------------------------- builders

  private static Case errs(String name, Builder old, Builder updated, int numErrs) {
    return new Case(name, old, updated, numErrs, null);
  }

  private static Case builtRefused(String name, Builder old, Builder updated, String field, int violations) {
    return new Case(name, old, updated, violations, field);
  }

  /** Upstream's {@code makeValidService} with {@code tweak} applied. */
  private static Builder svc(Consumer<ServiceSpec.Builder> tweak) {
    return svc(Map.of(), tweak);
  }

  private static Builder svc(Map<String, String> labels, Consumer<ServiceSpec.Builder> tweak) {
    return svc(labels, Map.of(), tweak);
  }

  private static Builder annotated(Map<String, String> annotations) {
    return svc(Map.of(), annotations, s -> {});
  }

  private static Builder svc(Map<String, String> labels, Map<String, String> annotations,
      Consumer<ServiceSpec.Builder> tweak) {
    return () -> {
      ServiceSpec.Builder b = ServiceSpec.builder().selector("key", "val")
          .port(new ServicePort("p", ServiceProtocol.TCP, 8675, ServiceTargetPort.of(8675), null));
      tweak.accept(b);
      return Service.of(ObjectMeta.of("default", "valid").withLabels(labels).toBuilder().annotations(annotations)
          .build(), b.build());
    };
  }

  /** Type LoadBalancer with {@code allocateLoadBalancerNodePorts: true}, as upstream's cases set it. */
  private static ServiceSpec.Builder lb(ServiceSpec.Builder s) {
    return s.type(ServiceType.LoadBalancer).allocateLoadBalancerNodePorts(true);
  }

  private static Builder lbClass(String loadBalancerClass) {
    return svc(s -> lb(s).loadBalancerClass(loadBalancerClass));
  }

  /** The one port {@code a} 443 to 3000 of upstream's appProtocol cases. */
  private static ServicePort appPort(String appProtocol) {
    return new ServicePort("a", ServiceProtocol.TCP, 443, ServiceTargetPort.of(3000), null, appProtocol);
  }

  private static Builder ports(ServicePort port) {
    return svc(s -> s.ports(List.of(port)));
  }

  /** A ClusterIP Service whose {@code clusterIP} and {@code clusterIPs} are {@code ip} (both unset when empty). */
  private static Builder ip(String ip) {
    return typedIp(ServiceType.ClusterIP, ip);
  }

  private static Builder typedIp(ServiceType type, String ip) {
    return svc(s -> {
      s.type(type).clusterIP(ip).clusterIPs(ip.isEmpty() ? List.of() : List.of(ip));
      if (type == ServiceType.LoadBalancer) {
        s.allocateLoadBalancerNodePorts(true);
      }
    });
  }

  private static Builder family(String ip, IPFamily family, @Nullable IPFamilyPolicy policy) {
    return families(List.of(ip), policy, family);
  }

  private static Builder families(List<String> ips, @Nullable IPFamilyPolicy policy, IPFamily... families) {
    return svc(s -> s.clusterIP(ips.isEmpty() ? "" : ips.get(0)).clusterIPs(ips).ipFamilies(List.of(families))
        .ipFamilyPolicy(policy));
  }

  /** A RequireDualStack Service with both addresses and families, as upstream's dual-stack cases. */
  private static Builder dual(String v4, String v6) {
    return families(List.of(v4, v6), REQUIRE, IPFamily.IPv4, IPFamily.IPv6);
  }

  private static ServicePort nodePort() {
    return new ServicePort("q", ServiceProtocol.TCP, 1, ServiceTargetPort.of(1), 1);
  }
}
