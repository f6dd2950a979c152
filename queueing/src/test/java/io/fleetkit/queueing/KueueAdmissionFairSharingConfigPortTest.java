package io.fleetkit.queueing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ported from kubernetes-sigs/kueue {@code pkg/config/validation_test.go}, {@code TestValidate} (at commit ff69552e):
 * its 4 {@code admissionFairSharing} cases, against {@link AdmissionFairSharing}'s validation; each checks the fields
 * of the errors, as upstream's {@code wantErr} lists them (a duration upstream leaves unset is zero here).
 */
final class KueueAdmissionFairSharingConfigPortTest {
  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("valid admissionFairSharing configuration", Duration.ofSeconds(1), Duration.ofSeconds(1),
            Map.of("cpu", 0.5, "memory", 0.5), List.of()),
        Arguments.of("invalid admissionFairSharing.usageHalfLifeTime configuration", Duration.ofSeconds(-1),
            Duration.ofSeconds(1), Map.of(), List.of("admissionFairSharing.usageHalfLifeTime")),
        Arguments.of("invalid admissionFairSharing.usageSamplingInterval configuration", Duration.ZERO,
            Duration.ofSeconds(-1), Map.of(), List.of("admissionFairSharing.usageSamplingInterval")),
        Arguments.of("invalid admissionFairSharing.resourceWeights configuration", Duration.ZERO,
            Duration.ofSeconds(1), Map.of("cpu", -0.5), List.of("admissionFairSharing.resourceWeights[cpu]")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void validate_upstreamCase_errorFieldsAsUpstream(String name, Duration halfLife, Duration sampling,
      Map<String, Double> weights, List<String> wantFields) {
    ValidationException err = catchThrowableOfType(ValidationException.class,
        () -> new AdmissionFairSharing(halfLife, sampling, weights));
    if (wantFields.isEmpty()) {
      assertThat(err).isNull();
      return;
    }
    assertThat(err).isNotNull();
    assertThat(err.violations()).extracting(Violation::field).containsExactlyElementsOf(wantFields);
  }
}
