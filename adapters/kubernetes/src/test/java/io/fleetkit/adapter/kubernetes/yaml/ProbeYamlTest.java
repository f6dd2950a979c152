package io.fleetkit.adapter.kubernetes.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.Probe;
import io.fleetkit.api.core.ProbeHandler;
import io.fleetkit.api.core.ServiceTargetPort;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Container probes through the YAML loader: every handler both ways, defaults, and Kubernetes' rules. */
final class ProbeYamlTest {
  private static final String POD = """
      apiVersion: v1
      kind: Pod
      metadata: {name: web, namespace: shop}
      spec:
        containers:
        - name: app
          image: shop:1
          ports: [{name: http, containerPort: 8080}]
          livenessProbe:
            tcpSocket: {port: 8080}
            initialDelaySeconds: 5
            terminationGracePeriodSeconds: 7
          readinessProbe:
            httpGet:
              path: /ready
              port: http
              scheme: HTTPS
              httpHeaders: [{name: X-Probe, value: "1"}]
            periodSeconds: 3
            timeoutSeconds: 2
            successThreshold: 2
            failureThreshold: 5
          startupProbe:
            exec: {command: [cat, /tmp/started]}
            failureThreshold: 30
        - name: grpc
          image: shop:1
          livenessProbe:
            grpc: {port: 9090, service: shop}
      """;

  private static ManifestException parseFails(String yaml) {
    ManifestException e = catchThrowableOfType(ManifestException.class, () -> KubernetesYaml.parse(yaml, "p.yaml"));
    assertThat(e).as("parsing must fail").isNotNull();
    return e;
  }

  @Test
  void parse_everyHandlerAndTimingField() {
    Pod pod = (Pod) KubernetesYaml.parse(POD, "p.yaml").objects().get(0);
    Container app = pod.spec().containers().get(0);
    assertThat(app.livenessProbe()).isEqualTo(new Probe(ProbeHandler.TcpSocket.of(8080), 5, 10, 1, 1, 3, 7L));
    assertThat(app.readinessProbe()).isEqualTo(new Probe(new ProbeHandler.HttpGet("/ready",
        ServiceTargetPort.named("http"), "", "HTTPS", List.of(new ProbeHandler.HttpHeader("X-Probe", "1"))),
        0, 3, 2, 2, 5, null));
    assertThat(app.startupProbe()).isEqualTo(Probe.builder(new ProbeHandler.Exec(List.of("cat", "/tmp/started")))
        .failureThreshold(30).build());
    assertThat(pod.spec().containers().get(1).livenessProbe().handler())
        .isEqualTo(new ProbeHandler.Grpc(9090, "shop"));
  }

  @Test
  void dumpThenParse_isIdentity_andLeavesDefaultsOut() {
    LoadedObjects first = KubernetesYaml.parse(POD, "p.yaml");
    String yaml = KubernetesYaml.dump(first.objects());
    assertThat(KubernetesYaml.parse(yaml, "dumped").objects()).isEqualTo(first.objects());
    assertThat(yaml).contains("livenessProbe").contains("grpc").doesNotContain("periodSeconds: 10")
        .doesNotContain("scheme: HTTP\n");
  }

  @Test
  void deploymentTemplate_carriesProbes() {
    String yaml = """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: web, namespace: shop}
        spec:
          replicas: 2
          selector: {matchLabels: {app: web}}
          template:
            metadata: {labels: {app: web}}
            spec:
              containers:
              - name: app
                image: shop:1
                readinessProbe: {httpGet: {path: /ready, port: 8080}}
        """;
    Deployment d = (Deployment) KubernetesYaml.parse(yaml, "d.yaml").objects().get(0);
    assertThat(d.spec().template().spec().containers().get(0).readinessProbe().handler())
        .isEqualTo(ProbeHandler.HttpGet.of("/ready", 8080));
  }

  @Test
  void noHandler_isRequired() {
    ManifestException e = parseFails(POD.replace("      tcpSocket: {port: 8080}\n", ""));
    assertThat(e.problems()).singleElement().satisfies(p -> {
      assertThat(p.violation().field()).isEqualTo("spec.containers[0].livenessProbe");
      assertThat(p.violation().rule()).isEqualTo("Required value: must specify a handler type");
    });
  }

  /**
   * validation_test.go (commit 000f26050b9b) Test_validateProbe's empty probe and TestValidateProbe's error case
   * with timings but no handler: Required on the probe, "must specify a handler type", as upstream.
   */
  @Test
  void upstreamProbesWithoutHandler_areRequiredOne() {
    String pod = """
        apiVersion: v1
        kind: Pod
        metadata: {name: web, namespace: shop}
        spec:
          containers:
          - name: app
            image: shop:1
            readinessProbe: PROBE
        """;
    for (String probe : List.of("{}", "{timeoutSeconds: 10, initialDelaySeconds: 10}")) {
      ManifestException e = parseFails(pod.replace("PROBE", probe));
      assertThat(e.problems()).as(probe).extracting(p -> p.violation().field(), p -> p.violation().rule())
          .containsExactly(org.assertj.core.groups.Tuple.tuple("spec.containers[0].readinessProbe",
              "Required value: must specify a handler type"));
    }
  }

  @Test
  void twoHandlers_forbidden() {
    ManifestException e = parseFails(POD.replace("    tcpSocket: {port: 8080}\n",
        "    tcpSocket: {port: 8080}\n      exec: {command: [true]}\n"));
    assertThat(e.problems()).singleElement().satisfies(p -> {
      assertThat(p.violation().field()).isEqualTo("spec.containers[0].livenessProbe.tcpSocket");
      assertThat(p.violation().rule()).isEqualTo("Forbidden: may not specify more than 1 handler type");
      assertThat(p.violation().object()).isEqualTo("Pod shop/web");
    });
  }

  @Test
  void livenessSuccessThreshold2_rejectedWithKubernetesRule() {
    ManifestException e = parseFails(POD.replace("initialDelaySeconds: 5", "successThreshold: 2"));
    assertThat(e.problems()).singleElement().satisfies(p -> {
      assertThat(p.violation().field()).isEqualTo("spec.containers[0].livenessProbe.successThreshold");
      assertThat(p.violation().rule()).isEqualTo("must be 1");
      assertThat(p.violation().value()).isEqualTo("2");
    });
  }
}
