package io.fleetkit.networking.loadbalancer;

import static io.fleetkit.networking.loadbalancer.LoadBalancerFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.core.IPFamily;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeCondition;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.core.ServiceProtocol;
import io.fleetkit.api.core.ServiceTargetPort;
import io.fleetkit.api.core.ServiceTrafficPolicy;
import io.fleetkit.api.core.ServiceType;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The rules of the cloud provider service controller, ported from kubernetes
 * {@code staging/src/k8s.io/cloud-provider/controllers/service/controller_test.go}: TestNeedsUpdate, TestNeedsCleanup,
 * Test_respectsPredicates, Test_shouldSyncUpdatedNode_individualPredicates and
 * Test_shouldSyncUpdatedNode_compoundedPredicates, case by case.
 */
final class LoadBalancerRulesTest {
  private static final String EXCLUDE = Node.LABEL_EXCLUDE_FROM_EXTERNAL_LOAD_BALANCERS;
  private static final String TBD = LoadBalancerRules.TO_BE_DELETED_TAINT;

  static Stream<Arguments> needsUpdate() {
    Service ext = externalService();
    Service tcp20 = service("tcp-service", ServiceType.LoadBalancer, ports(ServiceProtocol.TCP, 20));
    Service tcp22 = service("tcp-service", ServiceType.LoadBalancer, ports(ServiceProtocol.TCP, 22));
    Service tcp = service("tcp-service", ServiceType.LoadBalancer);
    Service v4 = service("tcp-service", ServiceType.LoadBalancer, families(IPFamily.IPv4));
    Service dual = service("tcp-service", ServiceType.LoadBalancer, families(IPFamily.IPv4, IPFamily.IPv6));
    Service http = service("tcp-service", ServiceType.LoadBalancer, appProtocol("http"));
    return Stream.of(
        Arguments.of("If the service type is changed from LoadBalancer to ClusterIP", ext,
            spec(b -> b.type(ServiceType.ClusterIP)).apply(ext), true),
        // upstream's three ports have no names, which validation refuses of a Service with several ports: they are
        // named a, b and c on both sides
        Arguments.of("If the Ports are different",
            spec(b -> b.ports(List.of(ServicePort.of("a", 8000, 8000), ServicePort.of("b", 9000, 9000),
                ServicePort.of("c", 10000, 10000)))).apply(ext),
            spec(b -> b.ports(List.of(ServicePort.of("a", 8001, 8001), ServicePort.of("b", 9001, 9001),
                ServicePort.of("c", 10001, 10001)))).apply(ext), true),
        // upstream's addresses are "old.IP.1" and "new.IP.1" (the rule compares text; FleetKit's Service refuses
        // text that is no IP): documentation addresses stand in for them
        Arguments.of("If external ip counts are different",
            spec(b -> b.externalIPs(List.of("192.0.2.1"))).apply(ext),
            spec(b -> b.externalIPs(List.of("198.51.100.1", "198.51.100.2"))).apply(ext), true),
        Arguments.of("If external ips are different",
            spec(b -> b.externalIPs(List.of("192.0.2.1", "192.0.2.2"))).apply(ext),
            spec(b -> b.externalIPs(List.of("198.51.100.1", "198.51.100.2"))).apply(ext), true),
        Arguments.of("If UID is different", uid(ext, "UID old"), uid(ext, "UID new"), true),
        Arguments.of("If ExternalTrafficPolicy is different", ext, etp(ServiceTrafficPolicy.Local).apply(ext), true),
        // upstream sets the port on a Cluster-policy Service, which its validation would refuse; here both sides
        // have the Local policy, so only the port differs
        Arguments.of("If HealthCheckNodePort is different", etp(ServiceTrafficPolicy.Local).apply(ext),
            spec(b -> b.externalTrafficPolicy(ServiceTrafficPolicy.Local).healthCheckNodePort(30123)).apply(ext),
            true),
        Arguments.of("If TargetGroup is different 1", tcp20, ports(ServiceProtocol.TCP, 21).apply(tcp20), true),
        Arguments.of("If TargetGroup is different 2", tcp22, spec(b -> b.ports(List.of(new ServicePort("",
            ServiceProtocol.TCP, 80, ServiceTargetPort.named("dns"), null)))).apply(tcp22), true),
        Arguments.of("If appProtocol is the same", tcp, tcp, false),
        Arguments.of("If service IPFamilies from single stack to dual stack", v4,
            families(IPFamily.IPv4, IPFamily.IPv6).apply(v4), true),
        Arguments.of("If service IPFamilies from dual stack to single stack", dual,
            families(IPFamily.IPv4).apply(dual), true),
        Arguments.of("If service IPFamilies not change", v4, v4, false),
        Arguments.of("If appProtocol is set when previously unset", tcp, appProtocol("http").apply(tcp), true),
        Arguments.of("If appProtocol is set to a different value", http, appProtocol("tcp").apply(http), true));
  }

