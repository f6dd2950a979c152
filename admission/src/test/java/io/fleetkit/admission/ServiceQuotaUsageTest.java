package io.fleetkit.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.core.ServiceProtocol;
import io.fleetkit.api.core.ServiceSpec;
import io.fleetkit.api.core.ServiceTargetPort;
import io.fleetkit.api.core.ServiceType;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Ported from Kubernetes {@code pkg/quota/v1/evaluator/core/services_test.go} (commit 0d173114),
 * {@code TestServiceEvaluatorUsage}: 8 of its 9 cases ("loadbalancer", a LoadBalancer Service without ports, is
 * refused when a FleetKit Service is built). Upstream lists the zero usages; FleetKit leaves a type's counters out
 * when the Service does not count them, so the comparison drops zeros on both sides.
 */
final class ServiceQuotaUsageTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  @ParameterizedTest(name = "{0}")
  @CsvSource(nullValues = "-", value = {
      // name, type, ports, node ports of the ports ("-": none), allocateLoadBalancerNodePorts, nodeports, lbs
      "loadbalancer_ports, LoadBalancer, 1, -, -, 1, 1",
      "loadbalancer_2_ports, LoadBalancer, 2, -, -, 2, 1",
      "clusterip, ClusterIP, 1, -, -, 0, 0",
      "nodeports, NodePort, 1, -, -, 1, 0",
      "multi-nodeports, NodePort, 2, -, -, 2, 0",
      "nodeports-disabled, LoadBalancer, 2, -, false, 0, 1",
      "nodeports-default-enabled, LoadBalancer, 2, 32001, -, 2, 1",
      "nodeports-explicitly-enabled, LoadBalancer, 2, -, true, 2, 1",
      "nodeports-disabled-but-specified, LoadBalancer, 2, 32001, false, 2, 1",
  })
  void serviceEvaluatorUsage_upstreamCases(String name, ServiceType type, int ports, @Nullable Integer firstNodePort,
      @Nullable Boolean allocate, int nodePorts, int loadBalancers) {
    List<ServicePort> list = new ArrayList<>();
    for (int i = 0; i < ports; i++) {
      list.add(new ServicePort("p" + i, ServiceProtocol.TCP, 27443 + i, ServiceTargetPort.of(27443 + i),
          firstNodePort == null ? null : firstNodePort + i));
    }
    Service svc = Service.of(ObjectMeta.of("test", "svc"), ServiceSpec.builder().type(type).ports(list)
        .allocateLoadBalancerNodePorts(allocate).build());

    Map<String, String> expected = new TreeMap<>(Map.of("services", "1", "count/services", "1",
        "services.nodeports", Integer.toString(nodePorts), "services.loadbalancers", Integer.toString(loadBalancers)));
    assertThat(nonZero(QuotaEvaluator.usage(svc, NOW))).isEqualTo(nonZero(expected));
  }

  private static Map<String, String> nonZero(ResourceList usage) {
    Map<String, String> out = new TreeMap<>();
    usage.forEach((k, q) -> {
      if (!q.isZero()) {
        out.put(k, q.toString());
      }
    });
    return out;
  }

  private static Map<String, String> nonZero(Map<String, String> expected) {
    Map<String, String> out = new TreeMap<>();
    expected.forEach((k, v) -> {
      if (!Quantity.parse(v).isZero()) {
        out.put(k, v);
      }
    });
    return out;
  }
}
