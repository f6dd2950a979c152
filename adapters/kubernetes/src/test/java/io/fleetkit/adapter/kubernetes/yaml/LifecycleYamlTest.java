package io.fleetkit.adapter.kubernetes.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.ContainerState;
import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.Lifecycle;
import io.fleetkit.api.core.LifecycleHandler;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodOS;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.core.ProbeHandler;
import io.fleetkit.api.core.Signal;
import io.fleetkit.api.core.ServiceTargetPort;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Container lifecycle hooks through the YAML loader: every handler both ways, and Kubernetes' one-handler rule
 * (upstream's "invalid lifecycle, no action." of TestValidateContainers, which FleetKit's sealed handler type can
 * only meet here).
 */
final class LifecycleYamlTest {
  private static final String POD = """
      apiVersion: v1
      kind: Pod
      metadata: {name: web, namespace: shop}
      spec:
        terminationGracePeriodSeconds: 45
        containers:
        - name: app
          image: shop:1
          lifecycle:
            postStart:
              exec: {command: [sh, -c, warm-up]}
            preStop:
              sleep: {seconds: 20}
        - name: http
          image: shop:1
          lifecycle:
            preStop:
              httpGet: {path: /drain, port: 8080}
        - name: tcp
          image: shop:1
          lifecycle:
            postStart:
              tcpSocket: {port: 9000}
      """;

  private static ManifestException parseFails(String yaml) {
    ManifestException e = catchThrowableOfType(ManifestException.class, () -> KubernetesYaml.parse(yaml, "p.yaml"));
    assertThat(e).as("parsing must fail").isNotNull();
    return e;
  }

  @Test
  void parse_everyHandler() {
    Pod pod = (Pod) KubernetesYaml.parse(POD, "p.yaml").objects().get(0);
    List<Container> c = pod.spec().containers();
    assertThat(c.get(0).lifecycle()).isEqualTo(new Lifecycle(new ProbeHandler.Exec(List.of("sh", "-c", "warm-up")),
        new LifecycleHandler.Sleep(20)));
    assertThat(c.get(1).lifecycle()).isEqualTo(Lifecycle.preStop(ProbeHandler.HttpGet.of("/drain", 8080)));
    assertThat(c.get(2).lifecycle()).isEqualTo(Lifecycle.postStart(
        new ProbeHandler.TcpSocket(ServiceTargetPort.of(9000), "")));
  }

  @Test
  void dumpThenParse_isIdentity() {
    LoadedObjects first = KubernetesYaml.parse(POD, "p.yaml");
    String yaml = KubernetesYaml.dump(first.objects());
    assertThat(KubernetesYaml.parse(yaml, "dumped").objects()).isEqualTo(first.objects());
    assertThat(yaml).contains("preStop").contains("seconds: 20").contains("/drain");
  }

  @Test
  void deploymentTemplate_carriesHooks() {
    String yaml = """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: web, namespace: shop}
        spec:
          replicas: 1
          selector: {matchLabels: {app: web}}
          template:
            metadata: {labels: {app: web}}
            spec:
              containers:
              - name: app
                image: shop:1
                lifecycle: {preStop: {sleep: {seconds: 5}}}
        """;
    Deployment d = (Deployment) KubernetesYaml.parse(yaml, "d.yaml").objects().get(0);
    assertThat(d.spec().template().spec().containers().get(0).lifecycle())
        .isEqualTo(Lifecycle.preStop(new LifecycleHandler.Sleep(5)));
  }

  @Test
  void noHandler_isRequired() {
    ManifestException e = parseFails(POD.replace("      preStop:\n        sleep: {seconds: 20}\n",
        "      preStop: {}\n"));
    assertThat(e.problems()).singleElement().satisfies(p -> {
      assertThat(p.violation().field()).isEqualTo("spec.containers[0].lifecycle.preStop");
      assertThat(p.violation().rule()).isEqualTo("Required value: must specify a handler type");
    });
  }

  @Test
  void twoHandlers_forbidden() {
    ManifestException e = parseFails(POD.replace("        sleep: {seconds: 20}\n",
        "        sleep: {seconds: 20}\n        exec: {command: [true]}\n"));
    assertThat(e.problems()).singleElement().satisfies(p -> {
      assertThat(p.violation().field()).isEqualTo("spec.containers[0].lifecycle.preStop.sleep");
      assertThat(p.violation().rule()).isEqualTo("Forbidden: may not specify more than 1 handler type");
      assertThat(p.violation().object()).isEqualTo("Pod shop/web");
    });
  }

  @Test
  void sleepLongerThanGracePeriod_rejectedWithKubernetesRule() {
    ManifestException e = parseFails(POD.replace("seconds: 20", "seconds: 46"));
    assertThat(e.problems()).singleElement().satisfies(p -> {
      assertThat(p.violation().field()).isEqualTo("spec.containers[0].lifecycle.preStop.sleep");
      assertThat(p.violation().rule())
          .isEqualTo("must be non-negative and less than terminationGracePeriodSeconds (45)");
      assertThat(p.violation().value()).isEqualTo("46");
    });
  }