  private static Service uid(Service s, String uid) {
    return s.withMetadata(s.metadata().toBuilder().uid(uid).build());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void needsUpdate(String name, Service old, Service now, boolean expected) {
    assertThat(LoadBalancerRules.needsUpdate(old, now)).isEqualTo(expected);
  }

  static Stream<Arguments> needsCleanup() {
    String f = Service.LOAD_BALANCER_CLEANUP_FINALIZER;
    Service plain = service("s", ServiceType.ClusterIP);
    return Stream.of(
        Arguments.of("service without finalizer", plain, false),
        Arguments.of("service with finalizer without timestamp without LB",
            service("s", ServiceType.NodePort, finalizers(f)), true),
        Arguments.of("service with finalizer without timestamp with LB",
            service("s", ServiceType.LoadBalancer, finalizers(f)), false),
        Arguments.of("service with finalizer with timestamp", deleting(service("s", ServiceType.ClusterIP,
            finalizers(f))), true));
  }

  private static Service deleting(Service s) {
    ObjectMeta m = s.metadata().toBuilder().deletionTimestamp(java.time.Instant.EPOCH).build();
    return s.withMetadata(m);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void needsCleanup(String name, Service s, boolean expected) {
    assertThat(LoadBalancerRules.needsCleanup(s)).isEqualTo(expected);
  }

  /** Test_respectsPredicates: {@code allNodePredicates} (included, untainted, ready). */
  static Stream<Arguments> respectsPredicates() {
    Node bare = Node.builder().name("n").build();
    Node readyNoProvider = Node.builder().name("n").condition(NodeCondition.of(NodeCondition.READY,
        ConditionStatus.True)).build();
    return Stream.of(
        Arguments.of("no conditions", bare, false),
        Arguments.of("provider ID, ready", Node.builder().name("n").providerID(PROVIDER_ID).ready().build(), true),
        Arguments.of("ready", readyNoProvider, true),
        Arguments.of("not ready", Node.builder().name("n").condition(NodeCondition.of(NodeCondition.READY,
            ConditionStatus.False)).build(), false),
        Arguments.of("provider ID, ready, empty labels", Node.builder().name("n").providerID(PROVIDER_ID).ready()
            .labels(java.util.Map.of()).build(), true),
        Arguments.of("excluded \"\"", readyNoProvider.toBuilder().label(EXCLUDE, "").build(), false),
        Arguments.of("excluded \"false\"", readyNoProvider.toBuilder().label(EXCLUDE, "false").build(), true),
        Arguments.of("excluded \"true\"", readyNoProvider.toBuilder().label(EXCLUDE, "true").build(), false),
        Arguments.of("excluded \"foo\"", readyNoProvider.toBuilder().label(EXCLUDE, "foo").build(), false),
        Arguments.of("to be deleted", readyNoProvider.toBuilder().taint(new io.fleetkit.api.scheduling.Taint(TBD,
            "1700000000", io.fleetkit.api.scheduling.TaintEffect.NoSchedule, null)).build(), false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void respectsPredicates(String name, Node n, boolean expected) {
    assertThat(LoadBalancerRules.passesAllPredicates(n)).isEqualTo(expected);
  }

  static Stream<Arguments> shouldSyncUpdatedNodeIndividual() {
    return Stream.of(
        Arguments.of("nothing changed", node(), node(), false),
        Arguments.of("excluded F->T", node(), node(label(EXCLUDE, "")), true),
        Arguments.of("excluded changed T->F", node(label(EXCLUDE, "")), node(), true),
        Arguments.of("excluded changed T->T", node(label(EXCLUDE, "")), node(label(EXCLUDE, "")), false),
        Arguments.of("other taint F->T", node(), node(taint("other")), false),
        Arguments.of("other taint T->F", node(taint("other")), node(), false),
        Arguments.of("other label changed F->T", node(), node(label("other", "")), false),
        Arguments.of("other label changed T->F", node(label("other", "")), node(), false),
        Arguments.of("readiness changed F->F", node(ready(false)), node(ready(false)), false),
        Arguments.of("readiness changed F->unset", node(ready(false)), node(unset(NodeCondition.READY)), false),
        Arguments.of("readiness changed unset->F", node(unset(NodeCondition.READY)), node(ready(false)), false),
        Arguments.of("readiness changed unset->unset", node(unset(NodeCondition.READY)),
            node(unset(NodeCondition.READY)), false),
        Arguments.of("ready F, other condition changed F->T",
            node(ready(false), condition("DiskPressure", ConditionStatus.False)),
            node(ready(false), condition("DiskPressure", ConditionStatus.True)), false),
        Arguments.of("ready F, other condition changed T->F",
            node(ready(false), condition("DiskPressure", ConditionStatus.True)),
            node(ready(false), condition("DiskPressure", ConditionStatus.False)), false),
        Arguments.of("ready T, other condition changed F->T", node(condition("Other", ConditionStatus.False)),
            node(condition("Other", ConditionStatus.True)), false),
        Arguments.of("ready T, other condition changed T->F", node(condition("Other", ConditionStatus.True)),
            node(condition("Other", ConditionStatus.False)), false),
        Arguments.of("deletionTimestamp F -> T", node(), node(deleted()), false),
        Arguments.of("providerID set F -> T", node(providerId("")), node(), true),
        Arguments.of("providerID set F -> T (upstream's second case of that name)", node(providerId("")), node(),
            true),
        Arguments.of("providerID set T-> F", node(), node(providerId("")), true),
        Arguments.of("providerID change", node(), node(providerId(PROVIDER_ID + "-2")), true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void shouldSyncUpdatedNodeIndividual(String name, Node old, Node now, boolean expected) {
    assertThat(LoadBalancerRules.shouldSyncUpdatedNode(old, now)).isEqualTo(expected);
  }

  static Stream<Arguments> shouldSyncUpdatedNodeCompounded() {
    return Stream.of(
        Arguments.of("tainted T, excluded F->T", node(taint(TBD)), node(taint(TBD), label(EXCLUDE, "")), true),
        Arguments.of("tainted T, excluded T->F", node(taint(TBD), label(EXCLUDE, "")), node(taint(TBD)), true),
        Arguments.of("tainted T, providerID set F->T", node(taint(TBD), providerId("")), node(taint(TBD)), true),
        Arguments.of("tainted T, providerID set T->F", node(taint(TBD)), node(taint(TBD), providerId("")), true),
        Arguments.of("tainted T, providerID change", node(taint(TBD)),
            node(taint(TBD), providerId(PROVIDER_ID + "-2")), true),
        Arguments.of("tainted T, ready F->T", node(taint(TBD), ready(false)), node(taint(TBD)), false),
        Arguments.of("tainted T, ready T->F", node(taint(TBD)), node(taint(TBD), ready(false)), false),
        Arguments.of("excluded T, tainted F->T", node(label(EXCLUDE, "")), node(label(EXCLUDE, ""), taint(TBD)),
            false),
        Arguments.of("excluded T, tainted T->F", node(label(EXCLUDE, ""), taint(TBD)), node(label(EXCLUDE, "")),
            false),
        Arguments.of("excluded T, ready F->T", node(label(EXCLUDE, ""), ready(false)), node(label(EXCLUDE, "")),
            false),
        Arguments.of("excluded T, ready T->F", node(label(EXCLUDE, "")), node(label(EXCLUDE, ""), ready(false)),
            false),
        Arguments.of("excluded T, providerID set F->T", node(label(EXCLUDE, ""), providerId("")),
            node(label(EXCLUDE, "")), true),
        Arguments.of("excluded T, providerID set T->F", node(label(EXCLUDE, "")),
            node(label(EXCLUDE, ""), providerId("")), true),
        Arguments.of("excluded T, providerID change", node(label(EXCLUDE, "")),
            node(label(EXCLUDE, ""), providerId(PROVIDER_ID + "-2")), true),
        Arguments.of("ready F, tainted F->T", node(ready(false)), node(ready(false), taint(TBD)), false),
        Arguments.of("ready F, tainted T->F", node(ready(false), taint(TBD)), node(ready(false)), false),
        Arguments.of("ready F, excluded F->T", node(ready(false)), node(ready(false), label(EXCLUDE, "")), true),
        Arguments.of("ready F, excluded T->F", node(ready(false), label(EXCLUDE, "")), node(ready(false)), true),
        Arguments.of("ready F, providerID set F->T", node(ready(false), providerId("")), node(ready(false)), true),
        Arguments.of("ready F, providerID set T->F", node(ready(false)), node(ready(false), providerId("")), true),
        Arguments.of("ready F, providerID change", node(ready(false)),
            node(ready(false), providerId(PROVIDER_ID + "-2")), true),
        Arguments.of("providerID unset, excluded F->T", node(providerId("")),
            node(providerId(""), label(EXCLUDE, "")), true),
        Arguments.of("providerID unset, excluded T->F", node(providerId(""), label(EXCLUDE, "")),
            node(providerId("")), true),
        Arguments.of("providerID unset, ready T->F", node(providerId("")), node(providerId(""), ready(true)), false),
        Arguments.of("providerID unset, ready F->T", node(providerId("")), node(providerId(""), ready(false)),
            false),
        Arguments.of("providerID unset, tainted T->F", node(providerId(""), taint(TBD)), node(providerId("")),
            false),
        Arguments.of("providerID unset, tainted F->T", node(providerId("")), node(providerId(""), taint(TBD)),
            false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void shouldSyncUpdatedNodeCompounded(String name, Node old, Node now, boolean expected) {
    assertThat(LoadBalancerRules.shouldSyncUpdatedNode(old, now)).isEqualTo(expected);
  }
}
