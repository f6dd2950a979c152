package io.fleetkit.adapter.kubernetes.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.groups.Tuple.tuple;

import io.fleetkit.api.core.Service;
import org.junit.jupiter.api.Test;

/**
 * The legacy IP and CIDR fields load as the API server accepts them with {@code StrictIPCIDRValidation} off, with the
 * server's warnings at their field and line, as Endpoints addresses do ({@code EndpointsYamlTest}): a Service's
 * addresses and source ranges ({@code GetWarningsForService}), a pod template's DNS nameservers and host aliases, a
 * node's pod CIDRs, an EndpointSlice's addresses.
 */
final class LegacyIpYamlTest {

  @Test
  void parse_serviceWithLeadingZeros_loadsWithWarnings() {
    LoadedObjects loaded = KubernetesYaml.parse("""
        apiVersion: v1
        kind: Service
        metadata: {name: web, namespace: default}
        spec:
          type: LoadBalancer
          clusterIP: 010.0.0.1
          selector: {app: web}
          ports: [{port: 80}]
          loadBalancerSourceRanges:
          - 10.0.0.0/8
          - 192.168.1.5/24
        """, "s.yaml");

    Service s = (Service) loaded.objects().get(0);
    assertThat(s.spec().clusterIP()).isEqualTo("010.0.0.1");
    assertThat(loaded.warnings()).extracting(w -> w.violation().object(), w -> w.violation().field(),
        w -> w.violation().rule(), ManifestProblem::line).containsExactly(
            // upstream's path is the clusterIPs entry defaulting copies clusterIP to; the manifest does not write
            // it, so the line is that of its nearest written parent, spec
            tuple("Service default/web", "spec.clusterIPs[0]", "non-standard IP address \"010.0.0.1\" will be"
                + " considered invalid in a future Kubernetes release: use \"10.0.0.1\"", 4),
            tuple("Service default/web", "spec.loadBalancerSourceRanges[1]", "CIDR value \"192.168.1.5/24\" is"
                + " ambiguous in this context (should be \"192.168.1.0/24\" or \"192.168.1.5/32\"?)", 11));
  }

  @Test
  void parse_podTemplateNodeAndSlice_warnAtTheirPaths() {
    LoadedObjects loaded = KubernetesYaml.parse("""
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: web, namespace: default}
        spec:
          selector: {matchLabels: {app: web}}
          template:
            metadata: {labels: {app: web}}
            spec:
              containers: [{name: c, image: nginx}]
              dnsConfig: {nameservers: [05.06.07.08]}
              hostAliases: [{ip: "::ffff:1.2.3.4", hostnames: [db]}]
        ---
        apiVersion: v1
        kind: Node
        metadata: {name: n1}
        spec: {podCIDR: 10.244.001.0/24}
        ---
        apiVersion: discovery.k8s.io/v1
        kind: EndpointSlice
        metadata: {name: web-1, namespace: default}
        addressType: IPv6
        endpoints: [{addresses: ["fd00:0:0::1"]}]
        """, "all.yaml");

    assertThat(loaded.objects()).hasSize(3);
    assertThat(loaded.warnings()).extracting(w -> w.violation().object(), w -> w.violation().field())
        .containsExactly(
            tuple("Deployment default/web", "spec.template.spec.dnsConfig.nameservers[0]"),
            tuple("Deployment default/web", "spec.template.spec.hostAliases[0].ip"),
            tuple("Node n1", "spec.podCIDRs[0]"),
            tuple("EndpointSlice default/web-1", "endpoints[0].addresses[0]"));
    assertThat(loaded.warnings().get(3).violation().rule())
        .isEqualTo("IPv6 address \"fd00:0:0::1\" should be in RFC 5952 canonical format (\"fd00::1\")");
  }

  @Test
  void parse_malformedLegacyFields_refusedWithUpstreamsMessages() {
    ManifestException e = catchThrowableOfType(ManifestException.class, () -> KubernetesYaml.parse("""
        apiVersion: v1
        kind: Node
        metadata: {name: n1}
        spec: {podCIDRs: [10.244.0.0/33]}
        ---
        apiVersion: discovery.k8s.io/v1
        kind: EndpointSlice
        metadata: {name: web-1, namespace: default}
        addressType: IPv4
        endpoints: [{addresses: ["fd00::1"]}]
        """, "bad.yaml"));

    assertThat(e.problems()).extracting(p -> p.violation().field(), p -> p.violation().rule()).containsExactly(
        tuple("spec.podCIDRs[0]", "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)"),
        tuple("endpoints[0].addresses[0]", "must be a valid IPv4 address"));
  }
}
