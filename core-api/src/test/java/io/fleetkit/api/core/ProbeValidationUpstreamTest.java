package io.fleetkit.api.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.groups.Tuple.tuple;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.resource.ResourceList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Port of kubernetes {@code pkg/apis/core/validation/validation_test.go} (commit 000f26050b9b)
 * {@code TestValidateProbe} and {@code Test_validateProbe}: upstream runs {@code validateProbe} alone; here each
 * probe is a container's, through a pod, as readiness probe (which takes any success threshold) or, for the
 * {@code terminationGracePeriodSeconds} cases, as liveness probe (which alone may set it). Upstream checks each
 * error's type and field ({@code Test_validateProbe}) or that the probe fails ({@code TestValidateProbe}); here the
 * field and rule. A zero is the API server's "unset" (its defaulting writes the default before validating), so
 * {@code TestValidateProbe}'s success cases, each with one field at 10 and the others at zero, are valid as they are
 * upstream. The cases without a handler cannot be built (a probe always has one): the loader refuses them,
 * {@code ProbeYamlTest}.
 */
final class ProbeValidationUpstreamTest {
  private static final ProbeHandler EXEC = new ProbeHandler.Exec(List.of("echo"));
  private static final String READINESS = "spec.containers[0].readinessProbe";
  private static final String LIVENESS = "spec.containers[0].livenessProbe";

  private static List<Violation> violations(@Nullable Probe liveness, @Nullable Probe readiness) {
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> Pod.builder().namespace("default")
        .name("web").container(Container.of("app", "nginx", ResourceList.EMPTY).withProbes(liveness, readiness, null))
        .build());
    return e == null ? List.of() : e.violations();
  }

  private static Arguments one(String field, UnaryOperator<Probe.Builder> set) {
    return Arguments.of(field, set);
  }

  /** TestValidateProbe: each positive field at 10 is valid, each at -10 is refused on that field. */
  static Stream<Arguments> positiveFields() {
    return Stream.of(
        Arguments.of("initialDelaySeconds", (UnaryOperator<Probe.Builder>) b -> b.initialDelaySeconds(10),
            (UnaryOperator<Probe.Builder>) b -> b.initialDelaySeconds(-10)),
        Arguments.of("timeoutSeconds", (UnaryOperator<Probe.Builder>) b -> b.timeoutSeconds(10),
            (UnaryOperator<Probe.Builder>) b -> b.timeoutSeconds(-10)),
        Arguments.of("periodSeconds", (UnaryOperator<Probe.Builder>) b -> b.periodSeconds(10),
            (UnaryOperator<Probe.Builder>) b -> b.periodSeconds(-10)),
        Arguments.of("successThreshold", (UnaryOperator<Probe.Builder>) b -> b.successThreshold(10),
            (UnaryOperator<Probe.Builder>) b -> b.successThreshold(-10)),
        Arguments.of("failureThreshold", (UnaryOperator<Probe.Builder>) b -> b.failureThreshold(10),
            (UnaryOperator<Probe.Builder>) b -> b.failureThreshold(-10)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("positiveFields")
  void testValidateProbe_fieldAt10IsValid_atMinus10IsRefused(String field, UnaryOperator<Probe.Builder> ten,
      UnaryOperator<Probe.Builder> minusTen) {
    assertThat(violations(null, ten.apply(Probe.builder(EXEC)).build())).isEmpty();
    assertThat(violations(null, minusTen.apply(Probe.builder(EXEC)).build()))
        .extracting(Violation::field, Violation::rule, Violation::value)
        .containsExactly(tuple(READINESS + "." + field, "must be greater than or equal to 0", "-10"));
  }

  /** TestValidateProbe's nil probe (the first success case): a container without probes. */
  @org.junit.jupiter.api.Test
  void testValidateProbe_noProbe_isValid() {
    assertThat(violations(null, null)).isEmpty();
  }

  /**
   * Test_validateProbe: the probe (an exec handler and one field set) and upstream's expected error (field below
   * the probe and detail), or none.
   */
  static Stream<Arguments> test_validateProbe() {
    return Stream.of(
        Arguments.of("exec handler only", (UnaryOperator<Probe.Builder>) b -> b, false, null, null),
        Arguments.of("initialDelaySeconds -1", (UnaryOperator<Probe.Builder>) b -> b.initialDelaySeconds(-1), false,
            "initialDelaySeconds", "must be greater than or equal to 0"),
        Arguments.of("timeoutSeconds -1", (UnaryOperator<Probe.Builder>) b -> b.timeoutSeconds(-1), false,
            "timeoutSeconds", "must be greater than or equal to 0"),
        Arguments.of("periodSeconds -1", (UnaryOperator<Probe.Builder>) b -> b.periodSeconds(-1), false,
            "periodSeconds", "must be greater than or equal to 0"),
        Arguments.of("successThreshold -1", (UnaryOperator<Probe.Builder>) b -> b.successThreshold(-1), false,
            "successThreshold", "must be greater than or equal to 0"),
        Arguments.of("failureThreshold -1", (UnaryOperator<Probe.Builder>) b -> b.failureThreshold(-1), false,
            "failureThreshold", "must be greater than or equal to 0"),
        Arguments.of("terminationGracePeriodSeconds -1",
            (UnaryOperator<Probe.Builder>) b -> b.terminationGracePeriodSeconds(-1L), true,
            "terminationGracePeriodSeconds", "must be greater than 0"),
        Arguments.of("terminationGracePeriodSeconds 0",
            (UnaryOperator<Probe.Builder>) b -> b.terminationGracePeriodSeconds(0L), true,
            "terminationGracePeriodSeconds", "must be greater than 0"),
        Arguments.of("terminationGracePeriodSeconds 1",
            (UnaryOperator<Probe.Builder>) b -> b.terminationGracePeriodSeconds(1L), true, null, null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void test_validateProbe(String name, UnaryOperator<Probe.Builder> set, boolean liveness, @Nullable String field,
      @Nullable String detail) {
    Probe p = set.apply(Probe.builder(EXEC)).build();
    List<Violation> got = liveness ? violations(p, null) : violations(null, p);

    if (field == null) {
      assertThat(got).isEmpty();
    } else {
      assertThat(got).extracting(Violation::field, Violation::rule)
          .containsExactly(tuple((liveness ? LIVENESS : READINESS) + "." + field, detail));
    }
  }
}
