package io.fleetkit.api.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.spi.UpdateChecks;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code lifecycle.stopSignal} and {@code spec.os} (KEP-4960 ContainerStopSignals; {@code validateStopSignal},
 * {@code validateLifecycle} and {@code validateOS} of {@code pkg/apis/core/validation/validation.go}). The first four
 * cases are ported from kubernetes {@code pkg/apis/core/validation/validation_test.go}, TestValidatePod, as the
 * stored copy of a kubernetes fork at 04780fada923bb891b8e43b383fb1a63ee8f7606 has them (darshansreenivas/validation-gen;
 * the stored kubernetes/kubernetes copies predate the field): two success cases and two error cases, whose expected
 * error (upstream's {@code strings.Contains} on the aggregate) is checked as field, rule and value. The others are
 * FleetKit's own.
 */
final class StopSignalValidationTest {
  private static Pod pod(@Nullable PodOS os, Container c) {
    return Pod.builder().namespace("default").name("test-pod").os(os).container(c).build();
  }

  private static Container container(String stopSignal) {
    return Container.of("test-container", "image", ResourceList.EMPTY)
        .withLifecycle(new Lifecycle(null, null, stopSignal));
  }

  private static List<Violation> violations(@Nullable PodOS os, Container c) {
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> pod(os, c));
    assertThat(e).as("expected a validation error").isNotNull();
    return e.violations();
  }

  // ---- TestValidatePod (upstream's successCases and errorCases for the stop signal)

  @Test
  void podWithValidStopSignalAndValidOS() {
    Pod p = pod(PodOS.LINUX, container("SIGTERM"));
    assertThat(p.spec().containers().get(0).lifecycle().signal()).isEqualTo(Signal.SIGTERM);
  }

  @Test
  void podWithValidStopSignalAndValidOS_windows() {
    assertThatCode(() -> pod(PodOS.WINDOWS, container("SIGTERM"))).doesNotThrowAnyException();
  }

  @Test
  void podWithAStopSignalWithoutSpecOsName() {
    List<Violation> v = violations(null, container("SIGTERM"));
    assertThat(v).extracting(Violation::field).containsExactly("spec.containers[0].lifecycle.stopSignal");
    assertThat(v.get(0).rule()).isEqualTo("Forbidden: may not be set for containers with empty `spec.os.name`");
  }

  @Test
  void podWithAStopSignalNotSupportedByOS() {
    List<Violation> v = violations(PodOS.WINDOWS, container("SIGHUP"));
    assertThat(v).extracting(Violation::field).containsExactly("spec.containers[0].lifecycle.stopSignal");
    assertThat(v.get(0).rule()).isEqualTo("Unsupported value: supported values: \"SIGKILL\", \"SIGTERM\"");
    assertThat(v.get(0).value()).isEqualTo("SIGHUP");
    assertThat(v.get(0).toString()).isEqualTo("Pod default/test-pod: spec.containers[0].lifecycle.stopSignal "
        + "\"SIGHUP\" Unsupported value: supported values: \"SIGKILL\", \"SIGTERM\"");
  }

  // ---- FleetKit's own

  @ParameterizedTest(name = "{0} on Linux")
  @EnumSource(Signal.class)
  void everySignal_acceptedOnLinux(Signal s) {
    assertThat(pod(PodOS.LINUX, container(s.signalName())).spec().containers().get(0).lifecycle().signal())
        .isEqualTo(s);
  }

  @ParameterizedTest(name = "{0} on Windows")
  @EnumSource(Signal.class)
  void onlyTermAndKill_acceptedOnWindows(Signal s) {
    boolean ok = s == Signal.SIGTERM || s == Signal.SIGKILL;
    if (ok) {
      assertThatCode(() -> pod(PodOS.WINDOWS, container(s.signalName()))).doesNotThrowAnyException();
    } else {
      assertThat(violations(PodOS.WINDOWS, container(s.signalName()))).hasSize(1);
    }
  }

  static Stream<Arguments> unknownNames() {
    return Stream.of(Arguments.of("SIGFOO"), Arguments.of("TERM"), Arguments.of("sigterm"),
        Arguments.of("SIGRTMIN+16"), Arguments.of("15"), Arguments.of(""));
  }

  @ParameterizedTest(name = "\"{0}\" on Linux")
  @MethodSource("unknownNames")
  void unknownName_unsupportedOnLinux_withTheSortedList(String name) {
    List<Violation> v = violations(PodOS.LINUX, container(name));
    assertThat(v).extracting(Violation::field).containsExactly("spec.containers[0].lifecycle.stopSignal");
    List<String> sorted = Arrays.stream(Signal.values()).map(Signal::signalName).sorted().toList();
    assertThat(v.get(0).rule()).startsWith("Unsupported value: supported values: \"SIGABRT\", \"SIGALRM\", ")
        .endsWith("\"SIGXCPU\", \"SIGXFSZ\"").contains("\"SIGRTMAX-1\", \"SIGRTMAX-10\"");
    assertThat(v.get(0).rule().split(", ")).hasSize(sorted.size());
  }

  @Test
  void sidecarWithoutOs_forbiddenOnItsOwnPath() {
    Container sidecar = Container.sidecar("proxy", "envoy", ResourceList.EMPTY)
        .withLifecycle(Lifecycle.stopSignal(Signal.SIGQUIT));
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> Pod.builder()
        .namespace("default").name("test-pod").container(Container.of("c", "image", ResourceList.EMPTY))
        .initContainer(sidecar).build());
    assertThat(e.violations()).extracting(Violation::field)
        .containsExactly("spec.initContainers[0].lifecycle.stopSignal");
  }

  @Test
  void regularInitContainer_mayNotHaveALifecycle_evenOnlyAStopSignal() {
    Container init = Container.of("setup", "busybox", ResourceList.EMPTY)
        .withLifecycle(Lifecycle.stopSignal(Signal.SIGINT));
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> Pod.builder()
        .namespace("default").name("test-pod").os(PodOS.LINUX)
        .container(Container.of("c", "image", ResourceList.EMPTY)).initContainer(init).build());
    assertThat(e.violations()).extracting(Violation::field).containsExactly("spec.initContainers[0].lifecycle");
  }

  @Test
  void podOs_unknownName_unsupported() {
    List<Violation> v = violations(new PodOS("plan9"), Container.of("c", "image", ResourceList.EMPTY));
    assertThat(v).extracting(Violation::field).containsExactly("spec.os");
    assertThat(v.get(0).rule()).isEqualTo("Unsupported value: supported values: \"linux\", \"windows\"");
    assertThat(v.get(0).value()).isEqualTo("plan9");
  }

  @Test
  void podOs_emptyName_required() {
    List<Violation> v = violations(new PodOS(""), Container.of("c", "image", ResourceList.EMPTY));
    assertThat(v).extracting(Violation::field).containsExactly("spec.os.name");
    assertThat(v.get(0).rule()).isEqualTo("Required value: cannot be empty");
  }

  @Test
  void podOs_unknownName_stopSignalNotJudged() {
    // validateStopSignal knows linux and windows only; the OS itself is what is wrong
    List<Violation> v = violations(new PodOS("plan9"), container("SIGFOO"));
    assertThat(v).extracting(Violation::field).containsExactly("spec.os");
  }

  @Test
  void signalNumbersAndExitCodes() {
    assertThat(Signal.SIGTERM.exitCode()).isEqualTo(143);
    assertThat(Signal.SIGKILL.exitCode()).isEqualTo(137);
    assertThat(Signal.SIGINT.exitCode()).isEqualTo(130);
    assertThat(Signal.SIGQUIT.exitCode()).isEqualTo(131);
    assertThat(Signal.SIGUSR1.number()).isEqualTo(10);
    assertThat(Signal.SIGRTMIN.number()).isEqualTo(34);
    assertThat(Signal.of("SIGRTMIN+15").number()).isEqualTo(49);
    assertThat(Signal.of("SIGRTMAX-14").number()).isEqualTo(50);
    assertThat(Signal.SIGRTMAX.number()).isEqualTo(64);
    assertThat(Signal.of("SIGRTMAX-1")).isEqualTo(Signal.SIGRTMAXMINUS1);
    assertThat(Signal.values()).hasSize(65);
    assertThat(Signal.SIGCHLD.terminatesByDefault()).isFalse();
    assertThat(Signal.SIGSTOP.terminatesByDefault()).isFalse();
    assertThat(Signal.SIGHUP.terminatesByDefault()).isTrue();
  }

  @ParameterizedTest(name = "spec.os {0} -> {1}")
  @org.junit.jupiter.params.provider.CsvSource({"linux, windows", "linux, ''", "'', linux"})
  void podOs_immutableOnUpdate(String from, String to) {
    Container c = Container.of("c", "image", ResourceList.EMPTY);
    Pod stored = pod(from.isEmpty() ? null : new PodOS(from), c);
    Pod updated = pod(to.isEmpty() ? null : new PodOS(to), c);
    ValidationException e = catchThrowableOfType(ValidationException.class,
        () -> UpdateChecks.update(stored, updated, false));
    assertThat(e).isNotNull();
    assertThat(e.violations()).singleElement().satisfies(v -> {
      assertThat(v.field()).isEqualTo("spec");
      assertThat(v.rule()).startsWith("Forbidden: " + UpdateChecks.POD_UPDATABLE).contains("os");
    });
  }

  @Test
  void stopSignal_immutableOnUpdate_asAnyContainerFieldButTheImage() {
    Pod stored = pod(PodOS.LINUX, container("SIGTERM"));
    Pod updated = pod(PodOS.LINUX, container("SIGQUIT"));
    ValidationException e = catchThrowableOfType(ValidationException.class,
        () -> UpdateChecks.update(stored, updated, false));
    assertThat(e.violations()).singleElement().satisfies(v -> assertThat(v.field()).isEqualTo("spec"));
  }
}
