package io.fleetkit.adapter.kubernetes.yaml;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.IPFamily;
import io.fleetkit.api.core.IPFamilyPolicy;
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
    assertThat(pod.status().hostIP()).isEqualTo("10.0.0.1");
    assertThat(pod.status().hostIPs()).containsExactly("10.0.0.1", "fd00::1");
    assertThat(((Node) byName.get("Node/node-1")).spec().podCIDRs()).containsExactly("10.244.1.0/24",
        "fd00:10:244:1::/64");
    EndpointSlice slice = (EndpointSlice) byName.get("EndpointSlice/nginx-abcde");
    assertThat(slice.addressType()).isEqualTo(AddressType.IPv4);
    assertThat(slice.serviceName()).isEqualTo("nginx");
    assertThat(slice.endpoints().get(0).hostname()).isEqualTo("web-0");
    assertThat(slice.endpoints().get(0).hints().forZones()).containsExactly("zone-a");
    assertThat(slice.ports().get(0).port()).isEqualTo(8080);
    io.fleetkit.api.networking.Ingress ing = (io.fleetkit.api.networking.Ingress) byName.get("Ingress/shop");
    assertThat(ing.spec().ingressClassName()).isEqualTo("fleetkit");
    assertThat(ing.spec().defaultBackend().portNumber()).isEqualTo(80);
    assertThat(ing.spec().rules().get(0).paths().get(0).backend().portName()).isEqualTo("http");
    assertThat(ing.spec().rules().get(1).host()).isEqualTo("*.shop.example.com");
    assertThat(ing.spec().tls().get(0).secretName()).isEqualTo("shop-tls");
    assertThat(((io.fleetkit.api.networking.IngressClass) byName.get("IngressClass/fleetkit")).isDefault()).isTrue();
    io.fleetkit.api.gateway.HTTPRoute route = (io.fleetkit.api.gateway.HTTPRoute) byName.get("HTTPRoute/canary");
    assertThat(route.spec().hostnames()).containsExactly("shop.example.com");
    var first = route.spec().rules().get(0).matches().get(0);
    assertThat(first.method()).isEqualTo("POST");
    assertThat(first.headers().get(0).name()).isEqualTo("x-canary");
    assertThat(first.queryParams().get(0).value()).isEqualTo("1");
    assertThat(route.spec().rules().get(1).backendRefs()).extracting(b -> b.weight()).containsExactly(90, 10);
    assertThat(route.spec().rules().get(0).backendRefs().get(0).weight()).isEqualTo(1);
  }

  @Test
  void parse_httpRouteFilterWithoutItsField_apiRuleNamed() {
    String yaml = """
        apiVersion: gateway.networking.k8s.io/v1
        kind: HTTPRoute
        metadata: {name: r}
        spec:
          rules:
            - filters: [{type: RequestHeaderModifier}]
              backendRefs: [{name: a, port: 80}]
        """;
    assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> KubernetesYaml.parse(yaml, "r.yaml")))
        .hasMessageContaining("HTTPRoute default/r: spec.rules[0].filters[0].requestHeaderModifier")
        .hasMessageContaining("filter.requestHeaderModifier must be specified for RequestHeaderModifier filter.type");
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

  @Test
  void parse_dualStackLoadBalancerFields_readAndWrittenBack() {
    List<ApiObject<?>> objects = RoundTripTest.load("roundtrip/service.yaml");
    Service lb = (Service) objects.stream().filter(o -> o.metadata().name().equals("internal-lb")).findFirst()
        .orElseThrow();
    assertThat(lb.spec().ipFamilyPolicy()).isEqualTo(IPFamilyPolicy.PreferDualStack);
    assertThat(lb.spec().loadBalancerSourceRanges()).containsExactly("10.0.0.0/8", "2001:db8::/32");
    assertThat(lb.spec().allocateLoadBalancerNodePorts()).isFalse();
    assertThat(lb.spec().allocatesNodePorts()).isFalse();
    assertThat(lb.spec().loadBalancerClass()).isEqualTo("example.com/internal-vip");
    assertThat(lb.spec().ports()).extracting(p -> p.appProtocol()).containsExactly("https", "kubernetes.io/h2c");
    assertThat(lb.spec().externalIPs()).containsExactly("198.51.100.7", "2001:db8::7");
    assertThat(lb.spec().loadBalancerIP()).isEqualTo("203.0.113.10");
    assertThat(lb.spec().healthCheckNodePort()).isEqualTo(31100);
    String written = KubernetesYaml.dump(List.of(lb));
    assertThat(written).contains("ipFamilyPolicy: \"PreferDualStack\"", "allocateLoadBalancerNodePorts: false",
        "loadBalancerClass: \"example.com/internal-vip\"", "appProtocol: \"https\"", "- \"10.0.0.0/8\"",
        "healthCheckNodePort: 31100", "loadBalancerIP: \"203.0.113.10\"", "- \"198.51.100.7\"");
    Service plain = (Service) objects.stream().filter(o -> o.metadata().name().equals("web")).findFirst()
        .orElseThrow();
    assertThat(plain.spec().ipFamilyPolicy()).isNull();
    assertThat(plain.spec().allocateLoadBalancerNodePorts()).isNull();
    assertThat(KubernetesYaml.dump(List.of(plain))).doesNotContain("ipFamilyPolicy", "allocateLoadBalancerNodePorts",
        "loadBalancerClass", "loadBalancerSourceRanges", "appProtocol", "externalIPs", "loadBalancerIP",
        "healthCheckNodePort");
  }

  @Test
  void parse_badExternalAddressesAndHealthCheckPort_clearErrors() {
    String yaml = """
        apiVersion: v1
        kind: Service
        metadata: {name: web}
        spec:
          externalIPs: [127.0.0.1, myhost.mydomain, 169.254.169.254]
          loadBalancerIP: not-an-ip
          healthCheckNodePort: 31100
          selector: {app: web}
          ports: [{port: 80}]
        """;
    assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> KubernetesYaml.parse(yaml, "web.yaml")))
        .hasMessageContaining("Service default/web: spec.externalIPs[0] \"127.0.0.1\" may not be in the loopback "
            + "range (127.0.0.0/8, ::1/128)")
        .hasMessageContaining("spec.externalIPs[1] \"myhost.mydomain\" must be a valid IP address")
        .hasMessageContaining("spec.externalIPs[2] \"169.254.169.254\" may not be in the link-local range")
        .hasMessageContaining("spec.loadBalancerIP \"not-an-ip\" must be a valid IP address")
        .hasMessageContaining("spec.healthCheckNodePort \"31100\" may only be set when `type` is 'LoadBalancer' "
            + "and `externalTrafficPolicy` is 'Local'");
  }

  @Test
  void parse_clusterIPsWithoutClusterIP_setsItAsTheApiServerDoes() {
    String yaml = """
        apiVersion: v1
        kind: Service
        metadata: {name: web}
        spec:
          ipFamilyPolicy: RequireDualStack
          clusterIPs: [10.96.0.7, fd00::7]
          selector: {app: web}
          ports: [{port: 80}]
        """;
    Service web = (Service) KubernetesYaml.parse(yaml, "web.yaml").objects().get(0);
    assertThat(web.spec().clusterIP()).isEqualTo("10.96.0.7");
    assertThat(web.spec().clusterIPs()).containsExactly("10.96.0.7", "fd00::7");
  }

  @Test
  void parse_badPolicyAndLoadBalancerFieldsOnAClusterIpService_clearErrors() {
    String yaml = """
        apiVersion: v1
        kind: Service
        metadata: {name: web}
        spec:
          ipFamilyPolicy: DualStack
          loadBalancerSourceRanges: [10.0.0.0/33]
          loadBalancerClass: example.com/lb
          selector: {app: web}
          ports: [{port: 80, appProtocol: "~https"}]
        """;
    assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> KubernetesYaml.parse(yaml, "web.yaml")))
        .hasMessageContaining("spec.ipFamilyPolicy")
        .hasMessageContaining("must be one of SingleStack, PreferDualStack, RequireDualStack");
    String valid = yaml.replace("ipFamilyPolicy: DualStack", "ipFamilyPolicy: SingleStack");
    assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> KubernetesYaml.parse(valid, "web.yaml")))
        .hasMessageContaining("Service default/web: spec.ports[0].appProtocol")
        .hasMessageContaining("spec.loadBalancerSourceRanges \"[10.0.0.0/33]\" may only be used when `type` is "
            + "'LoadBalancer'")
        .hasMessageContaining("spec.loadBalancerSourceRanges[0] \"10.0.0.0/33\" must be a valid CIDR value")
        .hasMessageContaining("spec.loadBalancerClass");
  }
}
