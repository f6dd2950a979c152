package io.fleetkit.adapter.kubernetes.yaml;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.meta.ApiObject;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * YAML → core → YAML → core for every kind: the second load equals the first, and dumping again gives the same
 * text (the dump is stable). Each fixture under {@code roundtrip/} exercises the optional fields of its kind.
 */
final class RoundTripTest {

  static String resource(String name) {
    try (InputStream in = RoundTripTest.class.getResourceAsStream("/" + name)) {
      assertThat(in).as(name).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
      "Node, roundtrip/node.yaml, 2",
      "Pod, roundtrip/pod.yaml, 8",
      "Service, roundtrip/service.yaml, 4",
      "ControllerRevision, roundtrip/controllerrevision.yaml, 2",
      "CronJob, roundtrip/cronjob.yaml, 2",
      "DaemonSet, roundtrip/daemonset.yaml, 3",
      "ReplicationController, roundtrip/replicationcontroller.yaml, 2",
      "PersistentVolume, roundtrip/persistentvolume.yaml, 3",
      "PersistentVolumeClaim, roundtrip/persistentvolumeclaim.yaml, 3",
      "StorageClass, roundtrip/storageclass.yaml, 2",
      "HorizontalPodAutoscaler, roundtrip/horizontalpodautoscaler.yaml, 2",
      "VerticalPodAutoscaler, roundtrip/verticalpodautoscaler.yaml, 2",
      "VerticalPodAutoscalerCheckpoint, roundtrip/verticalpodautoscalercheckpoint.yaml, 2",
      "DeviceClass, roundtrip/deviceclass.yaml, 2",
      "DeviceTaintRule, roundtrip/devicetaintrule.yaml, 3",
      "ResourceSlice, roundtrip/resourceslice.yaml, 6",
      "ResourceClaim, roundtrip/resourceclaim.yaml, 4",
      "ResourceClaimTemplate, roundtrip/resourceclaimtemplate.yaml, 4",
  })
  void dumpThenParse_everyKind_givesEqualObjects(String kind, String file, int count) {
    LoadedObjects first = KubernetesYaml.parse(resource(file), file);
    assertThat(first.countsByKind()).containsExactly(java.util.Map.entry(kind, count));
    assertDumpThenParseIsIdentity(first);
  }

  @org.junit.jupiter.api.Test
  void node_statusImages_loadedAndWritten() {
    List<io.fleetkit.api.core.Node> nodes = KubernetesYaml.parse(resource("roundtrip/node.yaml"), "node.yaml")
        .ofType(io.fleetkit.api.core.Node.class);
    io.fleetkit.api.core.Node gpu = nodes.stream().filter(n -> n.name().equals("gpu-1")).findFirst().orElseThrow();
    assertThat(gpu.status().images()).containsExactly(
        io.fleetkit.api.core.ContainerImage.of(9663676416L, "registry.example.com/train@sha256:4f2a",
            "registry.example.com/train:v3"),
        io.fleetkit.api.core.ContainerImage.of(321520, "registry.k8s.io/pause:3.9"));
    assertThat(nodes.stream().filter(n -> n.name().equals("cpu-1")).findFirst().orElseThrow().status().images())
        .isEmpty();
    assertThat(KubernetesYaml.dump(List.of(gpu))).contains("images:").contains("sizeBytes: 9663676416")
        .contains("registry.example.com/train:v3");
  }

  @org.junit.jupiter.api.Test
  void pod_schedulingGatesAndHostIp_loaded() {
    List<io.fleetkit.api.core.Pod> pods = KubernetesYaml.parse(resource("roundtrip/pod.yaml"), "pod.yaml")
        .ofType(io.fleetkit.api.core.Pod.class);
    assertThat(pods).filteredOn(p -> p.metadata().name().equals("gated")).singleElement()
        .satisfies(p -> assertThat(p.spec().schedulingGates()).containsExactly("example.com/quota", "example.com/arch"));
    assertThat(pods).filteredOn(p -> p.metadata().name().equals("web-0")).singleElement()
        .satisfies(p -> assertThat(p.spec().containers().get(0).ports().get(1).hostIP()).isEqualTo("10.0.0.1"));
  }

