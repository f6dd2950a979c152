package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.adapter.kubernetes.yaml.KubernetesYaml;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.discovery.AddressType;
import io.fleetkit.api.discovery.EndpointSlice;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.networking.ClusterNetworking;
import io.fleetkit.networking.ServiceSummary;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link ClusterNetworking#simulatedControllers()} mirrors the hand-written Endpoints of a Service without a
 * selector into EndpointSlices, wherever the EndpointSlice controller runs: the slices kube-proxy and cluster DNS read.
 */
final class EndpointsMirroringInSimulationTest {
  private static final String YAML = """
      apiVersion: v1
      kind: Service
      metadata: {name: external-db, namespace: data}
      spec:
        ports: [{name: sql, port: 5432}]
      ---
      apiVersion: v1
      kind: Endpoints
      metadata: {name: external-db, namespace: data, labels: {team: dba}}
      subsets:
        - addresses: [{ip: 192.0.2.10}, {ip: "2001:db8::10"}]
          notReadyAddresses: [{ip: 192.0.2.11}]
          ports: [{name: sql, port: 5432}]
      """;

  @Test
  void selectorlessServiceWithEndpoints_getsMirroredSlicesPerFamily() {
    Simulation.Builder b = Simulation.builder().start(Instant.parse("2026-03-01T08:00:00Z"))
        .objects(KubernetesYaml.parse(YAML, "external-db.yaml").objects());
    ClusterNetworking.defaults().simulatedControllers().forEach(b::controller);
    try (Simulation sim = b.build()) {
      sim.runFor(Duration.ofSeconds(10));

      List<EndpointSlice> slices = sim.store().list(EndpointSlice.class, "data", LabelSelector.of(Map.of(
          EndpointSlice.LABEL_SERVICE_NAME, "external-db"))).items();
      assertThat(slices).extracting(EndpointSlice::addressType)
          .containsExactlyInAnyOrder(AddressType.IPv4, AddressType.IPv6);
      assertThat(slices).allSatisfy(s -> {
        assertThat(s.metadata().labels()).containsEntry("team", "dba")
            .containsEntry(EndpointSlice.LABEL_MANAGED_BY, "endpointslicemirroring-controller.k8s.io");
        assertThat(s.ports()).extracting(p -> p.name() + ":" + p.port()).containsExactly("sql:5432");
      });
      List<ServiceSummary> summary = ServiceSummary.of(sim.store().list(Service.class).items(),
          sim.store().list(EndpointSlice.class).items());
      assertThat(summary).hasSize(1);
      assertThat(summary.get(0).name()).isEqualTo("data/external-db");
      assertThat(summary.get(0).endpoints()).isEqualTo(3);
      assertThat(summary.get(0).ready()).isEqualTo(2);
    }
  }
}
