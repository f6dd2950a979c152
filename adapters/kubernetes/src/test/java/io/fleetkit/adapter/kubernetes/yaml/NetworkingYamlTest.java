package io.fleetkit.adapter.kubernetes.yaml;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.IPFamily;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServiceTrafficPolicy;
import io.fleetkit.api.core.ServiceType;
import io.fleetkit.api.discovery.AddressType;
import io.fleetkit.api.discovery.EndpointSlice;
import io.fleetkit.api.meta.ApiObject;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The networking fields of Services, Pods and Nodes, and EndpointSlices, read from YAML. */
final class NetworkingYamlTest {
  @Test
  void parse_networkingFixture_readsEveryNetworkingField() {
    List<ApiObject<?>> objects = RoundTripTest.load("roundtrip/networking.yaml");
    Map<String, ApiObject<?>> byName = objects.stream().collect(Collectors.toMap(o -> o.kind() + "/"
        + o.metadata().name(), o -> o));
    Service web = (Service) byName.get("Service/web");
    assertThat(web.spec().clusterIPs()).containsExactly("10.96.0.20", "fd00::20");
    assertThat(web.spec().ipFamilies()).containsExactly(IPFamily.IPv4, IPFamily.IPv6);
    assertThat(web.spec().internalTrafficPolicy()).isEqualTo(ServiceTrafficPolicy.Local);
    assertThat(web.spec().trafficDistribution()).isEqualTo("PreferClose");
    assertThat(web.spec().sessionAffinityTimeoutSeconds()).isEqualTo(600);
    assertThat(((Service) byName.get("Service/nginx")).spec().publishNotReadyAddresses()).isTrue();
    Service db = (Service) byName.get("Service/db");
    assertThat(db.spec().type()).isEqualTo(ServiceType.ExternalName);
    assertThat(db.spec().externalName()).isEqualTo("db.example.com");
    assertThat(((Service) byName.get("Service/edge")).spec().externalTrafficPolicy())
        .isEqualTo(ServiceTrafficPolicy.Local);
    Pod pod = (Pod) byName.get("Pod/web-0");
    assertThat(pod.spec().hostname()).isEqualTo("web-0");
    assertThat(pod.spec().subdomain()).isEqualTo("nginx");
    assertThat(pod.status().podIPs()).containsExactly("10.244.1.5", "fd00:10:244:1::5");
    assertThat(((Node) byName.get("Node/node-1")).spec().podCIDRs()).containsExactly("10.244.1.0/24",
        "fd00:10:244:1::/64");
    EndpointSlice slice = (EndpointSlice) byName.get("EndpointSlice/nginx-abcde");
    assertThat(slice.addressType()).isEqualTo(AddressType.IPv4);
    assertThat(slice.serviceName()).isEqualTo("nginx");
    assertThat(slice.endpoints().get(0).hostname()).isEqualTo("web-0");
    assertThat(slice.endpoints().get(0).hints().forZones()).containsExactly("zone-a");
    assertThat(slice.ports().get(0).port()).isEqualTo(8080);
  }

  @Test
  void parse_externalNameWithoutName_clearError() {
    String yaml = """
        apiVersion: v1
        kind: Service
        metadata: {name: db}
        spec: {type: ExternalName}
        """;
    assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> KubernetesYaml.parse(yaml, "db.yaml")))
        .hasMessageContaining("Service default/db: spec.externalName");
  }
}