  @org.junit.jupiter.api.Test
  void pod_readinessGates_loadedAndWritten_andABadConditionTypeRefusedWithItsPath() {
    List<io.fleetkit.api.core.Pod> pods = KubernetesYaml.parse(resource("roundtrip/pod.yaml"), "pod.yaml")
        .ofType(io.fleetkit.api.core.Pod.class);
    io.fleetkit.api.core.Pod p = pods.stream().filter(x -> x.metadata().name().equals("behind-lb")).findFirst()
        .orElseThrow();
    assertThat(p.spec().readinessGates()).containsExactly("target-health.elbv2.k8s.aws/web", "example.com/warmed-up");
    assertThat(p.status().condition("example.com/warmed-up").reason()).isEqualTo("Warming");
    assertThat(KubernetesYaml.dump(List.of(p))).contains("readinessGates:")
        .contains("conditionType: \"target-health.elbv2.k8s.aws/web\"")
        .contains("conditionType: \"example.com/warmed-up\"");
    assertThat(pods).filteredOn(x -> x.metadata().name().equals("gated")).singleElement()
        .satisfies(x -> assertThat(KubernetesYaml.dump(List.of(x))).doesNotContain("readinessGates"));
    String bad = "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\nspec:\n"
        + "  readinessGates: [{conditionType: \"not a name\"}]\n  containers: [{name: c, image: i}]\n";
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> KubernetesYaml.parse(bad, "bad.yaml"))
        .hasMessageContaining("spec.readinessGates[0].conditionType").hasMessageContaining("not a name");
  }

  @org.junit.jupiter.api.Test
  void pod_resourceClaims_loadedAndWritten() {
    List<io.fleetkit.api.core.Pod> pods = KubernetesYaml.parse(resource("roundtrip/pod.yaml"), "pod.yaml")
        .ofType(io.fleetkit.api.core.Pod.class);
    io.fleetkit.api.core.Pod p = pods.stream().filter(x -> x.metadata().name().equals("with-claims")).findFirst()
        .orElseThrow();
    assertThat(p.spec().resourceClaims()).containsExactly(
        io.fleetkit.api.core.PodResourceClaim.ofTemplate("gpu", "single-gpu"),
        io.fleetkit.api.core.PodResourceClaim.ofClaim("shared", "shared-nic"));
    assertThat(p.spec().containers().get(0).resources().claims()).containsExactly(
        new io.fleetkit.api.core.ContainerResourceClaim("gpu", "big"),
        io.fleetkit.api.core.ContainerResourceClaim.of("shared"));
    assertThat(p.spec().initContainers().get(0).resources().claims()).containsExactly(
        io.fleetkit.api.core.ContainerResourceClaim.of("shared"));
    assertThat(p.status().resourceClaimStatuses()).containsExactly(
        new io.fleetkit.api.core.PodResourceClaimStatus("gpu", "with-claims-gpu-7xk2p"));
    String yaml = KubernetesYaml.dump(List.of(p));
    assertThat(yaml).contains("resourceClaimTemplateName: \"single-gpu\"")
        .contains("resourceClaimName: \"shared-nic\"").contains("request: \"big\"")
        .contains("resourceClaimStatuses:").contains("resourceClaimName: \"with-claims-gpu-7xk2p\"");
  }

  @org.junit.jupiter.api.Test
  void pod_serviceAccountAndDnsFields_loadedAndWritten_theDeprecatedAliasRead() {
    io.fleetkit.api.core.Pod p = KubernetesYaml.parse(resource("roundtrip/pod.yaml"), "pod.yaml")
        .ofType(io.fleetkit.api.core.Pod.class).stream().filter(x -> x.metadata().name().equals("resolver"))
        .findFirst().orElseThrow();
    io.fleetkit.api.core.PodSpec s = p.spec();
    assertThat(s.serviceAccountName()).isEqualTo("builder");
    assertThat(s.automountServiceAccountToken()).isFalse();
    assertThat(s.dnsPolicy()).isEqualTo(io.fleetkit.api.core.DNSPolicy.None);
    assertThat(s.dnsConfig()).isEqualTo(new io.fleetkit.api.core.PodDNSConfig(List.of("10.0.0.10", "2001:db8::53"),
        List.of("corp.example.com", "_sip._tcp.example.com"), List.of(
            io.fleetkit.api.core.PodDNSConfigOption.of("ndots", "2"),
            io.fleetkit.api.core.PodDNSConfigOption.of("edns0"))));
    assertThat(s.hostAliases()).containsExactly(
        io.fleetkit.api.core.HostAlias.of("127.0.0.1", "foo.local", "bar.local"),
        io.fleetkit.api.core.HostAlias.of("10.1.2.3", "db"));
    String yaml = KubernetesYaml.dump(List.of(p));
    assertThat(yaml).contains("serviceAccountName: \"builder\"").contains("serviceAccount: \"builder\"")
        .contains("dnsPolicy: \"None\"").contains("automountServiceAccountToken: false");
    // the defaults are left out: ClusterFirst, no account, no config
    String minimal = KubernetesYaml.dump(List.of(p.withSpec(s.toBuilder().serviceAccountName("")
        .automountServiceAccountToken(null).dnsPolicy(io.fleetkit.api.core.DNSPolicy.ClusterFirst).dnsConfig(null)
        .hostAliases(List.of()).build())));
    assertThat(minimal).doesNotContain("serviceAccount").doesNotContain("dns").doesNotContain("hostAliases");
    // the deprecated spec.serviceAccount is read when serviceAccountName is not set, and loses when it is
    String both = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  serviceAccount: %s\n%s"
        + "  containers: [{name: c, image: i}]\n";
    assertThat(KubernetesYaml.parse(String.format(both, "old", ""), "a.yaml").ofType(io.fleetkit.api.core.Pod.class)
        .get(0).spec().serviceAccountName()).isEqualTo("old");
    assertThat(KubernetesYaml.parse(String.format(both, "old", "  serviceAccountName: new\n"), "a.yaml")
        .ofType(io.fleetkit.api.core.Pod.class).get(0).spec().serviceAccountName()).isEqualTo("new");
  }

  @org.junit.jupiter.api.Test
  void hostNetwork_readAndWritten_podPortsDefaulted_templatesNot() {
    String pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\nspec:\n  hostNetwork: true\n"
        + "  containers: [{name: c, image: i, ports: [{containerPort: 9100}]}]\n";
    io.fleetkit.api.core.Pod p = KubernetesYaml.parse(pod, "p.yaml").ofType(io.fleetkit.api.core.Pod.class).get(0);
    assertThat(p.spec().hostNetwork()).isTrue();
    assertThat(p.spec().containers().get(0).ports().get(0).hostPort()).as("SetDefaults_Pod").isEqualTo(9100);
    assertThat(KubernetesYaml.dump(List.of(p))).contains("hostNetwork: true").contains("hostPort: 9100");
    io.fleetkit.api.core.Pod pulling = KubernetesYaml.parse(pod.replace("  hostNetwork: true\n",
        "  imagePullSecrets: [{name: registry}, {name: mirror}]\n"), "p.yaml").ofType(io.fleetkit.api.core.Pod.class)
        .get(0);
    assertThat(pulling.spec().imagePullSecrets()).containsExactly("registry", "mirror");
    assertThat(KubernetesYaml.dump(List.of(pulling))).contains("imagePullSecrets:").contains("name: \"mirror\"");
    assertThat(KubernetesYaml.dump(List.of(p.withSpec(p.spec().toBuilder().hostNetwork(false).build()))))
        .doesNotContain("hostNetwork");
    String deployment = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d, namespace: default}\nspec:\n"
        + "  selector: {matchLabels: {app: d}}\n  template:\n    metadata: {labels: {app: d}}\n    spec:\n"
        + "      hostNetwork: true\n      containers: [{name: c, image: i, ports: [{containerPort: 9100%s}]}]\n";
    io.fleetkit.api.apps.Deployment d = KubernetesYaml.parse(String.format(deployment, ""), "d.yaml")
        .ofType(io.fleetkit.api.apps.Deployment.class).get(0);
    assertThat(d.spec().template().spec().containers().get(0).ports().get(0).hostPort())
        .as("a template is not defaulted (DefaultHostNetworkHostPortsInPodTemplates off since 1.28)").isZero();
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> KubernetesYaml.parse(
        String.format(deployment, ", hostPort: 9200"), "bad.yaml"))
        .hasMessageContaining("spec.template.spec.containers[0].ports[0].hostPort")
        .hasMessageContaining("must match `containerPort` when `hostNetwork` is true");
  }

  @org.junit.jupiter.api.Test
  void pod_badDnsPolicyOrConfig_refusedWithPath_emptyPolicyDefaulted() {
    String yaml = "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\nspec:\n%s"
        + "  containers: [{name: c, image: i}]\n";
    // TestValidateDNSPolicy's error case "invalid"; its "" is what the API server's defaulting makes ClusterFirst
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> KubernetesYaml.parse(
        String.format(yaml, "  dnsPolicy: invalid\n"), "bad.yaml")).hasMessageContaining("spec.dnsPolicy")
        .hasMessageContaining("must be one of ClusterFirstWithHostNet, ClusterFirst, Default, None");
    assertThat(KubernetesYaml.parse(String.format(yaml, "  dnsPolicy: \"\"\n"), "ok.yaml")
        .ofType(io.fleetkit.api.core.Pod.class).get(0).spec().dnsPolicy())
        .isEqualTo(io.fleetkit.api.core.DNSPolicy.ClusterFirst);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> KubernetesYaml.parse(
        String.format(yaml, "  dnsPolicy: None\n"), "bad.yaml")).hasMessageContaining("spec.dnsConfig")
        .hasMessageContaining("must provide `dnsConfig` when `dnsPolicy` is None");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> KubernetesYaml.parse(
        String.format(yaml, "  serviceAccountName: Bad_Name\n  hostAliases: [{ip: nope, hostnames: [a]}]\n"),
        "bad.yaml")).hasMessageContaining("spec.serviceAccountName").hasMessageContaining("spec.hostAliases[0].ip");
  }

  @org.junit.jupiter.api.Test
  void pod_containerClaimNotInSpec_refusedWithPath() {
    String yaml = "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\nspec:\n  containers:\n"
        + "    - name: c\n      image: i\n      resources:\n        claims: [{name: gpu}]\n";
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> KubernetesYaml.parse(yaml, "bad.yaml"))
        .hasMessageContaining("spec.containers[0].resources.claims[0]")
        .hasMessageContaining("must be one of the names in pod.spec.resourceClaims");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
      "workloads, roundtrip/workloads.yaml, '{Deployment=2, Job=1, ReplicaSet=1, StatefulSet=1}'",
      "policy, roundtrip/policy.yaml, '{NodePool=2, PodDisruptionBudget=2, PodGroup=2, PriorityClass=2}'",
      "networking, roundtrip/networking.yaml, '{EndpointSlice=1, Endpoints=1, HTTPRoute=1, Ingress=1, IngressClass=1, Node=1, Pod=1, Service=4}'",
      "tenancy, roundtrip/tenancy.yaml, '{ConfigMap=1, LimitRange=1, Namespace=2, ResourceQuota=2, Secret=1,"
          + " ServiceAccount=1}'",
      "kueue, roundtrip/kueue.yaml, '{AdmissionCheck=2, ClusterQueue=3, Cohort=2, LocalQueue=2, ResourceFlavor=3,"
          + " Topology=1, WorkloadPriorityClass=2}'",
  })
  void dumpThenParse_mixedKinds_givesEqualObjects(String name, String file, String counts) {
    LoadedObjects first = KubernetesYaml.parse(resource(file), file);
    assertThat(first.countsByKind()).hasToString(counts);
    assertDumpThenParseIsIdentity(first);
  }

  private static void assertDumpThenParseIsIdentity(LoadedObjects first) {
    String file = "the fixture";
    String yaml = KubernetesYaml.dump(first.objects());
    LoadedObjects second = KubernetesYaml.parse(yaml, "dumped " + file);

    assertThat(second.objects()).as(yaml).isEqualTo(first.objects());
    assertThat(KubernetesYaml.dump(second.objects())).isEqualTo(yaml);
    assertThat(yaml).startsWith("---\n");
  }

  static List<ApiObject<?>> load(String file) {
    return KubernetesYaml.parse(resource(file), file).objects();
  }
}
