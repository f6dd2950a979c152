package io.fleetkit.adapter.kubernetes.yaml;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.simulation.Scenario;
import io.fleetkit.api.simulation.ScenarioAdmissionFairSharing;
import io.fleetkit.api.simulation.ScenarioCheckController;
import io.fleetkit.api.simulation.ScenarioFairSharing;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A Scenario's parts of Kueue's Configuration: {@code fairSharing}, {@code admissionFairSharing} and the built-in
 * {@code admissionCheckControllers}. The fairSharing cases of kubernetes-sigs/kueue {@code
 * pkg/config/validation_test.go} TestValidate (commit ff69552e) are ported in {@link
 * #fairSharing_kueueValidationCases_reportedAtTheirField}.
 */
final class ScenarioKueueConfigTest {
  private static final String HEAD = """
      apiVersion: simulation.fleetkit.io/v1
      kind: Scenario
      metadata: {name: s}
      spec:
        duration: 1h
      """;

  private static Scenario parse(String spec) {
    return KubernetesYaml.parse(HEAD + spec, "scenario.yaml").ofType(Scenario.class).get(0);
  }

  private static String problems(String spec) {
    try {
      KubernetesYaml.parse(HEAD + spec, "scenario.yaml");
    } catch (ManifestException e) {
      return e.problems().toString();
    }
    throw new AssertionError("no problem reported for " + spec);
  }

  private static Scenario roundTrip(Scenario s) {
    return KubernetesYaml.parse(KubernetesYaml.dump(List.of(s)), "dump.yaml").ofType(Scenario.class).get(0);
  }

  @Test
  void fairSharing_presentIsOnWithKueuesDefaultStrategies_andRoundTrips() {
    assertThat(parse("").spec().fairSharing()).isNull();
    assertThat(parse("  fairSharing: {}\n").spec().fairSharing()).isEqualTo(ScenarioFairSharing.ENABLED);
    Scenario off = parse("  fairSharing: {enable: false}\n");
    assertThat(off.spec().fairSharing().enable()).isFalse();
    Scenario one = parse("  fairSharing: {enable: true, preemptionStrategies: [LessThanInitialShare]}\n");
    assertThat(one.spec().fairSharing()).isEqualTo(new ScenarioFairSharing(true,
        List.of(ScenarioFairSharing.LESS_THAN_INITIAL_SHARE)));
    assertThat(roundTrip(one).spec()).isEqualTo(one.spec());
    assertThat(roundTrip(off).spec()).isEqualTo(off.spec());
  }

  /** pkg/config/validation_test.go, TestValidate: its three fairSharing cases. */
  @Test
  void fairSharing_kueueValidationCases_reportedAtTheirField() {
    // "invalid an empty preemption strategy": Required fairSharing.preemptionStrategies
    assertThat(problems("  fairSharing: {preemptionStrategies: []}\n"))
        .contains("Scenario s: spec.fairSharing.preemptionStrategies must be specified");
    // "unsupported preemption strategy": NotSupported fairSharing.preemptionStrategies
    assertThat(problems("  fairSharing:\n    preemptionStrategies: [LessThanOrEqualToFinalShare, UNKNOWN,"
        + " LessThanInitialShare, LessThanOrEqualToFinalShare]\n"))
        .contains("spec.fairSharing.preemptionStrategies \"[LessThanOrEqualToFinalShare, UNKNOWN,"
            + " LessThanInitialShare, LessThanOrEqualToFinalShare]\" Unsupported value: supported values:"
            + " [LessThanOrEqualToFinalShare], [LessThanInitialShare], [LessThanOrEqualToFinalShare,"
            + " LessThanInitialShare]");
    // "valid preemption strategy"
    assertThat(parse("  fairSharing: {preemptionStrategies: [LessThanOrEqualToFinalShare, LessThanInitialShare]}\n")
        .spec().fairSharing()).isEqualTo(ScenarioFairSharing.ENABLED);
    // the order matters, as in Kueue
    assertThat(problems("  fairSharing: {preemptionStrategies: [LessThanInitialShare,"
        + " LessThanOrEqualToFinalShare]}\n")).contains("spec.fairSharing.preemptionStrategies");
    assertThat(problems("  fairSharing: {enable: maybe}\n")).contains("spec.fairSharing.enable");
    assertThat(problems("  fairSharing: {strategies: []}\n")).contains("spec.fairSharing.strategies");
  }

  @Test
  void admissionFairSharing_readWithKueuesDefaultInterval_checkedByKueuesRules_andRoundTrips() {
    Scenario s = parse("  admissionFairSharing:\n    usageHalfLifeTime: 168h\n"
        + "    resourceWeights: {cpu: 0.5, nvidia.com/gpu: 10}\n");
    assertThat(s.spec().admissionFairSharing()).isEqualTo(new ScenarioAdmissionFairSharing(Duration.ofHours(168),
        Duration.ofMinutes(5), Map.of("cpu", 0.5, "nvidia.com/gpu", 10.0)));
    assertThat(roundTrip(s).spec()).isEqualTo(s.spec());
    assertThat(problems("  admissionFairSharing: {usageHalfLifeTime: -1s}\n"))
        .contains("spec.admissionFairSharing.usageHalfLifeTime");
    assertThat(problems("  admissionFairSharing: {usageHalfLifeTime: 1h, usageSamplingInterval: 0s}\n"))
        .contains("spec.admissionFairSharing.usageSamplingInterval \"0s\" must be greater than 0");
    assertThat(problems("  admissionFairSharing: {usageHalfLifeTime: 1h, resourceWeights: {cpu: -0.5}}\n"))
        .contains("spec.admissionFairSharing.resourceWeights[cpu]");
    assertThat(problems("  admissionFairSharing: {usageSamplingInterval: 1m}\n"))
        .contains("spec.admissionFairSharing.usageHalfLifeTime is required");
  }

  @Test
  void admissionCheckControllers_readDefaultingToApproveAtOnce_checked_andRoundTrip() {
    Scenario s = parse("  admissionCheckControllers:\n"
        + "  - {controllerName: kueue.x-k8s.io/provisioning-request, approveAfter: 4m}\n"
        + "  - {controllerName: example.com/budget}\n");
    assertThat(s.spec().admissionCheckControllers()).containsExactly(
        new ScenarioCheckController("kueue.x-k8s.io/provisioning-request", Duration.ofMinutes(4)),
        new ScenarioCheckController("example.com/budget", Duration.ZERO));
    assertThat(roundTrip(s).spec()).isEqualTo(s.spec());
    assertThat(problems("  admissionCheckControllers:\n  - {approveAfter: 1m}\n"))
        .contains("spec.admissionCheckControllers[0].controllerName");
    assertThat(problems("  admissionCheckControllers:\n  - {controllerName: a, approveAfter: -1m}\n"))
        .contains("spec.admissionCheckControllers[0].approveAfter");
    assertThat(problems("  admissionCheckControllers:\n  - {controllerName: a}\n  - {controllerName: a}\n"))
        .contains("spec.admissionCheckControllers[1].controllerName \"a\" must not repeat");
  }
}
