package io.fleetkit.networking.loadbalancer;

import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.core.IPFamily;
import io.fleetkit.api.core.LoadBalancerIngress;
import io.fleetkit.api.core.LoadBalancerStatus;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeCondition;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.core.ServiceProtocol;
import io.fleetkit.api.core.ServiceSpec;
import io.fleetkit.api.core.ServiceStatus;
import io.fleetkit.api.core.ServiceTargetPort;
import io.fleetkit.api.core.ServiceTrafficPolicy;
import io.fleetkit.api.core.ServiceType;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The fixtures of kubernetes {@code staging/src/k8s.io/cloud-provider/controllers/service/controller_test.go}:
 * {@code newService} with its tweaks and {@code makeNode} with its tweaks.
 */
final class LoadBalancerFixtures {
  static final String NS = "default";
  /** {@code providerID} of the upstream file. */
  static final String PROVIDER_ID = "providerID";

  private LoadBalancerFixtures() {}

  /** {@code newService(name, type, tweaks...)}: namespace default, one port 80 of the protocol, uid of the name. */
  @SafeVarargs
  static Service service(String name, ServiceType type, UnaryOperator<Service>... tweaks) {
    ServiceSpec spec = ServiceSpec.builder().type(type).port(port(ServiceProtocol.TCP, 0)).build();
    Service s = Service.of(ObjectMeta.builder().namespace(NS).name(name).uid("uid-" + name).build(), spec);
    for (UnaryOperator<Service> t : tweaks) {
      s = t.apply(s);
    }
    return s;
  }

  /** {@code defaultExternalService()}. */
  static Service externalService() {
    return service("external-balancer", ServiceType.LoadBalancer);
  }

  /** {@code makeServicePort}: port 80 of {@code protocol}, targeting {@code targetPort} (0: the port itself). */
  static ServicePort port(ServiceProtocol protocol, int targetPort) {
    return new ServicePort("", protocol, 80, ServiceTargetPort.of(targetPort > 0 ? targetPort : 80), null);
  }

  static UnaryOperator<Service> spec(UnaryOperator<ServiceSpec.Builder> change) {
    return s -> s.withSpec(change.apply(s.spec().toBuilder()).build());
  }

  /** {@code tweakAddPorts}. */
  static UnaryOperator<Service> ports(ServiceProtocol protocol, int targetPort) {
    return spec(b -> b.ports(List.of(port(protocol, targetPort))));
  }

  /** {@code tweakAddLBClass}. */
  static UnaryOperator<Service> lbClass(String c) {
    return spec(b -> b.loadBalancerClass(c));
  }

  /** {@code tweakAddETP}. */
  static UnaryOperator<Service> etp(ServiceTrafficPolicy p) {
    return spec(b -> b.externalTrafficPolicy(p));
  }

  /** {@code tweakSetIPFamilies}. */
  static UnaryOperator<Service> families(IPFamily... f) {
    return spec(b -> b.ipFamilies(List.of(f)));
  }

  /** {@code tweakAddAppProtocol}: the first port's app protocol. */
  static UnaryOperator<Service> appProtocol(String p) {
    return s -> {
      List<ServicePort> ports = new ArrayList<>(s.spec().ports());
      ServicePort p0 = ports.get(0);
      ports.set(0, new ServicePort(p0.name(), p0.protocol(), p0.port(), p0.targetPort(), p0.nodePort(), p));
      return s.withSpec(s.spec().toBuilder().ports(ports).build());
    };
  }

  /** {@code tweakAddFinalizers}. */
  static UnaryOperator<Service> finalizers(String... f) {
    return s -> s.withMetadata(s.metadata().toBuilder().finalizers(List.of(f)).build());
  }

  /** {@code tweakAddLBIngress}. */
  static UnaryOperator<Service> ingress(String ip) {
    return s -> s.withStatus(new ServiceStatus(new LoadBalancerStatus(List.of(LoadBalancerIngress.ofIp(ip)))));
  }

  /** {@code makeNode(tweaks...)}: named "node", provider ID {@value #PROVIDER_ID}, Ready=True. */
  @SafeVarargs
  static Node node(UnaryOperator<Node.Builder>... tweaks) {
    Node.Builder b = Node.builder().name("node").providerID(PROVIDER_ID).ready();
    for (UnaryOperator<Node.Builder> t : tweaks) {
      b = t.apply(b);
    }
    return b.build();
  }

  /** {@code tweakName}. */
  static UnaryOperator<Node.Builder> name(String n) {
    return b -> b.name(n);
  }

  /** {@code tweakAddTaint} (upstream's taint has no effect; a node's taint needs one here: NoSchedule). */
  static UnaryOperator<Node.Builder> taint(String key) {
    return b -> b.taint(new Taint(key, "", TaintEffect.NoSchedule, null));
  }

  /** {@code tweakSetLabel}. */
  static UnaryOperator<Node.Builder> label(String k, String v) {
    return b -> b.label(k, v);
  }

  /** {@code tweakSetCondition}: replaces the condition of that type, or adds it. */
  static UnaryOperator<Node.Builder> condition(String type, ConditionStatus status) {
    return b -> {
      List<NodeCondition> cs = new ArrayList<>(b.build().status().conditions());
      cs.removeIf(c -> c.type().equals(type));
      cs.add(NodeCondition.of(type, status));
      return b.conditions(cs);
    };
  }

  /** {@code tweakSetReady}. */
  static UnaryOperator<Node.Builder> ready(boolean v) {
    return condition(NodeCondition.READY, v ? ConditionStatus.True : ConditionStatus.False);
  }

  /** {@code tweakUnsetCondition}: the condition of that type renamed "SomethingElse", as upstream does. */
  static UnaryOperator<Node.Builder> unset(String type) {
    return b -> {
      List<NodeCondition> cs = new ArrayList<>();
      for (NodeCondition c : b.build().status().conditions()) {
        cs.add(c.type().equals(type) ? NodeCondition.of("SomethingElse", c.status()) : c);
      }
      return b.conditions(cs);
    };
  }

  /** {@code tweakProviderID}. */
  static UnaryOperator<Node.Builder> providerId(String id) {
    return b -> b.providerID(id);
  }

  /** {@code tweakDeleted}. */
  static UnaryOperator<Node.Builder> deleted() {
    return b -> b.metadata(b.build().metadata().toBuilder().deletionTimestamp(java.time.Instant.EPOCH).build());
  }
}
