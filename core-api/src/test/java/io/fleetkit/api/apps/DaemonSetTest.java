package io.fleetkit.api.apps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.meta.IntOrPercent;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** DaemonSet's defaults and the rules of Kubernetes' {@code ValidateDaemonSet}/{@code ValidateDaemonSetSpec}. */
final class DaemonSetTest {
  private static final Map<String, String> LABELS = Map.of("app", "agent");

  private static DaemonSet.Builder agent() {
    return DaemonSet.builder().name("agent").matchLabels(LABELS).podSpec(DeploymentTest.WEB);
  }

  private static List<String> violations(DaemonSet.Builder b) {
    ValidationException e = catchThrowableOfType(ValidationException.class, b::build);
    assertThat(e).as("expected a ValidationException").isNotNull();
    return e.violations().stream().map(v -> v.field() + ": " + v.rule()).toList();
  }

  @Test
  void builder_defaults_rollingUpdateOneUnavailableNoSurge() {
    DaemonSet ds = agent().build();
    assertThat(ds.apiVersion()).isEqualTo("apps/v1");
    assertThat(ds.kind()).isEqualTo("DaemonSet");
    assertThat(ds.namespaced()).isTrue();
    assertThat(ds.metadata().namespace()).isEqualTo("default");
    assertThat(ds.spec().updateStrategy().type()).isEqualTo(DaemonSetUpdateStrategyType.RollingUpdate);
    assertThat(ds.spec().updateStrategy().rollingUpdate())
        .isEqualTo(new RollingUpdateDaemonSet(IntOrPercent.ONE, IntOrPercent.ZERO));
    assertThat(ds.spec().revisionHistoryLimit()).isEqualTo(10);
    assertThat(ds.spec().minReadySeconds()).isZero();
    assertThat(ds.status()).isEqualTo(DaemonSetStatus.EMPTY);
    assertThat(ds.spec().template().labels()).isEqualTo(LABELS);
  }

  @Test
  void toBuilder_roundTrips() {
    DaemonSet ds = agent().maxSurge(IntOrPercent.ofPercent(10)).minReadySeconds(3).revisionHistoryLimit(2).build();
    assertThat(ds.toBuilder().build()).isEqualTo(ds);
  }

  @Test
  void validate_rollingUpdateBothZero_maxUnavailableRequired() {
    assertThat(violations(agent().updateStrategy(DaemonSetUpdateStrategy.rollingUpdate(
        new RollingUpdateDaemonSet(IntOrPercent.ZERO, IntOrPercent.ofPercent(0))))))
        .containsExactly("spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when"
            + " maxSurge is 0");
  }

  @Test
  void validate_rollingUpdateBothNonZero_maxSurgeRefused() {
    assertThat(violations(agent().updateStrategy(DaemonSetUpdateStrategy.rollingUpdate(
        new RollingUpdateDaemonSet(IntOrPercent.ONE, IntOrPercent.ofPercent(10))))))
        .containsExactly("spec.updateStrategy.rollingUpdate.maxSurge: may not be set when maxUnavailable is non-zero");
  }

  @Test
  void validate_percentOver100AndNegative_eachNamed() {
    assertThat(violations(agent().updateStrategy(DaemonSetUpdateStrategy.rollingUpdate(
        new RollingUpdateDaemonSet(IntOrPercent.ofPercent(101), IntOrPercent.of(-1))))))
        .containsExactly(
            "spec.updateStrategy.rollingUpdate.maxSurge: must be greater than or equal to 0",
            "spec.updateStrategy.rollingUpdate.maxUnavailable: must not be greater than 100%",
            "spec.updateStrategy.rollingUpdate.maxSurge: may not be set when maxUnavailable is non-zero");
  }

  @Test
  void validate_onDelete_ignoresRollingUpdateBounds() {
    DaemonSet ds = agent().updateStrategy(new DaemonSetUpdateStrategy(DaemonSetUpdateStrategyType.OnDelete,
        new RollingUpdateDaemonSet(IntOrPercent.ZERO, IntOrPercent.ZERO))).build();
    assertThat(ds.spec().updateStrategy().type()).isEqualTo(DaemonSetUpdateStrategyType.OnDelete);
  }

  @Test
  void validate_selectorAndTemplate_upstreamWording() {
    assertThat(violations(DaemonSet.builder().name("agent").podSpec(DeploymentTest.WEB)))
        .containsExactly("spec.selector: empty selector is invalid for daemonset");
    assertThat(violations(agent().template(io.fleetkit.api.core.PodTemplateSpec.of(Map.of("app", "other"),
        DeploymentTest.WEB))))
        .containsExactly("spec.template.metadata.labels: `selector` does not match template `labels`");
  }

  @Test
  void validate_templateRestartPolicyAndDeadline_refused() {
    PodSpec never = DeploymentTest.WEB.toBuilder().restartPolicy(RestartPolicy.Never).activeDeadlineSeconds(5L)
        .build();
    List<String> v = violations(agent().podSpec(never));
    assertThat(v).anyMatch(s -> s.startsWith("spec.template.spec.restartPolicy: "))
        .contains("spec.template.spec.activeDeadlineSeconds: activeDeadlineSeconds in DaemonSet is not Supported");
  }

  @Test
  void validate_negativeCounts_allReportedWithObjectName() {
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> agent().minReadySeconds(-1)
        .revisionHistoryLimit(-2).status(new DaemonSetStatus(-1, 0, 0, 0, 0, 0, 0, 0, -3, List.of())).build());
    assertThat(e.violations()).extracting(Violation::field).containsExactly("spec.minReadySeconds",
        "spec.revisionHistoryLimit", "status.currentNumberScheduled", "status.collisionCount");
    assertThat(e.getMessage()).contains("DaemonSet default/agent");
  }
}
