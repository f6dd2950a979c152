package io.fleetkit.api.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.resource.ResourceList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Kubernetes' probe rules ({@code pkg/apis/core/validation/validation.go}, validate*Probe and validateHandler). */
final class ProbeValidationTest {
  private static final Probe TCP = Probe.of(ProbeHandler.TcpSocket.of(8080));

  private static Pod pod(Container c) {
    return Pod.builder().namespace("default").name("web").container(c).build();
  }

  private static Container app() {
    return Container.of("app", "nginx", ResourceList.EMPTY);
  }

  private static List<Violation> violations(Container c) {
    return catchThrowableOfType(ValidationException.class, () -> pod(c)).violations();
  }

  @Test
  void defaults_zeroMeansKubernetesDefault() {
    Probe p = Probe.of(ProbeHandler.HttpGet.of("/healthz", 8080));
    assertThat(p.periodSeconds()).isEqualTo(10);
    assertThat(p.timeoutSeconds()).isEqualTo(1);
    assertThat(p.successThreshold()).isEqualTo(1);
    assertThat(p.failureThreshold()).isEqualTo(3);
    assertThat(p.initialDelaySeconds()).isZero();
    assertThat(((ProbeHandler.HttpGet) p.handler()).scheme()).isEqualTo("HTTP");
  }

  @Test
  void validProbes_accepted() {
    Probe grpc = Probe.builder(new ProbeHandler.Grpc(9090, "")).periodSeconds(5).build();
    Pod p = pod(app().withProbes(Probe.builder(TCP.handler()).terminationGracePeriodSeconds(5L).build(),
        Probe.builder(ProbeHandler.HttpGet.of("/ready", 8080)).successThreshold(3).build(), grpc));
    assertThat(p.spec().containers().get(0).readinessProbe().successThreshold()).isEqualTo(3);
  }

  @Test
  void livenessAndStartup_successThresholdMustBe1() {
    Probe two = Probe.builder(TCP.handler()).successThreshold(2).build();
    List<Violation> v = violations(app().withProbes(two, null, two));
    assertThat(v).extracting(Violation::field).containsExactly("spec.containers[0].livenessProbe.successThreshold",
        "spec.containers[0].startupProbe.successThreshold");
    assertThat(v).extracting(Violation::rule).containsOnly("must be 1");
    assertThat(v.get(0).object()).isEqualTo("Pod default/web");
    assertThat(v.get(0).value()).isEqualTo("2");
  }

  @Test
  void readiness_terminationGracePeriodForbidden() {
    List<Violation> v = violations(app().withProbes(null,
        Probe.builder(TCP.handler()).terminationGracePeriodSeconds(10L).build(), null));
    assertThat(v).extracting(Violation::field)
        .containsExactly("spec.containers[0].readinessProbe.terminationGracePeriodSeconds");
    assertThat(v.get(0).rule()).isEqualTo("must not be set for readinessProbes");
  }

  @Test
  void negativeTimings_andNonPositiveGrace_rejected() {
    Probe bad = new Probe(TCP.handler(), -1, -2, -3, 1, -4, 0L);
    List<Violation> v = violations(app().withProbes(bad, null, null));
    assertThat(v).extracting(Violation::field).containsExactly(
        "spec.containers[0].livenessProbe.initialDelaySeconds",
        "spec.containers[0].livenessProbe.timeoutSeconds",
        "spec.containers[0].livenessProbe.periodSeconds",
        "spec.containers[0].livenessProbe.failureThreshold",
        "spec.containers[0].livenessProbe.terminationGracePeriodSeconds");
    assertThat(v.get(0).rule()).isEqualTo("must be greater than or equal to 0");
    assertThat(v.get(4).rule()).isEqualTo("must be greater than 0");
  }

  @Test
  void handlerFields_checked() {
    Probe noPath = Probe.of(new ProbeHandler.HttpGet("", ServiceTargetPort.named("Bad_Name"), "", "FTP",
        List.of(new ProbeHandler.HttpHeader("bad header", "x"))));
    Probe noCommand = Probe.of(new ProbeHandler.Exec(List.of()));
    Probe badPort = Probe.of(new ProbeHandler.Grpc(70000, ""));
    List<Violation> v = violations(app().withProbes(noCommand, noPath, badPort));
    assertThat(v).extracting(Violation::field).contains(
        "spec.containers[0].livenessProbe.exec.command",
        "spec.containers[0].readinessProbe.httpGet.path",
        "spec.containers[0].readinessProbe.httpGet.port",
        "spec.containers[0].readinessProbe.httpGet.scheme",
        "spec.containers[0].readinessProbe.httpGet.httpHeaders",
        "spec.containers[0].startupProbe.grpc.port");
    assertThat(v).filteredOn(x -> x.field().endsWith("scheme")).extracting(Violation::rule)
        .containsExactly("Unsupported value: supported values: \"HTTP\", \"HTTPS\"");
    assertThat(v).filteredOn(x -> x.field().endsWith("grpc.port")).extracting(Violation::rule)
        .containsExactly("must be between 1 and 65535, inclusive");
  }

  @Test
  void initContainer_probesForbiddenUnlessSidecar() {
    Container init = Container.of("init", "busybox", ResourceList.EMPTY).withProbes(TCP, null, null);
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> Pod.builder().namespace("default")
        .name("web").container(app()).initContainer(init).build());
    assertThat(e.violations()).extracting(Violation::field).containsExactly("spec.initContainers[0].livenessProbe");
    assertThat(e.violations().get(0).rule()).startsWith("Forbidden: may not be set for init containers");
    Container sidecar = Container.sidecar("proxy", "envoy", ResourceList.EMPTY).withProbes(TCP, TCP, TCP);
    Pod ok = Pod.builder().namespace("default").name("web").container(app()).initContainer(sidecar).build();
    assertThat(ok.spec().initContainers().get(0).livenessProbe()).isEqualTo(TCP);
  }

  @Test
  void containerStatus_startedDefaultsToRunning() {
    assertThat(new ContainerStatus("c", false, 0, ContainerState.running(null)).started()).isTrue();
    assertThat(new ContainerStatus("c", false, 0, ContainerState.WAITING).started()).isFalse();
  }
}
