package io.fleetkit.api.apps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.resource.ResourceList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class DeploymentTest {
  static final PodSpec WEB = PodSpec.builder()
      .container("web", "nginx:1.27", ResourceList.builder().put("cpu", "100m").build()).build();

  @Test
  void builder_minimal_appliesKubernetesDefaults() {
    Deployment d = Deployment.builder().name("web").matchLabels(Map.of("app", "web")).podSpec(WEB).build();
    assertThat(d.apiVersion()).isEqualTo("apps/v1");
    assertThat(d.kind()).isEqualTo("Deployment");
    assertThat(d.namespaced()).isTrue();
    assertThat(d.metadata().namespace()).isEqualTo("default");
    DeploymentSpec s = d.spec();
    assertThat(s.replicas()).isEqualTo(1);
    assertThat(s.strategy().type()).isEqualTo(DeploymentStrategyType.RollingUpdate);
    assertThat(s.strategy().rollingUpdate()).isEqualTo(new RollingUpdateDeployment(IntOrPercent.parse("25%"),
        IntOrPercent.parse("25%")));
    assertThat(s.revisionHistoryLimit()).isEqualTo(10);
    assertThat(s.progressDeadlineSeconds()).isEqualTo(600);
    assertThat(s.minReadySeconds()).isZero();
    assertThat(s.paused()).isFalse();
    assertThat(s.selector()).isEqualTo(LabelSelector.of(Map.of("app", "web")));
    assertThat(s.template().labels()).containsEntry("app", "web");
    assertThat(d.status()).isEqualTo(DeploymentStatus.EMPTY);
  }

  @Test
  void strategy_rollingUpdateWithoutBounds_defaultsTo25Percent() {
    DeploymentStrategy s = new DeploymentStrategy(DeploymentStrategyType.RollingUpdate, null);
    assertThat(s.rollingUpdate()).isEqualTo(RollingUpdateDeployment.DEFAULT);
  }

  @Test
  void resolveFenceposts_matchesKubernetesRounding() {
    // surge rounds up, unavailable rounds down: 25% of 10 -> 3 and 2
    assertThat(RollingUpdateDeployment.DEFAULT.resolveFenceposts(10)).containsExactly(3, 2);
    // 25% of 1 -> surge 1, unavailable 0
    assertThat(RollingUpdateDeployment.DEFAULT.resolveFenceposts(1)).containsExactly(1, 0);
    // both 0 -> unavailable becomes 1
    RollingUpdateDeployment zero = new RollingUpdateDeployment(IntOrPercent.ofPercent(10), IntOrPercent.ZERO);
    assertThat(zero.resolveFenceposts(0)).containsExactly(0, 1);
  }

  @Test
  void withStatusOf_takesOnlyStatus() {
    Deployment d = Deployment.builder().name("web").matchLabels(Map.of("app", "web")).podSpec(WEB).build();
    DeploymentStatus st = new DeploymentStatus(3, 2, 2, 1, 1, 1, List.of(), null);
    Deployment other = Deployment.builder().name("other").replicas(7).matchLabels(Map.of("app", "x"))
        .podSpec(WEB).status(st).build();
    Deployment merged = d.withStatusOf(other);
    assertThat(merged.spec()).isEqualTo(d.spec());
    assertThat(merged.metadata()).isEqualTo(d.metadata());
    assertThat(merged.status()).isEqualTo(st);
    assertThat(d.withSpec(d.spec().withReplicas(4)).spec().replicas()).isEqualTo(4);
  }

  @Test
  void validate_selectorDoesNotMatchTemplate_kubernetesMessage() {
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> Deployment.builder()
        .name("web").selector(LabelSelector.of(Map.of("app", "web")))
        .template(PodTemplateSpec.of(Map.of("app", "api"), WEB)).build());
    assertThat(e.violations()).hasSize(1);
    Violation v = e.violations().get(0);
    assertThat(v.object()).isEqualTo("Deployment default/web");
    assertThat(v.field()).isEqualTo("spec.template.metadata.labels");
    assertThat(v.rule()).isEqualTo("`selector` does not match template `labels`");
  }

  @Test
  void validate_manyViolations_allReported() {
    PodSpec bad = WEB.toBuilder().restartPolicy(RestartPolicy.Never).container("web", "", ResourceList.EMPTY)
        .build();
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> Deployment.builder()
        .name("web").replicas(-1).podSpec(bad)
        .strategy(DeploymentStrategy.rollingUpdate(new RollingUpdateDeployment(IntOrPercent.ZERO,
            IntOrPercent.ofPercent(0))))
        .minReadySeconds(700).revisionHistoryLimit(-2).build());
    assertThat(e.violations()).extracting(Violation::field).containsExactly(
        "spec.replicas",
        "spec.selector",
        "spec.template.spec.containers[1].name",
        "spec.template.spec.containers[1].image",
        "spec.template.spec.restartPolicy",
        "spec.strategy.rollingUpdate.maxUnavailable",
        "spec.revisionHistoryLimit",
        "spec.progressDeadlineSeconds");
    assertThat(e.violations()).extracting(Violation::rule).containsExactly(
        "must be greater than or equal to 0",
        "empty selector is invalid for deployment",
        "Duplicate value",
        "Required value",
        "Unsupported value: supported values: \"Always\"",
        "may not be 0 when `maxSurge` is 0",
        "must be greater than or equal to 0",
        "must be greater than minReadySeconds");
  }

  @Test
  void validate_recreateWithRollingUpdate_forbidden() {
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> Deployment.builder()
        .name("web").matchLabels(Map.of("app", "web")).podSpec(WEB)
        .strategy(new DeploymentStrategy(DeploymentStrategyType.Recreate, RollingUpdateDeployment.DEFAULT))
        .build());
    assertThat(e.violations()).extracting(Violation::field).containsExactly("spec.strategy.rollingUpdate");
  }

  @Test
  void validate_maxUnavailableOver100Percent_rejected() {
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> Deployment.builder()
        .name("web").matchLabels(Map.of("app", "web")).podSpec(WEB)
        .strategy(DeploymentStrategy.rollingUpdate(new RollingUpdateDeployment(IntOrPercent.of(-1),
            IntOrPercent.ofPercent(150))))
        .build());
    assertThat(e.violations()).extracting(Violation::field, Violation::rule).containsExactly(
        org.assertj.core.groups.Tuple.tuple("spec.strategy.rollingUpdate.maxSurge",
            "must be greater than or equal to 0"),
        org.assertj.core.groups.Tuple.tuple("spec.strategy.rollingUpdate.maxUnavailable",
            "must not be greater than 100%"));
  }

  @Test
  void recreate_constant_hasNoRollingUpdate() {
    Deployment d = Deployment.builder().name("web").matchLabels(Map.of("app", "web")).podSpec(WEB)
        .strategy(DeploymentStrategy.RECREATE).build();
    assertThat(d.spec().strategy().rollingUpdate()).isNull();
  }
}
