package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.adapter.kubernetes.yaml.KubernetesYaml;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.discovery.EndpointSlice;
import io.fleetkit.networking.ClusterNetworking;
import io.fleetkit.networking.ServiceSummary;
import io.fleetkit.networking.ipam.CidrSet;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link ClusterNetworking#simulatedControllers(io.fleetkit.api.events.EventRecorder)} gives LoadBalancer Services
 * addresses of its pool: the timeline shows each address got and released, the controller's Warnings (from its
 * first run, during the build) and the final summary the address.
 */
final class LoadBalancersInSimulationTest {
  private static final String NODE = """
      apiVersion: v1
      kind: Node
      metadata: {name: n1}
      status:
        allocatable: {cpu: "4", memory: 8Gi, pods: "110"}
      """;

  private static String service(String name, String type) {
    return """
        ---
        apiVersion: v1
        kind: Service
        metadata: {name: %s, namespace: default}
        spec:
          type: %s
          selector: {app: %s}
          ports: [{port: 80, targetPort: 8080}]
        """.formatted(name, type, name);
  }

  private static List<String> lines(Simulation sim) {
    return sim.timeline().stream().filter(e -> e.object().startsWith("Service/"))
        .map(e -> e.at().toSeconds() + " " + e.kind() + " " + e.object() + " " + e.message()).toList();
  }

  @Test
  void loadBalancerService_getsAnAddress_releasedWhenTheTypeChanges() {
    Simulation.Builder b = Simulation.builder()
        .objects(KubernetesYaml.parse(NODE + service("web", "LoadBalancer") + service("api", "ClusterIP"), "a.yaml")
            .objects())
        .apply(Duration.ofMinutes(1), KubernetesYaml.parse(service("web", "ClusterIP"), "b.yaml").objects(), "b.yaml");
    ClusterNetworking.defaults().simulatedControllers(b.warningEvents()).forEach(b::controller);
    try (Simulation sim = b.build()) {
      Service web = sim.store().get(Service.class, "default", "web").orElseThrow();
      assertThat(web.status().loadBalancer().ingress().get(0).ip()).isEqualTo("203.0.113.1");
      assertThat(web.metadata().finalizers()).containsExactly(Service.LOAD_BALANCER_CLEANUP_FINALIZER);
      assertThat(ServiceSummary.of(sim.store().list(Service.class).items(),
          sim.store().list(EndpointSlice.class).items())).extracting(ServiceSummary::name,
              ServiceSummary::loadBalancer)
          .containsExactly(org.assertj.core.groups.Tuple.tuple("default/api", List.of()),
              org.assertj.core.groups.Tuple.tuple("default/web", List.of("203.0.113.1")));
      sim.runFor(Duration.ofMinutes(2));
      assertThat(lines(sim)).containsExactly("0 LoadBalancer Service/default/web at 203.0.113.1",
          "60 Applied Service/default/web updated from b.yaml",
          "60 LoadBalancer Service/default/web released 203.0.113.1");
      web = sim.store().get(Service.class, "default", "web").orElseThrow();
      assertThat(web.status().loadBalancer()).isNull();
      assertThat(web.metadata().finalizers()).isEmpty();
    }
  }

  @Test
  void poolExhausted_warningOnTheTimelineFromTheFirstRun() {
    Simulation.Builder b = Simulation.builder().objects(KubernetesYaml.parse(NODE + service("a", "LoadBalancer")
        + service("b", "LoadBalancer") + service("c", "LoadBalancer"), "a.yaml").objects());
    new ClusterNetworking(ClusterNetworking.DEFAULT_SERVICE_CIDR, ClusterNetworking.DEFAULT_CLUSTER_CIDR,
        CidrSet.DEFAULT_IPV4_MASK, "198.51.100.0/30").simulatedControllers(b.warningEvents()).forEach(b::controller);
    try (Simulation sim = b.build()) {
      sim.runFor(Duration.ofSeconds(30));
      assertThat(lines(sim)).containsExactly("0 LoadBalancer Service/default/a at 198.51.100.1",
          "0 LoadBalancer Service/default/b at 198.51.100.2",
          "0 SyncLoadBalancerFailed Service/default/c Error syncing load balancer: no address left in the load"
              + " balancer address pool 198.51.100.0/30 (2 addresses in use) for Service default/c");
    }
  }
}
