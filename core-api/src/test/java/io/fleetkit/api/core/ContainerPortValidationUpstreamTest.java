package io.fleetkit.api.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.Violations;
import io.fleetkit.api.resource.ResourceList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Port of kubernetes {@code pkg/apis/core/validation/validation_test.go} (commit 000f26050b9b)
 * {@code TestValidatePorts}, with the rules of {@code validateContainerPorts} at the same commit: the ports are a
 * container's, through a pod. Upstream checks, for every error, its type, that its field contains the expected text
 * and that its detail does; so does this test, the type as FleetKit words it ({@code Required value},
 * {@code Duplicate value}, {@code Unsupported value: }, an invalid value's rule being the detail). The case
 * "protocol required" is left out: an unset protocol is TCP (the API server's defaulting writes it before validating;
 * FleetKit's record does the same).
 */
final class ContainerPortValidationUpstreamTest {
  private enum Type { INVALID, DUPLICATE, REQUIRED, NOT_SUPPORTED }

  private static List<Violation> violations(List<ContainerPort> ports) {
    Container c = new Container("app", "nginx", ResourceRequirements.ofRequests(ResourceList.EMPTY), ports,
        List.of(), null);
    ValidationException e = catchThrowableOfType(ValidationException.class,
        () -> Pod.builder().namespace("default").name("web").container(c).build());
    return e == null ? List.of() : e.violations();
  }

  private static boolean hasType(String rule, Type type) {
    return switch (type) {
      case REQUIRED -> rule.startsWith("Required value");
      case DUPLICATE -> rule.equals(Violations.DUPLICATE);
      case NOT_SUPPORTED -> rule.startsWith("Unsupported value: ");
      case INVALID -> !rule.startsWith("Required value") && !rule.equals(Violations.DUPLICATE)
          && !rule.startsWith("Unsupported value: ");
    };
  }

  @Test
  void testValidatePorts_successAndNonCanonicalCases_areValid() {
    assertThat(violations(List.of(new ContainerPort("abc", 80, "TCP", 80), new ContainerPort("easy", 82, "TCP", 0),
        new ContainerPort("as", 83, "UDP", 0), new ContainerPort("do-re-me", 84, "SCTP", 0),
        new ContainerPort("", 85, "TCP", 0)))).isEmpty();
    assertThat(violations(List.of(new ContainerPort("", 80, "TCP", 0)))).isEmpty();
  }

  static Stream<Arguments> errorCases() {
    return Stream.of(
        Arguments.of("name > 15 characters", List.of(new ContainerPort("a".repeat(16), 80, "TCP", 0)),
            Type.INVALID, "name", "15"),
        Arguments.of("name contains invalid characters", List.of(new ContainerPort("a.b.c", 80, "TCP", 0)),
            Type.INVALID, "name", "alpha-numeric"),
        Arguments.of("name is a number", List.of(new ContainerPort("80", 80, "TCP", 0)), Type.INVALID, "name",
            "at least one letter"),
        Arguments.of("name not unique", List.of(new ContainerPort("abc", 80, "TCP", 0),
            new ContainerPort("abc", 81, "TCP", 0)), Type.DUPLICATE, "[1].name", ""),
        Arguments.of("zero container port", List.of(new ContainerPort("", 0, "TCP", 0)), Type.REQUIRED,
            "containerPort", ""),
        Arguments.of("invalid container port", List.of(new ContainerPort("", 65536, "TCP", 0)), Type.INVALID,
            "containerPort", "between"),
        Arguments.of("invalid host port", List.of(new ContainerPort("", 80, "TCP", 65536)), Type.INVALID,
            "hostPort", "between"),
        Arguments.of("invalid protocol case", List.of(new ContainerPort("", 80, "tcp", 0)), Type.NOT_SUPPORTED,
            "protocol", "supported values: \"SCTP\", \"TCP\", \"UDP\""),
        Arguments.of("invalid protocol", List.of(new ContainerPort("", 80, "ICMP", 0)), Type.NOT_SUPPORTED,
            "protocol", "supported values: \"SCTP\", \"TCP\", \"UDP\""));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("errorCases")
  void testValidatePorts_errorCases(String name, List<ContainerPort> ports, Type type, String field,
      String detail) {
    List<Violation> got = violations(ports);

    assertThat(got).as("expected failure for %s", name).isNotEmpty();
    for (Violation v : got) {
      assertThat(hasType(v.rule(), type)).as("%s: %s is a %s error", name, v.rule(), type).isTrue();
      assertThat(v.field()).as(name).startsWith("spec.containers[0].ports").contains(field);
      assertThat(v.rule()).as(name).contains(detail);
    }
  }

  /** Upstream checks a name's uniqueness only among valid names: an invalid one twice is reported twice, not as a duplicate. */
  @Test
  void invalidNameTwice_isNotADuplicate() {
    assertThat(violations(List.of(new ContainerPort("80", 80, "TCP", 0), new ContainerPort("80", 81, "TCP", 0))))
        .extracting(Violation::field).containsExactly("spec.containers[0].ports[0].name",
            "spec.containers[0].ports[1].name");
  }
}
