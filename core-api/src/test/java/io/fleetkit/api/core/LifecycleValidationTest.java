package io.fleetkit.api.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.resource.ResourceList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Kubernetes' lifecycle hook rules ({@code validateLifecycle}, {@code validateHandler}, {@code validateSleepAction}
 * in {@code pkg/apis/core/validation/validation.go}). The table rows are ported from kubernetes
 * {@code pkg/apis/core/validation/validation_test.go} at commit 000f26050b9be6fb3d79fae95e06b47fc96128cd:
 * TestValidateContainers' lifecycle success case and error cases, TestValidateInitContainers' sidecar with hooks and
 * "uses disallowed field: Lifecycle"; upstream compares the error type and field, which are kept here (the type as
 * the rule's wording). The sleep rows are FleetKit's own cases for {@code validateSleepAction} with
 * {@code PodLifecycleSleepActionAllowZero} (GA, locked on since 1.34).
 */
final class LifecycleValidationTest {
  private static final ProbeHandler.Exec LS = new ProbeHandler.Exec(List.of("ls", "-l"));

  private static Container life(Lifecycle l) {
    return Container.of("life-123", "image", ResourceList.EMPTY).withLifecycle(l);
  }

  private static Pod pod(Container c, long grace) {
    return Pod.builder().namespace("default").name("web").container(c).terminationGracePeriodSeconds(grace).build();
  }

  private static List<Violation> violations(Container c, long grace) {
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> pod(c, grace));
    assertThat(e).as("expected a validation error").isNotNull();
    return e.violations();
  }

  @Test
  void validateContainers_successCase_life123_preStopExec() {
    Pod p = pod(life(Lifecycle.preStop(LS)), 30);
    assertThat(p.spec().containers().get(0).lifecycle().preStop()).isEqualTo(LS);
  }

  /** TestValidateContainers' error cases: title, hook, expected field, expected rule prefix (upstream's type). */
  static Stream<Arguments> validateContainersErrorCases() {
    return Stream.of(
        Arguments.of("invalid lifecycle, no exec command.", new ProbeHandler.Exec(List.of()),
            "spec.containers[0].lifecycle.preStop.exec.command", "Required value"),
        Arguments.of("invalid lifecycle, no http path.",
            new ProbeHandler.HttpGet("", ServiceTargetPort.of(80), "", "HTTP", List.of()),
            "spec.containers[0].lifecycle.preStop.httpGet.path", "Required value"),
        Arguments.of("invalid lifecycle, no http port.",
            new ProbeHandler.HttpGet("/", ServiceTargetPort.of(0), "", "HTTP", List.of()),
            "spec.containers[0].lifecycle.preStop.httpGet.port", "must be between 1 and 65535, inclusive"),
        Arguments.of("invalid lifecycle, no tcp socket port.", new ProbeHandler.TcpSocket(ServiceTargetPort.of(0), ""),
            "spec.containers[0].lifecycle.preStop.tcpSocket.port", "must be between 1 and 65535, inclusive"),
        Arguments.of("invalid lifecycle, zero tcp socket port.", ProbeHandler.TcpSocket.of(0),
            "spec.containers[0].lifecycle.preStop.tcpSocket.port", "must be between 1 and 65535, inclusive"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("validateContainersErrorCases")
  void validateContainers_errorCases(String title, LifecycleHandler preStop, String field, String rule) {
    List<Violation> v = violations(life(Lifecycle.preStop(preStop)), 30);
    assertThat(v).extracting(Violation::field).containsExactly(field);
    assertThat(v.get(0).rule()).startsWith(rule);
    assertThat(v.get(0).object()).isEqualTo("Pod default/web");
  }

  @Test
  void validateContainers_noHttpScheme_isDefaultedToHttp() {
    // upstream's "invalid lifecycle, no http scheme." validates an undefaulted internal object; FleetKit's HttpGet
    // applies the API server's default (HTTP) when built, so an empty scheme cannot reach validation
    ProbeHandler.HttpGet g = new ProbeHandler.HttpGet("/", ServiceTargetPort.of(80), "", "", List.of());
    assertThat(g.scheme()).isEqualTo("HTTP");
    assertThat(pod(life(Lifecycle.preStop(g)), 30).spec().containers()).hasSize(1);
  }

  @Test
  void validateInitContainers_sidecarWithHooksAndProbes_accepted() {
    Probe tcp = Probe.of(ProbeHandler.TcpSocket.of(80));
    Container sidecar = Container.sidecar("container-3-restart-always-with-lifecycle-hook-and-probes", "image",
        ResourceList.EMPTY).withProbes(tcp, tcp, tcp).withLifecycle(new Lifecycle(
            new ProbeHandler.Exec(List.of("echo", "post start")), new ProbeHandler.Exec(List.of("echo", "pre stop"))));
    Pod p = Pod.builder().namespace("default").name("web").container(Container.of("app", "nginx", ResourceList.EMPTY))
        .initContainer(sidecar).build();
    assertThat(p.spec().initContainers().get(0).lifecycle()).isNotNull();
  }

  @Test
  void validateInitContainers_usesDisallowedFieldLifecycle_forbidden() {
    Container debug = Container.of("debug", "image", ResourceList.EMPTY).withLifecycle(Lifecycle.preStop(LS));
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> Pod.builder().namespace("default")
        .name("web").container(Container.of("app", "nginx", ResourceList.EMPTY)).initContainer(debug).build());
    assertThat(e.violations()).extracting(Violation::field).containsExactly("spec.initContainers[0].lifecycle");
    assertThat(e.violations().get(0).rule()).startsWith("Forbidden: may not be set for init containers");
  }

  /** FleetKit's own sleep rows: seconds, the pod's grace period, whether valid. */
  static Stream<Arguments> sleepCases() {
    return Stream.of(
        Arguments.of(5L, 30L, true),
        Arguments.of(30L, 30L, true),
        Arguments.of(0L, 30L, true), // PodLifecycleSleepActionAllowZero
        Arguments.of(-1L, 30L, false),
        Arguments.of(31L, 30L, false),
        Arguments.of(5L, 3L, false),
        Arguments.of(0L, 0L, true));
  }

  @ParameterizedTest(name = "sleep {0}s with grace {1}s valid={2}")
  @MethodSource("sleepCases")
  void sleepAction_withinGracePeriod(long seconds, long grace, boolean valid) {
    for (boolean preStop : new boolean[] {true, false}) {
      LifecycleHandler sleep = new LifecycleHandler.Sleep(seconds);
      Container c = life(preStop ? Lifecycle.preStop(sleep) : Lifecycle.postStart(sleep));
      if (valid) {
        assertThat(pod(c, grace).spec().containers().get(0).lifecycle()).isNotNull();
      } else {
        List<Violation> v = violations(c, grace);
        assertThat(v).extracting(Violation::field)
            .containsExactly("spec.containers[0].lifecycle." + (preStop ? "preStop" : "postStart") + ".sleep");
        assertThat(v.get(0).rule())
            .isEqualTo("must be non-negative and less than terminationGracePeriodSeconds (" + grace + ")");
        assertThat(v.get(0).value()).isEqualTo(Long.toString(seconds));
      }
    }
  }
}