  private static final String STOP_SIGNAL_POD = """
      apiVersion: v1
      kind: Pod
      metadata: {name: nginx, namespace: shop}
      spec:
        os: {name: linux}
        containers:
        - name: nginx
          image: nginx:1.27
          lifecycle:
            stopSignal: SIGQUIT
        - name: sidecarless
          image: shop:1
          lifecycle:
            stopSignal: SIGRTMIN+3
            preStop:
              sleep: {seconds: 5}
      """;

  @Test
  void stopSignalAndOs_parsedAndDumpedBack() {
    Pod pod = (Pod) KubernetesYaml.parse(STOP_SIGNAL_POD, "p.yaml").objects().get(0);
    assertThat(pod.spec().os()).isEqualTo(PodOS.LINUX);
    assertThat(pod.spec().containers().get(0).lifecycle()).isEqualTo(Lifecycle.stopSignal(Signal.SIGQUIT));
    assertThat(pod.spec().containers().get(1).lifecycle().signal()).isEqualTo(Signal.SIGRTMINPLUS3);
    String yaml = KubernetesYaml.dump(List.of(pod));
    assertThat(yaml).contains("stopSignal: \"SIGQUIT\"").contains("os:\n    name: \"linux\"");
    assertThat(KubernetesYaml.parse(yaml, "dumped").objects()).containsExactly(pod);
  }

  @Test
  void stopSignalWithoutOs_rejectedWithKubernetesRule() {
    ManifestException e = parseFails(STOP_SIGNAL_POD.replace("  os: {name: linux}\n", ""));
    assertThat(e.problems()).extracting(p -> p.violation().field()).containsExactly(
        "spec.containers[0].lifecycle.stopSignal", "spec.containers[1].lifecycle.stopSignal");
    assertThat(e.problems().get(0).violation().rule())
        .isEqualTo("Forbidden: may not be set for containers with empty `spec.os.name`");
  }

  @Test
  void windowsPod_onlyTermOrKill() {
    ManifestException e = parseFails(STOP_SIGNAL_POD.replace("name: linux", "name: windows"));
    assertThat(e.problems()).extracting(p -> p.violation().value()).containsExactly("SIGQUIT", "SIGRTMIN+3");
    assertThat(e.problems().get(0).violation().rule())
        .isEqualTo("Unsupported value: supported values: \"SIGKILL\", \"SIGTERM\"");
  }

  @Test
  void containerStatusStopSignal_roundTrips() {
    Pod pod = (Pod) KubernetesYaml.parse(STOP_SIGNAL_POD, "p.yaml").objects().get(0);
    Instant t = Instant.parse("2026-01-01T00:00:00Z");
    ContainerStatus nginx = new ContainerStatus("nginx", true, 0, ContainerState.running(t), true, "SIGQUIT");
    ContainerStatus other = new ContainerStatus("sidecarless", true, 0, ContainerState.running(t), true,
        "SIGRTMIN+3");
    Pod withStatus = pod.withStatus(PodStatus.PENDING.withPhase(PodPhase.Running)
        .withContainerStatuses(List.of(nginx, other)));
    String yaml = KubernetesYaml.dump(List.of(withStatus));
    assertThat(yaml).contains("stopSignal: \"SIGQUIT\"");
    Pod back = (Pod) KubernetesYaml.parse(yaml, "dumped").objects().get(0);
    assertThat(back.status().containerStatuses()).containsExactly(nginx, other);
  }

  /**
   * {@code started} is written and read as it is: a running container whose postStart hook or startup probe has not
   * passed is not started. Without the field a running container reads as started.
   */
  @Test
  void containerStatusStarted_roundTrips() {
    Pod pod = (Pod) KubernetesYaml.parse(STOP_SIGNAL_POD, "p.yaml").objects().get(0);
    Instant t = Instant.parse("2026-01-01T00:00:00Z");
    ContainerStatus notStarted = new ContainerStatus("nginx", false, 0, ContainerState.running(t), false, null);
    Pod withStatus = pod.withStatus(PodStatus.PENDING.withPhase(PodPhase.Running)
        .withContainerStatuses(List.of(notStarted)));
    String yaml = KubernetesYaml.dump(List.of(withStatus));
    assertThat(yaml).contains("started: false");
    Pod back = (Pod) KubernetesYaml.parse(yaml, "dumped").objects().get(0);
    assertThat(back.status().containerStatuses()).containsExactly(notStarted);
    Pod unset = (Pod) KubernetesYaml.parse(yaml.replace("started: false", ""), "unset").objects().get(0);
    assertThat(unset.status().containerStatuses().get(0).started()).isTrue();
  }
}
